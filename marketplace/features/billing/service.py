"""Buying credits: start a checkout, verify it, credit it exactly once.

Crediting (``fulfil``) flips the purchase from ``pending`` to ``paid`` with one
conditional UPDATE; only the caller whose UPDATE matched books credits, so a
verify racing the Stripe webhook, a demo checkout's Pay clicked twice, or any of them
arriving twice, credits once. The ledger's unique (user, reason, reference) key
is a second guard. Credits and prices come from ``billing.rules_packs``, never from the
client or the provider.

Who credits: in Stripe mode the ``checkout.session.completed`` webhook (and a
verify from the result page, whichever comes first); with the demo checkout
(``PAYMENTS=test``) its Pay button itself (``demo_checkout.finish`` ->
``fulfil_demo_checkout``).

Return addresses: ``SITE_URL`` when configured, otherwise the origin of the
browser that started the checkout (``Settings.base_url``), so a buyer who opened
the app at 127.0.0.1 or a LAN address comes back to that same address.

Functions that take a ``session`` work inside the caller's transaction (``marketplace.platform.db``).
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from marketplace.platform import routes
from marketplace.platform.config import get_settings
from marketplace.features.billing import rules_packs as packs
from marketplace.platform.errors import UserError
from marketplace.platform.db import read_scope, session_scope
from marketplace.platform.texts import ERROR_TITLE, MISSING_SESSION, UNKNOWN_PACK, VERIFY_FAILED
from marketplace.platform.texts import PURCHASE_AUTH_REQUIRED as AUTH_REQUIRED
from marketplace.platform.models import CreditPurchase, DemoCheckout, Profile, utcnow
from marketplace.platform import ledger
from marketplace.features.billing import service_referrals as referrals
from marketplace.features.billing.service_payments import (
    SESSION_PLACEHOLDER,
    CheckoutSession,
    PaymentError,
    get_provider,
)
from marketplace.platform import account_status

log = logging.getLogger("marketplace.purchases")

FIRST_PURCHASE_REFERENCE = "first-purchase"


class PurchaseError(UserError):
    """A refused or failed purchase step: ``title`` and ``message`` are shown."""


@dataclass(frozen=True)
class VerifyResult:
    credits_added: int
    bonus_credits: int
    balance: int
    bundle: str


def start_purchase(user_id: uuid.UUID | None, bundle: str, referral_code: str | None = None,
                   origin: str | None = None) -> CheckoutSession:
    """Open a checkout for ``bundle``; returns the URL to open (in a new tab).

    ``origin`` is the address the buyer's browser is on (``scheme://host[:port]``,
    validated again here); the return addresses use it when SITE_URL is unset.

    Two steps, one transaction: the provider opens the checkout first, outside
    any transaction (Stripe is a network call, and no lock waits on it); then
    one write transaction stores everything the checkout needs on our side: the
    provider's row (the TEST MODE checkout page), the pending purchase and the
    referrer binding. A checkout that failed to open writes nothing and binds
    no referrer; a write that fails leaves at most a Stripe checkout without
    our row, which the ``checkout.session.completed`` webhook still credits."""
    if user_id is None:
        raise PurchaseError(*AUTH_REQUIRED)
    pack = packs.get_pack(bundle)
    if pack is None:
        raise PurchaseError(ERROR_TITLE, UNKNOWN_PACK)
    site = get_settings().base_url(origin)
    urls = {
        "success_url": f"{site}{routes.CREDITS_PURCHASED}?session_id={SESSION_PLACEHOLDER}",
        # Back with the pack that was being bought selected.
        "cancel_url": f"{site}{routes.purchase_credits_url(pack.id, canceled=True)}",
    }
    provider = get_provider()
    try:
        checkout = provider.create_checkout(user_id=user_id, pack=pack, **urls)
    except PaymentError as exc:
        log.warning("checkout for %s failed: %s", user_id, exc)
        raise PurchaseError(ERROR_TITLE, str(exc)) from exc
    with session_scope() as session:
        provider.record_checkout(session, checkout, user_id=user_id, pack=pack, **urls)
        session.add(CreditPurchase(
            user_id=user_id, bundle=pack.id, credits=pack.credits, amount_cents=pack.amount_cents,
            provider=provider.name, provider_session_id=checkout.id, status="pending",
        ))
        if referral_code:
            # Bound with the first checkout that opened (not by one that failed to start).
            referrals.bind_referrer_in(session, user_id, referral_code)
    return checkout


def _find(session: Session, session_id: str) -> CreditPurchase | None:
    return session.exec(select(CreditPurchase).where(CreditPurchase.provider_session_id == session_id)).first()


def verify_purchase(user_id: uuid.UUID | None, session_id: str | None) -> VerifyResult:
    """SPEC ``verify-credit-purchase``: the result of this user's checkout. A purchase
    already credited (the demo checkout's Pay, the Stripe webhook, an earlier verify) is only
    read back; a paid Stripe checkout the webhook has not reached yet is credited."""
    if user_id is None:
        raise PurchaseError(*AUTH_REQUIRED)
    if not session_id:
        raise PurchaseError(ERROR_TITLE, MISSING_SESSION)
    with read_scope() as session:
        purchase = _find(session, session_id)
        if purchase is None or purchase.user_id != user_id:
            raise PurchaseError(ERROR_TITLE, VERIFY_FAILED)  # unknown, or someone else's: nothing is revealed
        if purchase.status == "paid":
            return _result(session, purchase)
        purchase_id, bundle = purchase.id, purchase.bundle
    try:
        checkout = get_provider().retrieve(session_id)
    except PaymentError as exc:
        log.warning("verify %s: provider error %s", session_id, exc)
        raise PurchaseError(ERROR_TITLE, VERIFY_FAILED) from exc
    if not checkout.paid or checkout.user_id != str(user_id) or (checkout.bundle and checkout.bundle != bundle):
        raise PurchaseError(ERROR_TITLE, VERIFY_FAILED)
    return fulfil(purchase_id)


def _result(session: Session, purchase: CreditPurchase) -> VerifyResult:
    return VerifyResult(purchase.credits + purchase.bonus_credits, purchase.bonus_credits,
                        ledger.balance(session, purchase.user_id), purchase.bundle)


def fulfil(purchase_id: uuid.UUID) -> VerifyResult:
    """Book a paid purchase: pack credits, a referred first purchase's bonus, the referrer's reward."""
    with session_scope() as session:
        return fulfil_in(session, purchase_id)


def fulfil_demo_checkout(session: Session, checkout: DemoCheckout) -> VerifyResult:
    """Credit a paid demo checkout (TEST MODE) inside the caller's transaction (the one that
    marked it complete). Its purchase row is created from the checkout when missing
    (as the Stripe webhook does for a paid session it has no row for)."""
    if checkout.status != "complete":
        raise PurchaseError(ERROR_TITLE, VERIFY_FAILED)
    pack = packs.get_pack(checkout.bundle)
    if pack is None or checkout.amount_cents != pack.amount_cents:
        raise PurchaseError(ERROR_TITLE, VERIFY_FAILED)
    purchase = _find(session, checkout.id)
    if purchase is None:
        purchase = CreditPurchase(user_id=checkout.user_id, bundle=pack.id, credits=pack.credits,
                                  amount_cents=pack.amount_cents, provider="test",
                                  provider_session_id=checkout.id, status="pending")
        session.add(purchase)
        session.flush()
    if purchase.user_id != checkout.user_id or purchase.provider != "test" or purchase.bundle != checkout.bundle:
        raise PurchaseError(ERROR_TITLE, VERIFY_FAILED)
    return fulfil_in(session, purchase.id)


def fulfil_in(session: Session, purchase_id: uuid.UUID) -> VerifyResult:
    """``fulfil`` inside an open write transaction."""
    purchases = CreditPurchase.__table__
    claimed = session.execute(
        sa.update(purchases)
        .where(purchases.c.id == purchase_id, purchases.c.status == "pending")
        .values(status="paid", completed_at=utcnow())
        .returning(purchases.c.user_id)
    ).scalar_one_or_none()
    # populate_existing: the caller may hold this row from before the UPDATE.
    purchase = session.get(CreditPurchase, purchase_id, populate_existing=True)
    if purchase is None or purchase.status != "paid":
        raise PurchaseError(ERROR_TITLE, VERIFY_FAILED)
    if claimed is None:  # credited before: report the same result again
        return _result(session, purchase)
    pack = packs.get_pack(purchase.bundle)
    reference = str(purchase.id)
    balance = ledger.apply_credits(session, purchase.user_id, purchase.credits, "purchase", reference)
    referrer = session.exec(select(Profile.referred_by).where(Profile.user_id == purchase.user_id)).first()
    bonus = 0
    if referrer is not None:
        first = not account_status.has_paid_before(session, purchase.user_id, excluding=purchase.id)
        bonus = packs.referral_bonus(pack, first_purchase=first, referred=True)
        if bonus:
            try:
                with session.begin_nested():  # one first-purchase bonus per account, ever
                    balance = ledger.apply_credits(session, purchase.user_id, bonus, "referral_bonus",
                                                   FIRST_PURCHASE_REFERENCE)
            except IntegrityError:
                bonus = 0
        reward = packs.referrer_reward(purchase.amount_cents)
        if reward and session.get(Profile, referrer) is not None:  # a deleted referrer earns nothing
            ledger.apply_credits(session, referrer, reward, "referral_reward", reference)
    purchase.bonus_credits = bonus
    session.add(purchase)
    return VerifyResult(purchase.credits + bonus, bonus, balance, purchase.bundle)


def record_external_checkout(session_id: str, user_id: str | None, bundle: str | None,
                             amount_cents: int | None) -> uuid.UUID | None:
    """A paid Stripe session we have no row for (e.g. the row's insert failed):
    create the purchase from its metadata when it names a real pack and amount."""
    pack = packs.get_pack(bundle)
    if pack is None or not user_id or amount_cents != pack.amount_cents:
        return None
    try:
        uid = uuid.UUID(user_id)
    except ValueError:
        return None
    with session_scope() as session:
        existing = _find(session, session_id)
        if existing is not None:
            return existing.id
        if session.get(Profile, uid) is None:
            return None
        row = CreditPurchase(user_id=uid, bundle=pack.id, credits=pack.credits, amount_cents=pack.amount_cents,
                             provider="stripe", provider_session_id=session_id, status="pending")
        session.add(row)
        session.flush()
        return row.id


def purchase_for_session(session_id: str) -> uuid.UUID | None:
    with read_scope() as session:
        row = _find(session, session_id)
        return row.id if row else None
