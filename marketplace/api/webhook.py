"""The webhook API (SPEC 3, 6, 7, 8, 9): drive the bulk scraper with a personal key.

    POST /functions/v1/webhook-bulk-scrape/{user_id}      charges credits
    POST /functions/v1/webhook-bulk-scrape-sp/{user_id}   super admins only, charges nothing

Headers ``Content-Type: application/json`` and ``x-webhook-auth: <key>``. Order
of checks: rate limit (429, 5 requests per second per IP), user (404), key
(401, constant-time), super admin for -sp (403), content type and JSON body
(400), credits (402), then the scrape (off the event loop). Every request,
failed ones included, is written to ``webhook_requests``. Errors are JSON
``{"error": message}``; a 500 never carries internals.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.background import BackgroundTask
from pydantic import BaseModel, Field

from marketplace.api.ratelimit import webhook_limiter
from marketplace.config import get_settings
from marketplace.core import scrape as rules
from marketplace.core.net import client_ip
from marketplace.messages import INTERNAL_ERROR, MISSING_PARAMETERS, SUPER_ADMIN_REQUIRED
from marketplace.offloop import run_blocking
from marketplace.services import scrapes, webhooks

log = logging.getLogger("marketplace.webhook")
router = APIRouter(tags=["Webhook API"])

MAX_BODY = 64 * 1024


class WebhookBody(BaseModel):
    """SPEC 3's webhook body. ``leadCount`` and ``location`` are required."""

    leadCount: int = Field(..., ge=1, le=1000, description="How many leads (1-1000).", examples=[25])
    location: str = Field(..., max_length=120, description="A city, a state code, or 'city, state'.",
                          examples=["Austin, TX"])
    minPrice: float | None = Field(None, ge=0, description="Lowest asking price (USD).", examples=[100000])
    maxPrice: float | None = Field(None, ge=0, description="Highest asking price (USD).", examples=[450000])
    minROI: float | None = Field(None, ge=0, le=100, description="Lowest estimated ROI (%).", examples=[10])
    maxROI: float | None = Field(None, ge=0, le=100, description="Highest estimated ROI (%).", examples=[60])
    includeDistressed: bool | None = Field(None, description="Probate, Tax Delinquent and Vacancy leads.")
    includePreForeclosure: bool | None = Field(None, description="Pre-Foreclosure leads.")
    includeForeclosure: bool | None = Field(None, description="Pre-Foreclosure and Auction leads.")
    includeAuction: bool | None = Field(None, description="Auction leads.")
    includeBankOwned: bool | None = Field(None, description="Make Me Move leads (owner-listed, incl. bank-owned).")


class WebhookLead(BaseModel):
    id: str
    address: str
    city: str
    state: str
    zip_code: str
    lead_type: str
    source: str | None = None
    asking_price: int | None = None
    zestimate: int | None = None
    arv: int | None = None
    rehab_estimate: int | None = None
    roi: float | None = None
    beds: int | None = None
    baths: float | None = None
    square_footage: int | None = None
    confidence_score: int | None = None
    is_high_roi: bool = False
    created_at: str


class WebhookResponse(BaseModel):
    bulk_scrape_id: str
    created_time: str
    output: list[WebhookLead]
    leads_generated: int
    credits_used: int
    message: str | None = Field(None, description="Set when fewer leads than asked matched (you pay for those delivered).")


class WebhookError(BaseModel):
    error: str


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": WebhookError, "description": "Missing or invalid parameters",
          "content": {"application/json": {"example": {"error": MISSING_PARAMETERS}}}},
    401: {"model": WebhookError, "description": "Invalid or missing x-webhook-auth key"},
    402: {"model": WebhookError, "description": "Insufficient credits (nothing charged)"},
    403: {"model": WebhookError, "description": "Super-admin variant: the key's owner is not a super admin"},
    404: {"model": WebhookError, "description": "User not found"},
    413: {"model": WebhookError, "description": "Body over 64 KiB"},
    429: {"model": WebhookError, "description": "Rate limit exceeded (5 requests per second per IP)"},
    500: {"model": WebhookError, "description": "Internal server error (nothing charged)"},
}


def _log_safely(**entry) -> None:
    try:
        webhooks.log_request(**entry)
    except Exception:  # noqa: BLE001 - the log must never turn a served request into a failure
        log.exception("could not log webhook request")


async def _read_json(request: Request) -> tuple[Any, str | None]:
    """(body, error): the JSON body, or the 400 message saying what is wrong with it."""
    content_type = (request.headers.get("content-type") or "").split(";", 1)[0].strip().lower()
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            return None, "413"
    if content_type != "application/json":
        return None, "Content-Type must be application/json."
    try:
        return json.loads(raw or b"null"), None
    except (ValueError, UnicodeDecodeError):
        return None, "The request body is not valid JSON."


async def _handle(request: Request, user_id_raw: str, super_admin: bool) -> JSONResponse:
    settings = get_settings()
    ip = client_ip(request.client.host if request.client else "", request.headers.getlist("x-forwarded-for"),
                   settings.trusted_proxy_hops)
    endpoint = request.url.path
    user_id = webhooks.parse_user_id(user_id_raw)
    body: Any = None
    scrape_id = None

    async def finish(status: int, payload: dict) -> JSONResponse:
        logged = payload
        if "output" in payload:  # the leads are stored with the scrape; the log keeps the rest
            logged = {**payload, "output": f"{len(payload['output'])} leads (stored with bulk scrape)"}
        # Written right after the response is sent (same request, off the event loop): the
        # caller does not wait for the log, and a failed write never fails a served request.
        task = BackgroundTask(_log_safely, user_id=user_id, method=request.method, endpoint=endpoint, status=status,
                              ip_address=ip, request_body=body, response_body=logged, bulk_scrape_id=scrape_id)
        return JSONResponse(payload, status_code=status, background=task)

    try:
        if not await webhook_limiter.hit(ip):
            return await finish(429, {"error": "Rate limit exceeded"})
        body, problem = await _read_json(request)
        if problem == "413":
            body = None
            return await finish(413, {"error": "Request body too large (64 KiB at most)."})
        try:
            caller = await run_blocking(webhooks.authenticate, user_id, request.headers.get("x-webhook-auth"))
        except webhooks.CallerError as exc:
            return await finish(exc.status, {"error": exc.message})
        if super_admin and not caller.is_super_admin:
            return await finish(403, {"error": SUPER_ADMIN_REQUIRED})
        if problem:
            return await finish(400, {"error": problem})
        try:
            scrape_request = rules.parse_webhook_body(body)
        except rules.WebhookBodyError as exc:
            return await finish(400, {"error": str(exc)})
        try:
            result = await run_blocking(scrapes.run_scrape, caller.user_id, scrape_request,
                                        origin="webhook-sp" if super_admin else "webhook", charge=not super_admin)
        except scrapes.ScrapeError as exc:
            status = exc.status if exc.status in (400, 402, 404) else 500
            return await finish(status, {"error": exc.message})
        scrape_id = result.scrape_id
        payload = {
            "bulk_scrape_id": str(result.scrape_id),
            "created_time": result.created_at.isoformat(),
            "output": result.leads,
            "leads_generated": result.leads_generated,
            "credits_used": result.credits_used,
        }
        if result.shortfall:
            payload["message"] = result.shortfall
        return await finish(200, payload)
    except Exception:  # noqa: BLE001 - JSON without internals
        log.exception("webhook %s failed", endpoint)
        return await finish(500, {"error": INTERNAL_ERROR})


_DOC = {
    "responses": {200: {"model": WebhookResponse, "description": "The scrape's leads"}, **ERROR_RESPONSES},
    "openapi_extra": {
        "requestBody": {
            "required": True,
            "content": {"application/json": {
                "schema": WebhookBody.model_json_schema(ref_template="#/components/schemas/{model}"),
                "example": {"leadCount": 25, "location": "Austin, TX", "minPrice": 100000, "maxPrice": 450000,
                            "minROI": 10, "includeAuction": True, "includePreForeclosure": True},
            }},
        },
        "parameters": [{"name": "x-webhook-auth", "in": "header", "required": True,
                        "schema": {"type": "string"}, "description": "Your personal webhook auth key."}],
    },
}


@router.post("/functions/v1/webhook-bulk-scrape/{user_id}", summary="Run a bulk scrape (charges credits)", **_DOC)
async def webhook_bulk_scrape(user_id: str, request: Request) -> JSONResponse:
    """Generate up to 1,000 leads for the key's owner, charged at the bulk scraper's price
    (lead count x 100 credits minus the volume discount)."""
    return await _handle(request, user_id, super_admin=False)


@router.post("/functions/v1/webhook-bulk-scrape-sp/{user_id}", summary="Run a bulk scrape (super admins, free)",
             **_DOC)
async def webhook_bulk_scrape_sp(user_id: str, request: Request) -> JSONResponse:
    """The super-admin variant: charges nothing; 403 for a key whose owner is not a super admin."""
    return await _handle(request, user_id, super_admin=True)
