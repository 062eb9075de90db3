"""The heartbeat of a running dataset pull: a thread stamping ``heartbeat_at`` on the process's running
``dataset_runs`` rows (and its ``record_jobs`` row) every ``RECORD_HEARTBEAT_SECONDS`` while the pull runs
(``records.service_runs``). Used by the queue's jobs, ``import-records`` and ``refresh-records``: a run whose
process is killed stops beating and is marked failed within ``RECORD_DEAD_AFTER_SECONDS``.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from typing import Iterable, Iterator

from marketplace.platform.config import lead_settings
from marketplace.platform.models import utcnow
from marketplace.features.records import service_runs as record_runs

log = logging.getLogger("marketplace.heartbeat")


@contextlib.contextmanager
def heartbeat(dataset_ids: Iterable[str] | None, job_id: int | None = None,
              database_url: str | None = None) -> Iterator[None]:
    """While the block runs, beat for the runs of ``dataset_ids`` (None: any dataset) it starts."""
    since = utcnow()
    ids = None if dataset_ids is None else list(dataset_ids)
    interval = lead_settings().record_heartbeat_seconds
    stop = threading.Event()

    def _beat() -> None:
        while not stop.wait(interval):
            try:
                record_runs.beat(ids, since, job_id, database_url)
            except Exception:  # noqa: BLE001 - the database is busy or away: the next beat tries again
                log.warning("heartbeat of %s failed", ids, exc_info=True)

    thread = threading.Thread(target=_beat, name="record-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=5)
