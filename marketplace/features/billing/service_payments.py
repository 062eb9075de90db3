"""Payment providers behind one interface, chosen by ``PAYMENTS`` (config).

- ``StripeProvider`` (``PAYMENTS=stripe``; the default when ``STRIPE_SECRET_KEY``
  is set): a Checkout Session in payment mode with the pack's price, the user
  and the pack in metadata. Stripe's ``checkout.session.completed`` webhook
  credits the purchase (``billing.service_stripe_events``).
- ``DemoCheckoutProvider`` (``PAYMENTS=test``, the default without a key): the
  demo checkout, a page on the site itself, clearly marked TEST MODE, where the
  buyer confirms or cancels (``billing.service_demo_checkout``). Pay plays the
  webhook's part: it credits the purchase on the server in the same request,
  so credits never depend on the browser reaching /credits-purchased.
  ``APP_ENV=production`` refuses to start in this mode (``config.check_production``).

Both return ``CheckoutSession`` on create and ``CheckoutStatus`` on retrieve;
the crediting code (``billing.service``) never knows which one it talks to.
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from typing import Protocol

import stripe
from sqlmodel import Session

from marketplace.platform import routes
from marketplace.platform.config import get_settings
from marketplace.features.billing.rules_packs import CreditPack
from marketplace.platform.db import read_scope
from marketplace.platform.texts import NO_SUCH_CHECKOUT, STRIPE_START_FAILED, STRIPE_UNREACHABLE
from marketplace.platform.models import DemoCheckout

SESSION_PLACEHOLDER = "{CHECKOUT_SESSION_ID}"


class PaymentError(Exception):
    """The provider failed or refused; ``message`` is safe to show."""


@dataclass(frozen=True)
class CheckoutSession:
    id: str
    url: str


@dataclass(frozen=True)
class CheckoutStatus:
    id: str
    paid: bool
    user_id: str | None
    bundle: str | None
    amount_cents: int | None


class PaymentProvider(Protocol):
    name: str

    def create_checkout(self, *, user_id: uuid.UUID, pack: CreditPack, success_url: str,
                        cancel_url: str) -> CheckoutSession:
        """Open the checkout with the provider, outside any database transaction
        (it may go over the network)."""

    def record_checkout(self, session: Session, checkout: CheckoutSession, *, user_id: uuid.UUID,
                        pack: CreditPack, success_url: str, cancel_url: str) -> None:
        """Store what the provider keeps on our side, inside the caller's
        transaction (the one that records the purchase)."""

    def retrieve(self, session_id: str) -> CheckoutStatus: ...


class StripeProvider:
    name = "stripe"

    def __init__(self, secret_key: str, api_base: str | None = None):
        self.client = stripe.StripeClient(
            secret_key,
            base_addresses={"api": api_base} if api_base else None,
            max_network_retries=2,
        )

    def create_checkout(self, *, user_id, pack, success_url, cancel_url) -> CheckoutSession:
        try:
            session = self.client.v1.checkout.sessions.create(params={
                "mode": "payment",
                "line_items": [{
                    "quantity": 1,
                    "price_data": {
                        "currency": "usd",
                        "unit_amount": pack.amount_cents,
                        "product_data": {"name": f"LeadVault {pack.name} - {pack.credits:,} credits"},
                    },
                }],
                "client_reference_id": str(user_id),
                "metadata": {"user_id": str(user_id), "bundle": pack.id},
                "success_url": success_url,
                "cancel_url": cancel_url,
            })
        except stripe.StripeError as exc:
            raise PaymentError(STRIPE_START_FAILED.format(reason=exc.user_message or exc)) from exc
        return CheckoutSession(id=session.id, url=session.url)

    def record_checkout(self, session, checkout, *, user_id, pack, success_url, cancel_url) -> None:
        """Nothing: Stripe keeps the checkout."""

    def retrieve(self, session_id: str) -> CheckoutStatus:
        try:
            session = self.client.v1.checkout.sessions.retrieve(session_id)
        except stripe.StripeError as exc:
            raise PaymentError(STRIPE_UNREACHABLE.format(reason=exc.user_message or exc)) from exc
        metadata = session.metadata.to_dict() if session.metadata else {}
        return CheckoutStatus(
            id=session.id,
            paid=session.payment_status == "paid",
            user_id=metadata.get("user_id") or session.client_reference_id,
            bundle=metadata.get("bundle"),
            amount_cents=session.amount_total,
        )


class DemoCheckoutProvider:
    """The demo checkout: sessions live in ``test_checkouts`` (``DemoCheckout``)."""

    name = "test"  # PAYMENTS=test; the provider stored on its purchases

    def create_checkout(self, *, user_id, pack, success_url, cancel_url) -> CheckoutSession:
        session_id = "demo_cs_" + secrets.token_urlsafe(24)
        return CheckoutSession(id=session_id, url=routes.demo_checkout_url(session_id))

    def record_checkout(self, session, checkout, *, user_id, pack, success_url, cancel_url) -> None:
        """The checkout page's row, written with the purchase it belongs to."""
        session.add(DemoCheckout(
            id=checkout.id, user_id=user_id, bundle=pack.id, amount_cents=pack.amount_cents,
            success_url=success_url.replace(SESSION_PLACEHOLDER, checkout.id),
            cancel_url=cancel_url,
        ))

    def retrieve(self, session_id: str) -> CheckoutStatus:
        with read_scope() as session:
            row = session.get(DemoCheckout, session_id)
            if row is None:
                raise PaymentError(NO_SUCH_CHECKOUT)
            return CheckoutStatus(id=row.id, paid=row.status == "complete", user_id=str(row.user_id),
                                  bundle=row.bundle, amount_cents=row.amount_cents)


def demo_mode() -> bool:
    """True when the demo checkout (TEST MODE, no real payment) is the payment provider."""
    return get_settings().demo_payments


def get_provider() -> PaymentProvider:
    settings = get_settings()
    if settings.payments == "stripe":
        return StripeProvider(settings.stripe_secret_key, settings.stripe_api_base)
    return DemoCheckoutProvider()
