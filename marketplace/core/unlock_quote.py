"""The one unlock quote (SPEC 2, 5, 9): what a lead's Unlock offers
and what it charges, decided in one place.

``quote_unlock`` is pure. Three callers ask it with the facts they hold:

- the lead card (``core.lead_cards.with_action``): its button: Login, View
  Details, 'Unlock with Subscription', 'Insufficient Credits - Buy More' or
  'Unlock for N credits';
- the confirmation step (``states.unlock_confirm``): whether to ask first
  (the user's ``ConfirmPreference``) and the dialog's numbers;
- ``services.unlocks.unlock_lead``: inside its transaction, from fresh rows,
  what the unlock charges (``credits``) and how it is paid (``purchase_type``).

A subscriber (an active subscription) with subscription leads remaining
spends one of them and no credits; everyone else pays the lead's
``credit_cost`` (85 when absent, ``core.pricing.unlock_cost``) when the
balance covers it.
"""

from __future__ import annotations

from dataclasses import dataclass

from marketplace import routes
from marketplace.core.pricing import unlock_cost
from marketplace.core.unlock_confirm import ConfirmPreference, needs_confirmation
from marketplace.messages import CARD_INSUFFICIENT, CARD_LOGIN, CARD_SUBSCRIPTION, CARD_VIEW, UNLOCK_LABEL

LOGIN, VIEW, UNLOCK, SUBSCRIPTION, INSUFFICIENT = "login", "view", "unlock", "subscription", "insufficient"


@dataclass(frozen=True)
class UnlockQuote:
    """What an unlock of one lead is, for one user, now."""

    kind: str  # login | view | unlock | subscription | insufficient
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
                 preference: ConfirmPreference | None = None, lead_id: str = "") -> UnlockQuote:
    """The quote for unlocking a lead that costs ``credit_cost`` (None: the default 85),
    for a user holding ``balance`` credits and, when ``subscribed``, ``subscription_leads``
    subscription leads. ``preference`` (the user's confirmation setting) is given by the
    confirmation step; without it ``confirm`` is False. ``lead_id`` builds View Details' link."""
    cost = unlock_cost(credit_cost)
    if not signed_in:
        return UnlockQuote(LOGIN, CARD_LOGIN, routes.AUTH, cost)
    if unlocked:
        return UnlockQuote(VIEW, CARD_VIEW, routes.property_url(lead_id) if lead_id else "", cost)
    if subscribed and subscription_leads > 0:
        return UnlockQuote(SUBSCRIPTION, CARD_SUBSCRIPTION, "", cost, 0, "subscription",
                           balance_before=balance, balance_after=balance)
    if balance < cost:
        return UnlockQuote(INSUFFICIENT, CARD_INSUFFICIENT, routes.PURCHASE_CREDITS, cost,
                           balance_before=balance, balance_after=balance)
    confirm = preference is not None and needs_confirmation(preference, "credits", cost)
    return UnlockQuote(UNLOCK, UNLOCK_LABEL.format(cost=f"{cost:,}"), "", cost, cost, "credits", confirm,
                       balance, balance - cost)
