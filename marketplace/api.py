"""The FastAPI application factory.

Reflex adds its own middleware to the app it is given, so a fresh app is built
by ``create_api()``; its routes match before Reflex's pages, which is why they
all live under ``/api/`` and ``/functions/v1/``.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import JSONResponse

from marketplace.features.marketplace import api_alerts as alerts, api_first_picture as first_picture
from marketplace.features.property import (
    api_deal_sheet as deal_sheet,
    api_owner_export as owner_export,
    api_pipeline_export as pipeline_export,
)
from marketplace.features.scrape import api_downloads as downloads, api_webhook as webhook
from marketplace.features.explorer import api_export as explorer_export
from marketplace.features.billing import api_stripe_webhook as stripe_webhook
from marketplace.platform.offloop import run_blocking
from marketplace.platform.health import problems as health_problems


def create_api() -> FastAPI:
    api = FastAPI(title="LeadVault API", docs_url="/api/docs", openapi_url="/api/openapi.json", redoc_url=None)

    @api.get("/api/health")
    async def health():
        """Liveness plus a database round trip (a read: it never waits for a writer) and, with REDIS_URL,
        a Redis ping: 200 {"status": "ok"}, else 503 naming what is down, each with one line why."""
        down = await run_blocking(health_problems)
        if not down:
            return {"status": "ok"}
        return JSONResponse({"status": "unavailable", "down": sorted(down), "problems": down}, status_code=503,
                            headers={"Retry-After": "30"})

    api.include_router(stripe_webhook.router)
    api.include_router(webhook.router)
    api.include_router(downloads.router)
    api.include_router(deal_sheet.router)
    api.include_router(explorer_export.router)
    api.include_router(alerts.router)
    api.include_router(pipeline_export.router)
    api.include_router(owner_export.router)
    api.include_router(first_picture.router)
    return api
