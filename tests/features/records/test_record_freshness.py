"""Freshness shown and measured (issue 38, item 3): incremental pulls (Socrata ``:updated_at``, ArcGIS edit
dates) that store only new or changed rows, a status list read whole when its last full read is over a day
old, one interval job per dataset per interval even with two schedulers racing, and the lag per signal."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import sqlalchemy as sa

from marketplace.features.records.rules_freshness import lag_summary, percentile, plan_pull
from marketplace.platform.db import get_engine
from marketplace.features.records import jobs_pulls as pulls
from marketplace.platform.models import DatasetRun, PropertySignal, RecordJob, utcnow
from marketplace.features.records import service_freshness as record_freshness, service_jobs as record_jobs
from tests.fakes.portal import FakePortal
from tests.fakes.portal_datasets import datasets_dir

UTC = timezone.utc
DATASET_FILE = """
id = "{id}"
title = "Test {id}"
publisher = "Test City"
protocol = "{protocol}"
endpoint = "{endpoint}"
resource = "{resource}"
kind = "vacant"
list = "{list}"
max_age_days = 400
licence = "public"
attribution = "Data: Test City"
page_size = 1000
pull_every_minutes = 20
record_key = "case_no"

[constants]
city = "CHICAGO"
state = "IL"

[fields]
notice_date = "{notice}"
address = "address"
zip_code = "zip"
{as_of}
"""


def _folder(tmp_path: Path, monkeypatch, dataset_id: str, protocol: str, endpoint: str, resource: str,
            list_kind: str = "event", notice: str = "notice_date") -> None:
    folder = datasets_dir(tmp_path / "datasets", "chi-vacant-buildings-violations", "https://example.invalid")
    as_of = f'as_of = "{notice}"' if list_kind == "event" else ""
    (folder / f"{dataset_id}.toml").write_text(DATASET_FILE.format(
        id=dataset_id, protocol=protocol, endpoint=endpoint, resource=resource, list=list_kind, notice=notice,
        as_of=as_of), encoding="utf-8")
    monkeypatch.setenv("OPEN_DATA_DIR", str(folder))
    monkeypatch.setenv("OPEN_DATA_DATASETS", dataset_id)


def _socrata_row(n: int, updated: datetime, day: str = "2026-11-20") -> dict:
    return {"case_no": f"C-{n}", "notice_date": f"{day}T00:00:00.000", "address": f"{n} W MAIN ST", "zip": "60601",
            ":id": f"row-{n}", ":updated_at": updated.strftime("%Y-%m-%dT%H:%M:%S.000Z")}


def _signals(dataset_id: str) -> dict[str, tuple]:
    t = PropertySignal.__table__
    with get_engine().connect() as conn:
        return {r.record_key: (r.status, r.portal_updated_at, r.first_seen_at) for r in conn.execute(
            sa.select(t).where(t.c.dataset_id == dataset_id))}


def test_socrata_interval_pull_reads_only_rows_updated_since_and_stores_only_them(db_url, tmp_path, monkeypatch):
    t0 = datetime(2026, 11, 27, 10, 0, tzinfo=UTC)
    rows = [_socrata_row(n, t0 + timedelta(minutes=n)) for n in range(1, 4)]
    with FakePortal("socrata", rows, resource="abcd-1234") as portal:
        _folder(tmp_path, monkeypatch, "test-soda", "socrata", portal.url, "abcd-1234")
        first = pulls.pull_dataset("test-soda", trigger="interval")  # no watermark yet: read whole
        assert (first["status"], first["full"], first["added"]) == ("ok", True, 3)
        assert portal.requests[-1].params["$select"] == ":*, *" and "$where" not in portal.requests[-1].params
        stored = _signals("test-soda")
        assert stored["C-3"][1] == t0 + timedelta(minutes=3)  # the row's :updated_at, kept on the signal

        # the portal publishes one row and changes another; the next interval pull asks for those only
        rows[0] = {**_socrata_row(1, t0 + timedelta(minutes=30)), "address": "1 W MAIN ST REAR"}
        rows.append(_socrata_row(4, t0 + timedelta(minutes=31)))
        second = pulls.pull_dataset("test-soda", trigger="interval")
    request = portal.requests[-1].params
    assert request["$where"] == "(:updated_at >= '2026-11-27T10:03:00.000')" and request["$select"] == ":*, *"
    assert (second["status"], second["full"], second["rows_read"], second["added"], second["updated"]) == (
        "ok", False, 3, 1, 1)  # C-3 again (the watermark's own row, unchanged), C-1 changed, C-4 new
    after = _signals("test-soda")
    assert set(after) == {"C-1", "C-2", "C-3", "C-4"} and all(s[0] == "open" for s in after.values())
    assert after["C-4"][1] == t0 + timedelta(minutes=31)
    with get_engine().connect() as conn:
        runs = conn.execute(sa.select(DatasetRun.__table__.c.full, DatasetRun.__table__.c.portal_updated_max)
                            .order_by(DatasetRun.__table__.c.id)).all()
    assert [tuple(r) for r in runs] == [(True, t0 + timedelta(minutes=3)), (False, t0 + timedelta(minutes=31))]


def test_arcgis_interval_pull_filters_on_the_layers_edit_date_field(db_url, tmp_path, monkeypatch):
    t0 = datetime(2026, 11, 27, 10, 0, tzinfo=UTC)
    ms = lambda when: int(when.timestamp() * 1000)  # noqa: E731
    rows = [{"case_no": f"A-{n}", "notice_date": 1795000000000, "address": f"{n} N OAK ST", "zip": "60602",
             "EditDate": ms(t0 + timedelta(minutes=n))} for n in (1, 2)]
    with FakePortal("arcgis", rows, resource="3", edit_date_field="EditDate") as portal:
        _folder(tmp_path, monkeypatch, "test-arcgis", "arcgis", portal.url, "3")
        assert pulls.pull_dataset("test-arcgis", trigger="interval")["full"] is True
        rows.append({"case_no": "A-3", "notice_date": 1795000000000, "address": "3 N OAK ST", "zip": "60602",
                     "EditDate": ms(t0 + timedelta(hours=1))})
        second = pulls.pull_dataset("test-arcgis", trigger="interval")
    metadata = [r for r in portal.requests if r.path == "/MapServer/3"]
    queries = [r.params["where"] for r in portal.requests if r.path == "/MapServer/3/query"]
    assert len(metadata) == 2 and metadata[0].params["f"] == "json"
    assert queries == ["1=1", "EditDate >= TIMESTAMP '2026-11-27 10:02:00'".join("()")]
    assert (second["full"], second["rows_read"], second["added"], second["unchanged"]) == (False, 2, 1, 1)
    assert _signals("test-arcgis")["A-3"][1] == t0 + timedelta(hours=1)


def test_a_layer_without_edit_dates_and_the_daily_refresh_read_whole(db_url, tmp_path, monkeypatch):
    rows = [{"case_no": "A-1", "notice_date": 1795000000000, "address": "1 N OAK ST", "zip": "60602"}]
    with FakePortal("arcgis", rows, resource="3") as portal:
        _folder(tmp_path, monkeypatch, "test-arcgis", "arcgis", portal.url, "3")
        for trigger in ("interval", "interval", "schedule"):
            assert pulls.pull_dataset("test-arcgis", trigger=trigger)["full"] is True
    assert [r.params["where"] for r in portal.requests if r.path.endswith("/query")] == ["1=1"] * 3
    assert _signals("test-arcgis")["A-1"][1] is None  # no portal update time: NULL


def test_a_status_list_is_read_whole_when_its_last_full_read_is_over_a_day_old(db_url, tmp_path, monkeypatch):
    t0 = datetime(2026, 11, 27, 10, 0, tzinfo=UTC)
    rows = [_socrata_row(n, t0 + timedelta(minutes=n)) for n in range(1, 6)]
    with FakePortal("socrata", rows, resource="open-list") as portal:
        _folder(tmp_path, monkeypatch, "test-open", "socrata", portal.url, "open-list", list_kind="status")
        assert pulls.pull_dataset("test-open", trigger="interval")["full"] is True
        del rows[0]  # C-1 leaves the open list (an incremental read cannot see that)
        incremental = pulls.pull_dataset("test-open", trigger="interval")
        assert (incremental["full"], incremental["closed"]) == (False, 0)
        assert _signals("test-open")["C-1"][0] == "open"
        with get_engine().begin() as conn:  # the last full read is now 25 hours old
            conn.execute(sa.update(DatasetRun.__table__).where(DatasetRun.__table__.c.full.is_(True)).values(
                started_at=utcnow() - timedelta(hours=25)))
        full = pulls.pull_dataset("test-open", trigger="interval")
    assert (full["full"], full["closed"]) == (True, 1)
    assert "$where" not in portal.requests[-1].params
    assert _signals("test-open")["C-1"][0] == "closed"


def test_plan_pull_rules():
    now = datetime(2026, 11, 28, 12, tzinfo=UTC)
    mark = now - timedelta(hours=1)
    plan = plan_pull(trigger="interval", update_field=":updated_at", watermark=mark, status_list=True,
                     last_full_at=now - timedelta(hours=23), now=now)
    assert (plan.full, plan.since) == (False, mark)
    assert plan_pull(trigger="interval", update_field=":updated_at", watermark=mark, status_list=True,
                     last_full_at=now - timedelta(hours=24, seconds=1), now=now).full is True
    assert plan_pull(trigger="interval", update_field=":updated_at", watermark=mark, status_list=False,
                     last_full_at=None, now=now).full is False
    assert plan_pull(trigger="manual", update_field=":updated_at", watermark=mark, status_list=False,
                     last_full_at=None, now=now).full is True
    assert plan_pull(trigger="interval", update_field=None, watermark=mark, status_list=False,
                     last_full_at=None, now=now).full is True


def test_lag_percentiles_on_known_rows():
    assert percentile([], 0.5) is None
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.0 and percentile([1.0, 2.0, 3.0, 4.0], 0.95) == 4.0
    seen = datetime(2026, 11, 28, 12, tzinfo=UTC)
    summary = lag_summary([(seen, seen - timedelta(minutes=m)) for m in range(1, 101)])  # lags 1..100 min
    assert (summary.rows, summary.p50, summary.p95, summary.max) == (100, 50 * 60.0, 95 * 60.0, 100 * 60.0)


def test_lag_per_dataset_rests_on_rows_published_after_the_first_pull(db_url, tmp_path, monkeypatch):
    now = utcnow()
    t0 = now - timedelta(hours=2)
    rows = [_socrata_row(1, now - timedelta(days=400))]  # published long before LeadVault first looked
    with FakePortal("socrata", rows, resource="abcd-1234") as portal:
        _folder(tmp_path, monkeypatch, "test-soda", "socrata", portal.url, "abcd-1234")
        pulls.pull_dataset("test-soda", trigger="interval")
        rows.extend(_socrata_row(n, now + timedelta(seconds=1)) for n in range(2, 6))
        pulls.pull_dataset("test-soda", trigger="interval")
    signals_t, runs_t = PropertySignal.__table__, DatasetRun.__table__
    with get_engine().begin() as conn:  # known lags: the first pull two hours ago, rows seen 1..4 minutes late
        conn.execute(sa.update(runs_t).values(started_at=t0))
        for n in range(2, 6):
            conn.execute(sa.update(signals_t).where(signals_t.c.record_key == f"C-{n}").values(
                portal_updated_at=t0 + timedelta(minutes=10), first_seen_at=t0 + timedelta(minutes=10 + n - 1)))
    lag = record_freshness.lags()["test-soda"]
    assert (lag.rows, lag.p50, lag.p95, lag.max) == (4, 120.0, 240.0, 240.0)


def test_each_dataset_is_queued_once_per_interval(db_url):
    now = utcnow()
    intervals = {"chi-vacant-buildings-violations": timedelta(minutes=20), "nyc-hpd-violations": timedelta(hours=1)}
    first = record_jobs.enqueue_due(intervals, now)
    assert sorted(j.dataset_id for j in first) == sorted(intervals) and all(j.trigger == "interval" for j in first)
    assert record_jobs.enqueue_due(intervals, now + timedelta(minutes=30)) == []  # still queued: not twice
    jobs_t = RecordJob.__table__
    with get_engine().begin() as conn:
        conn.execute(sa.update(jobs_t).values(status="ok", finished_at=now))
    assert record_jobs.enqueue_due(intervals, now + timedelta(minutes=19)) == []
    later = record_jobs.enqueue_due(intervals, now + timedelta(minutes=20))
    assert [j.dataset_id for j in later] == ["chi-vacant-buildings-violations"]


def test_two_schedulers_racing_queue_one_job_per_interval(db_url):
    intervals = {f"race-{n}": timedelta(minutes=20) for n in range(5)}
    now = utcnow()
    barrier = threading.Barrier(8)
    queued: list[int] = []
    errors: list[BaseException] = []

    def scheduler(offset: int) -> None:
        try:
            barrier.wait()
            for step in range(3):  # three checks in the same interval, from every racer
                queued.extend(j.id for j in record_jobs.enqueue_due(intervals, now + timedelta(seconds=offset + step)))
        except BaseException as exc:  # noqa: BLE001 - raised in the test
            errors.append(exc)

    threads = [threading.Thread(target=scheduler, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with get_engine().connect() as conn:
        per_dataset = dict(conn.execute(sa.select(RecordJob.__table__.c.dataset_id, sa.func.count())
                                        .group_by(RecordJob.__table__.c.dataset_id)).all())
    assert per_dataset == {d: 1 for d in intervals} and len(queued) == 5


def test_the_sources_panel_shows_last_and_next_pull_and_the_lag(db_url, tmp_path, monkeypatch):
    now = utcnow()
    rows = [_socrata_row(1, now - timedelta(days=400))]
    with FakePortal("socrata", rows, resource="abcd-1234") as portal:
        _folder(tmp_path, monkeypatch, "test-soda", "socrata", portal.url, "abcd-1234")
        before = {r["id"]: r for r in record_jobs.panel_rows("UTC")}
        pulls.pull_dataset("test-soda", trigger="interval")
    assert (before["test-soda"]["last_pull"], before["test-soda"]["next_pull"]) == (
        "Last pull: never", "every 20 min · due now (never pulled)")
    panel = {r["id"]: r for r in record_jobs.panel_rows("UTC")}
    soda = panel["test-soda"]
    with get_engine().connect() as conn:
        started = conn.execute(sa.select(DatasetRun.__table__.c.started_at)).scalar_one()
    from marketplace.platform.times import format_datetime

    assert soda["last_pull"] == f"Last pull {format_datetime(started, 'UTC')}"
    assert soda["next_pull"] == f"every 20 min · next {format_datetime(started + timedelta(minutes=20), 'UTC')}"
    # the one row was published 400 days before the first pull: it measures the first load, not a lag
    assert soda["lag"] == "N/A: no row carried a portal update time"
    chicago = panel["chi-vacant-buildings-violations"]  # shipped, not in OPEN_DATA_DATASETS here
    assert (chicago["last_pull"], chicago["next_pull"], chicago["lag"]) == (
        "Last pull: never", "not pulled", "N/A: no row carried a portal update time")
    signals_t = PropertySignal.__table__
    with get_engine().begin() as conn:
        conn.execute(sa.update(signals_t).values(portal_updated_at=started + timedelta(seconds=1),
                                                 first_seen_at=started + timedelta(minutes=12, seconds=1)))
    lagged = {r["id"]: r for r in record_jobs.panel_rows("UTC")}["test-soda"]
    assert lagged["lag"] == "p50 12 min · p95 12 min (30 days, 1 row)"


def test_pull_every_minutes_is_validated(tmp_path):
    from marketplace.features.records.source_opendata import load_datasets

    text = DATASET_FILE.format(id="test-soda", protocol="socrata", endpoint="https://x.example", resource="abcd-1234",
                               list="event", notice="notice_date", as_of='as_of = "notice_date"')
    (tmp_path / "test-soda.toml").write_text(text, encoding="utf-8")
    assert load_datasets(tmp_path)["test-soda"].pull_every_minutes == 20
    (tmp_path / "test-soda.toml").write_text(text.replace("pull_every_minutes = 20\n", ""), encoding="utf-8")
    assert load_datasets(tmp_path)["test-soda"].pull_every_minutes == 60  # the default: hourly
    for bad in ("0", "10081", "true", '"hourly"'):
        (tmp_path / "test-soda.toml").write_text(text.replace("= 20", f"= {bad}"), encoding="utf-8")
        try:
            load_datasets(tmp_path)
        except ValueError as exc:
            assert "pull_every_minutes" in str(exc) and "from 1 to 10080" in str(exc)
        else:
            raise AssertionError(f"pull_every_minutes = {bad} was accepted")
