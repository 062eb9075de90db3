"""The one unlock quote (SPEC 2, 5, 9): what a lead's Unlock offers
and what it charges, decided in one place.

``quote_unlock`` is pure. Three callers ask it with the facts they hold:

- the lead card (``marketplace.rules_cards.with_action``): its button: Login, View
  Details, 'Unlock with Subscription', 'Insufficient Credits - Buy More' or
  'Unlock for N credits';
- the confirmation step (``unlock.state_confirm``): whether to ask first
  (the user's ``ConfirmPreference``) and the dialog's numbers;
- ``unlock.service.unlock_lead``: inside its transaction, from fresh rows,
  what the unlock charges (``credits``) and how it is paid (``purchase_type``).

A subscriber (an active subscription) with subscription leads remaining
spends one of them and no credits; everyone else pays the lead's
``credit_cost`` (85 when absent, ``platform.pricing.unlock_cost``) when the
balance covers it.

A lead with no spot left (``spots_left`` 0: ``LEAD_MAX_HOLDERS`` reached, or an exclusive holder,
``unlock.rules_holders``) offers no unlock: its card's action reads "Sold out" (kind ``sold_out``, not a
button); a user who holds it still sees View Details. ``quote_exclusive`` is the card's second offer,
"Unlock exclusively for N credits": every spot left at the lead's price each, credits only.
"""

from __future__ import annotations

from dataclasses import dataclass

from marketplace.platform import routes
from marketplace.platform.pricing import unlock_cost
from marketplace.features.unlock.rules_confirm import ConfirmPreference, needs_confirmation
from marketplace.platform.texts import CARD_INSUFFICIENT, CARD_LOGIN, CARD_SUBSCRIPTION, CARD_VIEW, UNLOCK_LABEL
from marketplace.features.unlock.texts_holders import EXCLUSIVE_LABEL, SOLD_OUT

LOGIN, VIEW, UNLOCK, SUBSCRIPTION, INSUFFICIENT = "login", "view", "unlock", "subscription", "insufficient"
SOLD_OUT_KIND = "sold_out"
# An exclusive unlock is offered from this many spots left (with one left, the ordinary unlock takes it).
EXCLUSIVE_MIN_SPOTS = 2


@dataclass(frozen=True)
class UnlockQuote:
    """What an unlock of one lead is, for one user, now."""

    kind: str  # login | view | unlock | subscription | insufficient | sold_out
    label: str  # the card's button text
    href: str = ""  # where the card's button leads ("" for a button that unlocks)
    cost: int = 0  # the lead's price in credits
    credits: int = 0  # what the unlock charges: ``cost`` for kind "unlock", else 0
    purchase_type: str = ""  # "credits" | "subscription" when the lead can be unlocked, else ""
    confirm: bool = False  # ask "Unlock this lead?" first (only with a preference, only for kind "unlock")
    balance_before: int = 0  # the confirmation dialog's numbers
    balance_after: int = 0


def quote_unlock(*, signed_in: bool, unlocked: bool, credit_cost: int | None, balance: int,
                 subscribed: bool = False, subscription_leads: int = 0,
                 preference: ConfirmPreference | None = None, lead_id: str = "",
                 spots_left: int | None = None) -> UnlockQuote:
    """The quote for unlocking a lead that costs ``credit_cost`` (None: the default 85),
    for a user holding ``balance`` credits and, when ``subscribed``, ``subscription_leads``
    subscription leads. ``preference`` (the user's confirmation setting) is given by the
    confirmation step; without it ``confirm`` is False. ``lead_id`` builds View Details' link.
    ``spots_left`` (``unlock.rules_holders.spots_left``; None: no cap): 0 is "Sold out" for everyone but a holder."""
    cost = unlock_cost(credit_cost)
    if signed_in and unlocked:
        return UnlockQuote(VIEW, CARD_VIEW, routes.property_url(lead_id) if lead_id else "", cost)
    if spots_left == 0:
        return UnlockQuote(SOLD_OUT_KIND, SOLD_OUT, "", cost, balance_before=balance, balance_after=balance)
    if not signed_in:
        return UnlockQuote(LOGIN, CARD_LOGIN, routes.AUTH, cost)
    if subscribed and subscription_leads > 0:
        return UnlockQuote(SUBSCRIPTION, CARD_SUBSCRIPTION, "", cost, 0, "subscription",
                           balance_before=balance, balance_after=balance)
    if balance < cost:
        return UnlockQuote(INSUFFICIENT, CARD_INSUFFICIENT, routes.PURCHASE_CREDITS, cost,
                           balance_before=balance, balance_after=balance)
    confirm = preference is not None and needs_confirmation(preference, "credits", cost)
    return UnlockQuote(UNLOCK, UNLOCK_LABEL.format(cost=f"{cost:,}"), "", cost, cost, "credits", confirm,
                       balance, balance - cost)


@dataclass(frozen=True)
class ExclusiveQuote:
    """"Unlock exclusively for N credits": every spot left, each at the lead's price."""

    offered: bool
    label: str = ""  # 'Unlock exclusively for 600 credits' ('' when not offered)
    spots: int = 0  # the spots it takes
    each: int = 0  # the lead's price per spot
    credits: int = 0  # spots x each
    balance_before: int = 0
    balance_after: int = 0


def exclusive_price(spots: int, credit_cost: int | None) -> int:
    """What every spot left costs together: spots left x the lead's credit cost (85 when absent)."""
    return max(0, int(spots)) * unlock_cost(credit_cost)


def quote_exclusive(*, signed_in: bool, unlocked: bool, credit_cost: int | None, balance: int,
                    spots_left: int | None) -> ExclusiveQuote:
    """Offered to a signed-in user who does not hold the lead, when the cap is on, at least
    ``EXCLUSIVE_MIN_SPOTS`` spots are left (others may hold it already: it takes the spots that are
    left) and the balance covers them all; never paid with a subscription lead."""
    if not signed_in or unlocked or spots_left is None or spots_left < EXCLUSIVE_MIN_SPOTS:
        return ExclusiveQuote(False)
    each = unlock_cost(credit_cost)
    credits = exclusive_price(spots_left, credit_cost)
    if balance < credits:
        return ExclusiveQuote(False)
    return ExclusiveQuote(True, EXCLUSIVE_LABEL.format(cost=f"{credits:,}"), spots_left, each, credits,
                          balance, balance - credits)
