"""Stripe webhooks: signature check, then checkout and subscription events.

``checkout.session.completed`` credits the purchase even when the buyer
closed the tab before coming back; ``customer.subscription.*`` keep the
``subscriptions`` row current. Stale or forged signatures are refused.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timezone

import stripe

from marketplace.platform.config import get_settings

from marketplace.platform.db import session_scope
from marketplace.features.billing import service as purchases
from marketplace.platform import subscriptions

log = logging.getLogger("marketplace.stripe")
TOLERANCE_SECONDS = 300


class WebhookRejected(Exception):
    """Bad signature or payload: answer 400."""


def handle(payload: bytes, signature: str | None) -> str:
    """Verify and apply one webhook delivery; returns what was done (for logs/tests)."""
    secret = get_settings().stripe_webhook_secret
    if not secret:
        raise WebhookRejected("Stripe webhooks are not configured")
    try:
        event = stripe.Webhook.construct_event(payload, signature, secret, tolerance=TOLERANCE_SECONDS)
    except (ValueError, stripe.SignatureVerificationError) as exc:
        raise WebhookRejected(f"Invalid signature or payload: {exc}") from exc
    kind = event.type
    obj = event.data.object.to_dict()
    if kind == "checkout.session.completed":
        return _checkout_completed(obj)
    if kind in ("customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted"):
        return _subscription_changed(obj, deleted=kind.endswith("deleted"))
    return f"ignored {kind}"


def _checkout_completed(session: dict) -> str:
    if session.get("payment_status") != "paid":
        return "checkout not paid yet"
    metadata = session.get("metadata") or {}
    purchase_id = purchases.purchase_for_session(session["id"]) or purchases.record_external_checkout(
        session["id"], metadata.get("user_id") or session.get("client_reference_id"), metadata.get("bundle"),
        session.get("amount_total"),
    )
    if purchase_id is None:
        log.warning("checkout %s names no known user and pack; not credited", session["id"])
        return "unknown checkout"
    result = purchases.fulfil(purchase_id)
    return f"credited {result.credits_added}"


def _subscription_changed(sub: dict, deleted: bool) -> str:
    metadata = sub.get("metadata") or {}
    try:
        user_id = uuid.UUID(metadata.get("user_id", ""))
    except ValueError:
        return "subscription without user"
    end = sub.get("current_period_end")
    if end is None:
        items = ((sub.get("items") or {}).get("data") or [{}])
        end = items[0].get("current_period_end") if items else None
    active = not deleted and sub.get("status") in ("active", "trialing")
    leads = int(metadata["leads_per_period"]) if "leads_per_period" in metadata else None
    with session_scope() as session:
        known = subscriptions.apply_provider_update(
            session, user_id, active=active, subscription_type=metadata.get("subscription_type"),
            leads_per_period=leads, end=datetime.fromtimestamp(end, tz=timezone.utc) if end else None,
            provider_id=sub.get("id"))
    if not known:
        return "subscription for unknown user"
    return f"subscription {'active' if active else 'ended'}"
