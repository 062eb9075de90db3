"""The explorer's leads table and CSV export (a substate of ExplorerState).

Every handler first re-checks super-admin rights on the server
(``signed_in(super_admin=True)``); a plain user sending these events by hand gets the denial
and no rows. The state holds one page of display strings; the database pages,
sorts, searches and counts.
"""

from __future__ import annotations

import uuid

import reflex as rx

from marketplace.features.explorer.api_export import export_url
from marketplace.features.explorer import rules as explorer_rules
from marketplace.platform.paging import pagination_window
from marketplace.features.explorer.texts import EXPLORER_LOAD_FAILED, NO_DATA
from marketplace.platform.offloop import run_blocking
from marketplace.features.explorer import service_leads as explorer_leads
from marketplace.platform.ui.state_auth import error_toast
from marketplace.features.explorer.state import SECTION_RELOADS, ExplorerState
from marketplace.platform.ui.state_signed_in import signed_in


class ExplorerLeadsState(ExplorerState):
    lead_rows: list[dict[str, str]] = []
    leads_query: str = ""  # the search the table shows (applied)
    leads_status: str = explorer_rules.DEFAULT_STATUS
    leads_sort: str = explorer_rules.DEFAULT_SORT
    leads_page: int = 1
    leads_pages: int = 1
    leads_page_size: int = explorer_rules.DEFAULT_PAGE_SIZE
    leads_window: list[int] = [1]  # page numbers; 0 is an ellipsis
    leads_range: str = ""
    leads_counts: str = ""
    leads_search_label: str = ""
    leads_loading: bool = False
    leads_loaded: bool = False
    leads_failed: bool = False
    # Backend only: the counts of the last search, reused while only the page or sort changes.
    _counted_query: str = ""
    _counts: list[int] = []

    @rx.var
    def leads_page_size_value(self) -> str:
        return str(self.leads_page_size)

    def _view(self) -> explorer_rules.LeadView:
        return explorer_rules.LeadView.of(self.leads_query, self.leads_status, self.leads_sort)

    async def _load_page(self):
        """The current page; a failure (the handler's toast: Load Failed) leaves ``leads_failed`` set."""
        view = self._view()
        self.leads_failed = True  # until the page is read
        known = tuple(self._counts) if self._counts and self._counted_query == view.query else None
        result = await run_blocking(explorer_leads.page, view, self.leads_page, self.leads_page_size, known,
                                    self._zone())
        self.lead_rows = result.rows
        self._counted_query, self._counts = view.query, [result.active, result.archived]
        self.leads_page = result.page
        self.leads_pages = result.pages
        self.leads_window = [n or 0 for n in pagination_window(result.page, result.pages)]
        self.leads_range = explorer_rules.range_label(result.page, self.leads_page_size, result.total)
        self.leads_counts = explorer_rules.counts_label(result.active, result.archived)
        self.leads_search_label = view.search.describe()
        self.leads_failed = False
        self.leads_loaded = True
        return None

    @rx.event
    @signed_in(EXPLORER_LOAD_FAILED, super_admin=True)
    async def load_leads(self, admin_id: uuid.UUID):
        """The first page, when the section appears (after the explorer's own access check)."""
        self._counts = []  # count again
        return await self._load_page()

    @rx.event
    @signed_in(EXPLORER_LOAD_FAILED, super_admin=True)
    async def reload_leads(self, admin_id: uuid.UUID):
        """Count and read the current page again (after a scrape, a refresh, or Reload)."""
        self._counts = []
        return await self._load_page()

    @rx.event
    @signed_in(EXPLORER_LOAD_FAILED, super_admin=True)
    async def search_leads(self, admin_id: uuid.UUID, form: dict):
        self._counts = []  # count again
        text = form.get("q", "") if isinstance(form, dict) else ""
        self.leads_query = explorer_rules.LeadView.of(text).query
        self.leads_page = 1
        return await self._load_page()

    @rx.event
    @signed_in(EXPLORER_LOAD_FAILED, super_admin=True)
    async def clear_leads_search(self, admin_id: uuid.UUID):
        self._counts = []  # count again
        self.leads_query = ""
        self.leads_page = 1
        return await self._load_page()

    @rx.event
    @signed_in(EXPLORER_LOAD_FAILED, super_admin=True)
    async def set_leads_status(self, admin_id: uuid.UUID, value: str):
        self.leads_status = explorer_rules.parse_status(value)
        self.leads_page = 1
        return await self._load_page()

    @rx.event
    @signed_in(EXPLORER_LOAD_FAILED, super_admin=True)
    async def set_leads_sort(self, admin_id: uuid.UUID, value: str):
        self.leads_sort = explorer_rules.parse_sort(value)
        self.leads_page = 1
        return await self._load_page()

    @rx.event
    @signed_in(EXPLORER_LOAD_FAILED, super_admin=True)
    async def set_leads_page_size(self, admin_id: uuid.UUID, value: str | list[str]):
        """A page size change goes back to page 1 (as on the marketplace)."""
        if isinstance(value, list):
            value = value[0] if value else ""
        size = explorer_rules.parse_page_size(value)
        if size is None:
            return None
        self.leads_page_size = size
        self.leads_page = 1
        return await self._load_page()

    @rx.event
    @signed_in(EXPLORER_LOAD_FAILED, super_admin=True)
    async def leads_go_to_page(self, admin_id: uuid.UUID, number: int):
        try:
            wanted = int(number)
        except (TypeError, ValueError, OverflowError):
            return None
        self.leads_page = max(1, min(wanted, self.leads_pages))
        return await self._load_page()

    @rx.event
    @signed_in(EXPLORER_LOAD_FAILED, super_admin=True)
    async def export_leads(self, admin_id: uuid.UUID):
        """A five-minute link to the CSV of the current view; 'No Data' when it is empty."""
        view = self._view()
        if not await run_blocking(explorer_leads.has_leads, view):
            return error_toast(NO_DATA[0], NO_DATA[1])
        return rx.download(url=export_url(admin_id, view))


SECTION_RELOADS["leads"] = ExplorerLeadsState.reload_leads
