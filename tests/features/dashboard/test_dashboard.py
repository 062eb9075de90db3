"""/dashboard (``features/dashboard/state.py``), its real handlers on a real tab against the test database: signed
out, the page forgets what it showed and goes to /auth; the load puts the user's numbers in state as display
strings; the referral code dialog refuses a bad or taken code with the SPEC's words and keeps the old code."""

from __future__ import annotations

import sqlalchemy as sa

from marketplace.platform.db import get_engine
from marketplace.platform.models import Profile
from marketplace.features.unlock import service as unlocks
from marketplace.features.dashboard.state import DashboardState
from tests.factories import add_lead
from tests.platform.tabs import open_tab, seen, toasts


def _code(user_id) -> str:
    t = Profile.__table__
    with get_engine().connect() as conn:
        return conn.execute(sa.select(t.c.referral_code).where(t.c.user_id == user_id)).scalar_one()


def _dashboard(new_user, credits: int = 1_500, unlocked: int = 2):
    user = new_user(credits=credits)
    for n in range(unlocked):
        unlocks.unlock_lead(user.id, str(add_lead(address=f"{n + 1} Birch Ave", roi=10.0 + 10 * n, credit_cost=120)))
    return user, open_tab(DashboardState, user.id, path="/dashboard")


def test_signed_out_the_page_forgets_what_it_showed_and_goes_to_sign_in(db_url):
    tab = open_tab(DashboardState, None, path="/dashboard", query={"tab": "referrals"})
    tab.leads_unlocked, tab.unlocked, tab.my_referral_code, tab.loaded_for = "7", [{"lead_id": "x"}], "OLD", "u"
    assert seen(tab.load()) == [("redirect", "/auth")]
    assert (tab.leads_unlocked, tab.unlocked, tab.my_referral_code, tab.loaded_for) == ("0", [], "", "")
    assert tab.tab == "referrals"  # the address's tab, for when they come back
    tab.code_dialog_open = True
    assert seen(tab.save_code({"code": "MINE"})) == [("redirect", "/auth")] and not tab.code_dialog_open
    assert seen(tab.load_more_unlocked()) == [("redirect", "/auth")]
    assert seen(tab.export_scrape("x")) == [("redirect", "/auth")]


def test_the_load_puts_the_users_numbers_in_state(db_url, new_user):
    user, tab = _dashboard(new_user, credits=1_500, unlocked=2)
    assert seen(tab.load()) == []
    assert (tab.loaded_for, tab.load_failed) == (str(user.id), False)
    assert (tab.leads_unlocked, tab.credits, tab.credits_stat, tab.credits_label) == ("2", 1_260, "1,260",
                                                                                      "1,260 credits")
    assert (tab.avg_roi, tab.this_month) == ("15.0%", "2")
    assert sorted(r["address"] for r in tab.unlocked) == ["1 Birch Ave", "2 Birch Ave"]
    assert {r["credit_cost"] for r in tab.unlocked} == {"120"} and tab.unlocked[0]["place"] == "Austin, TX 78701"
    assert (tab.unlocked_summary, tab.unlocked_has_more) == ("Showing 2 of 2 unlocked leads, newest first", False)
    assert (tab.first_name, tab.last_name, tab.scrapes) == ("Test", "User", [])
    assert tab.my_referral_code == _code(user.id) and tab.referral_link == f"{tab.site_base}/{_code(user.id)}"
    assert (tab.referred_users, tab.referral_purchases, tab.referral_earned) == ("0", "0", "0")
    assert seen(tab.load_more_unlocked()) == [] and len(tab.unlocked) == 2  # nothing more


def test_a_bad_or_taken_code_is_refused_and_the_old_one_stays(db_url, new_user):
    other = new_user()
    user, tab = _dashboard(new_user, unlocked=0)
    seen(tab.load())
    old = tab.my_referral_code
    tab.set_code_dialog_open(True)
    assert (tab.code_dialog_open, tab.code_input) == (True, old)
    events = seen(tab.save_code({"code": "no spaces!"}))
    assert toasts(events) == [("error", "Invalid Code", "Referral code must be 1-15 alphanumeric characters only.")]
    assert (tab.code_dialog_open, tab.code_saving, tab.my_referral_code, _code(user.id)) == (True, False, old, old)
    events = seen(tab.save_code({"code": _code(other.id).lower()}))
    assert toasts(events) == [("error", "Code Unavailable",
                               "This referral code is already taken. Please choose another.")]
    assert _code(user.id) == old and tab.code_dialog_open


def test_a_new_code_is_saved_once_and_shown(db_url, new_user):
    user, tab = _dashboard(new_user, unlocked=0)
    seen(tab.load())
    tab.set_code_dialog_open(True)
    tab.set_code_input("deals2026" + "x" * 20)
    assert tab.code_input == "deals2026xxxxxx"  # at most 15 characters
    events = seen(tab.save_code({"code": "deals2026"}))
    assert ("toast", "success", "Referral Code Updated", "Your referral code is now DEALS2026.") in events
    assert (tab.code_dialog_open, tab.code_input, tab.my_referral_code, _code(user.id)) == (
        False, "DEALS2026", "DEALS2026", "DEALS2026")
    assert tab.referral_link == f"{tab.site_base}/DEALS2026"


def test_tabs_have_addresses_and_junk_is_ignored(db_url, new_user):
    user, tab = _dashboard(new_user, unlocked=0)
    seen(tab.load())
    assert seen(tab.set_tab("pipeline")) == [("redirect", "/dashboard?tab=pipeline")] and tab.tab == "pipeline"
    assert seen(tab.set_tab("admin")) == [] and tab.tab == "pipeline"
    assert seen(tab.export_scrape("not-one-of-mine")) == []
