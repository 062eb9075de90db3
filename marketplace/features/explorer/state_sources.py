"""The Sources panel on /explorerdev: every public-record dataset with its last run,
counts, newest record, freshness warning and "Run now" (``records.service_jobs``). Super admins only: every
handler re-checks the role on the server. "Run now" only queues: the records worker process runs it.

Only one page of rows (``PAGE_SIZE``) is held in the state. Datasets come grouped by market under a header
row (``records.service_jobs.panel_rows``); a page that starts inside a market repeats its header.
"""

from __future__ import annotations

import uuid

import reflex as rx

from marketplace.platform.errors import UserError
from marketplace.platform.texts import RUN_QUEUED, RUN_QUEUED_TITLE, SOURCES_FAILED
from marketplace.platform.offloop import run_blocking
from marketplace.features.records import jobs_queue as queue
from marketplace.features.records import service_jobs as record_jobs
from marketplace.platform.ui.state_auth import error_toast, success_toast
from marketplace.features.explorer.state import SECTION_RELOADS, ExplorerState
from marketplace.platform.ui.state_signed_in import signed_in

PAGE_SIZE = 20


def _row(row: dict) -> dict[str, str]:
    """Every value as text (the table binds strings); ``can_run`` is 'yes' or ''."""
    return {k: ("yes" if v is True else "" if v is False else str(v)) for k, v in row.items()}


class ExplorerSourcesState(ExplorerState):
    source_rows: list[dict[str, str]] = []
    sources_loaded: bool = False
    sources_page: int = 0
    sources_total: int = 0

    @rx.var
    def sources_pages(self) -> int:
        return max(1, -(-self.sources_total // PAGE_SIZE))

    async def _read_sources(self) -> None:
        rows = await run_blocking(record_jobs.panel_rows, self._zone())
        self.sources_total = len(rows)
        self.sources_page = min(self.sources_page, max(0, (len(rows) - 1) // PAGE_SIZE))
        start = self.sources_page * PAGE_SIZE
        page = rows[start:start + PAGE_SIZE]
        if page and page[0].get("kind") == "dataset":
            header = next((r for r in reversed(rows[:start]) if r.get("kind") == "market"), None)
            if header is not None:
                page = [{**header, "title": header["title"] + " (continued)"}, *page]
        self.source_rows = [_row(r) for r in page]
        self.sources_loaded = True

    @rx.event
    @signed_in((SOURCES_FAILED, ""), super_admin=True)
    async def load_sources(self, admin_id: uuid.UUID):
        await self._read_sources()

    @rx.event
    @signed_in((SOURCES_FAILED, ""), super_admin=True)
    async def sources_page_by(self, admin_id: uuid.UUID, step: int):
        if isinstance(step, int) and step in (-1, 1):
            self.sources_page = max(0, min(self.sources_pages - 1, self.sources_page + step))
            await self._read_sources()

    @rx.event
    @signed_in((SOURCES_FAILED, ""), super_admin=True)
    async def run_now(self, admin_id: uuid.UUID, dataset_id: str):
        try:
            await run_blocking(queue.run_now, dataset_id, admin_id)
        except UserError as exc:
            return error_toast(exc.title, exc.message)
        await self._read_sources()
        return success_toast(RUN_QUEUED_TITLE, RUN_QUEUED)


SECTION_RELOADS["sources"] = ExplorerSourcesState.load_sources
