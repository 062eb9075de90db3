"""A re-import passes over the rows it already stored (issue 40, item 7): a file row whose digest an open
signal of its dataset holds (``source_opendata.row_digests``) is counted unchanged and seen without being
mapped or written; only new and changed rows are mapped. The counts, closures, leads and rejections are
those a read of every row gives. On Chicago's real violations (re-dated to last week, so they make leads),
on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from marketplace.features.records import source_opendata as opendata
from marketplace.features.records.source_opendata import row_digests
from marketplace.platform.db import get_engine
from marketplace.platform.models import Lead, PropertySignal
from tests.features.records.test_record_cut_files import imported, redated

signals_t, leads_t = PropertySignal.__table__, Lead.__table__


@pytest.fixture
def mapped(monkeypatch) -> list[int]:
    """The row numbers the file reader maps (the real mapping, watched)."""
    seen: list[int] = []
    real = opendata.map_row

    def watched(dataset, row, form, row_number, **kw):
        seen.append(row_number)
        return real(dataset, row, form, row_number, **kw)

    monkeypatch.setattr(opendata, "map_row", watched)
    return seen


def rows_of(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))


def write(path: Path, rows: list[list[str]]) -> Path:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def key_of(header: list[str], row: list[str]) -> str:
    """The record key of a row of Chicago's file (its dataset's ``record_key``: docket and address)."""
    return f"{row[header.index('Docket Number')]} {row[header.index('Property Address')]}".strip()


def imported_once(tmp_path: Path) -> tuple[Path, Any, list[list[str]], list[str]]:
    """Chicago's re-dated file imported once: its path, the run, its rows (the header first) and header."""
    path = redated(tmp_path)
    rows = rows_of(path)
    return path, imported(path), rows, rows[0]


def signals() -> dict[str, tuple]:
    """record key -> (status, amount owed, closed reason)."""
    with get_engine().connect() as conn:
        return {r.record_key: (r.status, r.amount_owed, r.closed_reason) for r in conn.execute(
            sa.select(signals_t.c.record_key, signals_t.c.status, signals_t.c.amount_owed,
                      signals_t.c.closed_reason))}


def active_leads() -> int:
    with get_engine().connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(leads_t).where(
            leads_t.c.is_active == sa.true())).scalar_one()


def line(summary) -> tuple:
    return (summary.rows_read, summary.added, summary.updated, summary.unchanged, summary.closed,
            summary.rejected, summary.leads_added, summary.leads_updated, summary.archived)


def test_a_re_import_maps_only_the_rows_that_changed_and_counts_as_a_whole_read(db_url, tmp_path, mapped):
    path = redated(tmp_path)
    first = imported(path)
    assert first.status == "ok" and first.leads_added > 0
    stored, leads = signals(), active_leads()
    assert len(mapped) == first.rows_read == 260
    kept = len(stored)

    # The same file again: only the rows that stored nothing (rejected: no ZIP) are mapped again.
    mapped.clear()
    again = imported(path)
    assert line(again) == (260, 0, 0, kept, 0, first.rejected, 0, 0, 0)
    assert again.rejections == first.rejections
    assert len(mapped) == first.rejected
    assert (again.lead_records, again.history, again.newest_as_of) == \
        (first.lead_records, first.history, first.newest_as_of)
    assert signals() == stored and active_leads() == leads

    # One row's amount due raised by $1 and another row gone: the changed row is mapped and updated, the
    # gone one closed, the rest passed over.
    rows = rows_of(path)
    header = rows[0]
    due = header.index("Current Amount Due")
    changed_key, gone_key = key_of(header, rows[1]), key_of(header, rows[2])
    assert changed_key in stored and gone_key in stored
    rows[1][due] = f"{float(rows[1][due] or 0) + 1:.2f}"
    changed = write(tmp_path / "changed.csv", [header, rows[1], *rows[3:]])
    mapped.clear()
    third = imported(changed)
    assert (third.rows_read, third.added, third.updated, third.unchanged, third.closed) == \
        (259, 0, 1, kept - 2, 1)
    assert 1 in mapped and len(mapped) == 1 + first.rejected  # the changed row and the rejected ones
    after = signals()
    assert after[changed_key][:2] == ("open", (stored[changed_key][1] or 0) + 1)
    assert after[gone_key][0] == "closed"
    assert after[gone_key][2].startswith("no longer in the dataset as of")
    assert {k: v for k, v in after.items() if k not in (changed_key, gone_key)} == \
        {k: v for k, v in stored.items() if k not in (changed_key, gone_key)}


def test_a_row_closed_by_an_earlier_read_is_read_again_and_reopened(db_url, tmp_path, mapped):
    path, first, rows, header = imported_once(tmp_path)
    gone_key = key_of(header, rows[5])
    assert signals()[gone_key][0] == "open"
    imported(write(tmp_path / "without.csv", [header, *rows[1:5], *rows[6:]]))
    assert signals()[gone_key][0] == "closed"

    mapped.clear()
    back = imported(path)
    assert signals()[gone_key][0] == "open"
    assert (back.updated, back.closed, back.unchanged) == (1, 0, len(signals()) - 1)
    assert 5 in mapped and len(mapped) == 1 + first.rejected


def test_the_same_row_twice_is_kept_once_and_the_second_rejected(db_url, tmp_path, mapped):
    path, first, rows, header = imported_once(tmp_path)
    key = key_of(header, rows[3])
    twice = write(tmp_path / "twice.csv", [*rows, rows[3]])
    before = signals()

    again = imported(twice)
    assert (again.rows_read, again.added, again.updated, again.closed) == (261, 0, 0, 0)
    assert again.rejected == first.rejected + 1
    assert f"record {key}: appears twice in this run" in again.rejections
    assert signals() == before


def test_a_changed_row_after_its_old_self_is_rejected_as_appearing_twice(db_url, tmp_path, mapped):
    """The old row first (passed over: its signal seen), then the same record with new content: the second
    is refused as a record read twice, as a read of every row refuses it; nothing is overwritten."""
    path, _, rows, header = imported_once(tmp_path)
    due = header.index("Current Amount Due")
    key = key_of(header, rows[4])
    newer = list(rows[4])
    newer[due] = f"{float(newer[due] or 0) + 5:.2f}"
    before = signals()

    again = imported(write(tmp_path / "both.csv", [*rows, newer]))
    assert f"record {key}: appears twice in this run" in again.rejections
    assert (again.updated, again.closed) == (0, 0)
    assert signals() == before


def test_a_new_release_of_the_records_code_reads_every_row_again_once(db_url, tmp_path, mapped, monkeypatch):
    path = redated(tmp_path)
    first = imported(path)
    stored = signals()
    monkeypatch.setattr(row_digests, "code_digest", lambda: b"another release of the mapping")

    mapped.clear()
    again = imported(path)
    assert len(mapped) == 260  # every row mapped: the rows may map differently now
    assert (again.added, again.updated, again.unchanged, again.closed) == (0, 0, len(stored), 0)
    assert signals() == stored

    mapped.clear()
    imported(path)  # the new digests were stored with the unchanged signals
    assert len(mapped) == first.rejected


def test_a_status_list_reads_every_row(db_url, tmp_path, mapped):
    """A status list's rows are the list's day: each read maps them all (its open items move to the day), and
    its signals keep no row digest (a new list's day would rewrite every one of them)."""
    from datetime import timedelta

    from marketplace.features.records import service_imports as record_imports
    from tests.features.records.test_status_lists import BALTIMORE, TODAY

    first = record_imports.import_file("bal-vacant-building-notices", BALTIMORE, today=TODAY)
    mapped.clear()
    again = record_imports.import_file("bal-vacant-building-notices", BALTIMORE, today=TODAY,
                                       as_of=TODAY - timedelta(days=1))
    assert len(mapped) == again.rows_read == first.rows_read > 0
    assert (again.added, again.updated, again.closed) == (0, 0, 0)
    with get_engine().connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(signals_t).where(
            signals_t.c.row_digest.is_not(None))).scalar_one() == 0



def test_a_failure_while_reading_the_known_rows_fails_the_run_instead_of_leaving_it_running(
        db_url, tmp_path, monkeypatch):
    from marketplace.features.records import service as public_records
    from marketplace.platform.models import DatasetRun

    path, first, _, _ = imported_once(tmp_path)

    def unreadable(*args, **kwargs):
        raise RuntimeError("the signals could not be read")

    monkeypatch.setattr(public_records, "known_rows", unreadable)
    with pytest.raises(RuntimeError, match="the signals could not be read"):
        imported(path)
    runs_t = DatasetRun.__table__
    with get_engine().connect() as conn:
        last = conn.execute(sa.select(runs_t.c.status, runs_t.c.error).order_by(runs_t.c.id.desc()).limit(1)).one()
    assert last.status == "failed" and last.error == "RuntimeError: the signals could not be read"
    monkeypatch.undo()
    assert imported(path).status == "ok"  # nothing holds the dataset: the next run goes through
