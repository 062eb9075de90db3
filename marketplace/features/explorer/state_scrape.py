"""The developer explorer's manual scrape (SPEC 3, 5, 7 dev-manual-scrape, 8, 9).

The number fields are a plain form (sent once, on Run Scrape); the states and
lead types are chips toggled here. ``explorer.rules_scrape`` validates; refused
input changes nothing. The scrape runs in the background through the same
scrape service and lead source as the bulk scraper
(``explorer.service_scrape.run_inventory_scrape``), adds the leads to the marketplace
and charges nothing. Every handler re-checks super-admin rights on the server.
"""

from __future__ import annotations

import uuid

import reflex as rx

from marketplace.features.explorer import rules_scrape as dev_scrape
from marketplace.platform.texts import SCRAPE_FAILED, SCRAPE_FAILED_TITLE
from marketplace.features.explorer.texts import DEV_SCRAPE_DONE_TITLE
from marketplace.features.explorer import service_scrape as inventory_scrape
from marketplace.platform.ui.state_auth import error_toast
from marketplace.features.scrape import result_row
from marketplace.platform.ui.state_progress import ProgressVars, run_with_progress
from marketplace.features.explorer.state import ExplorerState
from marketplace.features.explorer.state_leads import ExplorerLeadsState
from marketplace.platform.ui.state_signed_in import signed_in


RESULTS_SHOWN = 25  # one page of the new leads; all of them are in the leads table


class ExplorerScrapeState(ProgressVars, ExplorerState):
    selected_states: list[str] = list(dev_scrape.DEFAULTS["selectedStates"])
    selected_lead_types: list[str] = list(dev_scrape.DEFAULTS["selectedLeadTypes"])
    # The number fields' starting values (the form is uncontrolled; bumping form_key resets it).
    form_values: dict[str, str] = dev_scrape.default_form()
    form_key: int = 0
    problems: list[str] = []

    scraping: bool = False
    error_message: str = ""

    result_rows: list[dict[str, str]] = []
    result_label: str = ""

    # ------------------------------------------------------------------ chips

    def _toggle(self, current: list[str], value, allowed: tuple[str, ...]) -> list[str] | None:
        if self.scraping or not isinstance(value, str) or value not in allowed:
            return None
        chosen = [v for v in current if v != value] if value in current else [*current, value]
        return [v for v in allowed if v in chosen]

    @rx.event
    @signed_in(super_admin=True)
    async def toggle_state(self, admin_id: uuid.UUID, code: str):
        chosen = self._toggle(self.selected_states, code, dev_scrape.DEV_STATES)
        if chosen is not None:
            self.selected_states = chosen
        return None

    @rx.event
    @signed_in(super_admin=True)
    async def toggle_lead_type(self, admin_id: uuid.UUID, lead_type: str):
        chosen = self._toggle(self.selected_lead_types, lead_type, dev_scrape.DEV_LEAD_TYPES)
        if chosen is not None:
            self.selected_lead_types = chosen
        return None

    @rx.event
    @signed_in(super_admin=True)
    async def reset_form(self, admin_id: uuid.UUID):
        """Back to SPEC 9's defaults."""
        if self.scraping:
            return None
        self.selected_states = list(dev_scrape.DEFAULTS["selectedStates"])
        self.selected_lead_types = list(dev_scrape.DEFAULTS["selectedLeadTypes"])
        self.form_values = dev_scrape.default_form()
        self.form_key += 1
        self.problems = []
        return None

    # ------------------------------------------------------------------ run

    @rx.event(background=True)
    async def run_scrape(self, form_data: dict):
        """dev-manual-scrape: 'Scraping...' with progress, then the new leads or 'Scrape Failed'."""
        async with self:
            admin_id = await self._admin_id()
            if admin_id is None:
                return self._deny()
            if self.scraping:
                return None
            try:
                request = dev_scrape.parse(form_data, self.selected_states, self.selected_lead_types)
            except dev_scrape.DevScrapeInvalid as exc:
                self.problems = exc.problems
                return self._error_toast(exc)
            self.problems = []
            self.form_values = {name: str(form_data.get(name, "")) for name in dev_scrape.NUMBER_FIELDS}
            self.scraping = True
            self.error_message = ""
            self.progress_done, self.progress_total = 0, request.lead_count
        try:
            result = await run_with_progress(self, inventory_scrape.run_inventory_scrape, admin_id, request,
                                             total=request.lead_count)
        except Exception as exc:  # noqa: BLE001 - a ScrapeError's message, else the SPEC's; nothing was stored
            _, message = self._error_text(exc, (SCRAPE_FAILED_TITLE, SCRAPE_FAILED), f"manual scrape for {admin_id}")
        else:
            message = ""
        async with self:
            self.scraping = False
            if message:
                self.error_message = message
                return error_toast(SCRAPE_FAILED_TITLE, message)
            shown = result.leads[:RESULTS_SHOWN]
            self.result_rows = [{**result_row(lead), "credit_cost": f"{lead['credit_cost']:,}"} for lead in shown]
            self.result_label = (f"{result.leads_generated:,} new leads added" if len(shown) == result.leads_generated
                                 else f"Showing {len(shown)} of {result.leads_generated:,} new leads "
                                      "(all are in the leads table)")
            if result.leads_generated < result.lead_count:
                self.result_label += f" · {result.leads_generated:,} of {result.lead_count:,} asked for matched"
            await self._load_overview()
        # The new leads head the leads table (newest first): count and read it again.
        return [rx.toast.success(DEV_SCRAPE_DONE_TITLE, description=dev_scrape.added_message(result.leads_generated)),
                ExplorerLeadsState.reload_leads]
