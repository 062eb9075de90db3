"""Public-record ingestion under faults: a cut-short full read closes nothing, a killed import leaves every
committed property with its lead, the next run repairs what a dead run left, a failing batch leaves
nothing of itself."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa

from marketplace.platform.db import get_engine
from marketplace.platform.models import DatasetRun, Lead, Property, PropertySignal, utcnow
from marketplace.features.records import service as public_records
from tests.features.records.test_public_records import TAX, ingest, rows, tax


def taxes(n: int, start: int = 0):
    return [tax(f"{100_000_000 + i}", address=f"{1000 + i} FRANKFORD AVE", zip_code="19125")
            for i in range(start, start + n)]


def open_signals(url) -> int:
    return len(rows(url, PropertySignal, PropertySignal.__table__.c.status == "open"))


def test_a_full_read_more_than_a_fifth_below_the_open_records_closes_nothing(db_url):
    ingest(TAX, taxes(10))
    short = ingest(TAX, taxes(7))  # 7 of 10 open: more than 20% fewer
    assert (short.closed, short.archived, short.unchanged) == (0, 0, 7)
    assert short.warning == ("the read holds 7 open records, more than 20% fewer than the dataset's 10: "
                             "nothing closed (import-records --allow-drop if it shrank)")
    assert open_signals(db_url) == 10
    fifth = ingest(TAX, taxes(8))  # 8 of 10: 20% fewer at most, a real shrink, closed
    assert (fifth.closed, fifth.archived, fifth.warning) == (2, 2, None)
    allowed = ingest(TAX, taxes(4), allow_drop=True)  # the operator says the dataset shrank
    assert (allowed.closed, allowed.archived, allowed.warning) == (4, 4, None)
    lenient = dataclass_replace(TAX, min_full_share=0.2)
    assert ingest(lenient, taxes(1)).closed == 3


def dataclass_replace(dataset, **kw):
    from types import SimpleNamespace

    return SimpleNamespace(**{**dataset.__dict__, **kw})


def test_an_empty_full_file_closes_nothing(db_url):
    ingest(TAX, taxes(2))
    empty = ingest(TAX, [])
    assert (empty.closed, empty.warning) == (0, "the file holds no rows: nothing closed")
    assert open_signals(db_url) == 2


class Killed(BaseException):
    """What the process's death looks like from inside: nothing after it runs."""


def test_a_killed_import_leaves_every_committed_property_with_its_lead(db_url, monkeypatch):
    monkeypatch.setattr(public_records, "BATCH_SIZE", 3)

    def records():
        yield from taxes(7)
        raise Killed()

    with pytest.raises(Killed):
        public_records.ingest(TAX, records(), mode="file", retrieved_at=utcnow(), full=True,
                              titles=public_records.dataset_titles([TAX]))
    props = rows(db_url, Property)
    assert len(props) == 6  # two batches committed, the third died with the process
    assert {lead.property_id for lead in rows(db_url, Lead)} == {p.id for p in props}


def test_the_next_run_gives_a_lead_to_properties_a_dead_run_left_without_one(db_url):
    ingest(TAX, taxes(4))
    with get_engine(db_url).begin() as conn:  # what a run killed before its lead step left behind
        conn.execute(sa.delete(Lead.__table__))
        conn.execute(sa.insert(DatasetRun.__table__).values(dataset_id=TAX.id, mode="file", status="running",
                                                            started_at=utcnow() - timedelta(hours=7)))
    again = ingest(TAX, taxes(4))
    assert (again.unchanged, again.leads_added) == (4, 4)
    assert len(rows(db_url, Lead, Lead.__table__.c.is_active == sa.true())) == 4


def test_the_next_run_archives_the_leads_a_run_killed_after_closing_their_signals_left_active(db_url):
    ingest(TAX, taxes(4))
    signals = PropertySignal.__table__
    with get_engine(db_url).begin() as conn:  # a run killed between closing a signal and its lead step
        conn.execute(sa.update(signals).where(signals.c.record_key == "100000003").values(status="closed"))
    assert len(rows(db_url, Lead, Lead.__table__.c.is_active == sa.true())) == 4
    again = ingest(TAX, taxes(3))
    assert (again.unchanged, again.closed, again.archived) == (3, 0, 1)
    active = rows(db_url, Lead, Lead.__table__.c.is_active == sa.true())
    assert len(active) == 3
    (closed,) = rows(db_url, PropertySignal, signals.c.status == "closed")
    assert closed.property_id not in {lead.property_id for lead in active}
    assert ingest(TAX, taxes(3)).archived == 0  # repaired once: the next run finds nothing to repair


def test_a_batch_that_fails_midway_leaves_nothing_of_itself(db_url, monkeypatch):
    from marketplace.features.records import rules_rows as record_rows

    monkeypatch.setattr(public_records, "BATCH_SIZE", 3)
    real = record_rows.signal_values

    def breaking(record, property_id, today, *rest):
        if record.record_key == "100000004":
            raise RuntimeError("disk full")
        return real(record, property_id, today, *rest)

    monkeypatch.setattr(record_rows, "signal_values", breaking)
    with pytest.raises(RuntimeError, match="disk full"):
        ingest(TAX, taxes(6))
    # The first batch (3 records) is whole, with its leads; of the second (its property rows were written
    # before its second signal failed) nothing is left.
    assert sorted(p.parcel_id for p in rows(db_url, Property)) == ["100000000", "100000001", "100000002"]
    assert len(rows(db_url, PropertySignal)) == 3 and len(rows(db_url, Lead)) == 3
    (run,) = rows(db_url, DatasetRun)
    assert (run.status, run.error) == ("failed", "RuntimeError: disk full")


def test_a_lead_added_by_one_batch_and_changed_by_the_next_counts_once_as_added(db_url, monkeypatch):
    from tests.features.records.test_public_records import SHERIFF, sheriff

    monkeypatch.setattr(public_records, "BATCH_SIZE", 1)
    first = ingest(TAX, [tax(), tax("522145900-2", parcel_id="522145900", amount=99_000)], full=False)
    assert (first.added, first.leads_added, first.leads_updated) == (2, 1, 0)
    again = ingest(SHERIFF, [sheriff()], full=False)
    assert (again.leads_added, again.leads_updated) == (0, 1)
