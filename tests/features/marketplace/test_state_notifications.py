"""The header's bell (``features/marketplace/state_notifications.py``), its real handlers on a real tab against the test
database: signed out, the bell forgets everything; the count and list are this user's only; a hand-sent
id of another user's notification marks nothing; following one marks it read at the next page load."""

from __future__ import annotations

from datetime import timedelta

from marketplace.platform.db import session_scope
from marketplace.platform.models import Notification, utcnow
from marketplace.features.marketplace import service_notifications as svc
from marketplace.features.property import service_pipeline as pipeline
from marketplace.features.unlock import service as unlocks
from marketplace.features.marketplace.state_notifications import NotificationsState
from tests.factories import add_lead, make_refresh_run
from tests.platform.tabs import open_tab, seen

PROBATE = {"id": 1, "name": "Austin probate", "query": "type=Probate", "count": 3}


def _notify(user_id, run_id, lead_count=3, minutes_ago=0) -> int:
    with session_scope() as s:
        row = Notification(user_id=user_id, refresh_run_id=run_id, lead_count=lead_count,
                           matches={"searches": [PROBATE], "lead_ids": []},
                           created_at=utcnow() - timedelta(minutes=minutes_ago))
        s.add(row)
        s.flush()
        return row.id


def test_signed_out_the_bell_forgets_everything(db_url, new_user):
    user = new_user()
    _notify(user.id, make_refresh_run("r1"))
    tab = open_tab(NotificationsState, None)
    tab.unread, tab.list_open = 4, True
    seen(tab.refresh_count())
    assert (tab.unread, tab.items, tab.list_open, tab.bell_label) == (0, [], False, "Notifications")
    assert seen(tab.set_list_open(True)) == [] and (tab.list_open, tab.items) == (False, [])
    seen(tab.mark_all_read())
    assert svc.unread_count(user.id) == 1


def test_the_count_and_the_list_are_this_users(db_url, new_user):
    user, other = new_user(), new_user()
    first, second = make_refresh_run("r1"), make_refresh_run("r2")
    older = _notify(user.id, first, minutes_ago=60)
    newer = _notify(user.id, second, lead_count=5)
    theirs = _notify(other.id, first)
    tab = open_tab(NotificationsState, user.id)
    seen(tab.refresh_count())
    assert (tab.unread, tab.unread_badge, tab.bell_label) == (2, "2", "Notifications, 2 unread")
    seen(tab.set_list_open(True))
    assert [row.id for row in tab.items] == [str(newer), str(older)]
    assert (tab.list_open, tab.list_loading, tab.items[0].unread, tab.items[0].url) == (True, False, True,
                                                                                        "/marketplace?type=Probate")
    tab.open_item(str(theirs))  # not in this user's list: nothing
    assert (tab.unread, tab._followed) == (2, 0)
    tab.open_item(str(older))
    assert (tab.unread, tab._followed, tab.list_open) == (1, older, False)
    assert svc.unread_count(user.id) == 2  # marked by the page the link opens, not before
    seen(tab.refresh_count())
    assert (svc.unread_count(user.id), svc.unread_count(other.id), tab.unread) == (1, 1, 1)
    seen(tab.mark_all_read())
    assert (svc.unread_count(user.id), svc.unread_count(other.id), tab.unread) == (0, 1, 0)
    assert not any(row.unread for row in tab.items)


def test_a_follow_up_due_today_rings_the_bell(db_url, new_user):
    user = new_user(credits=500)
    lead = str(add_lead(address="5 Due St", credit_cost=10))
    unlocks.unlock_lead(user.id, lead)
    today = utcnow().date()  # the tab's zone is UTC
    pipeline.save_entry(user.id, lead, "contacted", "", today.isoformat(), "", today)
    tab = open_tab(NotificationsState, user.id)
    seen(tab.refresh_count())
    assert (tab.due, tab.badge_count, tab.bell_label) == (1, 1, "Notifications, 1 follow-up due")
    seen(tab.set_list_open(True))
    (row,) = tab.follow_ups
    assert (row.title, row.url) == ("Follow-up due today", f"/property/{lead}")
    assert row.body.startswith("5 Due St · Contacted · due ")
