"""The daily lead refresh: once per Pacific day, even under concurrency."""

import threading
from datetime import datetime, timedelta, timezone

import pytest
from apscheduler.triggers.cron import CronTrigger
from sqlmodel import func, select

from marketplace.features.marketplace.rules_criteria import SearchCriteria
from marketplace.platform.db import session_scope
from marketplace.features.records import jobs_refresh as refresh, jobs_scheduler as scheduler
from marketplace.platform.models import Lead, LeadRefreshRun, UserLead
from marketplace.features.scrape import service_seeding as seeding
from marketplace.features.scrape.source_base import SourceError
from marketplace.features.scrape.source_builtin import BuiltinSource

# 2026-11-21 08:00 PST is 16:00 UTC.
MORNING = datetime(2026, 11, 21, 16, 0, tzinfo=timezone.utc)


class BrokenSource:
    name = "broken"

    def search(self, criteria):
        raise SourceError("provider is down")


def _counts():
    with session_scope() as s:
        total = s.exec(select(func.count()).select_from(Lead)).one()
        new = s.exec(select(func.count()).select_from(Lead).where(Lead.is_new)).one()
        active = s.exec(select(func.count()).select_from(Lead).where(Lead.is_active)).one()
    return total, new, active


def _seed_old_leads(n, age_days):
    rows = BuiltinSource(seed=1000 + age_days).search(SearchCriteria(count=n))
    for row in rows:
        row["created_at"] = MORNING - timedelta(days=age_days)
    seeding.insert_leads(rows)


def test_refresh_adds_flags_archives_and_records(db_url, monkeypatch):
    monkeypatch.setenv("LEAD_MAX_AGE_DAYS", "30")
    _seed_old_leads(10, age_days=40)
    _seed_old_leads(5, age_days=2)
    result = refresh.run_refresh(now=MORNING, source=BuiltinSource(seed=1), count=20)
    assert result == {"status": "completed", "run_key": "2026-11-21", "leads_added": 20, "leads_archived": 10}
    assert _counts() == (35, 20, 25)
    with session_scope() as s:
        run = s.exec(select(LeadRefreshRun)).one()
        assert (run.status, run.leads_added, run.leads_archived, run.error) == ("completed", 20, 10, None)
        assert run.finished_at >= run.started_at


def test_second_run_the_same_pacific_day_is_skipped(db_url):
    refresh.run_refresh(now=MORNING, source=BuiltinSource(seed=1), count=5)
    # 23:30 Pacific is already the next UTC day but still the same Pacific day
    late = datetime(2026, 11, 22, 7, 30, tzinfo=timezone.utc)
    assert refresh.run_refresh(now=late, source=BuiltinSource(seed=2), count=5)["status"] == "skipped"
    assert _counts()[0] == 5
    next_day = refresh.run_refresh(now=MORNING + timedelta(days=1), source=BuiltinSource(seed=2), count=5)
    assert next_day["status"] == "completed"
    assert _counts() == (10, 5, 10)  # yesterday's leads are no longer new


def test_a_failed_run_changes_no_lead_and_is_retried(db_url):
    _seed_old_leads(4, age_days=60)
    before = _counts()
    failed = refresh.run_refresh(now=MORNING, source=BrokenSource(), count=5)
    assert failed == {"status": "failed", "run_key": "2026-11-21", "error": "provider is down"}
    assert _counts() == before  # nothing archived, nothing un-flagged
    with session_scope() as s:
        assert s.exec(select(LeadRefreshRun)).one().status == "failed"
    retry = refresh.run_refresh(now=MORNING + timedelta(minutes=15), source=BuiltinSource(seed=1), count=5,
                                trigger="retry")
    assert retry["status"] == "completed"
    with session_scope() as s:
        run = s.exec(select(LeadRefreshRun)).one()
        assert (run.status, run.trigger, run.error) == ("completed", "retry", None)


def test_concurrent_runners_do_the_work_once(db_url):
    results = []
    barrier = threading.Barrier(4)

    def runner(seed):
        barrier.wait()
        results.append(refresh.run_refresh(now=MORNING, source=BuiltinSource(seed=seed), count=10)["status"])

    threads = [threading.Thread(target=runner, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["completed", "skipped", "skipped", "skipped"]
    assert _counts()[0] == 10
    with session_scope() as s:
        assert s.exec(select(func.count()).select_from(LeadRefreshRun)).one() == 1


def test_leads_the_source_repeats_are_not_added_twice(db_url):
    refresh.run_refresh(now=MORNING, source=BuiltinSource(seed=9), count=6)
    again = refresh.run_refresh(now=MORNING + timedelta(days=1), source=BuiltinSource(seed=9), count=6)
    assert again["status"] == "completed" and again["leads_added"] == 0
    assert _counts()[0] == 6


def test_forced_manual_runs_are_recorded_separately(db_url):
    refresh.run_refresh(now=MORNING, source=BuiltinSource(seed=1), count=3)
    forced = refresh.run_refresh(now=MORNING, source=BuiltinSource(seed=2), count=3, force=True, trigger="manual")
    assert forced["status"] == "completed" and forced["run_key"].startswith("2026-11-21:manual:")
    assert _counts()[0] == 6


def test_archived_unlocked_leads_stay_readable_by_their_owner(db_url, new_user, monkeypatch):
    monkeypatch.setenv("LEAD_MAX_AGE_DAYS", "30")
    user = new_user()
    _seed_old_leads(1, age_days=45)
    with session_scope() as s:
        lead = s.exec(select(Lead)).one()
        s.add(UserLead(user_id=user.id, lead_id=lead.id, credit_cost=85))
    refresh.run_refresh(now=MORNING, source=BuiltinSource(seed=1), count=1)
    with session_scope() as s:
        row = s.exec(select(Lead).join(UserLead, UserLead.lead_id == Lead.id).where(UserLead.user_id == user.id)).one()
        assert row.is_active is False and row.address


@pytest.mark.parametrize(
    ("after", "expected_utc"),
    [(datetime(2026, 7, 1, tzinfo=timezone.utc), "2026-07-01T15:00:00+00:00"),  # PDT
     (datetime(2026, 12, 1, tzinfo=timezone.utc), "2026-12-01T16:00:00+00:00"),  # PST
     (datetime(2026, 3, 8, 12, tzinfo=timezone.utc), "2026-03-08T15:00:00+00:00")],  # DST starts that day
)
def test_the_schedule_is_8am_pacific_across_dst(after, expected_utc):
    trigger = CronTrigger(hour=scheduler.REFRESH_HOUR, minute=0, timezone=scheduler.PACIFIC)
    fire = trigger.get_next_fire_time(None, after)
    assert fire.astimezone(timezone.utc).isoformat() == expected_utc


def test_catch_up_only_after_eight_without_a_completed_run(db_url):
    before_eight = MORNING - timedelta(minutes=1)
    assert scheduler.due_for_catch_up(before_eight) is False
    assert scheduler.due_for_catch_up(MORNING) is True
    refresh.run_refresh(now=MORNING, source=BuiltinSource(seed=1), count=1)
    assert scheduler.due_for_catch_up(MORNING + timedelta(hours=2)) is False


def test_production_never_refreshes_from_the_built_in_generator(db_url, monkeypatch):
    """The generator makes demo data, never sold: in production the daily run adds nothing and records
    no run (its leads come from the records worker)."""
    from marketplace.platform.config import reload_settings

    monkeypatch.setenv("APP_ENV", "production")
    monkeypatch.delenv("LEAD_SOURCE", raising=False)
    reload_settings()
    result = refresh.run_refresh(now=MORNING, count=5)
    assert result == {"status": "skipped", "run_key": "2026-11-21", "reason": "the built-in generator is demo data"}
    assert _counts() == (0, 0, 0)
    with session_scope() as s:
        assert s.exec(select(func.count()).select_from(LeadRefreshRun)).one() == 0
