"""/explorerdev's access check and overview (``features/explorer/state.py``), its real handlers on a real tab
against the test database: a member gets 'Access Denied', the grant is gone and no number is shown; a visitor is
sent home; the super admin is granted the page and sees the platform's counts."""

from __future__ import annotations

from marketplace.features.unlock import service as unlocks
from marketplace.features.explorer.state import ExplorerState
from tests.factories import add_lead
from tests.platform.tabs import background, open_tab, seen

DENIED = ("toast", "error", "Access Denied: You don't have super admin privileges", "")


def test_a_member_is_denied_and_the_grant_is_gone(db_url, new_user):
    member = new_user()
    tab = open_tab(ExplorerState, member.id, path="/explorerdev")
    tab.access_granted, tab.granted_for = True, str(member.id)
    assert seen(tab.load()) == [DENIED, ("redirect", "/")]
    assert (tab.access_granted, tab.granted_for, tab.overview_loaded, tab.total_users) == (False, "", False, "0")
    assert seen(background(tab, "run_lead_refresh")) == [DENIED, ("redirect", "/")]
    assert seen(background(tab, "fetch_images")) == [DENIED, ("redirect", "/")] and tab.operation_running == ""
    visitor = open_tab(ExplorerState, None, path="/explorerdev")
    assert seen(visitor.load()) == [("redirect", "/")] and not visitor.access_granted


def test_the_super_admin_is_granted_the_page_and_its_counts(db_url, new_user):
    admin, member = new_user(admin=True), new_user(credits=500)
    lead = add_lead(credit_cost=10)
    add_lead(is_active=False)
    unlocks.unlock_lead(member.id, str(lead))
    tab = open_tab(ExplorerState, admin.id, path="/explorerdev")
    assert seen(tab.load()) == []
    assert (tab.access_granted, tab.granted_for, tab.overview_loaded) == (True, str(admin.id), True)
    assert (tab.total_users, tab.total_leads, tab.active_leads, tab.total_unlocks) == ("2", "2", "1", "1")
    assert tab.next_run  # 'Scheduler off' or the next 8:00 AM Pacific
