"""The FastAPI application factory.

Reflex adds its own middleware to the app it is given, so a fresh app is built
by ``create_api()``; its routes match before Reflex's pages, which is why they
all live under ``/api/`` and ``/functions/v1/``.
"""

from __future__ import annotations

from fastapi import FastAPI
from sqlalchemy import text

from marketplace.api import downloads, images, stripe_webhook, webhook
from marketplace.api import explorer_export
from marketplace.db import get_engine
from marketplace.offloop import run_blocking


def _ping_database() -> None:
    with get_engine().connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text("SELECT 1"))


def create_api() -> FastAPI:
    api = FastAPI(title="LeadVault API", docs_url="/api/docs", openapi_url="/api/openapi.json", redoc_url=None)

    @api.get("/api/health")
    async def health() -> dict:
        """Liveness plus a database round trip (a read: it never waits for a writer)."""
        await run_blocking(_ping_database)
        return {"status": "ok"}

    api.include_router(images.router)
    api.include_router(stripe_webhook.router)
    api.include_router(webhook.router)
    api.include_router(downloads.router)
    api.include_router(explorer_export.router)
    return api
