"""The dashboard's "Owner phones and e-mails" section (Unlocked Leads tab): select unlocked leads, find their
owners in one bulk search (``property.service_owner_contact_bulk``) with progress, export the owners found
(``features/property/api_owner_export.py``).

The selection is held on the server (``ot_selected``) and only takes ids of the rows the dashboard loaded
for this user; the run searches that selection. Nothing here is a boundary: the service re-checks the
session's user, each lead's unlock record, the balance, and one running run per user (a twin from another
tab or a hand-sent event is refused there and charged nothing). The confirm step shows the most the run
can cost (searched leads x the price of a hit) and the balance; the header balance is set from the
service's answer. The run is a background task: the event loop and the page stay responsive while the
provider is asked, and "Searched 10 of 40" follows its batches.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from datetime import datetime, timezone

import reflex as rx

from marketplace.platform import routes
from marketplace.features.property import rules_owner_contact as contact_rules
from marketplace.platform.errors import UserError
from marketplace.features.property.rules_owner_export import LAYOUTS
from marketplace.platform.texts import shortfall_message
from marketplace.platform.times import format_date
from marketplace.platform.texts import INSUFFICIENT_CREDITS_TITLE, NOT_SIGNED_IN, SKIP_TRACE_FAILED
from marketplace.features.property import texts_owner_contact as text
from marketplace.platform.offloop import run_blocking
from marketplace.platform import downloads
from marketplace.features.property import service_owner_contact_bulk as skip_trace_bulk
from marketplace.platform.ui.state_auth import error_toast, success_toast
from marketplace.features.dashboard import DashboardState
from marketplace.platform.ui.state_progress import Progress
from marketplace.platform.ui.state_signed_in import signed_in

log = logging.getLogger("marketplace.owner_outreach")
POLL_SECONDS = 0.4


class OwnerOutreachState(DashboardState):
    ot_selected: list[str] = []
    ot_statuses: dict[str, str] = {}  # lead id -> 'Owner found' / 'No contact found (search again from ...)'
    ot_confirm_open: bool = False
    ot_confirm_text: str = ""
    ot_confirm_balance: str = ""
    ot_confirm_button: str = ""
    ot_asking: bool = False
    ot_running: bool = False
    ot_done: int = 0
    ot_total: int = 0
    ot_summary: str = ""

    @rx.var
    def ot_button(self) -> str:
        return text.BULK_BUTTON.format(count=len(self.ot_selected))

    @rx.var
    def ot_progress(self) -> str:
        return text.BULK_PROGRESS.format(done=f"{self.ot_done:,}", total=f"{self.ot_total:,}")

    @rx.var
    def ot_percent(self) -> int:
        return int(100 * self.ot_done / self.ot_total) if self.ot_total else 0

    def _ot_shown(self) -> set[str]:
        return {row["lead_id"] for row in self.unlocked}

    def _ot_statuses(self, searched: dict[str, tuple[str, datetime]]) -> dict[str, str]:
        now, zone, out = datetime.now(timezone.utc), self._zone(), {}
        for lead_id, (status, at) in searched.items():
            label = text.BULK_STATUS.get(status, status)
            if status == "miss" and not contact_rules.needs_search(status, at, now):
                label += " · " + text.MISS_RETRY_ON.format(date=format_date(contact_rules.retry_after(at), zone))
            out[lead_id] = label
        return out

    @rx.event
    async def ot_load(self):
        """on_load (after the dashboard's load): nothing of a previous visit stays; this user's searches."""
        self.ot_selected, self.ot_statuses, self.ot_summary = [], {}, ""
        self.ot_confirm_open = False
        user_id = await self._current_user_id()
        if user_id is not None:
            self.ot_statuses = self._ot_statuses(await run_blocking(skip_trace_bulk.searched_leads, user_id))

    @rx.event
    def ot_toggle(self, lead_id: str):
        """Tick or untick one row (only rows this dashboard shows; nothing while a search runs)."""
        if self.ot_running or not isinstance(lead_id, str) or lead_id not in self._ot_shown():
            return
        if lead_id in self.ot_selected:
            self.ot_selected = [i for i in self.ot_selected if i != lead_id]
        elif len(self.ot_selected) < contact_rules.BULK_MAX_LEADS:
            self.ot_selected = [*self.ot_selected, lead_id]
        self.ot_confirm_open = False

    @rx.event
    def ot_select_all(self):
        if not self.ot_running:
            self.ot_selected = [row["lead_id"] for row in self.unlocked][:contact_rules.BULK_MAX_LEADS]
            self.ot_confirm_open = False

    @rx.event
    def ot_clear(self):
        if not self.ot_running:
            self.ot_selected, self.ot_confirm_open = [], False

    @rx.event
    @signed_in(SKIP_TRACE_FAILED, signed_out=routes.AUTH, busy="ot_asking")
    async def ot_ask(self, user_id: uuid.UUID):
        """'Find owners for N selected': the confirm step with the most it can cost and the balance."""
        if self.ot_running:
            return
        if not self.ot_selected:
            raise UserError("No Leads Selected", text.BULK_NONE_SELECTED)
        quote = await run_blocking(skip_trace_bulk.quote_bulk, user_id, list(self.ot_selected))
        self.credits = quote.balance
        if not quote.to_search:
            raise UserError(*text.BULK_NOTHING_TO_SEARCH)
        if quote.balance < quote.max_cost:
            raise UserError(INSUFFICIENT_CREDITS_TITLE, shortfall_message(quote.balance, quote.max_cost))
        skipped = text.BULK_CONFIRM_SKIPPED.format(count=quote.already) if quote.already else ""
        self.ot_confirm_text = text.BULK_CONFIRM_TEXT.format(
            search=len(quote.to_search), selected=quote.selected, skipped=skipped, max_cost=f"{quote.max_cost:,}",
            credits=quote.price)
        self.ot_confirm_balance = text.BULK_CONFIRM_BALANCE.format(balance=f"{quote.balance:,}",
                                                                   after=f"{quote.balance - quote.max_cost:,}")
        self.ot_confirm_button = text.BULK_CONFIRM_BUTTON.format(count=len(quote.to_search),
                                                                 max_cost=f"{quote.max_cost:,}")
        self.ot_confirm_open = True

    @rx.event
    def ot_cancel(self):
        self.ot_confirm_open = False

    @rx.event(background=True)
    async def ot_run(self):
        """The confirm step's button: the bulk search with progress, then the balance, the statuses, a toast."""
        async with self:
            if self.ot_running or not self.ot_selected:  # a hand-sent run of nothing does nothing
                return None
            self.ot_confirm_open = False
            user_id = await self._current_user_id()
            if user_id is None:
                return error_toast(*NOT_SIGNED_IN)
            selected = list(self.ot_selected)
            self.ot_running, self.ot_done, self.ot_total = True, 0, len(selected)
        progress = Progress(len(selected))
        task = asyncio.ensure_future(run_blocking(skip_trace_bulk.find_owners, user_id, selected,
                                                  progress=progress.update))
        while not task.done():
            await asyncio.wait({task}, timeout=POLL_SECONDS)
            async with self:
                with progress.lock:
                    if progress.done:
                        self.ot_done, self.ot_total = progress.done, progress.total
        try:
            result = task.result()
        except Exception as exc:  # noqa: BLE001 - a background task (not wrapped by signed_in): a refusal's own
            # text (already running, short of credits, provider down), anything else logged and the generic text
            title, message = self._error_text(exc, SKIP_TRACE_FAILED, f"bulk owner search for {user_id}")
            async with self:
                self.ot_running = False
            return error_toast(title, message)
        searched = await run_blocking(skip_trace_bulk.searched_leads, user_id)
        async with self:
            self.ot_running = False
            self.credits = result.balance
            self.ot_statuses = self._ot_statuses(searched)
            self.ot_selected = []
            skipped = text.BULK_SUMMARY_SKIPPED.format(count=result.skipped) if result.skipped else ""
            self.ot_summary = text.BULK_SUMMARY.format(hits=result.hits, searched=result.searched,
                                                       charged=f"{result.charged:,}", skipped=skipped)
        title, message = text.BULK_DONE_TOAST
        return success_toast(title, message.format(hits=result.hits, searched=result.searched,
                                                   charged=f"{result.charged:,}", balance=f"{result.balance:,}"))

    @rx.event
    @signed_in(signed_out=routes.AUTH)
    async def ot_export(self, user_id: uuid.UUID, layout: str):
        """A signed five-minute link to the owners found for this user's unlocked leads, in ``layout``."""
        if not isinstance(layout, str) or layout not in LAYOUTS:
            return None
        token = downloads.make_token(downloads.OWNERS_CSV, user_id, layout)
        return rx.download(url=routes.owners_csv_url(layout, token))
