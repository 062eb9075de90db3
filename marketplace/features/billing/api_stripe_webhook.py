"""POST /api/stripe/webhook: Stripe's deliveries (signature-checked)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from marketplace.features.billing import service_stripe_events as stripe_events

router = APIRouter()


@router.post("/api/stripe/webhook", include_in_schema=False)
async def stripe_webhook(request: Request) -> JSONResponse:
    payload = await request.body()
    try:
        outcome = await run_in_threadpool(stripe_events.handle, payload, request.headers.get("stripe-signature"))
    except stripe_events.WebhookRejected as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)
    return JSONResponse({"received": True, "outcome": outcome})
