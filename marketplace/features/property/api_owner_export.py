"""The owner export as CSV (``property.rules_owner_export``).

``GET /api/owners.csv?layout=dialer|dialer_rows|hubspot&token=...`` answers the owners found for every lead
the token's user has unlocked, in the layout asked for. The token comes from ``platform.downloads`` (made by
the dashboard's export handler for the signed-in user and that layout, five minutes); a deleted account's
links are dead. The unlock is re-checked per lead by the query (``property.service_owner_export``): a lead without
this user's unlock record, or another user's contact, never appears. An unknown layout is a 404.
"""

from __future__ import annotations

from datetime import datetime, timezone

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from marketplace.platform import routes
from marketplace.features.property import rules_owner_export as export_rules
from marketplace.platform.texts import DOWNLOAD_LINK_INVALID
from marketplace.platform.offloop import run_blocking
from marketplace.platform import downloads
from marketplace.features.property import service_owner_export as owner_export

router = APIRouter()
UNKNOWN_LAYOUT = "Unknown export layout."


@router.get(routes.API_OWNERS_CSV, include_in_schema=False)
async def owners_csv(token: str = "", layout: str = "") -> Response:
    if layout not in export_rules.LAYOUTS:
        return JSONResponse({"error": UNKNOWN_LAYOUT}, status_code=404)
    user_id = await run_blocking(downloads.link_holder, token, downloads.OWNERS_CSV, layout)
    if user_id is None:
        return JSONResponse({"error": DOWNLOAD_LINK_INVALID}, status_code=403)
    rows = await run_blocking(owner_export.owner_rows, user_id)
    name = export_rules.filename(layout, datetime.now(timezone.utc).date())
    return Response(
        content="\ufeff" + export_rules.csv_text(layout, rows),  # BOM: spreadsheets read the file as UTF-8
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "private, no-store"},
    )
