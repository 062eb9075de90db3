"""The webhook API (SPEC 3, 6, 7, 8, 9): drive the bulk scraper with a personal key.

    POST /functions/v1/webhook-bulk-scrape/{user_id}      charges credits
    POST /functions/v1/webhook-bulk-scrape-sp/{user_id}   super admins only, charges nothing

Headers ``Content-Type: application/json``, ``x-webhook-auth: <key>`` and, optionally,
``Idempotency-Key: <1-255 printable characters>``. Order of checks: rate limit (429,
5 requests per second per IP), body size (413), user (404), key (401,
constant-time), super admin for -sp (403), Idempotency-Key format (400), content
type, JSON (nesting depth first) and the body (400, ``scrape.rules_webhook.WebhookBody``),
the Idempotency-Key's state (replay, 409 busy, 422 other body), credits (402),
then the scrape (in a worker process, ``scrape.service_pool``; 503 when the lead source fails).
The 429, and a 404/401 this worker gave the same user and key moments ago, are answered by
``scrape.api_webhook_gate`` in front of the app, without the database. Each check runs once per call: the
gate counts the rate limit, hashes the key and looks up a remembered refusal (``Admitted`` tells the
route so), ``platform.web.security.HttpHardening`` counts the body against the limit (the route counts it only
when served without it), and the 200 body is built once, in the scrape's transaction.

Refusals before the key check (401, 404, 413, 429) are counted, not logged
(``scrape.service_webhooks.RefusalCounter``). Every request that passed the key check
is logged in the user's ``webhook_requests``; an accepted scrape's row is
written in the scrape's own transaction. Errors are JSON ``{"error": message}``;
a 500 or 503 never carries internals. ``STATUS_FOR`` is the one place that
turns a domain error into an HTTP status.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import uuid
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.background import BackgroundTask

from marketplace.platform.web.ratelimit import WEBHOOK_PER_SECOND, webhook_limiter
from marketplace.platform.config import get_settings
from marketplace.platform.db import is_outage, outage_line
from marketplace.features.scrape import rules_webhook as contract
from marketplace.platform.web import http_policy
from marketplace.platform.web.http_policy import BODY_LIMIT_SCOPE, BodyRefused, webhook_body_limit
from marketplace.platform.web.net import client_ip
from marketplace.platform.texts import INTERNAL_ERROR, MISSING_PARAMETERS, SUPER_ADMIN_REQUIRED
from marketplace.platform.offloop import run_blocking
from marketplace.features.scrape import (
    service_pool as scrape_pool,
    service as scrapes,
    service_webhook_answers as webhook_answers,
    service_webhooks as webhooks,
)

log = logging.getLogger("marketplace.webhook")
router = APIRouter(tags=["Webhook API"])

RATE_LIMITED = "Rate limit exceeded"
REPLAYED_HEADER = "Idempotent-Replayed"

# The database unreachable (db.is_outage): 503, nothing charged, with when to retry (seconds).
OUTAGE_ERROR = "Service temporarily unavailable: we can't reach the database right now; nothing was charged. Retry later."
RETRY_AFTER = "30"

# Domain error -> HTTP status; the first class that matches wins (subclasses first).
STATUS_FOR: tuple[tuple[type[Exception], int], ...] = (
    (webhooks.UnknownUser, 404),
    (webhooks.BadKey, 401),
    (contract.WebhookBodyError, 400),
    (scrapes.ScrapeUserNotFound, 404),
    (scrapes.ScrapeInsufficientCredits, 402),
    (scrapes.SourceUnavailable, 503),
    (scrapes.ScrapeError, 400),
)


def status_for(exc: Exception) -> int:
    """The HTTP status of a domain error; 500 for anything else."""
    return next((status for kind, status in STATUS_FOR if isinstance(exc, kind)), 500)


class WebhookError(BaseModel):
    error: str


_LIMIT = contract.size_label(contract.MAX_BODY_BYTES)
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": WebhookError, "description": "Missing or invalid parameters, JSON or Idempotency-Key",
          "content": {"application/json": {"example": {"error": MISSING_PARAMETERS}}}},
    401: {"model": WebhookError, "description": "Invalid or missing x-webhook-auth key"},
    402: {"model": WebhookError, "description": "Insufficient credits (nothing charged)"},
    403: {"model": WebhookError, "description": "Super-admin variant: the key's owner is not a super admin"},
    404: {"model": WebhookError, "description": "User not found"},
    409: {"model": WebhookError, "description": "A request with this Idempotency-Key is still running"},
    413: {"model": WebhookError, "description": f"Body over {_LIMIT}"},
    422: {"model": WebhookError, "description": "This Idempotency-Key was used with a different body"},
    429: {"model": WebhookError, "description": f"Rate limit exceeded ({WEBHOOK_PER_SECOND} requests per second per IP)"},
    500: {"model": WebhookError, "description": "Internal server error (nothing charged)"},
    503: {"model": WebhookError, "description": "The lead source is unavailable (nothing charged); try again later"},
}

# --------------------------------------------------------------------------- refused requests: counted, not logged

_flush_tasks: set[asyncio.Task] = set()


async def _flush_later() -> None:
    await asyncio.sleep(contract.REFUSAL_FLUSH_SECONDS)
    await run_blocking(webhooks.refusals.flush)


# Set in the ASGI scope by ``scrape.api_webhook_gate.WebhookGate`` (an ``Admitted``) once it has counted the
# request against the rate limit, hashed its key and, for a body of declared length, found no refusal to
# repeat: the route does none of these a second time.
ADMITTED = "leadvault.webhook_admitted"


@dataclass(frozen=True)
class Admitted:
    key_hash: str          # ``scrape.service_webhooks.key_hash`` of the x-webhook-auth header
    refusal_checked: bool  # the remembered refusals were looked up (not for a chunked body: 413 comes first)


def caller_ip(scope: dict) -> str:
    """The client's address (``platform.web.net.client_ip`` behind ``TRUSTED_PROXY_HOPS`` proxies)."""
    client = scope.get("client")
    forwarded = [v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"x-forwarded-for"]
    return client_ip(client[0] if client else "", forwarded, get_settings().trusted_proxy_hops)


async def rate_limited(ip: str, endpoint: str) -> JSONResponse | None:
    """The 429 when ``ip`` is over the limit (counted, never logged), else None. The first check of
    every call, before the body is read and before anything touches the database."""
    if not await webhook_limiter.hit(ip):
        return _refuse(ip, endpoint, 429, RATE_LIMITED)
    return None


def repeated_refusal(ip: str, endpoint: str, user_id_raw: str, key_hash: str) -> JSONResponse | None:
    """The 404 or 401 this worker gave the same user id and (hashed) key moments ago
    (``scrape.service_known_refusals``), counted like every refusal, without a database read; None when the
    database must be asked."""
    refusal = webhooks.known_refusal(webhooks.parse_user_id(user_id_raw), key_hash)
    if refusal is None:
        return None
    return _refuse(ip, endpoint, status_for(refusal), refusal.message)


def _refuse(ip: str, endpoint: str, status: int, message: str) -> JSONResponse:
    """A refusal before the key check: one in-memory count; a flush is scheduled when none is."""
    if webhooks.refusals.count(ip, endpoint, status):
        task = asyncio.get_running_loop().create_task(_flush_later())
        _flush_tasks.add(task)
        task.add_done_callback(_flush_tasks.discard)
    return JSONResponse({"error": message}, status_code=status)


async def _read_body(request: Request, limit: int) -> bytes | None:
    """The raw body, or None when it is over ``limit`` bytes (read no further). Behind
    ``HttpHardening`` (which counts every body against the same limit) it is not counted again."""
    upstream = request.scope.get(BODY_LIMIT_SCOPE)
    if upstream is not None and upstream.limit <= limit:
        return await request.body()
    meter = http_policy.BodyLimit(limit)
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if meter.add(len(chunk)):
            return None
    return bytes(raw)


def _log_safely(**entry) -> None:
    try:
        webhooks.log_request(**entry)
    except Exception:  # noqa: BLE001 - the log must never turn a served request into a failure
        log.exception("could not log webhook request")


async def _handle(request: Request, user_id_raw: str, super_admin: bool) -> JSONResponse:
    settings = get_settings()
    ip = caller_ip(request.scope)
    endpoint = request.url.path
    caller: webhooks.Caller | None = None
    body: Any = None

    def finish(status: int, payload: dict, headers: dict | None = None) -> JSONResponse:
        """An answer to a key holder, logged in their log right after it is sent (off the loop;
        a failed write never fails a served request)."""
        task = BackgroundTask(_log_safely, user_id=caller.user_id, method=request.method, endpoint=endpoint,
                              status=status, ip_address=ip, request_body=body,
                              response_body=webhook_answers.loggable(payload),
                              bulk_scrape_id=uuid.UUID(payload["bulk_scrape_id"]) if payload.get("bulk_scrape_id")
                              else None)
        return JSONResponse(payload, status_code=status, headers=headers, background=task)

    try:
        admitted: Admitted | None = request.scope.get(ADMITTED)
        if admitted is None and (refused := await rate_limited(ip, endpoint)) is not None:
            return refused
        limit = webhook_body_limit(settings.max_body_bytes)
        raw = await _read_body(request, limit)
        if raw is None:
            return _refuse(ip, endpoint, 413, f"Request body too large ({contract.size_label(limit)} at most).")
        key_hash = admitted.key_hash if admitted else webhooks.key_hash(request.headers.get("x-webhook-auth"))
        if not (admitted and admitted.refusal_checked) and \
                (refused := repeated_refusal(ip, endpoint, user_id_raw, key_hash)) is not None:
            return refused
        try:
            caller = await run_blocking(webhooks.check_key, webhooks.parse_user_id(user_id_raw), key_hash)
        except webhooks.CallerError as exc:
            return _refuse(ip, endpoint, status_for(exc), exc.message)
        if super_admin and not caller.is_super_admin:
            return finish(403, {"error": SUPER_ADMIN_REQUIRED})
        idempotency_key = request.headers.get("idempotency-key")
        if idempotency_key is not None and not contract.valid_idempotency_key(idempotency_key):
            return finish(400, {"error": contract.IDEMPOTENCY_KEY_INVALID})
        body = contract.decode_json(raw, request.headers.get("content-type"))
        validated = contract.validate_body(body)
        claim = None
        if idempotency_key is not None:
            claim = await run_blocking(webhooks.claim_idempotency_key, caller.user_id, idempotency_key,
                                       validated.fingerprint(endpoint))
            if claim.outcome == "replay":
                return finish(claim.status, claim.body, headers={REPLAYED_HEADER: "true"})
            if claim.outcome == "busy":
                return finish(409, {"error": contract.IDEMPOTENCY_KEY_BUSY})
            if claim.outcome == "mismatch":
                return finish(422, {"error": contract.IDEMPOTENCY_KEY_REUSED})
        return await _scrape(request, caller, body, validated, claim, ip, endpoint, super_admin)
    except (contract.WebhookBodyError, scrapes.ScrapeError) as exc:
        return finish(status_for(exc), {"error": str(exc)})
    except BodyRefused as exc:
        # The client's body came too slowly (408) or too large (413): HttpHardening answers it. A refusal
        # like any other before the key check: counted with its status, one log line, no traceback.
        log.info("webhook %s refused %d from %s: %s", endpoint, exc.status, ip, exc.body.get("error", ""))
        return _refuse(ip, endpoint, exc.status, str(exc.body.get("error", "")))
    except Exception as exc:  # noqa: BLE001 - JSON without internals
        if is_outage(exc):  # the database is unreachable: said plainly, nothing charged, retry later
            log.warning("webhook %s: %s", endpoint, outage_line(exc))
            return JSONResponse({"error": OUTAGE_ERROR}, status_code=503, headers={"Retry-After": RETRY_AFTER})
        log.exception("webhook %s failed", endpoint)
        if caller is None:
            return JSONResponse({"error": INTERNAL_ERROR}, status_code=500)
        return finish(500, {"error": INTERNAL_ERROR})


async def _scrape(request: Request, caller: webhooks.Caller, body: Any, validated: contract.WebhookBody,
                  claim: webhooks.Claim | None, ip: str, endpoint: str, super_admin: bool) -> JSONResponse:
    """Run the scrape (in a worker process: ``scrape.service_pool``); its log row and the
    Idempotency-Key's answer are written in its transaction (``scrape.service_webhook_answers``)."""
    within = functools.partial(webhook_answers.record_accepted, user_id=caller.user_id, method=request.method,
                               endpoint=endpoint, ip_address=ip, request_body=body,
                               claim_id=claim.claim_id if claim is not None else None)
    try:
        result = await scrape_pool.run_scrape(caller.user_id, validated.to_request(),
                                              origin="webhook-sp" if super_admin else "webhook",
                                              charge=not super_admin, within=within)
    except Exception:
        if claim is not None:  # nothing was charged: a retry with the same key may run
            await run_blocking(webhooks.release_idempotency_key, claim.claim_id)
        raise
    return JSONResponse(result.answer)  # ``record_accepted``'s 200 body, built in the scrape's transaction


_DOC = {
    "responses": {200: {"model": contract.WebhookResponse, "description": "The scrape's leads (or, for a repeated "
                        "Idempotency-Key, the first answer, with the header Idempotent-Replayed: true)"},
                  **ERROR_RESPONSES},
    "openapi_extra": {
        "requestBody": {
            "required": True,
            "content": {"application/json": {
                "schema": contract.WebhookBody.model_json_schema(ref_template="#/components/schemas/{model}"),
                "example": contract.EXAMPLE_BODY,
            }},
        },
        "parameters": [
            {"name": "x-webhook-auth", "in": "header", "required": True, "schema": {"type": "string"},
             "description": "Your personal webhook auth key."},
            {"name": "Idempotency-Key", "in": "header", "required": False,
             "schema": {"type": "string", "minLength": 1, "maxLength": contract.IDEMPOTENCY_KEY_MAX},
             "description": f"Optional. The same key with the same body within {contract.IDEMPOTENCY_TTL_HOURS} "
                            "hours returns the first successful answer again and charges nothing."},
        ],
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
