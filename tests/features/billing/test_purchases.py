"""Buying credits: the demo checkout and Stripe (a local fake), referral rewards,
idempotent crediting, signed webhooks, outages, return addresses."""

import json
import threading
import time
import uuid

import pytest
import stripe
from fastapi.testclient import TestClient
from sqlmodel import func, select

from marketplace.api import create_api
from marketplace.platform.config import reload_settings
from marketplace.platform.db import session_scope
from marketplace.platform.models import CreditLedger, CreditPurchase, DemoCheckout, Profile, Subscription
from marketplace.features.billing import (
    service_demo_checkout as demo_checkout,
    service as purchases,
    service_referrals as referrals,
    service_stripe_events as stripe_events,
)
from marketplace.platform import ledger
from tests.fakes.stripe_server import FakeStripe

WEBHOOK_SECRET = "whsec_test_secret"


@pytest.fixture(autouse=True)
def _payments_from_a_clean_environment(monkeypatch):
    for name in ("PAYMENTS", "APP_ENV", "SITE_URL", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "STRIPE_API_BASE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PORT", "3000")
    reload_settings()


def _balance(user_id):
    with session_scope() as s:
        balance = ledger.balance(s, user_id)
        assert balance == ledger.ledger_sum(s, user_id)
        return balance


def _code(user_id):
    with session_scope() as s:
        return s.get(Profile, user_id).referral_code


def _buy_with_demo_checkout(user_id, bundle="starter", referral_code=None):
    checkout = purchases.start_purchase(user_id, bundle, referral_code)
    assert checkout.url == f"/demo-checkout/{checkout.id}"
    return_url = demo_checkout.finish(checkout.id, user_id, pay=True)
    assert return_url.endswith(f"/credits-purchased?session_id={checkout.id}")
    return checkout.id, purchases.verify_purchase(user_id, checkout.id)


def _ledger(user_id):
    with session_scope() as s:
        rows = s.exec(select(CreditLedger).where(CreditLedger.user_id == user_id).order_by(CreditLedger.id)).all()
        return [(r.reason, r.delta, r.balance_after) for r in rows]


def _purchase_row(session_id):
    with session_scope() as s:
        return s.exec(select(CreditPurchase).where(CreditPurchase.provider_session_id == session_id)).one()


@pytest.fixture
def fake_stripe(monkeypatch, db_url):
    with FakeStripe() as fake:
        monkeypatch.setenv("STRIPE_SECRET_KEY", "sk_test_fake")
        monkeypatch.setenv("STRIPE_API_BASE", fake.url)
        monkeypatch.setenv("STRIPE_WEBHOOK_SECRET", WEBHOOK_SECRET)
        reload_settings()
        yield fake


def _deliver(event_type, obj, secret=WEBHOOK_SECRET, timestamp=None):
    payload = json.dumps({"id": "evt_" + uuid.uuid4().hex, "object": "event", "type": event_type,
                          "data": {"object": obj}})
    header = stripe.WebhookSignature.generate_signature_header(payload, secret, timestamp=timestamp)
    return TestClient(create_api()).post("/api/stripe/webhook", content=payload,
                                         headers={"stripe-signature": header, "content-type": "application/json"})


# --------------------------------------------------------------------------- the demo checkout


def test_demo_checkout_credits_once(new_user):
    user = new_user()
    session_id, result = _buy_with_demo_checkout(user.id)
    assert (result.credits_added, result.bonus_credits, result.balance) == (500, 0, 500)
    again = purchases.verify_purchase(user.id, session_id)
    assert again.credits_added == 500
    assert _balance(user.id) == 500
    with session_scope() as s:
        row = s.exec(select(CreditPurchase)).one()
        assert (row.status, row.provider, row.amount_cents, row.credits) == ("paid", "test", 10000, 500)


def test_demo_checkout_pay_credits_at_once_without_any_verify(new_user):
    """Pay plays Stripe's webhook: the credits are there before any result page loads."""
    referrer, user = new_user(), new_user(credits=30)
    checkout = purchases.start_purchase(user.id, "pro", _code(referrer.id))
    assert _balance(user.id) == 30 and _purchase_row(checkout.id).status == "pending"
    demo_checkout.finish(checkout.id, user.id, pay=True)
    assert _balance(user.id) == 30 + 1500 + 750
    assert _ledger(user.id) == [("admin_grant", 30, 30), ("purchase", 1500, 1530), ("referral_bonus", 750, 2280)]
    assert _ledger(referrer.id) == [("referral_reward", 540, 540)]
    row = _purchase_row(checkout.id)
    assert (row.status, row.credits, row.bonus_credits, row.completed_at is not None) == ("paid", 1500, 750, True)
    # Paying again (a second click, the Continue button, a retry) books nothing more.
    again = demo_checkout.finish(checkout.id, user.id, pay=True)
    assert again.endswith(f"/credits-purchased?session_id={checkout.id}")
    assert _balance(user.id) == 2280 and len(_ledger(user.id)) == 3 and _balance(referrer.id) == 540
    # Cancel after paying changes nothing; the result page only reads the outcome back.
    assert demo_checkout.finish(checkout.id, user.id, pay=False) == again
    result = purchases.verify_purchase(user.id, checkout.id)
    assert (result.credits_added, result.bonus_credits, result.balance, result.bundle) == (2250, 750, 2280, "pro")
    assert _balance(user.id) == 2280 and len(_ledger(user.id)) == 3


def test_parallel_pays_credit_once(new_user):
    user = new_user()
    checkout = purchases.start_purchase(user.id, "enterprise")
    barrier = threading.Barrier(4)
    targets, errors = [], []

    def pay():
        barrier.wait()
        try:
            targets.append(demo_checkout.finish(checkout.id, user.id, pay=True))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=pay) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(targets) == 4
    assert _balance(user.id) == 5000
    assert _ledger(user.id) == [("purchase", 5000, 5000)]


def test_pay_of_someone_elses_or_a_canceled_checkout_credits_nothing(new_user):
    owner, other = new_user(), new_user()
    checkout = purchases.start_purchase(owner.id, "starter")
    assert demo_checkout.finish(checkout.id, other.id, pay=True) is None
    assert demo_checkout.finish("demo_cs_nope", owner.id, pay=True) is None
    assert _purchase_row(checkout.id).status == "pending"
    canceled = "/purchase-credits?canceled=1&pack=starter"  # back with the pack that was being bought
    assert demo_checkout.finish(checkout.id, owner.id, pay=False).endswith(canceled)
    assert demo_checkout.finish(checkout.id, owner.id, pay=True).endswith(canceled)
    assert _balance(owner.id) == 0 and _balance(other.id) == 0
    assert _purchase_row(checkout.id).status == "pending"


def test_pay_creates_a_missing_purchase_row_from_the_checkout(new_user):
    """The checkout opened but its purchase row was lost: Pay still credits exactly the pack."""
    user = new_user()
    checkout = purchases.start_purchase(user.id, "starter")
    with session_scope() as s:
        s.delete(s.exec(select(CreditPurchase)).one())
    demo_checkout.finish(checkout.id, user.id, pay=True)
    demo_checkout.finish(checkout.id, user.id, pay=True)
    assert _ledger(user.id) == [("purchase", 500, 500)]
    row = _purchase_row(checkout.id)
    assert (row.status, row.provider, row.amount_cents, row.user_id) == ("paid", "test", 10000, user.id)


def test_demo_checkouts_cannot_be_paid_once_payments_are_stripe(monkeypatch, new_user):
    """A demo checkout left over is dead when the site takes real payments."""
    user = new_user()
    checkout = purchases.start_purchase(user.id, "enterprise")
    monkeypatch.setenv("STRIPE_SECRET_KEY", "sk_test_fake")
    reload_settings()
    assert demo_checkout.details(checkout.id, user.id) is None
    assert demo_checkout.finish(checkout.id, user.id, pay=True) is None
    monkeypatch.setenv("STRIPE_API_BASE", "http://127.0.0.1:9")  # nothing listens: Stripe knows no such session
    reload_settings()
    with pytest.raises(purchases.PurchaseError):
        purchases.verify_purchase(user.id, checkout.id)
    assert _balance(user.id) == 0


# --------------------------------------------------------------------------- return addresses


def test_return_addresses_use_the_browsers_origin_when_site_url_is_unset(new_user):
    user = new_user()
    checkout = purchases.start_purchase(user.id, "starter", origin="http://127.0.0.1:3000")
    with session_scope() as s:
        row = s.get(DemoCheckout, checkout.id)
        assert row.success_url == f"http://127.0.0.1:3000/credits-purchased?session_id={checkout.id}"
        assert row.cancel_url == "http://127.0.0.1:3000/purchase-credits?canceled=1&pack=starter"
    assert demo_checkout.finish(checkout.id, user.id, pay=True) == row.success_url


@pytest.mark.parametrize(("site_url", "origin", "expected"), [
    (None, "http://192.168.1.7:3000", "http://192.168.1.7:3000"),
    (None, "http://evil.example/steal?x=", "http://localhost:3000"),
    (None, "javascript:alert(1)", "http://localhost:3000"),
    (None, None, "http://localhost:3000"),
    ("https://leads.example.com/", "http://127.0.0.1:3000", "https://leads.example.com"),
])
def test_return_address_choice(monkeypatch, new_user, site_url, origin, expected):
    if site_url:
        monkeypatch.setenv("SITE_URL", site_url)
        reload_settings()
    user = new_user()
    checkout = purchases.start_purchase(user.id, "starter", origin=origin)
    with session_scope() as s:
        row = s.get(DemoCheckout, checkout.id)
        assert (row.success_url, row.cancel_url) == (
            f"{expected}/credits-purchased?session_id={checkout.id}",
            f"{expected}/purchase-credits?canceled=1&pack=starter")


def test_stripe_return_addresses_use_the_browsers_origin(fake_stripe, new_user):
    user = new_user()
    purchases.start_purchase(user.id, "pro", origin="http://127.0.0.1:4100")
    sent = fake_stripe.requests[-1][2]
    assert sent["success_url"] == "http://127.0.0.1:4100/credits-purchased?session_id={CHECKOUT_SESSION_ID}"
    assert sent["cancel_url"] == "http://127.0.0.1:4100/purchase-credits?canceled=1&pack=pro"


def test_unpaid_or_cancelled_checkout_credits_nothing(new_user):
    user = new_user()
    checkout = purchases.start_purchase(user.id, "pro")
    with pytest.raises(purchases.PurchaseError) as err:
        purchases.verify_purchase(user.id, checkout.id)
    assert err.value.message == "Failed to verify purchase"
    assert demo_checkout.finish(checkout.id, user.id, pay=False).endswith(
        "/purchase-credits?canceled=1&pack=pro")
    with pytest.raises(purchases.PurchaseError):
        purchases.verify_purchase(user.id, checkout.id)
    assert _balance(user.id) == 0


@pytest.mark.parametrize(
    ("user_kind", "session_id", "message"),
    [("none", "x", "Please log in to purchase credits"), ("self", "", "Missing session ID"),
     ("self", "demo_cs_unknown", "Failed to verify purchase"), ("other", None, "Failed to verify purchase")],
)
def test_verify_refusals(new_user, user_kind, session_id, message):
    owner = new_user()
    checkout = purchases.start_purchase(owner.id, "starter")
    demo_checkout.finish(checkout.id, owner.id, pay=True)
    caller = {"none": None, "self": owner.id, "other": new_user().id}[user_kind]
    with pytest.raises(purchases.PurchaseError) as err:
        purchases.verify_purchase(caller, checkout.id if session_id is None else session_id)
    assert err.value.message == message
    assert _balance(owner.id) == 500  # credited once, by Pay
    if caller is not None:
        assert _balance(caller) == (500 if caller == owner.id else 0)


def test_unknown_pack_and_signed_out_start(new_user):
    user = new_user()
    with pytest.raises(purchases.PurchaseError) as err:
        purchases.start_purchase(user.id, "platinum")
    assert err.value.message == "Unknown credit pack"
    with pytest.raises(purchases.PurchaseError) as err:
        purchases.start_purchase(None, "starter")
    assert (err.value.title, err.value.message) == ("Authentication Required", "Please log in to purchase credits")
    with session_scope() as s:
        assert s.exec(select(func.count()).select_from(CreditPurchase)).one() == 0


# --------------------------------------------------------------------------- referrals


def test_referred_first_purchase_bonus_and_referrer_reward_on_every_purchase(new_user):
    referrer = new_user()
    buyer = new_user()
    _, first = _buy_with_demo_checkout(buyer.id, "starter", referral_code=_code(referrer.id).lower())
    assert (first.credits_added, first.bonus_credits) == (750, 250)
    assert _balance(buyer.id) == 750 and _balance(referrer.id) == 200
    _, second = _buy_with_demo_checkout(buyer.id, "pro")
    assert (second.credits_added, second.bonus_credits) == (1500, 0)
    assert _balance(buyer.id) == 2250 and _balance(referrer.id) == 200 + 540
    stats = referrals.stats(referrer.id)
    assert (stats.people_referred, stats.purchases, stats.credits_earned) == (1, 2, 740)


def test_referral_binds_once_and_never_to_oneself(new_user):
    a, b, c = new_user(), new_user(), new_user()
    assert not referrals.bind_referrer(a.id, _code(a.id))
    assert referrals.bind_referrer(a.id, _code(b.id))
    assert not referrals.bind_referrer(a.id, _code(c.id))  # cannot be changed
    _buy_with_demo_checkout(c.id)
    assert not referrals.bind_referrer(c.id, _code(b.id))  # too late after a purchase
    with session_scope() as s:
        assert s.get(Profile, a.id).referred_by == b.id and s.get(Profile, c.id).referred_by is None


def test_referral_code_validation_and_changes(new_user):
    a, b = new_user(), new_user()
    assert referrals.is_valid_code(_code(b.id), a.id)
    assert not referrals.is_valid_code(_code(a.id), a.id)  # one's own
    assert not referrals.is_valid_code("NOSUCHCODE", a.id)
    assert referrals.change_code(a.id, "flipper42") == "FLIPPER42"
    for bad in ("", "with space", "x" * 16, "dash-code"):
        with pytest.raises(referrals.ReferralCodeError) as err:
            referrals.change_code(b.id, bad)
        assert (err.value.title, err.value.message) == (
            "Invalid Code", "Referral code must be 1-15 alphanumeric characters only.")
    with pytest.raises(referrals.ReferralCodeError) as err:
        referrals.change_code(b.id, "Flipper42")
    assert (err.value.title, err.value.message) == (
        "Code Unavailable", "This referral code is already taken. Please choose another.")
    assert referrals.update_referral_code(b.id, "other1") is True
    assert referrals.update_referral_code(b.id, "FLIPPER42") is False


# --------------------------------------------------------------------------- Stripe


def test_stripe_checkout_verify_and_webhook_credit_once(fake_stripe, new_user):
    user = new_user()
    checkout = purchases.start_purchase(user.id, "pro")
    assert checkout.url.startswith("https://checkout.stripe.test/")
    sent = fake_stripe.requests[-1][2]
    assert sent["mode"] == "payment" and sent["line_items[0][price_data][unit_amount]"] == "27000"
    assert sent["metadata[user_id]"] == str(user.id) and sent["metadata[bundle]"] == "pro"
    assert sent["success_url"].endswith("/credits-purchased?session_id={CHECKOUT_SESSION_ID}")
    with pytest.raises(purchases.PurchaseError):
        purchases.verify_purchase(user.id, checkout.id)  # not paid yet
    session = fake_stripe.pay(checkout.id)
    assert _deliver("checkout.session.completed", session).status_code == 200
    assert _deliver("checkout.session.completed", session).status_code == 200  # delivered twice
    assert purchases.verify_purchase(user.id, checkout.id).credits_added == 1500
    assert _balance(user.id) == 1500


def test_webhook_credits_when_the_buyer_closed_the_tab(fake_stripe, new_user):
    user = new_user()
    checkout = purchases.start_purchase(user.id, "starter")
    response = _deliver("checkout.session.completed", fake_stripe.pay(checkout.id))
    assert response.json() == {"received": True, "outcome": "credited 500"}
    assert _balance(user.id) == 500


def test_forged_and_stale_signatures_are_refused(fake_stripe, new_user):
    user = new_user()
    session = fake_stripe.pay(purchases.start_purchase(user.id, "starter").id)
    forged = _deliver("checkout.session.completed", session, secret="whsec_wrong")
    stale = _deliver("checkout.session.completed", session, timestamp=int(time.time()) - 600)
    missing = TestClient(create_api()).post("/api/stripe/webhook", content=b"{}")
    assert forged.status_code == stale.status_code == missing.status_code == 400
    assert _balance(user.id) == 0


def test_stripe_session_of_another_user_is_refused(fake_stripe, new_user):
    owner, other = new_user(), new_user()
    checkout = purchases.start_purchase(owner.id, "starter")
    fake_stripe.pay(checkout.id)
    with pytest.raises(purchases.PurchaseError) as err:
        purchases.verify_purchase(other.id, checkout.id)
    assert err.value.message == "Failed to verify purchase"
    assert _balance(other.id) == 0 and _balance(owner.id) == 0


def test_stripe_outage_is_a_clear_error_and_credits_nothing(fake_stripe, new_user):
    user = new_user()
    checkout = purchases.start_purchase(user.id, "starter")
    fake_stripe.pay(checkout.id)
    fake_stripe.down = True
    with pytest.raises(purchases.PurchaseError) as err:
        purchases.start_purchase(user.id, "pro")
    assert err.value.message.startswith("Stripe could not start the checkout")
    with pytest.raises(purchases.PurchaseError) as err:
        purchases.verify_purchase(user.id, checkout.id)
    assert err.value.message == "Failed to verify purchase"
    assert _balance(user.id) == 0
    with session_scope() as s:
        assert s.exec(select(func.count()).select_from(CreditPurchase)).one() == 1  # only the first
    fake_stripe.down = False
    assert purchases.verify_purchase(user.id, checkout.id).credits_added == 500


def test_verify_racing_the_webhook_credits_once(fake_stripe, new_user):
    user = new_user()
    checkout = purchases.start_purchase(user.id, "enterprise")
    session = fake_stripe.pay(checkout.id)
    barrier = threading.Barrier(4)
    outcomes = []

    def verify():
        barrier.wait()
        outcomes.append(purchases.verify_purchase(user.id, checkout.id).credits_added)

    def webhook():
        barrier.wait()
        outcomes.append(stripe_events._checkout_completed(session))

    threads = [threading.Thread(target=f) for f in (verify, verify, webhook, webhook)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert _balance(user.id) == 5000
    with session_scope() as s:
        assert s.exec(select(func.count()).select_from(CreditLedger).where(CreditLedger.reason == "purchase")).one() == 1


def test_subscription_webhooks_keep_the_row_current(fake_stripe, new_user):
    user = new_user()
    sub = {"id": "sub_1", "status": "active", "current_period_end": int(time.time()) + 86400 * 30,
           "metadata": {"user_id": str(user.id), "subscription_type": "Pro", "leads_per_period": "40"}}
    assert _deliver("customer.subscription.created", sub).json()["outcome"] == "subscription active"
    with session_scope() as s:
        row = s.get(Subscription, user.id)
        assert (row.subscribed, row.subscription_type, row.leads_remaining) == (True, "Pro", 40)
    assert _deliver("customer.subscription.deleted", {**sub, "status": "canceled"}).json()["outcome"] == \
        "subscription ended"
    with session_scope() as s:
        row = s.get(Subscription, user.id)
        assert (row.subscribed, row.subscription_type, row.leads_remaining) == (False, "none", 0)
