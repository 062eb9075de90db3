"""Buying credits: test checkout and Stripe (a local fake), referral rewards,
idempotent crediting, signed webhooks, outages."""

import json
import threading
import time
import uuid

import pytest
import stripe
from fastapi.testclient import TestClient
from sqlmodel import func, select

from marketplace.api.app import create_api
from marketplace.db import session_scope
from marketplace.models import CreditLedger, CreditPurchase, Profile, Subscription
from marketplace.services import ledger, payments, purchases, referrals, stripe_events
from tests.fakes.stripe_server import FakeStripe

WEBHOOK_SECRET = "whsec_test_secret"


def _balance(user_id):
    with session_scope() as s:
        balance = ledger.balance(s, user_id)
        assert balance == ledger.ledger_sum(s, user_id)
        return balance


def _code(user_id):
    with session_scope() as s:
        return s.get(Profile, user_id).referral_code


def _buy_with_test_checkout(user_id, bundle="starter", referral_code=None):
    checkout = purchases.start_purchase(user_id, bundle, referral_code)
    assert checkout.url == f"/test-checkout/{checkout.id}"
    return_url = payments.finish_test_checkout(checkout.id, user_id, pay=True)
    assert return_url.endswith(f"/credits-purchased?session_id={checkout.id}")
    return checkout.id, purchases.verify_purchase(user_id, checkout.id)


@pytest.fixture
def fake_stripe(monkeypatch, db_url):
    with FakeStripe() as fake:
        monkeypatch.setenv("STRIPE_SECRET_KEY", "sk_test_fake")
        monkeypatch.setenv("STRIPE_API_BASE", fake.url)
        monkeypatch.setenv("STRIPE_WEBHOOK_SECRET", WEBHOOK_SECRET)
        yield fake


def _deliver(event_type, obj, secret=WEBHOOK_SECRET, timestamp=None):
    payload = json.dumps({"id": "evt_" + uuid.uuid4().hex, "object": "event", "type": event_type,
                          "data": {"object": obj}})
    header = stripe.WebhookSignature.generate_signature_header(payload, secret, timestamp=timestamp)
    return TestClient(create_api()).post("/api/stripe/webhook", content=payload,
                                         headers={"stripe-signature": header, "content-type": "application/json"})


# --------------------------------------------------------------------------- the built-in test checkout


def test_test_checkout_credits_once(new_user):
    user = new_user()
    session_id, result = _buy_with_test_checkout(user.id)
    assert (result.credits_added, result.bonus_credits, result.balance) == (500, 0, 500)
    again = purchases.verify_purchase(user.id, session_id)
    assert again.credits_added == 500
    assert _balance(user.id) == 500
    with session_scope() as s:
        row = s.exec(select(CreditPurchase)).one()
        assert (row.status, row.provider, row.amount_cents, row.credits) == ("paid", "test", 10000, 500)


def test_unpaid_or_cancelled_checkout_credits_nothing(new_user):
    user = new_user()
    checkout = purchases.start_purchase(user.id, "pro")
    with pytest.raises(purchases.PurchaseError) as err:
        purchases.verify_purchase(user.id, checkout.id)
    assert err.value.message == "Failed to verify purchase"
    assert payments.finish_test_checkout(checkout.id, user.id, pay=False).endswith("/purchase-credits?canceled=1")
    with pytest.raises(purchases.PurchaseError):
        purchases.verify_purchase(user.id, checkout.id)
    assert _balance(user.id) == 0


@pytest.mark.parametrize(
    ("user_kind", "session_id", "message"),
    [("none", "x", "Please log in to purchase credits"), ("self", "", "Missing session ID"),
     ("self", "test_cs_unknown", "Failed to verify purchase"), ("other", None, "Failed to verify purchase")],
)
def test_verify_refusals(new_user, user_kind, session_id, message):
    owner = new_user()
    checkout = purchases.start_purchase(owner.id, "starter")
    payments.finish_test_checkout(checkout.id, owner.id, pay=True)
    caller = {"none": None, "self": owner.id, "other": new_user().id}[user_kind]
    with pytest.raises(purchases.PurchaseError) as err:
        purchases.verify_purchase(caller, checkout.id if session_id is None else session_id)
    assert err.value.message == message
    assert _balance(owner.id) == 0


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
    _, first = _buy_with_test_checkout(buyer.id, "starter", referral_code=_code(referrer.id).lower())
    assert (first.credits_added, first.bonus_credits) == (750, 250)
    assert _balance(buyer.id) == 750 and _balance(referrer.id) == 200
    _, second = _buy_with_test_checkout(buyer.id, "pro")
    assert (second.credits_added, second.bonus_credits) == (1500, 0)
    assert _balance(buyer.id) == 2250 and _balance(referrer.id) == 200 + 540
    stats = referrals.stats(referrer.id)
    assert (stats.people_referred, stats.purchases, stats.credits_earned) == (1, 2, 740)


def test_referral_binds_once_and_never_to_oneself(new_user):
    a, b, c = new_user(), new_user(), new_user()
    assert not referrals.bind_referrer(a.id, _code(a.id))
    assert referrals.bind_referrer(a.id, _code(b.id))
    assert not referrals.bind_referrer(a.id, _code(c.id))  # cannot be changed
    _buy_with_test_checkout(c.id)
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
