"""A full read closes only after the whole file was read cleanly (issue 40, item 1): a file cut off midway
(ending inside a quoted field, or inside its last line), a parse error, or a read far below the dataset's
open records (more than 20% fewer, unless the drop is allowed) closes nothing, archives no lead (bought
ones included) and says why in the run's one warning; the rows read are kept. A pull that failed midway
never closes. On the real samples (Chicago's violations re-dated to last week, so that they make leads)."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
import sqlalchemy as sa

from marketplace.features.records import service_titles as record_titles
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import Lead, PropertySignal, UserLead
from marketplace.features.records import (
    service as public_records,
    service_imports as record_imports,
    )
from marketplace.features.records import source_opendata as opendata
from marketplace.features.records.source_opendata import DatasetError
from tests.fakes.portal import FakePortal
from tests.features.records.test_record_queue import _served
from tests.features.records.opendata_helpers import DATASETS
from tests.features.records.test_cli_records import CHICAGO_FILE, run

CHICAGO = "chi-vacant-buildings-violations"
TODAY = date(2026, 11, 27)
AT = datetime(2026, 11, 27, 8, 0, tzinfo=timezone.utc)
signals_t, leads_t = PropertySignal.__table__, Lead.__table__
CUT_WARNING = ("the file was not read cleanly to its end (the file ends inside a quoted field opened on line {}"
               " (cut short?)): nothing closed")


def redated(tmp_path: Path) -> Path:
    """Chicago's sample with every violation issued a week before TODAY (its own 2023 dates are history)."""
    rows = list(csv.reader(io.StringIO(CHICAGO_FILE.read_text(encoding="utf-8-sig"))))
    issued = rows[0].index("Issued Date")
    for row in rows[1:]:
        row[issued] = (TODAY - timedelta(days=7)).strftime("%m/%d/%Y")
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path = tmp_path / "vacant_and_abandoned_buildings_violations.csv"
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def cut_inside_a_quoted_field(data: bytes, share: float) -> bytes:
    """The first ``share`` of the file, carried on to three characters into the next quoted field."""
    start = data.index(b',"', int(len(data) * share)) + 2
    assert data[start:start + 3].count(b'"') == 0
    return data[:start + 3]


def imported(path: Path, **kw):
    return record_imports.import_file(CHICAGO, path, today=TODAY, retrieved_at=AT, **kw)


def state() -> tuple[int, int]:
    """(open signals, active leads)."""
    with get_engine().connect() as conn:
        return (conn.execute(sa.select(sa.func.count()).select_from(signals_t).where(
                    signals_t.c.status == "open")).scalar_one(),
                conn.execute(sa.select(sa.func.count()).select_from(leads_t).where(
                    leads_t.c.is_active == sa.true())).scalar_one())


def buy(user_id, count: int) -> list:
    """``count`` active leads unlocked by the user (the ones someone paid for)."""
    with session_scope() as session:
        ids = session.connection().execute(sa.select(leads_t.c.id).where(leads_t.c.is_active == sa.true())
                                           .order_by(leads_t.c.id).limit(count)).scalars().all()
        for lead_id in ids:
            session.add(UserLead(user_id=user_id, lead_id=lead_id, credit_cost=120, purchase_type="credits"))
    return ids


def still_active(ids) -> bool:
    with get_engine().connect() as conn:
        return all(conn.execute(sa.select(leads_t.c.is_active).where(leads_t.c.id.in_(ids))).scalars())


def test_a_file_cut_inside_a_quoted_field_closes_nothing_and_archives_no_bought_lead(db_url, tmp_path, new_user):
    full = redated(tmp_path)
    first = imported(full)
    assert (first.added, first.leads_added) == (244, 170)
    before = state()
    bought = buy(new_user().id, 3)
    cut = tmp_path / "cut.csv"
    cut.write_bytes(cut_inside_a_quoted_field(full.read_bytes(), 0.6))

    summary = imported(cut)
    assert summary.status == "ok"
    assert (summary.closed, summary.archived, summary.added, summary.updated) == (0, 0, 0, 0)
    assert summary.warning == CUT_WARNING.format(159)
    assert summary.rows_read == 158 and summary.unchanged == 146  # the rows read are kept (as they were)
    assert summary.rejections[-1] == "row 158: the file ends inside a quoted field opened on line 159 (cut short?)"
    assert state() == before and still_active(bought)


def test_a_file_cut_inside_its_last_line_closes_nothing(db_url, tmp_path):
    full = redated(tmp_path)
    imported(full)
    before = state()
    data = full.read_bytes()
    cut = tmp_path / "cut.csv"
    cut.write_bytes(data[:data.index(b"\n", int(len(data) * 0.9)) + 15])  # 15 bytes into a line, unquoted
    summary = imported(cut)
    assert (summary.closed, summary.archived) == (0, 0)
    assert summary.warning.startswith("the file was not read cleanly to its end (the file ends inside the record "
                                      "on line ")
    assert summary.warning.endswith(" columns, no line break: cut short?)): nothing closed")
    assert state() == before


def test_a_read_a_fifth_short_closes_nothing_unless_the_drop_is_allowed(db_url, tmp_path, new_user):
    full = redated(tmp_path)
    imported(full)
    before = state()
    bought = buy(new_user().id, 3)
    lines = full.read_text(encoding="utf-8").splitlines(keepends=True)
    short = tmp_path / "short.csv"
    short.write_text("".join(lines[:157]), encoding="utf-8")  # cut cleanly at a line: 60% of the records
    refused = imported(short)
    assert (refused.closed, refused.archived) == (0, 0)
    assert refused.warning == ("the read holds 145 open records, more than 20% fewer than the dataset's 244: "
                               "nothing closed (import-records --allow-drop if it shrank)")
    assert state() == before and still_active(bought)
    allowed = imported(short, allow_drop=True)
    assert (allowed.closed, allowed.archived, allowed.warning) == (99, 56, None)
    assert state() == (145, 114)


AS_OF = "2026-11-20"  # an open list: the day the export was taken


def test_import_records_says_so_in_one_line_on_the_real_hpd_sample(db_url, tmp_path):
    hpd = Path(__file__).resolve().parents[2] / "fixtures" / "public_records_more" / "nyc-hpd-violations" \
        / "hpd_violations_sample.csv"
    assert run("import-records", "nyc-hpd-violations", "--file", str(hpd), "--as-of", AS_OF).returncode == 0
    cut = tmp_path / "hpd_violations_cut.csv"
    cut.write_bytes(cut_inside_a_quoted_field(hpd.read_bytes(), 0.6))
    out = run("import-records", "nyc-hpd-violations", "--file", str(cut), "--as-of", AS_OF)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == ("nyc-hpd-violations: read 59, added 0, updated 0, unchanged 58, closed 0, archived 0, "
                        "rejected 1; leads added 0, updated 0")
    assert lines[1] == "rejected: row 59: the file ends inside a quoted field opened on line 60 (cut short?)"
    assert lines[2] == "warning: " + CUT_WARNING.format(60)
    assert len(lines) == 3  # violations make no lead of their own: no "0 leads" line
    with get_engine().connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(signals_t).where(
            signals_t.c.status == "open")).scalar_one() == 100


def test_a_pull_that_fails_midway_closes_nothing(db_url, new_user):
    dataset = DATASETS[CHICAGO]
    today = date.today()  # the served rows are dated last week
    titles = record_titles.dataset_titles([dataset])
    with FakePortal("socrata", _served(), resource=dataset.resource) as portal:
        live = replace(dataset, endpoint=portal.url, page_size=100)

        def pull():
            return public_records.ingest(live, opendata.fetch(live, today=today, attempts=1, retry_delay=0),
                                         mode="api", full=True, today=today, titles=titles)

        assert pull().leads_added == 170
        before = state()
        bought = buy(new_user().id, 3)
        portal.script(status=200)  # the first page as it is, then the portal fails
        portal.script(status=500, times=None)
        with pytest.raises(DatasetError, match="HTTP 500"):
            pull()
    with get_engine().connect() as conn:
        last = conn.execute(sa.select(public_records.runs_t).order_by(public_records.runs_t.c.id.desc())).first()
    assert (last.status, last.rows_read, last.closed, last.archived) == ("failed", 100, 0, 0)
    assert state() == before and still_active(bought)
