"""The public-record operator commands on the real sample files (issue 23): import-records, sources,
sources check, refresh-records."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from datetime import date, timedelta

import sqlalchemy as sa

from marketplace import cli
from marketplace.platform.config import PROJECT_ROOT
from marketplace.features.records.rules import MappedRecord
from marketplace.platform.db import get_engine
from marketplace.platform.models import DatasetRun, Lead, PropertySignal
from marketplace.features.records import service_imports as record_imports
from marketplace.features.records import source_opendata as opendata
from marketplace.features.records.source_opendata import CheckReport

SAMPLES = PROJECT_ROOT / "tests" / "fixtures" / "public_records"
TAX_FILE = SAMPLES / "phl-tax-delinquencies" / "real_estate_tax_delinquency_extract_2016-07_sample.csv"
CHICAGO_FILE = SAMPLES / "chi-vacant-buildings-violations" / "vacant_and_abandoned_buildings_violations_sample.csv"


def run(*args):
    return subprocess.run([sys.executable, "-m", "marketplace", *args], cwd=PROJECT_ROOT, env=dict(os.environ),
                          capture_output=True, text=True, timeout=300)


def count(model, *where) -> int:
    with get_engine().connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(model.__table__).where(*where)).scalar_one()


def test_import_records_twice_then_a_shorter_file_full_and_partial(db_url, tmp_path):
    out = run("import-records", "phl-tax-delinquencies", "--file", str(TAX_FILE))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    # A 2016 extract: ingested as properties with history (older than the dataset's 90 days: no lead), and
    # the operator is told it is stale.
    assert lines[0] == ("phl-tax-delinquencies: read 259, added 259, updated 0, unchanged 0, closed 0, archived 0, "
                        "rejected 0; leads added 0, updated 0")
    assert re.fullmatch(r"warning: records are as of 2016-07-01, \d+ days old: stale", lines[-2])
    # An open list judged by the day it was taken (its file's name): the summary ends with why, in numbers.
    assert re.fullmatch(r"0 leads: 259 records are history \(list of Jul 1, 2016, [\d,]+ days old; pass --as-of if "
                        r"this file is a current export\)", lines[-1])
    assert count(Lead) == 0
    assert count(PropertySignal, PropertySignal.__table__.c.status == "open") == 259

    again = run("import-records", "phl-tax-delinquencies", "--file", str(TAX_FILE))
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[0].startswith(
        "phl-tax-delinquencies: read 259, added 0, updated 0, unchanged 259, closed 0, archived 0, rejected 0")

    # The same extract with only its first 130 rows (half of them: a full read of it closes nothing unless
    # the operator allows the drop).
    text = TAX_FILE.read_text(encoding="utf-8-sig").splitlines(keepends=True)
    short = tmp_path / "real_estate_tax_delinquency_extract_2016-07_short.csv"
    short.write_text("".join(text[:131]), encoding="utf-8")
    partial = run("import-records", "phl-tax-delinquencies", "--file", str(short), "--partial")
    assert partial.returncode == 0, partial.stderr
    assert "unchanged 130, closed 0, archived 0" in partial.stdout
    refused = run("import-records", "phl-tax-delinquencies", "--file", str(short))
    assert refused.returncode == 0, refused.stderr
    assert "unchanged 130, closed 0, archived 0" in refused.stdout
    assert refused.stdout.splitlines()[-2].endswith(
        "; the read holds 130 open records, more than 20% fewer than the dataset's 259: nothing closed "
        "(import-records --allow-drop if it shrank)")
    full = run("import-records", "phl-tax-delinquencies", "--file", str(short), "--allow-drop")
    assert full.returncode == 0, full.stderr
    assert "unchanged 130, closed 129, archived 0" in full.stdout
    assert count(PropertySignal, PropertySignal.__table__.c.status == "open") == 130
    assert count(Lead) == 0

    listing = run("sources")
    assert listing.returncode == 0, listing.stderr
    header, *rows = listing.stdout.splitlines()
    assert header.split()[:2] == ["dataset", "protocol"]
    by_id = {row.split()[0]: row for row in rows if not row.startswith("warning:")}
    assert set(by_id) == set(opendata.load_datasets())
    tax = by_id["phl-tax-delinquencies"].split()
    # read, added, updated, closed, archived, rejected of the last run, its newest record, stale.
    assert tax[1] == "carto" and tax[4:6] == ["file", "ok"]
    assert tax[6:12] == ["130", "0", "0", "129", "0", "0"]
    assert tax[12] == "2016-07-01" and tax[13] == "stale:"
    assert by_id["nyc-dof-rolling-sales"].split()[2:4] == ["never", "-"]
    assert any(row.startswith("warning: phl-tax-delinquencies: records are as of 2016-07-01") for row in rows)


def test_bad_input_exits_1_with_a_clear_line(db_url, tmp_path):
    out = run("import-records", "nope", "--file", str(TAX_FILE))
    assert out.returncode == 1
    assert out.stderr.startswith("error: unknown dataset 'nope'; known datasets: allegheny-tax-liens-summary, ")
    out = run("import-records", "phl-tax-delinquencies", "--file", str(tmp_path / "missing.csv"))
    assert (out.returncode, out.stderr.strip()) == (1, f"error: no such file: {tmp_path / 'missing.csv'}")
    out = run("import-records", "phl-tax-delinquencies")
    assert out.returncode == 1 and "--file" in out.stderr
    # Another dataset's file: the reader refuses it, nothing is stored but the failed run.
    out = run("import-records", "phl-tax-delinquencies", "--file", str(CHICAGO_FILE), "--as-of", "2026-11-20")
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert out.stderr.strip().endswith(
        "error: phl-tax-delinquencies: vacant_and_abandoned_buildings_violations_sample.csv has no header line "
        "naming OPAnumber")
    kent = SAMPLES / "kent-mi-parcels-arcgis" / "us-mi-kent-0.json"
    out = run("import-records", "chi-vacant-buildings-violations", "--file", str(kent))
    assert out.returncode == 1
    assert out.stderr.strip() == (f"error: no row of {kent} could be read with the mapping of "
                                  "chi-vacant-buildings-violations")
    assert "warning: 15 of 15 rows could not be read: nothing closed" in out.stdout
    assert count(PropertySignal) == 0
    out = run("sources", "check", "nope")
    assert out.returncode == 1 and out.stderr.startswith("error: unknown dataset 'nope'")
    assert {r.dataset_id: r.status for r in record_imports.last_runs().values()} == {
        "phl-tax-delinquencies": "failed", "chi-vacant-buildings-violations": "ok"}


def test_sources_check(db_url, monkeypatch, capsys):
    assert cli.main(["sources", "check", "phl-sheriff-sales-bid4assets"]) == 1
    assert capsys.readouterr().err == "error: phl-sheriff-sales-bid4assets: published only as a download: use import-records\n"

    def report(missing=()):
        return lambda dataset, **kw: CheckReport(dataset.id, "https://data.cityofchicago.org/resource/kc9i-wq85.json",
                                                 1000, 998, 2, tuple(missing), (), date(2026, 11, 20))

    monkeypatch.setattr(opendata, "check", report())
    assert cli.main(["sources", "check", "chi-vacant-buildings-violations"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == ["chi-vacant-buildings-violations: https://data.cityofchicago.org/resource/kc9i-wq85.json",
                   "rows 1000, mapped 998, rejected 2, newest record 2026-11-20", "ok"]
    monkeypatch.setattr(opendata, "check", report(["docket_number"]))
    assert cli.main(["sources", "check", "chi-vacant-buildings-violations"]) == 1
    captured = capsys.readouterr()
    assert "missing columns: docket_number" in captured.out
    assert captured.err == "error: chi-vacant-buildings-violations: the live page does not fit the mapping\n"


def test_refresh_records_fetches_only_enabled_live_datasets(db_url, monkeypatch, capsys):
    monkeypatch.delenv("OPEN_DATA_DATASETS", raising=False)
    assert cli.main(["refresh-records"]) == 0
    assert ("no live dataset enabled (set OPEN_DATA_DATASETS, or BATCHDATA_API_KEY, BATCHDATA_LISTS and "
            "BATCHDATA_LOCATION)") in capsys.readouterr().out
    assert count(DatasetRun) == 0

    fetched = []

    def fake_fetch(dataset, **kw):  # the portal, played by the exported sample of the same dataset, its
        fetched.append(dataset.id)  # notices re-dated to last week (the 2023 sample itself is history)
        week_ago = (kw.get("today") or date.today()) - timedelta(days=7)
        return [dataclasses.replace(r, as_of=week_ago, notice_date=week_ago) if isinstance(r, MappedRecord) else r
                for r in opendata.read_file(dataset, CHICAGO_FILE, today=kw.get("today"))]

    monkeypatch.setattr(opendata, "fetch", fake_fetch)
    monkeypatch.setenv("OPEN_DATA_DATASETS", "chi-vacant-buildings-violations, phl-sheriff-sales-bid4assets, nope")
    assert cli.main(["refresh-records"]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert fetched == ["chi-vacant-buildings-violations"]
    assert results[0]["dataset_id"] == "chi-vacant-buildings-violations" and results[0]["status"] == "ok"
    assert results[0]["mode"] == "api" and results[0]["rows_read"] == 260
    assert results[1:3] == [
        {"dataset_id": "phl-sheriff-sales-bid4assets", "status": "skipped", "reason": "published only as a download"},
        {"dataset_id": "nope", "status": "skipped", "reason": "unknown dataset"},
    ]
    assert "rescore" in results[3]
    vacancies = count(Lead, Lead.__table__.c.lead_type == "Vacancy")
    assert vacancies > 100
    # The pull is a refresh run of its own: its new leads carry its id, so saved-search alerts match them.
    assert results[4]["status"] == "completed" and results[4]["run_key"].startswith("records:")
    assert results[4]["leads_added"] == vacancies
    assert count(Lead, Lead.__table__.c.refresh_run_id == results[4]["run_id"]) == vacancies


def test_a_failing_portal_fails_its_dataset_only(db_url, monkeypatch, capsys):
    from marketplace.features.records.source_opendata import DatasetError

    def fetch(dataset, **kw):
        if dataset.id == "nyc-dof-rolling-sales":
            raise DatasetError(dataset.id, "the portal returned HTTP 503")
        return opendata.read_file(dataset, CHICAGO_FILE, today=kw.get("today"))

    monkeypatch.setattr(opendata, "fetch", fetch)
    monkeypatch.setenv("OPEN_DATA_DATASETS", "nyc-dof-rolling-sales,chi-vacant-buildings-violations")
    assert cli.main(["refresh-records"]) == 1
    captured = capsys.readouterr()
    results = [json.loads(line) for line in captured.out.splitlines()]
    assert results[0] == {"dataset_id": "nyc-dof-rolling-sales", "status": "failed",
                          "error": "nyc-dof-rolling-sales: the portal returned HTTP 503"}
    assert (results[1]["dataset_id"], results[1]["status"]) == ("chi-vacant-buildings-violations", "ok")
    assert captured.err == "error: a dataset refresh failed\n"
    runs = record_imports.last_runs()
    assert runs["nyc-dof-rolling-sales"].status == "failed"
    assert runs["nyc-dof-rolling-sales"].error == "DatasetError: nyc-dof-rolling-sales: the portal returned HTTP 503"
