"""Every CSV export neutralises formula starts after Unicode compatibility normalisation (issue 40, item 4):
the full-width ＝ － ＋ ＠ (which a spreadsheet may read as = - + @) get the leading apostrophe in the scrape
CSV (the bulk scraper's and the dashboard's), the pipeline CSV, the owner export's three layouts and the
explorer's export, as the ASCII signs do; headers (SPEC 9's columns) are unchanged."""

from __future__ import annotations

import csv
import io
import unicodedata
import uuid

import pytest
from fastapi.testclient import TestClient

from marketplace.features.explorer import api_export as explorer_export
from marketplace.api import create_api
from marketplace.features.explorer import rules as explorer_rules
from marketplace.features.property import rules_owner_export as owner_export, rules_pipeline as pipeline_rules
from marketplace.features.scrape import rules as scrape_rules
from marketplace.features.scrape.rules import neutralize
from marketplace.platform.db import session_scope
from marketplace.platform.models import BulkScrape, Lead, OwnerContact, SuperAdmin, UserLead
from marketplace.platform import downloads
from tests.factories import add_lead

HOSTILE = ["＝1+2", "－5+3", "＋SUM(1)", "＠SUM(1)"]
STARTS = ("=", "+", "-", "@", "\t", "\r")


def test_neutralize_reads_the_compatibility_forms():
    for text in HOSTILE + ["﹦1+2", "⁼1", "﹢1", "₊1", "﹣1", "﹫SUM(1)", "\tx", "\rx", "=1", "+1", "-1", "@x"]:
        assert neutralize(text) == "'" + text  # the text itself kept as written
    for text in ("１２ Oak St", "Ｍain St", "José", "", " 12 Oak St", "5-3"):
        assert neutralize(text) == text
    assert (neutralize(-5), neutralize(-2.5), neutralize(None)) == ("-5", "-2.5", "")


def _rows(res) -> list[list[str]]:
    assert res.status_code == 200, res.text
    return list(csv.reader(io.StringIO(res.content.decode("utf-8-sig"))))


def _none_runs(rows: list[list[str]]) -> None:
    """No cell of the file starts a formula, as written or once normalised."""
    for row in rows[1:]:
        for cell in row:
            assert not unicodedata.normalize("NFKC", cell).startswith(STARTS), (cell, row)


@pytest.fixture
def client(db_url):
    with TestClient(create_api()) as c:
        yield c


def test_the_scrape_csv_of_the_bulk_scraper_and_the_dashboard(client, new_user):
    user = new_user()
    output = [{"id": str(uuid.uuid4()), "address": h, "city": h, "state": "TX", "zip_code": "78701",
               "lead_type": h, "asking_price": 250000, "provenance": h} for h in HOSTILE]
    with session_scope() as s:
        scrape = BulkScrape(user_id=user.id, lead_count=4, leads_generated=4, output=output)
        s.add(scrape)
        s.flush()
        sid = str(scrape.id)
    token = downloads.make_token(downloads.SCRAPE_CSV, user.id, sid)
    for kind in ("results", "stored"):
        rows = _rows(client.get(f"/api/scrapes/{sid}/csv", params={"token": token, "kind": kind}))
        assert rows[0] == list(scrape_rules.CSV_COLUMNS)
        assert [r[0] for r in rows[1:]] == ["'" + h for h in HOSTILE]
        assert [r[4] for r in rows[1:]] == ["'" + h for h in HOSTILE]
        _none_runs(rows)


def _unlock(user_id, lead_id):
    with session_scope() as session:
        session.add(UserLead(user_id=user_id, lead_id=lead_id, credit_cost=120, purchase_type="credits"))


def test_the_pipeline_csv(client, new_user):
    user = new_user()
    for h in HOSTILE:
        _unlock(user.id, add_lead(address=h, city=h))
    rows = _rows(client.get("/api/pipeline.csv", params={"token": downloads.make_token(
        downloads.PIPELINE_CSV, user.id, downloads.PIPELINE_ALL)}))
    assert rows[0] == list(pipeline_rules.CSV_COLUMNS)
    assert sorted(r[0] for r in rows[1:]) == sorted("'" + h for h in HOSTILE)
    _none_runs(rows)


@pytest.mark.parametrize("layout", list(owner_export.LAYOUTS))
def test_the_owner_export_in_every_layout(client, new_user, layout):
    user = new_user(credits=100)
    for h in HOSTILE:
        lead_id = add_lead(address=h, city=h)
        _unlock(user.id, lead_id)
        with session_scope() as session:
            session.add(OwnerContact(user_id=user.id, lead_id=lead_id, provider="batchdata", demo=False,
                                     status="found", owner_name=f"{h} {h}", emails=[f"{h}@example.com"],
                                     phones=[{"number": "(512) 555-0142", "type": h, "dnc": False, "wrong": False}],
                                     credits_charged=2))
    rows = _rows(client.get("/api/owners.csv", params={
        "layout": layout, "token": downloads.make_token("owners-csv", user.id, layout)}))
    assert rows[0] == list(owner_export.LAYOUTS[layout].header)
    by_column = [dict(zip(rows[0], r)) for r in rows[1:]]
    assert sorted({r["Property Address"] for r in by_column}) == sorted("'" + h for h in HOSTILE)
    _none_runs(rows)


def test_the_explorer_export(client, new_user):
    admin = new_user()
    with session_scope() as s:
        s.add(SuperAdmin(user_id=admin.id))
        for h in HOSTILE:
            s.add(Lead(address=h, city=h, state="TX", zip_code="78701", lead_type=h, source=h))
    rows = _rows(client.get(explorer_export.export_url(admin.id, explorer_rules.LeadView.of())))
    assert sorted(r[3] for r in rows[1:]) == sorted("'" + h for h in HOSTILE)
    _none_runs(rows)
