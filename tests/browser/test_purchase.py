"""Buying credits in Chromium: /pricing (packs, FAQ, referral box),
/purchase-credits, the built-in TEST MODE checkout (in a new tab) and
/credits-purchased, checked against the live app's database.

The live server runs without ``STRIPE_SECRET_KEY``, so every checkout is the
demo checkout at /demo-checkout/{id}.
"""

from __future__ import annotations

import re
import uuid

import sqlalchemy as sa
from playwright.sync_api import BrowserContext, Page, expect
from sqlmodel import func, select

from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import CreditLedger, CreditPurchase, DemoCheckout, Profile, User
from marketplace.features.billing import service_demo_checkout as demo_checkout, service as purchases
from marketplace.platform import ledger
from tests.browser.helpers import (
    confirmation_link,
    expect_toast,
    record_labels,
    recorded_labels,
    reload,
    start_session,
    visit,
)

INVALID_CODE = "Invalid referral code. Please check and try again."
OWN_CODE_HINT = "That is your own referral code. Share it with other investors to earn credits."
CODE_APPLIED = "Code applied! You'll get 50% bonus credits on your first purchase."
AUTH_REQUIRED = "Authentication Required: Please log in to purchase credits"
PAID_SHORTLY = "If your payment went through, the credits will be added to your account shortly."
VERIFY_ISSUE = "There was an issue verifying your purchase. Please contact support at support@leadvault.app."
CANCELED_NOTE = "Checkout canceled — no charge was made."
PACKS = [
    # id, name, price, per credit, credits
    ("starter", "Starter", "$100", "$0.20", "500 credits"),
    ("pro", "Pro", "$270", "$0.18", "1,500 credits"),
    ("enterprise", "Enterprise", "$750", "$0.15", "5,000 credits"),
]


# --------------------------------------------------------------------------- helpers


def referral_code_of(db_url: str, user_id: str) -> str:
    with session_scope(db_url) as session:
        return session.get(Profile, uuid.UUID(user_id)).referral_code


def balance_of(db_url: str, user_id: str | uuid.UUID) -> int:
    """The profile balance, asserted equal to the ledger's sum."""
    uid = uuid.UUID(str(user_id))
    with session_scope(db_url) as session:
        value = ledger.balance(session, uid)
        assert value == ledger.ledger_sum(session, uid)
        return value


def ledger_rows(db_url: str, user_id: str | uuid.UUID, reason: str | None = None) -> list[CreditLedger]:
    with session_scope(db_url) as session:
        query = select(CreditLedger).where(CreditLedger.user_id == uuid.UUID(str(user_id)))
        if reason:
            query = query.where(CreditLedger.reason == reason)
        return list(session.exec(query.order_by(CreditLedger.id)))


def session_storage(page: Page, key: str = "referral_code"):
    return page.evaluate("(k) => window.sessionStorage.getItem(k)", key)


def sign_up(page: Page, first: str, email: str, db: str) -> None:
    visit(page, "/auth")
    page.locator("#tab-signup").click()
    page.locator("#signup-first-name").fill(first)
    page.locator("#signup-last-name").fill("Buyer")
    page.locator("#signup-email").fill(email)
    page.locator("#signup-password").fill("secret123")
    page.locator("#signup-confirm-password").fill("secret123")
    page.locator("#signup-submit").click()
    expect(page.locator("#signup-check-email")).to_be_visible()
    # Sign-up signs no one in: the link in the confirmation e-mail does (same tab).
    visit(page, confirmation_link(db, email))
    page.wait_for_url("**/dashboard")


def open_checkout(page: Page, context: BrowserContext) -> Page:
    """Click the purchase button; the demo checkout opens in a new tab."""
    with context.expect_page() as new_page:
        page.locator("#purchase-button").click()
    checkout = new_page.value
    checkout.wait_for_url(re.compile(r"/demo-checkout/demo_cs_[\w-]+$"))
    expect(checkout.locator("#demo-mode-banner")).to_have_text("TEST MODE — no real payment is made")
    expect(page.locator("#checkout-opened")).to_be_visible()  # the buying tab says where the checkout went
    return checkout


def buy_starter(page: Page, context: BrowserContext, live_server) -> Page:
    """Starter through the demo checkout; returns the tab showing /credits-purchased."""
    visit(page, "/purchase-credits?pack=starter")
    expect(page.locator("#pack-option-starter")).to_have_attribute("data-state", "checked")
    expect(page.locator("#purchase-button")).to_be_enabled()
    checkout = open_checkout(page, context)
    expect(checkout.locator("#demo-checkout-pack")).to_have_text("Starter")
    expect(checkout.locator("#demo-checkout-credits")).to_have_text("500")
    expect(checkout.locator("#demo-checkout-amount")).to_have_text("$100.00")
    expect(checkout.locator("#demo-checkout-pay")).to_have_text("Pay $100.00")
    checkout.locator("#demo-checkout-pay").click()
    checkout.wait_for_url(re.compile(r"/credits-purchased\?session_id=demo_cs_[\w-]+$"))
    expect(checkout.locator("#purchase-success")).to_be_visible()
    expect(checkout).to_have_title("Purchase Complete | LeadVault")
    return checkout


# --------------------------------------------------------------------------- the end-to-end flow


def test_referral_sign_up_and_two_starter_purchases(page: Page, live_server, make_user):
    db = live_server.database_url
    referrer = make_user(first_name="Rita")
    code = referral_code_of(db, referrer["id"])

    # A visitor follows the referral link: the code is kept in session storage.
    visit(page, f"/{code}")
    page.wait_for_url(f"{live_server.url}/")
    assert session_storage(page) == code

    email = f"buyer-{uuid.uuid4().hex[:10]}@example.com"
    sign_up(page, "Bea", email, db)
    with session_scope(db) as session:
        buyer_id = session.exec(select(User.id).where(User.email == email)).one()
    assert balance_of(db, buyer_id) == 0

    # The first purchase (Starter) shows and gets the 50% referral bonus.
    visit(page, "/purchase-credits")
    page.locator("#pack-option-starter").click()
    expect(page.locator("#summary-pack")).to_have_text("Starter")
    expect(page.locator("#summary-price")).to_have_text("$100")
    expect(page.locator("#summary-bonus")).to_have_text("+250")
    expect(page.locator("#summary-total-credits")).to_have_text("750 credits")
    expect(page.locator("#purchase-referral")).to_be_visible()
    checkout = buy_starter(page, page.context, live_server)
    expect(checkout.locator("#purchase-success")).to_contain_text("Credits added!")
    expect(checkout.locator("#purchase-credits-added")).to_have_text("750")
    expect(checkout.locator("#purchase-success-message")).to_have_text(
        "750 credits have been added to your account")
    expect(checkout.locator("#purchase-bonus")).to_have_text("+250")
    expect(checkout.locator("#purchase-new-balance")).to_have_text("750 credits")
    expect(checkout.locator("#purchase-to-marketplace")).to_have_attribute("href", "/marketplace")
    expect(checkout.locator("#purchase-to-dashboard")).to_have_attribute("href", "/dashboard")

    assert balance_of(db, buyer_id) == 750
    assert [(r.reason, r.delta) for r in ledger_rows(db, buyer_id)] == [("purchase", 500), ("referral_bonus", 250)]
    assert balance_of(db, referrer["id"]) == 200
    assert [r.delta for r in ledger_rows(db, referrer["id"], "referral_reward")] == [200]

    # Visiting the result page again credits nothing more.
    reload(checkout)
    expect(checkout.locator("#purchase-credits-added")).to_have_text("750")
    assert balance_of(db, buyer_id) == 750
    assert len(ledger_rows(db, buyer_id)) == 2
    assert balance_of(db, referrer["id"]) == 200

    # The dashboard and the marketplace show the new balance.
    checkout.locator("#purchase-to-dashboard").click()
    checkout.wait_for_url("**/dashboard")
    expect(checkout.locator("#dashboard-credits")).to_have_text("750 credits")
    visit(page, "/purchase-credits")
    expect(page.locator("#purchase-balance")).to_have_text("750 credits")
    checkout.close()

    # A second purchase: 500 credits, no bonus; the referrer earns 200 again.
    expect(page.locator("#summary-bonus")).to_have_count(0)
    expect(page.locator("#purchase-referral")).to_have_count(0)
    second = buy_starter(page, page.context, live_server)
    expect(second.locator("#purchase-credits-added")).to_have_text("500")
    expect(second.locator("#purchase-bonus")).to_have_count(0)
    expect(second.locator("#purchase-new-balance")).to_have_text("1,250 credits")
    assert balance_of(db, buyer_id) == 1250
    assert balance_of(db, referrer["id"]) == 400
    with session_scope(db) as session:
        bought = session.exec(select(CreditPurchase).where(CreditPurchase.user_id == buyer_id)).all()
        assert sorted((p.status, p.credits, p.bonus_credits) for p in bought) == [("paid", 500, 0), ("paid", 500, 250)]
        referrer_profile = session.get(Profile, uuid.UUID(referrer["id"]))
        assert referrer_profile.credits_remaining == 400
        assert session.get(Profile, buyer_id).referred_by == uuid.UUID(referrer["id"])


# --------------------------------------------------------------------------- /purchase-credits


def test_purchase_page_signed_out(page: Page):
    visit(page, "/purchase-credits")
    notice = page.locator("#purchase-auth-required")
    expect(notice).to_be_visible()
    expect(page.locator("#purchase-auth-message")).to_have_text(AUTH_REQUIRED)
    expect(page.locator("#purchase-login")).to_have_attribute("href", "/auth")
    expect(page.locator("#purchase-button")).to_have_count(0)
    for pack_id, name, price, _, _ in PACKS:
        expect(page.locator(f"#pack-option-{pack_id}")).to_contain_text(name)
        expect(page.locator(f"#pack-option-{pack_id}")).to_contain_text(price)
    expect(page.locator("#pack-option-pro")).to_have_attribute("data-state", "checked")
    page.locator("#purchase-login").click()
    page.wait_for_url("**/auth")


def test_pack_query_preselects_and_cancel_returns_without_credits(page: Page, live_server, make_user):
    db = live_server.database_url
    user = make_user()
    start_session(page, db, user["id"])
    visit(page, "/purchase-credits?pack=enterprise")
    expect(page.locator("#pack-option-enterprise")).to_have_attribute("data-state", "checked")
    expect(page.locator("#summary-pack")).to_have_text("Enterprise")
    expect(page.locator("#summary-price")).to_have_text("$750")
    expect(page.locator("#summary-per-credit")).to_have_text("$0.15")
    expect(page.locator("#purchase-button")).to_have_text("Purchase Enterprise · $750")
    expect(page.locator("#purchase-canceled")).to_have_count(0)

    checkout = open_checkout(page, page.context)
    expect(checkout.locator("#demo-checkout-pay")).to_have_text("Pay $750.00")
    expect(checkout.locator("#demo-checkout-credits")).to_have_text("5,000")
    checkout.locator("#demo-checkout-cancel").click()
    checkout.wait_for_url(re.compile(r"/purchase-credits/?\?canceled=1&pack=enterprise$"))
    expect(checkout.locator("#purchase-canceled")).to_have_text(CANCELED_NOTE)
    expect(checkout.locator("#pack-option-enterprise")).to_have_attribute("data-state", "checked")
    assert balance_of(db, user["id"]) == 0
    with session_scope(db) as session:
        purchase = session.exec(select(CreditPurchase).where(CreditPurchase.user_id == uuid.UUID(user["id"]))).one()
        assert purchase.status == "pending"
        assert session.get(DemoCheckout, purchase.provider_session_id).status == "expired"
        session_id = purchase.provider_session_id

    # The canceled session cannot be verified afterwards, and cannot be paid any more.
    visit(checkout, f"/credits-purchased?session_id={session_id}")
    expect(checkout.locator("#purchase-error")).to_have_text("Failed to verify purchase")
    expect(checkout).to_have_title("Purchase Not Verified | LeadVault")
    visit(checkout, f"/demo-checkout/{session_id}")
    expect(checkout.locator("#demo-checkout-finished")).to_have_text("This checkout was canceled.")
    expect(checkout.locator("#demo-checkout-pay")).to_have_count(0)
    assert balance_of(db, user["id"]) == 0


def test_canceled_starter_checkout_comes_back_with_starter_selected(page: Page, live_server, make_user):
    user = make_user()
    start_session(page, live_server.database_url, user["id"])
    visit(page, "/purchase-credits?pack=starter")
    expect(page.locator("#pack-option-starter")).to_have_attribute("data-state", "checked")
    checkout = open_checkout(page, page.context)
    checkout.locator("#demo-checkout-cancel").click()
    checkout.wait_for_url(re.compile(r"/purchase-credits/?\?canceled=1&pack=starter$"))
    expect(checkout.locator("#purchase-canceled")).to_have_text(CANCELED_NOTE)
    expect(checkout.locator("#pack-option-starter")).to_have_attribute("data-state", "checked")
    expect(checkout.locator("#pack-option-pro")).to_have_attribute("data-state", "unchecked")
    expect(checkout.locator("#summary-pack")).to_have_text("Starter")


def test_purchase_start_failure_shows_error_toast(page: Page, live_server, make_user):
    """Any unexpected failure while opening the checkout: toast Error / 'Failed to initiate purchase'."""
    db = live_server.database_url
    user = make_user()
    start_session(page, db, user["id"])
    trigger = f"fail_checkout_{uuid.uuid4().hex[:8]}"
    with get_engine(db).begin() as conn:
        conn.execute(sa.text(
            f"CREATE TRIGGER {trigger} BEFORE INSERT ON test_checkouts "
            f"WHEN NEW.user_id = '{uuid.UUID(user['id']).hex}' BEGIN SELECT RAISE(ABORT, 'down'); END"
        ))
    try:
        visit(page, "/purchase-credits?pack=starter")
        pages_before = len(page.context.pages)
        page.locator("#purchase-button").click()
        expect_toast(page, "Error", "Failed to initiate purchase")
        expect(page.locator("#purchase-button")).to_be_enabled()
        expect(page.locator("#checkout-opened")).to_have_count(0)
        assert len(page.context.pages) == pages_before
    finally:
        with get_engine(db).begin() as conn:
            conn.execute(sa.text(f"DROP TRIGGER IF EXISTS {trigger}"))
    with session_scope(db) as session:
        assert session.exec(select(func.count()).select_from(CreditPurchase)
                            .where(CreditPurchase.user_id == uuid.UUID(user["id"]))).one() == 0
    assert balance_of(db, user["id"]) == 0


# --------------------------------------------------------------------------- /credits-purchased


def test_credits_purchased_without_session_id(page: Page, live_server, make_user):
    user = make_user()
    start_session(page, live_server.database_url, user["id"])
    visit(page, "/credits-purchased")
    expect(page.locator("#purchase-failed")).to_be_visible()
    expect(page.locator("#purchase-error")).to_have_text("Missing session ID")
    expect(page).to_have_title("No Purchase to Verify | LeadVault")
    expect(page.locator("#purchase-failed-note")).to_have_text(PAID_SHORTLY)
    expect_toast(page, "Missing session ID", VERIFY_ISSUE)
    expect(page.locator("#purchase-success")).to_have_count(0)


def test_credits_purchased_with_bogus_or_foreign_session(page: Page, live_server, make_user):
    db = live_server.database_url
    owner = make_user()
    other = make_user()
    # The owner starts (and pays) a checkout outside the browser.
    checkout = purchases.start_purchase(uuid.UUID(owner["id"]), "starter")
    start_session(page, db, other["id"])

    visit(page, "/credits-purchased?session_id=demo_cs_doesnotexist")
    expect(page.locator("#purchase-error")).to_have_text("Failed to verify purchase")
    expect(page).to_have_title("Purchase Not Verified | LeadVault")
    expect(page.locator("#purchase-failed-note")).to_have_text(PAID_SHORTLY)
    expect_toast(page, "Failed to verify purchase", VERIFY_ISSUE)

    # Someone else's checkout: not shown, cannot be paid or verified by this user.
    visit(page, f"/demo-checkout/{checkout.id}")
    expect(page.locator("#demo-checkout-not-found")).to_contain_text("Checkout not found")
    expect(page.locator("#demo-checkout-pay")).to_have_count(0)
    expect(page.locator("#demo-checkout-amount")).to_have_count(0)
    demo_checkout.finish(checkout.id, uuid.UUID(owner["id"]), pay=True)
    visit(page, f"/credits-purchased?session_id={checkout.id}")
    expect(page.locator("#purchase-error")).to_have_text("Failed to verify purchase")
    expect(page.locator("#purchase-failed-note")).to_have_text(PAID_SHORTLY)
    assert balance_of(db, other["id"]) == 0
    assert balance_of(db, owner["id"]) == 500  # credited once, by the owner's Pay; nothing by the other's visit


def test_credits_purchased_signed_out_asks_to_log_in(page: Page, live_server, make_user):
    owner = make_user()
    checkout = purchases.start_purchase(uuid.UUID(owner["id"]), "starter")
    visit(page, f"/credits-purchased?session_id={checkout.id}")
    expect(page.locator("#purchase-signed-out")).to_contain_text("Please log in")
    expect(page).to_have_title("Log In to Verify Purchase | LeadVault")
    expect(page.locator("#purchase-signed-out-login")).to_have_attribute("href", "/auth")
    visit(page, f"/demo-checkout/{checkout.id}")
    expect(page.locator("#demo-checkout-signed-out")).to_be_visible()
    expect(page.locator("#demo-checkout-pay")).to_have_count(0)
    assert balance_of(live_server.database_url, owner["id"]) == 0


# --------------------------------------------------------------------------- /pricing


def test_pricing_page_packs_faq_and_support(page: Page):
    visit(page, "/pricing")
    for pack_id, name, price, per_credit, credits in PACKS:
        card = page.locator(f"#pack-card-{pack_id}")
        expect(card).to_contain_text(name)
        expect(page.locator(f"#pack-price-{pack_id}")).to_have_text(price)
        expect(page.locator(f"#pack-per-credit-{pack_id}")).to_have_text(per_credit)
        expect(page.locator(f"#pack-credits-{pack_id}")).to_have_text(credits)
        expect(card).to_contain_text(f"{per_credit} per credit")
        expect(page.locator(f"#pack-cta-{pack_id}")).to_have_attribute("href", f"/purchase-credits?pack={pack_id}")
    expect(page.locator("#pack-popular-pro")).to_have_text("Most Popular")
    expect(page.get_by_text("Most Popular")).to_have_count(1)
    expect(page.locator("#pack-card-pro")).to_contain_text("20% bonus credits")
    expect(page.locator("#pack-card-enterprise")).to_contain_text("40% bonus credits")
    for pack_id in ("starter", "pro"):
        expect(page.locator(f"#pack-card-{pack_id}")).to_contain_text("Credits never expire")
    expect(page.locator("#pack-card-enterprise")).not_to_contain_text("Credits never expire")

    # The referral box sits above the cards.
    box = page.locator("#referral-box").bounding_box()
    cards = page.locator("#pricing-packs").bounding_box()
    assert box["y"] + box["height"] <= cards["y"]

    faq = page.locator("#pricing-faq")
    expect(faq).to_contain_text("150 credits at 90-100, 120 at 80-89, 60 at 60-79 and 30 at 30-59")
    expect(faq).to_contain_text("a lead scored 80 or higher costs 120 or 150 credits, or 85 where it has no price "
                                "listed: typically 85-150 credits to unlock.")
    expect(faq).to_contain_text("Credits never expire")
    expect(faq).to_contain_text("Can I get the owner's phone number and e-mail?")
    expect(faq).to_contain_text("2 credits per owner found, charged only when at least one phone number or e-mail "
                                "is found")
    expect(faq).to_contain_text("50% bonus credits on their first purchase")
    expect(faq).to_contain_text("2 credits for every $1")
    expect(page.locator("#pricing-avg-roi")).to_have_text("23%")
    expect(page.locator("#why-choose")).to_contain_text("Why investors choose LeadVault")
    expect(page.locator("#pricing-email-support")).to_have_attribute("href", "mailto:support@leadvault.app")
    expect(page.locator("#pricing-email-support")).to_have_text("Email Support")
    expect(page.locator("#pricing-schedule-call")).to_have_text("Schedule Call")
    expect(page.locator("#pricing-schedule-call")).to_have_attribute("target", "_blank")
    expect(page.locator("#pricing-schedule-call")).to_have_attribute("href", re.compile(r"^https://"))

    page.locator("#pack-cta-pro").click()
    page.wait_for_url("**/purchase-credits?pack=pro")
    expect(page.locator("#pack-option-pro")).to_have_attribute("data-state", "checked")


# --------------------------------------------------------------------------- the referral code box


def test_referral_box_blank_invalid_and_valid(page: Page, live_server, make_user):
    referrer = make_user()
    code = referral_code_of(live_server.database_url, referrer["id"])
    visit(page, "/pricing")
    field = page.get_by_label("Referral code")
    expect(field).to_have_attribute("maxlength", "15")
    apply = page.locator("#referral-apply")
    expect(apply).to_have_text("Apply")
    expect(apply).to_be_disabled()  # blank
    field.fill("   ")
    expect(apply).to_be_disabled()

    field.fill("NOSUCHCODE1")
    expect(apply).to_be_enabled()
    apply.click()
    expect(page.locator("#referral-invalid-message")).to_have_text(INVALID_CODE)
    expect(page.locator("#referral-valid")).to_have_count(0)
    assert not session_storage(page)

    field.fill("x" * 20)
    expect(field).to_have_value("x" * 15)

    field.fill(code.lower())
    expect(page.locator("#referral-invalid")).to_have_count(0)  # editing clears the old verdict
    record_labels(page, "referral-apply")
    apply.click()
    expect(page.locator("#referral-valid-message")).to_have_text(CODE_APPLIED)
    expect(page.locator("#referral-applied-code")).to_have_text(code)
    assert session_storage(page) == code
    labels = recorded_labels(page)
    assert "Validating code..." in labels, labels
    expect(apply).to_have_text("Apply")

    # Re-validated on load and shown as applied.
    reload(page)
    expect(page.locator("#referral-valid-message")).to_have_text(CODE_APPLIED)
    expect(field).to_have_value(code)

    # An invalid code clears the stored one.
    field.fill("WRONG2")
    apply.click()
    expect(page.locator("#referral-invalid-message")).to_have_text(INVALID_CODE)
    assert not session_storage(page)
    reload(page)
    expect(page.locator("#referral-valid")).to_have_count(0)
    expect(field).to_have_value("")


def test_referral_box_refuses_own_code(page: Page, live_server, make_user):
    user = make_user()
    start_session(page, live_server.database_url, user["id"])
    own = referral_code_of(live_server.database_url, user["id"])
    visit(page, "/pricing")
    page.get_by_label("Referral code").fill(own)
    page.locator("#referral-apply").click()
    expect(page.locator("#referral-own-code")).to_have_text(OWN_CODE_HINT)
    expect(page.locator("#referral-invalid-message")).to_have_count(0)
    assert not session_storage(page)


def test_stale_captured_code_is_cleared_on_load(page: Page, live_server):
    visit(page, "/NOBODY42")
    page.wait_for_url(f"{live_server.url}/")
    assert session_storage(page) == "NOBODY42"
    visit(page, "/pricing")
    expect(page.locator("#referral-invalid-message")).to_have_text(INVALID_CODE)
    expect(page.get_by_label("Referral code")).to_have_value("NOBODY42")
    page.wait_for_function("() => !window.sessionStorage.getItem('referral_code')")


def test_code_applied_on_pricing_gives_first_purchase_bonus(page: Page, live_server, make_user):
    """A code entered in the box (not a referral link) binds the referrer at the first purchase."""
    db = live_server.database_url
    referrer = make_user()
    buyer = make_user()
    code = referral_code_of(db, referrer["id"])
    start_session(page, db, buyer["id"])
    visit(page, "/pricing")
    page.get_by_label("Referral code").fill(code)
    page.locator("#referral-apply").click()
    expect(page.locator("#referral-valid")).to_be_visible()
    page.locator("#pack-cta-starter").click()
    page.wait_for_url("**/purchase-credits?pack=starter")
    expect(page.locator("#summary-bonus")).to_have_text("+250")
    result = buy_starter(page, page.context, live_server)
    expect(result.locator("#purchase-credits-added")).to_have_text("750")
    assert balance_of(db, buyer["id"]) == 750
    assert balance_of(db, referrer["id"]) == 200
