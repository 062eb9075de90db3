"""``GET /api/deals/{lead_id}/sheet.pdf?token=...&tz=...``: a lead's one-page PDF deal sheet.

The token comes from ``platform.downloads`` (made by the analyzer's signed-in handler for this lead);
the route re-checks it (signature, expiry, the account still exists) and the sheet service re-checks the
unlock record. Anything else (no or a forged token, another user's lead, a locked or unknown lead) is a
404 with no bytes of the sheet: the answer never says whether the lead exists.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from marketplace.platform import routes
from marketplace.platform.errors import UserError
from marketplace.platform.times import clean_zone_name
from marketplace.features.property.texts_deal import SHEET_NOT_FOUND
from marketplace.platform.offloop import run_blocking
from marketplace.features.property import service_deal_sheet as sheets
from marketplace.platform import downloads

router = APIRouter()


def _not_found() -> Response:
    return JSONResponse({"error": SHEET_NOT_FOUND}, status_code=404, headers={"Cache-Control": "no-store"})


@router.get(routes.API_DEAL_SHEET, include_in_schema=False)
async def deal_sheet(lead_id: str, token: str = "", tz: str = "UTC") -> Response:
    user_id = await run_blocking(downloads.link_holder, token, downloads.DEAL_SHEET, lead_id)
    if user_id is None:
        return _not_found()
    try:
        sheet = await run_blocking(sheets.deal_sheet, user_id, lead_id, zone_name=clean_zone_name(tz))
    except UserError:  # not unlocked by this user (or no such lead)
        return _not_found()
    return Response(
        content=sheet.pdf,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{sheet.filename}"',
                 "Cache-Control": "private, no-store"},
    )
