"""In-app notifications: the bell's unread count, the list's texts and links, marking read."""

from datetime import timedelta

import pytest
import sqlalchemy as sa

from marketplace.platform.errors import UserError
from marketplace.platform.db import session_scope
from marketplace.platform.models import Notification, utcnow
from marketplace.features.marketplace import service_notifications as svc
from tests.factories import make_refresh_run


def _notify(user_id, run_id, searches, lead_count, minutes_ago=0) -> int:
    with session_scope() as s:
        row = Notification(user_id=user_id, refresh_run_id=run_id, lead_count=lead_count,
                           matches={"searches": searches, "lead_ids": []},
                           created_at=utcnow() - timedelta(minutes=minutes_ago))
        s.add(row)
        s.flush()
        return row.id


def test_list_count_and_mark_read(db_url, new_user):
    user, other = new_user(), new_user()
    first, second = make_refresh_run("r1"), make_refresh_run("r2")
    older = _notify(user.id, first, [{"id": 1, "name": "Austin probate", "query": "type=Probate", "count": 3}], 3,
                    minutes_ago=60)
    newer = _notify(user.id, second, [{"id": 1, "name": "Austin probate", "query": "type=Probate", "count": 3},
                                      {"id": 2, "name": "ROI over 30%", "query": "roi=gt30", "count": 2}], 5)
    _notify(other.id, first, [{"id": 9, "name": "Theirs", "query": "", "count": 1}], 1)
    assert svc.unread_count(user.id) == 2
    listed = svc.list_notifications(user.id)
    assert [(n.id, n.title, n.body, n.url, n.read) for n in listed] == [
        (newer, "5 new leads match your saved searches", "Austin probate: 3 · ROI over 30%: 2",
         "/dashboard?tab=saved", False),
        (older, "3 new leads match your saved searches", "Austin probate: 3", "/marketplace?type=Probate", False),
    ]
    assert [n.id for n in svc.list_notifications(user.id, limit=1)] == [newer]
    svc.mark_read(user.id, older)
    svc.mark_read(user.id, older)  # again: nothing changes
    assert svc.unread_count(user.id) == 1
    assert [n.read for n in svc.list_notifications(user.id)] == [False, True]
    assert svc.mark_all_read(user.id) == 1
    assert svc.mark_all_read(user.id) == 0
    assert svc.unread_count(user.id) == 0
    assert svc.unread_count(other.id) == 1  # someone else's stay unread
    [theirs] = svc.list_notifications(other.id)
    assert (theirs.title, theirs.body, theirs.url) == ("1 new lead matches your saved searches", "Theirs: 1",
                                                       "/marketplace")


def test_another_users_notification_is_not_found(db_url, new_user):
    owner, other = new_user(), new_user()
    nid = _notify(owner.id, make_refresh_run("r1"), [{"id": 1, "name": "A", "query": "", "count": 1}], 1)
    for bad in (nid, nid + 100, "1", None, True):
        with pytest.raises(UserError) as err:
            svc.mark_read(other.id, bad)
        assert (err.value.title, err.value.message) == ("Notification Not Found", "This notification no longer exists.")
    assert svc.unread_count(owner.id) == 1


def test_one_notification_per_user_per_refresh(db_url, new_user):
    user = new_user()
    run = make_refresh_run("r1")
    _notify(user.id, run, [], 1)
    with pytest.raises(sa.exc.IntegrityError):
        _notify(user.id, run, [], 2)
    assert svc.unread_count(user.id) == 1
