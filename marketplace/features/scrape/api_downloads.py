"""Downloads: a bulk scrape as CSV (SPEC 9), and the webhook API's documentation.

``GET /api/scrapes/{scrape_id}/csv?token=...&kind=results|stored`` streams the
15 SPEC columns and each row's Provenance with formula cells neutralised; the token comes from
``platform.downloads`` (made by a signed-in handler) and the scrape must be the
token user's own. ``kind=results`` names the file by date (the bulk scraper's
Download CSV), ``kind=stored`` by lead count and timestamp (the dashboard).

``GET /api/webhook-docs.md`` is the API's markdown documentation.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from marketplace.platform import routes
from marketplace.platform.config import get_settings
from marketplace.features.scrape import rules as scrape_rules
from marketplace.features.scrape.rules_webhook_docs import webhook_markdown
from marketplace.platform.texts import DOWNLOAD_LINK_INVALID, SCRAPE_NOT_FOUND
from marketplace.platform.offloop import run_blocking
from marketplace.platform import downloads
from marketplace.features.scrape import service_history as scrape_history

router = APIRouter()


@router.get(routes.API_SCRAPE_CSV, include_in_schema=False)
async def scrape_csv(scrape_id: str, token: str = "", kind: str = "results") -> Response:
    user_id = await run_blocking(downloads.link_holder, token, downloads.SCRAPE_CSV, scrape_id)
    if user_id is None:
        return JSONResponse({"error": DOWNLOAD_LINK_INVALID}, status_code=403)
    stored = await run_blocking(scrape_history.stored_scrape, user_id, scrape_id)
    if stored is None:
        return JSONResponse({"error": SCRAPE_NOT_FOUND}, status_code=404)
    text = await run_blocking(scrape_rules.csv_text, stored.output)
    name = (scrape_rules.stored_scrape_filename(stored.lead_count, stored.created_at) if kind == "stored"
            else scrape_rules.results_filename(stored.created_at))
    return Response(
        content="\ufeff" + text,  # BOM: spreadsheets read the file as UTF-8
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "private, no-store"},
    )


@router.get(routes.API_WEBHOOK_DOCS, include_in_schema=False)
async def webhook_docs(request: Request, user_id: str = "YOUR_USER_ID") -> Response:
    safe_user = user_id if len(user_id) <= 40 and all(c.isalnum() or c == "-" for c in user_id) else "YOUR_USER_ID"
    base = get_settings().site_url or str(request.base_url).rstrip("/")
    return Response(
        content=webhook_markdown(safe_user, base),
        media_type="text/markdown; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="leadvault-webhook-api.md"'},
    )
