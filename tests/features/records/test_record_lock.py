"""An ingestion never shuts other users' writes out: its write transactions are short (on SQLite, where a
transaction holds the database's one write lock, each is sized from the time the last ones held it), and a
user's one-row write made while it runs lands between them."""

from __future__ import annotations

import threading
import time

import sqlalchemy as sa
from sqlalchemy import event

from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import CreditLedger, DatasetRun, Lead
from marketplace.platform import ledger
from marketplace.features.records import service as public_records
from tests.features.records.test_public_records import TAX, ingest, rows
from tests.features.records.test_record_faults import taxes

RECORDS, KEPT = 300, 200
STEP = 40
WRITES_PER_RECORD = 3  # its property, its signal, its lead


class Transactions:
    """Every write transaction committed on the engine, in commit order: (thread name, rows it changed;
    SQLite counts them in ``total_changes``, PostgreSQL's rows are None)."""

    def __init__(self, engine):
        self.engine = engine
        self.committed: list[tuple[str, int | None]] = []
        self._open: dict[int, int | None] = {}

    def _changes(self, conn) -> int | None:
        raw = conn.connection.driver_connection
        return raw.total_changes if conn.dialect.name == "sqlite" else None

    def began(self, conn) -> None:
        self._open[id(conn.connection.driver_connection)] = self._changes(conn)

    def ended(self, conn) -> None:
        before = self._open.pop(id(conn.connection.driver_connection), None)
        after = self._changes(conn)
        self.committed.append((threading.current_thread().name,
                               None if after is None else after - (before or 0)))

    def __enter__(self):
        event.listen(self.engine, "begin", self.began)
        event.listen(self.engine, "commit", self.ended)
        return self

    def __exit__(self, *exc):
        event.remove(self.engine, "begin", self.began)
        event.remove(self.engine, "commit", self.ended)


def test_a_users_write_lands_between_the_short_transactions_of_an_import(db_url, monkeypatch, new_user):
    monkeypatch.setattr(public_records, "BATCH_SIZE", STEP)  # the most records any write transaction takes
    user = new_user(credits=0)
    ingest(TAX, taxes(RECORDS))
    done = threading.Event()
    writes: list[int] = []

    def bystander() -> None:  # a user's click that writes one ledger row, again and again
        while not done.is_set():
            with session_scope(db_url) as session:
                writes.append(ledger.apply_credits(session, user.id, 1, "purchase"))
            time.sleep(0.002)

    with Transactions(get_engine(db_url)) as log:
        thread = threading.Thread(target=bystander, name="bystander")
        thread.start()
        try:  # a full read of the first two thirds (the list did shrink: --allow-drop): the rest closes and
            summary = ingest(TAX, taxes(KEPT), allow_drop=True)  # its leads are archived
        finally:
            done.set()
            thread.join()

    assert (summary.status, summary.unchanged, summary.closed, summary.archived) == (
        "ok", KEPT, RECORDS - KEPT, RECORDS - KEPT)
    assert len(rows(db_url, Lead, Lead.__table__.c.is_active == sa.true())) == KEPT
    imports = [i for i, (name, _) in enumerate(log.committed) if name != "bystander"]
    between = [i for i, (name, _) in enumerate(log.committed) if name == "bystander" and imports[0] < i < imports[-1]]
    assert between, "no user write landed while the import ran"
    assert writes == list(range(1, len(writes) + 1))  # every click's write was made, none lost
    assert len(rows(db_url, CreditLedger)) == len(writes)
    assert [run.status for run in rows(db_url, DatasetRun)] == ["ok", "ok"]
    if db_url.startswith("sqlite"):
        # Closing the 100 unseen signals and archiving their leads is done in steps of STEP records too,
        # never in one transaction (PostgreSQL locks rows, not the database: it closes them in one).
        changed = [n for name, n in log.committed if name != "bystander" and n]
        assert sum(changed) >= 2 * (RECORDS - KEPT)
        assert max(changed) <= WRITES_PER_RECORD * STEP, changed
