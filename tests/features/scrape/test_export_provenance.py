"""Every export carries the provenance of every row: the bulk scrape CSV (16th column), the dashboard's
stored-scrape CSV, the pipeline CSV, the explorer export and the webhook JSON ("provenance" on each lead).
A real-inventory install's webhook draws from public records and says "Only N of M matched" rather than
invent; a pure demo install's rows say "Demo data (generated)"."""

from __future__ import annotations

import csv
import io
import uuid
from datetime import date

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from marketplace.features.explorer import api_export as explorer_export
from marketplace.platform.web import ratelimit
from marketplace.features.scrape import api_webhook as webhook
from marketplace.api import create_api
from marketplace.platform.config import reload_settings
from marketplace.features.explorer import rules as explorer_rules
from marketplace.features.records.rules_address_display import display_street
from marketplace.features.property import rules_pipeline as pipeline_rules
from marketplace.features.scrape import rules as scrape_rules
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import BulkScrape, Lead, SuperAdmin, UserLead, utcnow
from marketplace.platform import demo_data, downloads
from marketplace.features.records import service_imports as record_imports
from marketplace.features.scrape import service as scrapes, service_webhooks as webhooks
from marketplace.features.scrape.source_builtin import BuiltinSource
from tests.factories import add_lead
from tests.features.records.opendata_helpers import chicago_as_of

CHICAGO_LINE = "Public record: City of Chicago, Vacant and Abandoned Buildings - Violations"
DEMO = "Demo data (generated)"
KINDS = {  # address -> (raw_data, the provenance every export gives it)
    "1 Demo St": ({"generated": True, "condition_score": 0.4}, DEMO),
    "2 Listing St": ({"provider": "rentcast", "condition_score": 0.5}, "Listing data: RentCast"),
    "3 Unknown St": ({}, "N/A"),
}


@pytest.fixture
def client(db_url, monkeypatch):
    for name in ("OPEN_DATA_DATASETS", "BATCHDATA_LISTS", "BATCHDATA_API_KEY", "BATCHDATA_LOCATION", "APP_ENV"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SCRAPE_PROCESSES", "0")
    reload_settings()
    monkeypatch.setattr(webhook, "webhook_limiter", ratelimit.Limiter("provenance-test", 50))
    monkeypatch.setattr(webhooks, "refusals", webhooks.RefusalCounter())
    demo_data.forget_demo_check()
    with TestClient(create_api()) as c:
        yield c


def _rows(res) -> list[dict]:
    assert res.status_code == 200, res.text
    rows = list(csv.reader(io.StringIO(res.content.decode("utf-8-sig"))))
    return [dict(zip(rows[0], row)) for row in rows[1:]]


def _chicago() -> int:
    # The sample re-dated to the week before: its 2023 notices themselves are history (no leads).
    record_imports.import_file("chi-vacant-buildings-violations", chicago_as_of(date(2026, 11, 18)),
                               today=date(2026, 11, 25))
    leads = Lead.__table__
    with get_engine().connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(leads).where(
            leads.c.property_id.is_not(None), leads.c.is_active == sa.true())).scalar_one()


def _webhook(client, user_id, key, body):
    return client.post(f"/functions/v1/webhook-bulk-scrape/{user_id}", json=body,
                       headers={"content-type": "application/json", "x-webhook-auth": key})


def test_real_inventory_webhook_and_scrape_csvs_carry_public_record_provenance(client, new_user):
    available = _chicago()
    add_lead(address="1 Demo St", city="Chicago", state="IL", raw_data={"generated": True})  # never drawn from
    user = new_user(credits=1_000_000)
    key = webhooks.regenerate_key(user.id)
    asked = available + 10
    res = _webhook(client, user.id, key, {"leadCount": asked, "location": "Chicago, IL"})
    assert res.status_code == 200, res.text
    data = res.json()
    assert data["leads_generated"] == available and data["credits_used"] == scrape_rules.scrape_cost(available)
    assert data["message"] == (f"Only {available:,} of {asked:,} matched your criteria; "
                               f"you were charged for the {available:,} delivered.")
    assert len(data["output"]) == available
    assert all(lead["provenance"].startswith(CHICAGO_LINE) for lead in data["output"])
    assert "1 Demo St" not in {lead["address"] for lead in data["output"]}

    sid = data["bulk_scrape_id"]
    token = downloads.make_token(downloads.SCRAPE_CSV, user.id, sid)
    for kind in ("results", "stored"):  # the scraper's Download CSV and the dashboard's stored scrape
        rows = _rows(client.get(f"/api/scrapes/{sid}/csv", params={"token": token, "kind": kind}))
        assert len(rows) == available
        assert list(rows[0])[:15] == list(scrape_rules.CSV_COLUMNS[:15]) and list(rows[0])[15] == "Provenance"
        assert all(row["Provenance"].startswith(CHICAGO_LINE) for row in rows)


def test_a_demo_install_labels_every_exported_row_demo_data(client, new_user):
    user = new_user(credits=1_000_000)
    key = webhooks.regenerate_key(user.id)
    data = _webhook(client, user.id, key, {"leadCount": 7, "location": "TX"}).json()
    assert [lead["provenance"] for lead in data["output"]] == [DEMO] * 7
    token = downloads.make_token(downloads.SCRAPE_CSV, user.id, data["bulk_scrape_id"])
    rows = _rows(client.get(f"/api/scrapes/{data['bulk_scrape_id']}/csv", params={"token": token, "kind": "stored"}))
    assert [row["Provenance"] for row in rows] == [DEMO] * 7


def test_a_scrape_stored_before_provenance_gets_it_from_its_leads(client, new_user):
    user = new_user(credits=10_000)
    result = scrapes.run_scrape(user.id, scrape_rules.ScrapeRequest(lead_count=3), source=BuiltinSource(seed=11))
    with session_scope() as s:
        row = s.get(BulkScrape, result.scrape_id)
        row.output = [{k: v for k, v in lead.items() if k != "provenance"} for lead in row.output]
        s.add(row)
    token = downloads.make_token(downloads.SCRAPE_CSV, user.id, str(result.scrape_id))
    rows = _rows(client.get(f"/api/scrapes/{result.scrape_id}/csv", params={"token": token, "kind": "stored"}))
    assert [row["Provenance"] for row in rows] == [DEMO] * 3


def test_pipeline_csv_carries_the_provenance_of_every_row(client, new_user):
    user = new_user()
    _chicago()
    with get_engine().connect() as conn:
        record_id, record_address = conn.execute(sa.select(Lead.__table__.c.id, Lead.__table__.c.address).where(
            Lead.__table__.c.property_id.is_not(None)).limit(1)).one()
    ids = [record_id] + [add_lead(address=address, raw_data=raw) for address, (raw, _) in KINDS.items()]
    with session_scope() as session:
        for lead_id in ids:
            session.add(UserLead(user_id=user.id, lead_id=lead_id, credit_cost=120, purchase_type="credits"))
    res = client.get("/api/pipeline.csv", params={"token": downloads.make_token("pipeline-csv", user.id, "all")})
    rows = _rows(res)
    assert list(rows[0]) == list(pipeline_rules.CSV_COLUMNS) and list(rows[0])[-1] == "Provenance"
    got = {row["Address"]: row["Provenance"] for row in rows}
    # Addresses in the CSV are in reading case (records.rules_address_display), as everywhere they are shown.
    assert got.pop(display_street(record_address)).startswith(CHICAGO_LINE)
    assert got == {display_street(address): line for address, (_, line) in KINDS.items()}


def test_explorer_export_carries_the_provenance_of_every_row(client, new_user):
    admin = new_user()
    with session_scope() as s:
        s.add(SuperAdmin(user_id=admin.id))
    for address, (raw, _) in KINDS.items():
        add_lead(address=address, raw_data=raw)
    view = explorer_rules.LeadView.of()
    rows = _rows(client.get(explorer_export.export_url(admin.id, view)))
    assert list(rows[0]) == list(explorer_rules.CSV_COLUMNS) and len(rows[0]) == 23
    assert {row["Address"]: row["Provenance"] for row in rows} == {a: line for a, (_, line) in KINDS.items()}
    _chicago()
    rows = _rows(client.get(explorer_export.export_url(admin.id, view)))
    records = [row for row in rows if row["Address"] not in KINDS]
    assert records and all(row["Provenance"].startswith(CHICAGO_LINE) for row in records)


def test_unknown_lead_ids_in_a_stored_scrape_stay_unlabelled_never_invented(client, new_user):
    user = new_user()
    sid = uuid.uuid4()
    with session_scope() as s:
        s.add(BulkScrape(id=sid, user_id=user.id, created_at=utcnow(), lead_count=1, leads_generated=1,
                         credits_used=0, status="completed", origin="ui", params={},
                         output=[{"id": "not-a-uuid", "address": "9 Gone St"}]))
    token = downloads.make_token(downloads.SCRAPE_CSV, user.id, str(sid))
    rows = _rows(client.get(f"/api/scrapes/{sid}/csv", params={"token": token}))
    assert [(row["Address"], row["Provenance"]) for row in rows] == [("9 Gone St", "N/A")]
