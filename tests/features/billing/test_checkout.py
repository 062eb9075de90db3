"""The demo checkout and /credits-purchased (``features/billing/state_checkout.py``), their real handlers on real tabs
against the test database: only the checkout's owner sees it or pays it; Pay credits the pack once on the server;
the result page reads back what was credited, and a missing or foreign session id is a failure, never credits."""

from __future__ import annotations

from marketplace.platform.db import session_scope
from marketplace.platform import ledger
from marketplace.features.billing import service as purchases
from marketplace.features.billing.state_checkout import CreditsPurchasedState, DemoCheckoutState
from tests.platform.tabs import open_tab, seen, toasts

ISSUE = "There was an issue verifying your purchase. Please contact support at "


def _balance(user_id) -> int:
    with session_scope() as session:
        return ledger.balance(session, user_id)


def _checkout(user_id, pack: str = "starter") -> str:
    return purchases.start_purchase(user_id, pack, None, origin="http://localhost:3000").id


def _page(user, checkout_id):
    return open_tab(DemoCheckoutState, user.id if user else None, path=f"/demo-checkout/{checkout_id}")


def test_only_the_owner_sees_or_pays_the_checkout(db_url, new_user):
    owner, other = new_user(), new_user()
    checkout_id = _checkout(owner.id)
    signed_out = _page(None, checkout_id)
    seen(signed_out.load())
    assert signed_out.status == "signed_out" and seen(signed_out.pay()) == [] and signed_out.status == "signed_out"
    foreign = _page(other, checkout_id)
    seen(foreign.load())
    assert (foreign.status, foreign.pack_name) == ("not_found", "")
    assert seen(foreign.pay()) == [] and foreign.status == "not_found"
    assert (_balance(owner.id), _balance(other.id)) == (0, 0)


def test_pay_credits_the_pack_once(db_url, new_user):
    owner = new_user(credits=20)
    checkout_id = _checkout(owner.id, "pro")
    page = _page(owner, checkout_id)
    seen(page.load())
    assert (page.status, page.checkout_status, page.pack_name, page.pack_credits, page.amount) == (
        "ready", "open", "Pro", "1,500", "$270.00")
    assert (page.per_credit, page.pack_breakdown, page.referral_bonus) == ("$0.18", "1,250 + 250 bonus (20%)", "")
    (kind, target), = seen(page.pay())
    assert kind == "redirect" and target.endswith(f"?session_id={checkout_id}")
    assert (page.checkout_status, page.busy, _balance(owner.id)) == ("complete", False, 1_520)
    seen(page.pay())  # a second Pay (another tab, a double click): nothing more
    assert _balance(owner.id) == 1_520

    result = open_tab(CreditsPurchasedState, owner.id, path="/credits-purchased", query={"session_id": checkout_id})
    assert seen(result.load()) == []
    assert (result.status, result.page_title, result.credits_added, result.new_balance, result.credits) == (
        "success", "Purchase Complete", "1,500", "1,520", 1_520)
    assert (result.pack_name, result.bonus_credits, result.first_purchase_done) == ("Pro", "", True)


def test_the_result_page_refuses_a_missing_or_foreign_session(db_url, new_user):
    owner, other = new_user(), new_user()
    checkout_id = _checkout(owner.id)
    missing = open_tab(CreditsPurchasedState, owner.id, path="/credits-purchased")
    (toast,) = toasts(seen(missing.load()))
    assert toast[:2] == ("error", "Missing session ID") and toast[2].startswith(ISSUE)
    assert (missing.status, missing.page_title) == ("failed", "No Purchase to Verify")
    foreign = open_tab(CreditsPurchasedState, other.id, path="/credits-purchased", query={"session_id": checkout_id})
    (toast,) = toasts(seen(foreign.load()))
    assert toast[:2] == ("error", "Failed to verify purchase")
    assert (foreign.status, foreign.new_balance, _balance(other.id), _balance(owner.id)) == ("failed", "", 0, 0)
    signed_out = open_tab(CreditsPurchasedState, None, path="/credits-purchased", query={"session_id": checkout_id})
    assert seen(signed_out.load()) == [] and signed_out.status == "signed_out"


def test_cancel_sends_back_to_the_packs_and_credits_nothing(db_url, new_user):
    owner = new_user()
    checkout_id = _checkout(owner.id)
    page = _page(owner, checkout_id)
    seen(page.load())
    (kind, target), = seen(page.cancel())
    assert kind == "redirect" and target == "http://localhost:3000/purchase-credits?canceled=1&pack=starter"
    assert _balance(owner.id) == 0
    seen(page.pay())  # a canceled checkout cannot be paid afterwards
    assert _balance(owner.id) == 0
