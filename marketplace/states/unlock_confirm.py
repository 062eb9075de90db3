"""The "are you sure?" step before an expensive unlock, as a mixin for
any state that unlocks leads (today ``MarketplaceState``; the property page only
shows leads already unlocked).

A click on Unlock calls the state's ``unlock(lead_id)`` (a ``states.signed_in``
handler: the session is resolved once for the click), which first awaits
``_ask_first(user_id, card)``: the server reads the user's preference
(``services.unlock_prefs``) and, when the unlock quote
(``core.unlock_quote.quote_unlock``, the card's and the service's too) says so, fills this ONE dialog per page (``components.unlock_confirm``) with
that lead and returns True instead of unlocking. The dialog's confirm button
calls the state's ``confirm_unlock``, which takes the lead id held here on the
server and runs the ordinary unlock path.

This is a UX guard against an accidental 150-credit click, not a security
boundary: an event that skips the dialog can only do what a click always
could, a normal unlock, with credits, ownership and balance checked by
``services.unlocks`` (credits move only through ``ledger.apply_credits``).
"""

from __future__ import annotations

import logging
import uuid

import reflex as rx

from marketplace.core.unlock_quote import quote_unlock
from marketplace.offloop import run_blocking
from marketplace.services import unlock_prefs

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
    _confirm_lead_id: str = ""  # server-side: the dialog confirms this lead, whatever the browser sends

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
        self._confirm_lead_id = card["id"]
        self.confirm_type = card.get("lead_type", "")
        self.confirm_place = card.get("city_line", "")
        self.confirm_cost = f"{quote.credits:,} credits"
        self.confirm_before = f"{quote.balance_before:,} credits"
        self.confirm_after = f"{quote.balance_after:,} credits"
        self.confirm_label = quote.label
        self.confirm_dont_ask = False
        self.confirm_open = True
        return True

    def _take_confirmation(self) -> tuple[str, bool]:
        """Close the dialog; (the lead it held, "Don't ask again" ticked)."""
        lead_id, dont_ask = self._confirm_lead_id, self.confirm_dont_ask
        self._confirm_lead_id = ""
        self.confirm_open = False
        self.confirm_dont_ask = False
        return lead_id, dont_ask

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
