"""The developer explorer's CSV export (SPEC 9: 22 columns, named by date).

``GET /api/explorer/leads.csv?q=...&status=...&sort=...&token=...`` streams the
current table view. The token comes from ``platform.downloads`` (made by the
explorer's export handler for the signed-in super admin, five minutes) and is
bound to the view's canonical parameters, so a link cannot be re-pointed at
another view; the route also re-checks ``super_admins`` before anything is
read. Rows are read from one cursor in batches on a thread of the export's own
(the event loop never waits on the database), so a million rows never sit in
memory.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response, StreamingResponse

from marketplace.platform import admins
from marketplace.platform import routes
from marketplace.features.explorer import rules as explorer_rules
from marketplace.platform.texts import DOWNLOAD_LINK_INVALID, SUPER_ADMIN_REQUIRED
from marketplace.platform.offloop import run_blocking
from marketplace.features.explorer import service_leads as explorer_leads
from marketplace.platform import downloads

log = logging.getLogger("marketplace.explorer")
router = APIRouter()

PURPOSE = "explorer-leads-csv"
BATCH = 1000


def export_token(user_id, view: explorer_rules.LeadView) -> str:
    return downloads.make_token(PURPOSE, user_id, view.params())


def export_url(user_id, view: explorer_rules.LeadView) -> str:
    """The link the export handler hands to the browser."""
    return routes.explorer_csv_url(view.params(), export_token(user_id, view))


async def _stream(chunks: Iterator[str]) -> AsyncIterator[bytes]:
    """Advance the blocking generator on one thread of its own (one connection, one cursor)."""
    loop = asyncio.get_running_loop()
    worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lv-export")
    done = object()
    try:
        while True:
            chunk = await loop.run_in_executor(worker, next, chunks, done)
            if chunk is done:
                break
            yield chunk.encode("utf-8")
    except Exception:
        log.exception("explorer export failed midway")
        raise
    finally:
        await loop.run_in_executor(worker, chunks.close)  # releases the cursor and its connection
        worker.shutdown(wait=False)


@router.get(routes.API_EXPLORER_CSV, include_in_schema=False)
async def explorer_leads_csv(q: str = "", status: str = explorer_rules.DEFAULT_STATUS, sort: str = explorer_rules.DEFAULT_SORT,
                             token: str = "") -> Response:
    view = explorer_rules.LeadView.of(q, status, sort)
    user_id = await run_blocking(downloads.link_holder, token, PURPOSE, view.params())
    if user_id is None:
        return JSONResponse({"error": DOWNLOAD_LINK_INVALID}, status_code=403)
    if not await run_blocking(admins.is_super_admin, user_id):
        return JSONResponse({"error": SUPER_ADMIN_REQUIRED}, status_code=403)
    name = explorer_rules.export_filename(datetime.now(timezone.utc).date())
    return StreamingResponse(
        _stream(explorer_leads.iter_csv(view, BATCH)),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "private, no-store"},
    )
