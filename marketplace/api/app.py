"""The FastAPI application factory.

Reflex adds its own middleware to the app it is given, so a fresh app is built
by ``create_api()``; its routes match before Reflex's pages, which is why they
all live under ``/api/`` and ``/functions/v1/``.
"""

from __future__ import annotations

from fastapi import FastAPI

from marketplace.api import (
    alerts,
    deal_sheet,
    downloads,
    explorer_export,
    first_picture,
    owner_export,
    pipeline_export,
    stripe_webhook,
    webhook,
)
from marketplace.offloop import run_blocking
from marketplace.services.health import ping_database


def create_api() -> FastAPI:
    api = FastAPI(title="LeadVault API", docs_url="/api/docs", openapi_url="/api/openapi.json", redoc_url=None)

    @api.get("/api/health")
    async def health() -> dict:
        """Liveness plus a database round trip (a read: it never waits for a writer)."""
        await run_blocking(ping_database)
        return {"status": "ok"}

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
