"""The "are you sure?" step before an expensive unlock, as a mixin for
any state that unlocks leads (today ``MarketplaceState``; the property page only
shows leads already unlocked).

A click on Unlock calls the state's ``unlock(lead_id)`` (a ``platform.ui.state_signed_in``
handler: the session is resolved once for the click), which first awaits
``_ask_first(user_id, card)``: the server reads the user's preference
(``unlock.service_prefs``) and, when the unlock quote
(``unlock.rules.quote_unlock``, the card's and the service's too) says so, fills this ONE dialog per page (``unlock.view_confirm``) with
that lead and returns True instead of unlocking. The dialog's confirm button
calls the state's ``confirm_unlock``, which takes the lead id held here on the
server and runs the ordinary unlock path.

"Unlock exclusively for N credits" (``unlock.rules.quote_exclusive``) always goes through
this dialog (``_ask_exclusive``): it names the spots it takes and their price, and its confirm
button runs the exclusive unlock of the spots shown, held here on the server (``_confirm_spots``):
the service refuses, charging nothing, when the spots left changed meanwhile. Both kinds state
the cap in one sentence ("At most 5 investors can hold a lead.").

This is a UX guard against an accidental 150-credit click, not a security
boundary: an event that skips the dialog can only do what a click always
could, a normal unlock, with credits, ownership and balance checked by
``unlock.service`` (credits move only through ``ledger.apply_credits``).
"""

from __future__ import annotations

import logging
import uuid

import reflex as rx

from marketplace.platform.config import get_settings, guarantee_days
from marketplace.features.unlock import rules_guarantee as guarantee
from marketplace.features.unlock.rules_holders import cap_sentence
from marketplace.features.marketplace import card_spots_left
from marketplace.features.unlock.rules import quote_exclusive, quote_unlock
from marketplace.platform.texts import UNLOCK_CONFIRM_TITLE
from marketplace.features.unlock.texts_holders import EXCLUSIVE_CONFIRM_SPOTS, EXCLUSIVE_CONFIRM_TITLE
from marketplace.platform.offloop import run_blocking
from marketplace.features.unlock import service_prefs as unlock_prefs

log = logging.getLogger("marketplace.unlock_confirm")


class UnlockConfirmVars(rx.State, mixin=True):
    """The dialog's contents (display strings) and the lead it is about."""

    confirm_open: bool = False
    confirm_type: str = ""  # "Probate"
    confirm_place: str = ""  # "Austin, TX 78704"
    confirm_cost: str = ""  # "150 credits"
    confirm_before: str = ""  # "1,000 credits"
    confirm_after: str = ""  # "850 credits"
    confirm_label: str = ""  # "Unlock for 150 credits"
    confirm_dont_ask: bool = False
    # The county-record guarantee in one sentence, its window from GUARANTEE_DAYS (unlock.rules_guarantee.promise)
    confirm_guarantee: str = ""
    confirm_title: str = UNLOCK_CONFIRM_TITLE  # or 'Unlock this lead exclusively?'
    confirm_spots: str = ""  # an exclusive unlock: 'Takes all 4 spots left at 150 credits each; ...'
    confirm_cap: str = ""  # 'At most 5 investors can hold a lead.' ('' without a cap)
    confirm_exclusive: bool = False
    _confirm_lead_id: str = ""  # server-side: the dialog confirms this lead, whatever the browser sends
    _confirm_spots: int = 0  # server-side: the spots an exclusive unlock was shown to take (0: not exclusive)

    async def _ask_first(self, user_id: uuid.UUID, card: dict) -> bool:
        """Open the dialog for ``card`` (a server-side card of this page) and return
        True when the unlock quote, with the signed-in user's preference, asks before
        this unlock. False otherwise, and when reading the preference fails: the
        ordinary unlock then runs and reports its own outcome."""
        if card.get("is_sample"):
            return False
        try:
            preference = await run_blocking(unlock_prefs.get_preference, user_id)
        except Exception:  # noqa: BLE001 - the guard is optional; the unlock itself is checked
            log.exception("reading the unlock confirmation preference failed")
            return False
        quote = quote_unlock(signed_in=True, unlocked=bool(card.get("unlocked")), credit_cost=card["credit_cost"],
                             balance=self.credits, subscribed=self.subscribed,
                             subscription_leads=self.leads_remaining, preference=preference)
        if not quote.confirm:
            return False
        self._fill(card, quote.credits, quote.balance_before, quote.balance_after, quote.label)
        return True

    def _ask_exclusive(self, card: dict) -> bool:
        """Open the dialog for an exclusive unlock of ``card`` (always asked); False when the card
        offers none now (no cap, fewer than 2 spots, too few credits, held already)."""
        if card.get("is_sample"):
            return False
        quote = quote_exclusive(signed_in=True, unlocked=bool(card.get("unlocked")), credit_cost=card["credit_cost"],
                                balance=self.credits, spots_left=card_spots_left(card))
        if not quote.offered:
            return False
        self._fill(card, quote.credits, quote.balance_before, quote.balance_after, quote.label,
                   spots=quote.spots, each=quote.each)
        return True

    def _fill(self, card: dict, credits: int, before: int, after: int, label: str, spots: int = 0,
              each: int = 0) -> None:
        self._confirm_lead_id = card["id"]
        self._confirm_spots = spots
        self.confirm_exclusive = spots > 0
        self.confirm_title = EXCLUSIVE_CONFIRM_TITLE if spots else UNLOCK_CONFIRM_TITLE
        self.confirm_spots = EXCLUSIVE_CONFIRM_SPOTS.format(spots=spots, each=each) if spots else ""
        self.confirm_cap = cap_sentence(get_settings().lead_max_holders)
        self.confirm_type = card.get("lead_type", "")
        self.confirm_place = card.get("city_line", "")
        self.confirm_cost = f"{credits:,} credits"
        self.confirm_before = f"{before:,} credits"
        self.confirm_after = f"{after:,} credits"
        self.confirm_label = label
        self.confirm_dont_ask = False
        # only a public-record lead has a county record that can contradict it (unlock.rules_guarantee.covers)
        self.confirm_guarantee = guarantee.promise(guarantee_days()) if guarantee.covers(card.get("provenance", "")) \
            else ""
        self.confirm_open = True

    def _take_confirmation(self) -> tuple[str, bool, int]:
        """Close the dialog; (the lead it held, "Don't ask again" ticked, the spots of an exclusive
        unlock or 0)."""
        lead_id, dont_ask, spots = self._confirm_lead_id, self.confirm_dont_ask, self._confirm_spots
        self._confirm_lead_id = ""
        self._confirm_spots = 0
        self.confirm_open = False
        self.confirm_dont_ask = False
        return lead_id, dont_ask and not spots, spots

    async def _stop_asking(self, user_id: uuid.UUID) -> None:
        """'Don't ask again' was ticked: store it (a failure only logs; the unlock goes on)."""
        try:
            await run_blocking(unlock_prefs.stop_asking, user_id)
        except Exception:  # noqa: BLE001 - the setting is a convenience; the unlock the user confirmed goes on
            log.exception("switching the unlock confirmation off failed")

    @rx.event
    def cancel_unlock(self):
        """Cancel, Escape or a click outside: nothing is spent."""
        self._take_confirmation()

    @rx.event
    def set_confirm_open(self, value: bool):
        if value is not True:
            self._take_confirmation()

    @rx.event
    def set_confirm_dont_ask(self, value: bool):
        self.confirm_dont_ask = value is True
