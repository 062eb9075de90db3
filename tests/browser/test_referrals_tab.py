"""The dashboard's Referrals tab (SPEC 2, 4, 5, 8, 9): the user's code and share
link, people referred, their purchases, credits earned (from the ledger), and
the "Edit code" dialog with its exact messages."""

from __future__ import annotations

import uuid

from playwright.sync_api import Page, expect
from sqlmodel import func, select

from marketplace.platform.db import session_scope
from marketplace.platform.models import CreditLedger, Profile
from marketplace.features.billing import service_demo_checkout as demo_checkout, service as purchases
from tests.browser.helpers import expect_toast, start_session, visit

INVALID_CODE = ("Invalid Code", "Referral code must be 1-15 alphanumeric characters only.")
CODE_TAKEN = ("Code Unavailable", "This referral code is already taken. Please choose another.")
CODE_UPDATED = "Referral Code Updated"

# Records every (text, disabled) state of the Save button, to catch the short 'Updating...'.
RECORD_SAVE = """
() => {
  window.__save = [];
  const record = () => {
    const el = document.getElementById('referral-edit-save');
    if (el) window.__save.push([el.textContent.trim(), el.disabled]);
  };
  record();
  new MutationObserver(record).observe(document.body, {childList: true, subtree: true, characterData: true,
                                                       attributes: true});
}
"""


def code_of(db: str, user_id: str) -> str:
    with session_scope(db) as session:
        return session.get(Profile, uuid.UUID(user_id)).referral_code


def set_code(db: str, user_id: str, code: str) -> None:
    with session_scope(db) as session:
        profile = session.get(Profile, uuid.UUID(user_id))
        profile.referral_code = code
        session.add(profile)


def refer(db: str, user_id: str, referrer_id: str) -> None:
    with session_scope(db) as session:
        profile = session.get(Profile, uuid.UUID(user_id))
        profile.referred_by = uuid.UUID(referrer_id)
        session.add(profile)


def buy(user_id: str, bundle: str, pay: bool = True) -> None:
    """A purchase through the real flow: checkout, the demo checkout page's confirm, verification."""
    uid = uuid.UUID(user_id)
    checkout = purchases.start_purchase(uid, bundle)
    if pay:
        demo_checkout.finish(checkout.id, uid, pay=True)
        purchases.verify_purchase(uid, checkout.id)


def referral_rewards(db: str, user_id: str) -> int:
    with session_scope(db) as session:
        return session.exec(
            select(func.coalesce(func.sum(CreditLedger.delta), 0))
            .where(CreditLedger.user_id == uuid.UUID(user_id), CreditLedger.reason == "referral_reward")
        ).one()


def open_referrals(page: Page, db: str, user: dict) -> None:
    start_session(page, db, user["id"])
    visit(page, "/dashboard")
    page.locator("#dashboard-tab-referrals").click()
    expect(page.locator("#referral-code")).to_be_visible()


def open_editor(page: Page) -> None:
    page.locator("#referral-edit").click()
    expect(page.locator("#referral-edit-dialog")).to_be_visible()


# --------------------------------------------------------------------------- numbers and link


def test_referral_numbers_link_and_copy(page: Page, live_server, make_user):
    db = live_server.database_url
    referrer = make_user(first_name="Rita")
    first, second = make_user(), make_user()
    refer(db, first["id"], referrer["id"])
    refer(db, second["id"], referrer["id"])
    buy(first["id"], "starter")   # $100 -> 200 credits to the referrer
    buy(first["id"], "starter")   # every purchase earns, not just the first: 200 more
    buy(second["id"], "pro")      # $270 -> 540
    buy(second["id"], "enterprise", pay=False)  # never paid: neither a purchase nor a reward
    stranger = make_user()
    buy(stranger["id"], "starter")  # not referred by Rita
    assert referral_rewards(db, referrer["id"]) == 940  # real ledger rows

    code = code_of(db, referrer["id"])
    open_referrals(page, db, referrer)
    expect(page.locator("#referral-code")).to_have_text(code)
    expect(page.locator("#referral-link")).to_have_text(f"{live_server.url}/{code}")
    expect(page.locator("#referral-people")).to_have_text("2")
    expect(page.locator("#referral-purchases")).to_have_text("3")
    expect(page.locator("#referral-earned")).to_have_text("940")
    explainer = page.locator("#referral-explainer")
    expect(explainer).to_contain_text("50% bonus credits")
    expect(explainer).to_contain_text("2 credits for every $1")

    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.locator("#referral-copy").click()
    expect_toast(page, "Copied")
    assert page.evaluate("navigator.clipboard.readText()") == f"{live_server.url}/{code}"


# Client rects of each text node inside an element: one rect per line the node spans.
TEXT_LINES = """
(el) => Array.from(el.childNodes).filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => {
  const range = document.createRange();
  range.selectNodeContents(n);
  return [n.textContent, range.getClientRects().length];
})
"""


def test_dashboard_on_a_phone(page: Page, live_server, make_user):
    """At 375 px the four tabs sit on one row inside the screen (their names stay whole),
    and the share link never breaks inside its host or its code."""
    db = live_server.database_url
    user = make_user(first_name="Pia")
    set_code(db, user["id"], "PHONEPIA2026")
    page.set_viewport_size({"width": 375, "height": 800})
    open_referrals(page, db, user)

    values = ("unlocked", "scrapes", "referrals", "settings")
    tabs = [page.locator(f"#dashboard-tab-{value}") for value in values]
    # All four read in one frame: read one by one, a line shown above them between two reads (the page
    # still settling) moved the later ones down and looked like a second row.
    boxes = page.evaluate(
        "(ids) => ids.map((id) => { const r = document.getElementById(id).getBoundingClientRect();"
        " return {x: r.x, y: r.y, width: r.width, height: r.height}; })",
        [f"dashboard-tab-{value}" for value in values])
    assert len({round(box["y"]) for box in boxes}) == 1, boxes  # one row
    assert all(box["x"] >= 0 and box["x"] + box["width"] <= 375 for box in boxes), boxes
    for tab, name in zip(tabs, ("Unlocked Leads", "Bulk Scrapes", "Referrals", "Settings")):
        expect(tab).to_have_accessible_name(name)
    assert [tab.inner_text().strip() for tab in tabs] == ["Unlocked", "Scrapes", "Referrals", "Settings"]

    link = page.locator("#referral-link")
    expect(link).to_have_text(f"{live_server.url}/PHONEPIA2026")
    parts = link.evaluate(TEXT_LINES)
    assert parts == [[f"{live_server.url}/", 1], ["PHONEPIA2026", 1]], parts
    copy = page.locator("#referral-copy").bounding_box()
    assert copy["x"] + copy["width"] <= 375


def test_referral_numbers_start_at_zero(page: Page, live_server, make_user):
    user = make_user()
    open_referrals(page, live_server.database_url, user)
    expect(page.locator("#referral-people")).to_have_text("0")
    expect(page.locator("#referral-purchases")).to_have_text("0")
    expect(page.locator("#referral-earned")).to_have_text("0")


# --------------------------------------------------------------------------- edit code


def test_edit_code_saves_upper_cased_and_reloads_the_tab(page: Page, live_server, make_user):
    db = live_server.database_url
    user = make_user()
    old = code_of(db, user["id"])
    open_referrals(page, db, user)
    open_editor(page)
    field = page.locator("#referral-edit-input")
    expect(field).to_have_value(old)  # starts from the current code
    expect(field).to_have_attribute("maxlength", "15")

    # Someone signs up with the old code meanwhile: the tab's numbers reload with the change.
    newcomer = make_user()
    refer(db, newcomer["id"], user["id"])
    new = f"vip{uuid.uuid4().hex[:8]}"
    field.fill(new)
    page.evaluate(RECORD_SAVE)
    page.locator("#referral-edit-save").click()

    expect(page.locator("#referral-edit-dialog")).to_have_count(0)
    expect(page.locator("#referral-code")).to_have_text(new.upper())
    expect(page.locator("#referral-link")).to_have_text(f"{live_server.url}/{new.upper()}")
    expect(page.locator("#referral-people")).to_have_text("1")
    expect_toast(page, CODE_UPDATED, f"Your referral code is now {new.upper()}.")
    assert code_of(db, user["id"]) == new.upper()
    states = page.evaluate("window.__save")
    assert ["Updating...", True] in states, states  # busy label, disabled while busy

    # Reopening starts from the new code.
    open_editor(page)
    expect(page.locator("#referral-edit-input")).to_have_value(new.upper())
    page.locator("#referral-edit-cancel").click()
    expect(page.locator("#referral-edit-dialog")).to_have_count(0)
    assert code_of(db, user["id"]) == new.upper()


def test_edit_code_refuses_a_bad_format(page: Page, live_server, make_user):
    db = live_server.database_url
    user = make_user()
    old = code_of(db, user["id"])
    open_referrals(page, db, user)
    open_editor(page)
    toasts = page.locator("[data-sonner-toast]")
    for bad in ("my-code!", "ab cd"):
        page.locator("#referral-edit-input").fill(bad)
        page.locator("#referral-edit-save").click()
        expect_toast(page, *INVALID_CODE)
        expect(toasts).to_have_count(1)  # a new refusal replaces the one on screen: they never pile up
        expect(page.locator("#referral-edit-dialog")).to_be_visible()  # stays open to try again
        expect(page.locator("#referral-edit-save")).to_have_text("Save")
    assert code_of(db, user["id"]) == old
    expect(page.locator("#referral-code")).to_have_text(old)

    # At most 15 characters can be typed.
    field = page.locator("#referral-edit-input")
    field.fill("")
    field.press_sequentially("ABCDEFGHIJKLMNOPQRST")
    expect(field).to_have_value("ABCDEFGHIJKLMNO")

    # A save that works takes the refusal off the screen: only the success stays.
    page.locator("#referral-edit-input").fill("ab cd")
    page.locator("#referral-edit-save").click()
    expect_toast(page, *INVALID_CODE)
    good = f"OK{uuid.uuid4().hex[:8].upper()}"
    page.locator("#referral-edit-input").fill(good)
    page.locator("#referral-edit-save").click()
    expect_toast(page, CODE_UPDATED, f"Your referral code is now {good}.")
    expect(toasts).to_have_count(1)


def test_edit_code_refuses_a_taken_code(page: Page, live_server, make_user):
    db = live_server.database_url
    user, other = make_user(), make_user()
    taken = f"TAKEN{uuid.uuid4().hex[:8].upper()}"
    set_code(db, other["id"], taken)
    old = code_of(db, user["id"])
    open_referrals(page, db, user)
    open_editor(page)
    page.locator("#referral-edit-input").fill(taken.lower())  # codes compare without case
    page.locator("#referral-edit-save").click()
    expect_toast(page, *CODE_TAKEN)
    expect(page.locator("#referral-edit-dialog")).to_be_visible()
    expect(page.locator("#referral-edit-input")).to_have_value(taken.lower())
    assert code_of(db, user["id"]) == old
    assert code_of(db, other["id"]) == taken
    expect(page.locator("#referral-code")).to_have_text(old)


def test_edit_code_blank_cannot_be_saved(page: Page, live_server, make_user):
    db = live_server.database_url
    user = make_user()
    old = code_of(db, user["id"])
    open_referrals(page, db, user)
    open_editor(page)
    field = page.locator("#referral-edit-input")
    save = page.locator("#referral-edit-save")
    expect(save).to_be_enabled()
    for blank in ("", "   "):
        field.fill(blank)
        expect(save).to_be_disabled()
        field.press("Enter")
    expect(page.locator("#referral-edit-dialog")).to_be_visible()
    expect(page.locator("[data-sonner-toast]")).to_have_count(0)
    assert code_of(db, user["id"]) == old
    field.fill("x")
    expect(save).to_be_enabled()
