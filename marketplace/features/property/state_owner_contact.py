"""The property page's "Owner contact" card, a section of ``PropertyState``: find the owner's phone and e-mail of an
unlocked lead for the price of a hit (``config.skip_trace_price``, SKIP_TRACE_CREDITS_PER_HIT), charged only on
a hit. A miss may be searched again once it is 30 days old (the card then offers 'Search again').

``status``: '' (nothing to show: not loaded, or the lead is not this user's), 'idle' (the button),
'confirm' (the step showing the balance after a hit), 'busy' (the provider is asked), 'found', 'miss'.

Every handler re-checks on the server: the session (``signed_in``) and the unlock record
(``property.service_owner_contact`` raises ``SKIP_TRACE_LOCKED`` before anything is read or charged). The lead is
the page's (``PropertyState._lead_id``, set by the page's one load), never an argument from the browser, so a hand-sent event can only act on
the lead the tab shows, and only when this user unlocked it. Credits move in the service
(``ledger.apply_credits``); the header balance is set once from the service's answer.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timezone

import reflex as rx

from marketplace.platform.config import skip_trace_price
from marketplace.features.property import rules_owner_contact as contact_rules
from marketplace.platform.errors import UserError
from marketplace.platform.texts import shortfall_message
from marketplace.platform.times import format_date
from marketplace.platform.texts import INSUFFICIENT_CREDITS_TITLE, SKIP_TRACE_FAILED
from marketplace.features.property import texts_owner_contact as text
from marketplace.platform.offloop import run_blocking
from marketplace.features.property import service_owner_contact as skip_trace
from marketplace.platform.ui.state_auth import success_toast
from marketplace.features.property.state import PropertyState, desk_section
from marketplace.platform.ui.state_signed_in import signed_in


@desk_section
class OwnerContactState(PropertyState):
    oc_status: str = ""
    oc_lead: str = ""  # the lead the shown result belongs to
    oc_phones: list[dict[str, str]] = []
    oc_emails: list[str] = []
    oc_source: str = ""  # 'BatchData, Nov 25, 2026 · 2 credits charged'
    oc_demo: bool = False
    oc_demo_note: str = ""
    oc_balance: str = ""  # the confirm step's 'Balance: 500 credits, after a hit: 475 credits'
    oc_busy: bool = False
    oc_marking: bool = False
    oc_price: int = 0  # credits a hit costs (the setting, read on load)
    oc_retry_on: str = ""  # a miss younger than 30 days: 'You may search again from Dec 27, 2026.'
    oc_can_retry: bool = False  # a miss 30 days old or older: the 'Search again' button

    @rx.var
    def oc_find_label(self) -> str:
        return text.priced(text.RETRY_BUTTON if self.oc_can_retry else text.FIND_BUTTON, self.oc_price)

    @rx.var
    def oc_explain(self) -> str:
        return text.priced(text.EXPLAIN, self.oc_price)

    @rx.var
    def oc_confirm_text(self) -> str:
        return text.priced(text.CONFIRM_TEXT, self.oc_price)

    @rx.var
    def oc_confirm_button(self) -> str:
        return text.priced(text.CONFIRM_BUTTON, self.oc_price)

    @rx.var
    def oc_credits_label(self) -> str:
        """'Your balance: 975 credits' under the card: the balance the search changes."""
        return text.BALANCE_LINE.format(balance=f"{self.credits:,}")

    def _oc_clear(self, status: str = "") -> None:
        self.oc_status, self.oc_lead = status, ""
        self.oc_phones, self.oc_emails = [], []
        self.oc_source, self.oc_demo, self.oc_demo_note, self.oc_balance = "", False, "", ""
        self.oc_retry_on, self.oc_can_retry = "", False

    def _oc_show(self, view: skip_trace.ContactView) -> None:
        self.oc_status = "found" if view.status == "found" else "miss"
        self.oc_lead = str(view.lead_id)
        self.oc_phones = contact_rules.phone_rows(view.phones, text.TYPE_UNKNOWN)
        self.oc_emails = list(view.emails)
        charge = (text.CHARGED.format(credits=view.credits_charged) if view.credits_charged
                  else text.NOT_CHARGED)
        self.oc_source = text.SOURCE_LINE.format(provider=text.PROVIDERS.get(view.provider, view.provider),
                                                 date=format_date(view.created_at, self._zone()), charge=charge)
        self.oc_demo, self.oc_demo_note = view.demo, view.note or ""
        self.oc_retry_on, self.oc_can_retry = "", False
        if view.retry_after is not None:  # a miss: searchable again 30 days on
            if datetime.now(timezone.utc) >= view.retry_after:
                self.oc_can_retry = True
            else:
                self.oc_retry_on = text.MISS_RETRY_ON.format(date=format_date(view.retry_after, self._zone()))

    async def _oc_stored(self, user_id: uuid.UUID) -> skip_trace.ContactView | None:
        """The stored result; ``SkipTraceError`` (Lead Locked) when this user has not unlocked the lead."""
        return await run_blocking(skip_trace.owner_contact, user_id, self._lead_id)

    def _desk_clear(self, status: str) -> None:
        self._oc_clear()  # not this user's lead (or not yet loaded): the card shows nothing

    def _desk_show(self, desk) -> None:
        """The stored result of the shown lead (free), or the button."""
        self._oc_clear()
        self.oc_price = skip_trace_price()
        if desk.contact is None:
            self.oc_status = "idle"
        else:
            self._oc_show(desk.contact)

    @rx.event
    @signed_in(SKIP_TRACE_FAILED)
    async def ask_owner_contact(self, user_id: uuid.UUID):
        """The button: the confirm step with the balance after a hit (a stored result shows at once)."""
        stored = await self._oc_stored(user_id)  # raises Lead Locked for a lead not unlocked
        if stored is not None and not contact_rules.needs_search(stored.status, stored.created_at, datetime.now(timezone.utc)):
            self._oc_show(stored)
            return
        price = self.oc_price = skip_trace_price()
        if self.credits < price:  # the service refuses the same way; say it before asking
            raise UserError(INSUFFICIENT_CREDITS_TITLE, shortfall_message(self.credits, price))
        self.oc_status = "confirm"
        self.oc_balance = text.CONFIRM_BALANCE.format(balance=f"{self.credits:,}", after=f"{self.credits - price:,}")

    @rx.event
    def cancel_owner_contact(self):
        if self.oc_status == "confirm":
            self.oc_status, self.oc_balance = ("miss" if self.oc_can_retry else "idle"), ""

    @rx.event
    @signed_in(SKIP_TRACE_FAILED, busy="oc_busy", after_error=lambda state: state._oc_after_error())
    async def find_owner_contact(self, user_id: uuid.UUID):
        """Search once: charged only on a hit (the service's one transaction); the header balance follows.
        The confirm step is a guard against a misclick, not a boundary: a hand-sent event searches like the
        confirmed one (same unlock check, same price, a stored result free)."""
        self.oc_status = "busy"
        yield
        view = await run_blocking(skip_trace.find_owner_contact, user_id, self._lead_id)
        self._oc_show(view)
        if view.balance is not None:
            self.credits = view.balance
        if view.charged_now:
            title, message = text.FOUND_TOAST
            yield success_toast(title, message.format(cost=view.charged_now, balance=f"{self.credits:,}"))

    def _oc_after_error(self):
        """A refused search (not unlocked, short of credits, provider down): back to the button."""
        if self.oc_status in ("busy", "confirm"):
            self.oc_status = "miss" if self.oc_can_retry else "idle"
        return None

    @rx.event
    @signed_in(SKIP_TRACE_FAILED, busy="oc_marking")
    async def toggle_wrong_number(self, user_id: uuid.UUID, number: str):
        """Mark a found number wrong, or take the mark back (stored: it survives a reload)."""
        if not isinstance(number, str):
            return
        wrong = not any(p["number"] == number and p["wrong"] for p in self.oc_phones)
        view = await run_blocking(skip_trace.mark_number_wrong, user_id, self._lead_id, number, wrong)
        self._oc_show(view)
