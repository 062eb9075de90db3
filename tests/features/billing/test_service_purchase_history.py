"""The purchase history, its receipts and a waiting tab's status check (SQLite and PostgreSQL)."""

import uuid

from sqlmodel import update

from marketplace.platform import account_status
from marketplace.features.billing import rules_receipts as receipts
from marketplace.platform.db import session_scope
from marketplace.platform.models import CreditPurchase, Profile
from marketplace.features.billing import (
    service_demo_checkout as demo_checkout,
    service_history as purchase_history,
    service as purchases,
)
from tests.factories import make_purchase


def _code(user_id):
    with session_scope() as s:
        return s.get(Profile, user_id).referral_code


def _set_status(purchase_id, status):
    with session_scope() as s:
        s.exec(update(CreditPurchase).where(CreditPurchase.id == purchase_id).values(status=status))


def test_history_lists_own_purchases_newest_first_with_the_bonus_split(new_user, monkeypatch):
    monkeypatch.delenv("PAYMENTS", raising=False)
    monkeypatch.delenv("STRIPE_SECRET_KEY", raising=False)
    referrer, buyer, other = new_user(), new_user(), new_user()
    first = purchases.start_purchase(buyer.id, "pro", _code(referrer.id))
    demo_checkout.finish(first.id, buyer.id, pay=True)
    second = purchases.start_purchase(buyer.id, "enterprise")  # left pending
    failed = make_purchase(buyer.id, bundle="starter", status="failed")
    make_purchase(other.id, bundle="pro", credits=1500, amount_cents=27_000, status="paid")

    rows = purchase_history.list_purchases(buyer.id)
    assert [(r.pack_name, r.status) for r in rows] == [("Starter", "failed"), ("Enterprise", "pending"),
                                                      ("Pro", "paid")]
    pro = rows[2]
    assert (pro.amount_cents, pro.credits, pro.base_credits, pro.pack_bonus, pro.bonus_percent) == (
        27_000, 1500, 1250, 250, 20)
    assert (pro.referral_bonus, pro.total_credits) == (750, 2250)
    assert pro.completed_at is not None
    enterprise = rows[1]
    assert (enterprise.base_credits, enterprise.pack_bonus, enterprise.referral_bonus) == (3571, 1429, 0)
    assert rows[0].id == failed and rows[0].pack_bonus == 0
    assert purchase_history.list_purchases(buyer.id, limit=1)[0].id == failed
    assert second.id  # the pending one is the buyer's own checkout

    assert purchase_history.get_purchase(buyer.id, str(pro.id)) == pro
    assert purchase_history.get_purchase(other.id, str(pro.id)) is None  # someone else's: nothing
    assert purchase_history.get_purchase(buyer.id, "not-a-uuid") is None
    assert purchase_history.get_purchase(buyer.id, uuid.uuid4()) is None


def test_buyer_status_follows_a_checkout_to_paid(new_user, monkeypatch):
    monkeypatch.delenv("PAYMENTS", raising=False)
    monkeypatch.delenv("STRIPE_SECRET_KEY", raising=False)
    buyer, other = new_user(credits=40), new_user()
    checkout = purchases.start_purchase(buyer.id, "starter")
    assert account_status.buyer_status(buyer.id, checkout.id) == account_status.BuyerStatus(40, False, "pending")
    assert account_status.buyer_status(other.id, checkout.id).checkout_status == ""  # not theirs
    demo_checkout.finish(checkout.id, buyer.id, pay=True)
    assert account_status.buyer_status(buyer.id, checkout.id) == account_status.BuyerStatus(540, True, "paid")
    assert account_status.buyer_status(buyer.id, "cs_unknown").checkout_status == ""
    canceled = purchases.start_purchase(buyer.id, "pro")
    demo_checkout.finish(canceled.id, buyer.id, pay=False)
    assert account_status.buyer_status(buyer.id, canceled.id).checkout_status == "canceled"


def test_receipt_text_says_what_was_bought():
    text = receipts.receipt_text(
        purchase_id="0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", pack_name="Pro", amount_cents=27_000, base=1250,
        bonus=250, percent=20, referral_bonus=750, status="paid", date="Mar 4, 2026, 3:05 PM EST",
        paid_date="Mar 4, 2026, 3:06 PM EST", provider="test")
    assert "Receipt number: LV-0F1E2D3C" in text
    assert "Price:          $270.00 (USD, one-time)" in text
    assert "Pack credits:   1,500 (1,250 + 250 bonus (20%))" in text
    assert "Referral bonus: +750" in text
    assert "Total credits:  2,250" in text
    assert "Status:         Paid" in text
    assert "TEST MODE" in text
    starter = receipts.receipt_text(
        purchase_id="0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", pack_name="Starter", amount_cents=10_000, base=500,
        bonus=0, percent=0, referral_bonus=0, status="pending", date="Mar 4, 2026", paid_date="", provider="stripe")
    assert "Pack credits:   500\n" in starter and "Referral bonus: none" in starter
    assert "Paid:" not in starter and "Payment:        Stripe" in starter
