"""The pipeline CSV: a signed link for its own user only, stage, notes, follow-up, offer, analyzer figures."""

from __future__ import annotations

import csv
import io
import time
from dataclasses import replace
from datetime import date

import pytest
from fastapi.testclient import TestClient

from marketplace.api import create_api
from marketplace.features.property import rules_pipeline as rules
from marketplace.platform.db import session_scope
from marketplace.platform.models import UserLead
from marketplace.features.property import service_deals as deals, service_pipeline as pipeline
from marketplace.platform import downloads
from tests.factories import add_lead


@pytest.fixture
def client(db_url):
    with TestClient(create_api()) as c:
        yield c


def _unlock(user_id, lead_id):
    with session_scope() as session:
        session.add(UserLead(user_id=user_id, lead_id=lead_id, credit_cost=120, purchase_type="credits"))


def test_pipeline_csv_for_its_user(client, new_user):
    user, other = new_user(), new_user()
    offered, untouched = add_lead(address="12 Oak St"), add_lead(address="14 Elm St")
    for lead_id in (offered, untouched):
        _unlock(user.id, lead_id)
    pipeline.save_entry(user.id, offered, "offer_made", "", "2026-12-01", "180000", date(2026, 11, 25))
    pipeline.add_note(user.id, offered, "Offer sent by e-mail")
    deals.save_analysis(user.id, offered, deals.load_analysis(user.id, offered).analysis)
    res = client.get("/api/pipeline.csv",
                     params={"token": downloads.make_token("pipeline-csv", user.id, "all")})
    assert res.status_code == 200 and res.headers["content-type"].startswith("text/csv")
    assert res.headers["content-disposition"].startswith('attachment; filename="leadvault-pipeline-')
    rows = list(csv.reader(io.StringIO(res.content.decode("utf-8-sig"))))
    assert rows[0] == list(rules.CSV_COLUMNS)
    by_address = {row[0]: dict(zip(rows[0], row)) for row in rows[1:]}
    assert set(by_address) == {"12 Oak St", "14 Elm St"}
    o = by_address["12 Oak St"]
    assert (o["Stage"], o["Offer"], o["Follow-up Date"]) == ("Offer Made", "180000", "2026-12-01")
    assert o["Notes"].endswith("UTC] Offer sent by e-mail")
    assert o["70% Rule Max Offer (est.)"] == "215000" and o["Flip Profit (est.)"] != ""
    assert by_address["14 Elm St"]["Stage"] == "New" and by_address["14 Elm St"]["Flip Profit (est.)"] == ""
    # another user's link gets their own (empty) pipeline, never this one
    theirs = client.get("/api/pipeline.csv", params={"token": downloads.make_token("pipeline-csv", other.id, "all")})
    assert theirs.status_code == 200 and len(list(csv.reader(io.StringIO(theirs.content.decode("utf-8-sig"))))) == 1
    for token in ("", "garbage", downloads.make_token("pipeline-csv", user.id, "all", now=time.time() - 3600),
                  downloads.make_token("scrape-csv", user.id, "all")):
        res = client.get("/api/pipeline.csv", params={"token": token})
        assert (res.status_code, res.json()) == (403, {"error": "This download link is invalid or has expired."})


def test_the_csv_arv_is_the_one_its_profit_is_computed_from(client, new_user):
    user = new_user()
    analysed = add_lead(address="7953 Robin Pl", asking_price=417_000, arv=632_000, rehab_estimate=44_100)
    plain = add_lead(address="8 Ash St", asking_price=417_000, arv=632_000, rehab_estimate=44_100,
                     comps_arv=540_000, comps_count=5, roi_basis="comps")
    for lead_id in (analysed, plain):
        _unlock(user.id, lead_id)
    analysis = deals.load_analysis(user.id, analysed).analysis
    analysis = replace(analysis, flip=replace(analysis.flip, arv=540_000.0))  # the user's ARV (their comps)
    deals.save_analysis(user.id, analysed, analysis)
    rows = list(csv.reader(io.StringIO(client.get("/api/pipeline.csv", params={
        "token": downloads.make_token("pipeline-csv", user.id, "all")}).content.decode("utf-8-sig"))))
    by_address = {row[0]: dict(zip(rows[0], row)) for row in rows[1:]}
    row = by_address["7953 Robin Pl"]
    # The profit is the saved analysis' (ARV $540,000): the ARV beside it is that same figure, not $632,000.
    assert row["ARV"] == "540000"
    assert int(row["Flip Profit (est.)"]) == round(rules.headline(analysis).flip_profit)
    # Without an analysis: the ARV the lead's headline rests on (its comps ARV here).
    assert by_address["8 Ash St"]["ARV"] == "540000" and by_address["8 Ash St"]["Flip Profit (est.)"] == ""
