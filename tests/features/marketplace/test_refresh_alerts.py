"""The refresh's alert hook: leads carry their run, matching users are notified after the
commit (schedule, manual --force, the explorer's refresh), and an alert failure never
fails the refresh."""

import json
from datetime import datetime, timezone

import sqlalchemy as sa

from marketplace import cli
from marketplace.platform.db import get_engine
from marketplace.features.records import jobs_lead_ops as lead_ops, jobs_refresh as refresh
from marketplace.platform.models import EmailOutbox, Lead, LeadRefreshRun, Notification
from marketplace.features.marketplace import service_notifications as notifications
from marketplace.features.marketplace import service_saved_searches as searches
from marketplace.features.scrape.source_builtin import BuiltinSource

MORNING = datetime(2026, 11, 21, 16, 0, tzinfo=timezone.utc)


def _count(model, *where) -> int:
    with get_engine().connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(model.__table__).where(*where)).scalar_one()


def test_scheduled_refresh_notifies_and_marks_its_leads(db_url, new_user):
    user = new_user(confirmed=True)
    searches.create_saved_search(user.id, "Everything", "")
    result = refresh.run_refresh(now=MORNING, source=BuiltinSource(seed=3), count=12)
    assert result == {"status": "completed", "run_key": "2026-11-21", "leads_added": 12, "leads_archived": 0}
    with get_engine().connect() as conn:
        run_id = conn.execute(sa.select(LeadRefreshRun.__table__.c.id)).scalar_one()
    assert _count(Lead, Lead.__table__.c.refresh_run_id == run_id) == 12
    [note] = notifications.list_notifications(user.id)
    assert (note.title, note.body, note.url) == ("12 new leads match your saved searches", "Everything: 12", "/marketplace")
    assert _count(EmailOutbox) == 1
    # The same day again is skipped: nothing new, nothing sent.
    assert refresh.run_refresh(now=MORNING, source=BuiltinSource(seed=4), count=12)["status"] == "skipped"
    assert (_count(Notification), _count(EmailOutbox)) == (1, 1)


def test_manual_and_explorer_refreshes_notify(db_url, new_user, monkeypatch, capsys):
    monkeypatch.setenv("LEAD_REFRESH_COUNT", "5")
    user = new_user(confirmed=True)
    searches.create_saved_search(user.id, "Everything", "")
    cli.main(["refresh-leads", "--force"])
    assert json.loads(capsys.readouterr().out)["leads_added"] == 5
    assert lead_ops.refresh_now()["status"] == "completed"
    assert notifications.unread_count(user.id) == 2
    assert _count(EmailOutbox) == 2
    # Running the alerts of a run again sends nothing twice.
    with get_engine().connect() as conn:
        first_run = conn.execute(sa.select(sa.func.min(LeadRefreshRun.__table__.c.id))).scalar_one()
    cli.main(["match-alerts", str(first_run)])
    again = json.loads(capsys.readouterr().out)
    assert (again["users_matched"], again["users_notified"], again["mails"]) == (1, 0, 0)
    assert (_count(Notification), _count(EmailOutbox)) == (2, 2)


def test_an_alert_failure_never_fails_the_refresh(db_url, new_user, monkeypatch, caplog):
    from marketplace.features.marketplace import service_alerts as alerts

    user = new_user(confirmed=True)
    searches.create_saved_search(user.id, "Everything", "")

    def broken(run_id, database_url=None):
        raise RuntimeError("mail database gone")

    monkeypatch.setattr(alerts, "match_refresh", broken)
    result = refresh.run_refresh(now=MORNING, source=BuiltinSource(seed=3), count=4)
    assert result["status"] == "completed" and result["leads_added"] == 4
    assert "saved-search alerts for refresh run" in caplog.text
    with get_engine().connect() as conn:
        assert conn.execute(sa.select(LeadRefreshRun.__table__.c.status)).scalar_one() == "completed"
    assert notifications.unread_count(user.id) == 0
