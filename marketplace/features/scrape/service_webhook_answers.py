"""The webhook API's answer to an accepted scrape, and its log row written in the scrape's transaction.

``record_accepted`` is what ``scrape.service.run_scrape`` calls last inside the scrape's transaction
(its ``within``): a module-level function taking plain values, so that a scrape run in a worker process
(``scrape.service_pool``) can carry it there as ``functools.partial(record_accepted, ...)``.
"""

from __future__ import annotations

import uuid
from typing import Any

from sqlmodel import Session

from marketplace.features.scrape import service_webhooks as webhooks
from marketplace.features.scrape.rules_webhook import WebhookResponse


def scrape_payload(result) -> dict:
    """The 200 body for a ``scrape.service.ScrapeResult``, built by its documented model."""
    return WebhookResponse(bulk_scrape_id=str(result.scrape_id), created_time=result.created_at.isoformat(),
                           output=result.leads, leads_generated=result.leads_generated,
                           credits_used=result.credits_used, message=result.shortfall or None).body()


def loggable(payload: dict) -> dict:
    """The response as logged: the leads are stored with the scrape, the log keeps the rest."""
    if "output" in payload:
        return {**payload, "output": f"{len(payload['output'])} leads (stored with bulk scrape)"}
    return payload


def record_accepted(session: Session, result, *, user_id: uuid.UUID, method: str, endpoint: str,
                    ip_address: str, request_body: Any, claim_id: int | None) -> dict:
    """Inside the scrape's transaction: the request's log row (status 200) and, with an
    ``Idempotency-Key``, the answer its replays give. Returns that answer (the 200 body), which the
    scrape hands back as ``ScrapeResult.answer``."""
    payload = scrape_payload(result)
    webhooks.record_request(session, user_id=user_id, method=method, endpoint=endpoint, status=200,
                            ip_address=ip_address, request_body=request_body, response_body=loggable(payload),
                            bulk_scrape_id=result.scrape_id)
    if claim_id is not None:
        webhooks.complete_idempotency_key(session, claim_id, 200, payload, result.scrape_id)
    return payload
