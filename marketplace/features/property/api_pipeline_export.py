"""The deal pipeline as CSV.

``GET /api/pipeline.csv?token=...`` answers every lead the token's user has unlocked with its stage, dead
reason, follow-up date, offer, notes (UTC timestamps) and, where the user saved one, the deal analyzer's
headline figures (estimates, labelled so in the header). The token comes from ``platform.downloads`` (made by
the Pipeline tab's export handler for the signed-in user, five minutes); a deleted account's links are dead.
"""

from __future__ import annotations

import csv
import io
from datetime import datetime, timezone

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from marketplace.platform import routes
from marketplace.features.property import rules_pipeline as pipeline_rules
from marketplace.platform.texts import DOWNLOAD_LINK_INVALID
from marketplace.platform.offloop import run_blocking
from marketplace.platform import downloads
from marketplace.features.property import service_pipeline as pipeline

router = APIRouter()


def pipeline_csv_text(user_id) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(pipeline_rules.CSV_COLUMNS)
    for lead in pipeline.csv_leads(user_id):
        writer.writerow(pipeline_rules.csv_row(lead))
    return out.getvalue()


@router.get(routes.API_PIPELINE_CSV, include_in_schema=False)
async def pipeline_csv(token: str = "") -> Response:
    user_id = await run_blocking(downloads.link_holder, token, downloads.PIPELINE_CSV, downloads.PIPELINE_ALL)
    if user_id is None:
        return JSONResponse({"error": DOWNLOAD_LINK_INVALID}, status_code=403)
    text = await run_blocking(pipeline_csv_text, user_id)
    name = pipeline_rules.csv_filename(datetime.now(timezone.utc).date())
    return Response(
        content="\ufeff" + text,  # BOM: spreadsheets read the file as UTF-8
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "private, no-store"},
    )
