"""Two ``python -m marketplace worker`` processes on one database share the records queue: the daily
refresh queued twice at the same moment is one run, a dataset queued twice is pulled twice, one pull after
the other, never both at once; every job ends ok and the refresh run is completed by its rescore."""

from __future__ import annotations

import os
import signal
import threading

import sqlalchemy as sa

from marketplace.platform.db import get_engine
from marketplace.features.records import jobs_queue as queue
from marketplace.platform.models import LeadRefreshRun
from marketplace.features.records import service_jobs as record_jobs
from tests.features.records.test_record_queue import (  # noqa: F401 - queue_db and small_portal are fixtures
    CHICAGO, MORNING, SOME, _queue_twice, _runs, _wait, _worker, queue_db, small_portal)


def test_two_worker_processes_never_pull_one_dataset_at_once(queue_db, small_portal):
    small_portal.script(delay=1.0)  # each pull's first page is slow: the other worker looks meanwhile
    results: list[dict] = []
    enqueuers = [threading.Thread(target=lambda: results.append(queue.enqueue_daily(now=MORNING)))
                 for _ in range(2)]
    for t in enqueuers:
        t.start()
    for t in enqueuers:
        t.join(60)
    assert sorted(r["status"] for r in results) == ["queued", "skipped"]
    (daily,) = [r for r in results if r["status"] == "queued"]
    job_ids = [job.id for job in record_jobs.queued()] + _queue_twice(CHICAGO)
    assert len(job_ids) == 3

    env = dict(os.environ, RECORD_HEARTBEAT_SECONDS="0.5")
    workers = [_worker(env) for _ in range(2)]
    outputs = []
    try:
        _wait(lambda: all(record_jobs.get(i).status in ("ok", "failed") for i in job_ids), 240,
              "the three jobs", workers[0])
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.send_signal(signal.SIGTERM)
        for worker in workers:
            try:
                outputs.append(worker.communicate(timeout=60)[0])
            finally:
                if worker.poll() is None:
                    worker.kill()
    assert [(record_jobs.get(i).status, record_jobs.get(i).error) for i in job_ids] == [("ok", None)] * 3, outputs
    runs = _runs()
    assert [(r.status, r.rows_read) for r in runs] == [("ok", SOME)] * 3
    for earlier, later in zip(runs, runs[1:]):
        assert later.started_at >= earlier.finished_at  # one after the other, never two at once
    refreshes = LeadRefreshRun.__table__
    with get_engine().connect() as conn:
        day = conn.execute(sa.select(refreshes.c.id, refreshes.c.status).where(
            refreshes.c.run_key == "records:2026-11-21")).all()
    assert [tuple(r) for r in day] == [(daily["run_id"], "completed")]
