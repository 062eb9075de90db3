"""Migration 0036: a public-record lead's proving record becomes facts (``raw_data["proof"]``) in place of
its stored lines; the lines every viewer reads (the card's and exports' provenance, the property page's
source line) read the same before and after, and a downgrade writes the stored lines back as they were."""

from datetime import date

import sqlalchemy as sa
from alembic import command

from marketplace.platform.db import get_engine
from marketplace.platform.migrations import alembic_config
from marketplace.platform.models import Lead

OLD_LINE = ("Public record: City of Chicago, Vacant and Abandoned Buildings - Violations, record 11CP015666, "
            "retrieved 2026-11-25")
OLD_RAW = {
    "public_record": True, "property_id": 1, "source_line": OLD_LINE,
    "dataset_line": "Public record: City of Chicago, Vacant and Abandoned Buildings - Violations",
    "provenance": [
        {"kind": "tax_delinquent", "dataset_id": "cook-treasurer-annual-tax-sale", "title": "Annual Tax Sale",
         "publisher": "Cook County Treasurer", "record_key": "T1", "retrieved_at": "2026-11-20T08:00:00+00:00",
         "source_line": "Public record: Cook County Treasurer, Annual Tax Sale, record T1, retrieved 2026-11-20"},
        {"kind": "vacant", "dataset_id": "chi-vacant-buildings-violations",
         "title": "Vacant and Abandoned Buildings - Violations", "publisher": "City of Chicago",
         "record_key": "11CP015666", "retrieved_at": "2026-11-25T12:00:00+00:00", "source_line": OLD_LINE}],
    "motivation_reasons": ["Vacant since 2023"],
}


def _migrate(db_url, step):
    with get_engine(db_url).begin() as conn:
        cfg = alembic_config(db_url)
        cfg.attributes["connection"] = conn
        step(cfg)


def _raw(db_url, lead_id):
    with get_engine(db_url).connect() as conn:
        return conn.execute(sa.select(Lead.__table__.c.raw_data).where(Lead.__table__.c.id == lead_id)).scalar_one()


def test_0036_keeps_every_line_a_viewer_reads_and_downgrades_to_the_stored_lines(db_url):
    from types import SimpleNamespace

    from marketplace.features.property.rules import proof_line
    from marketplace.features.records.service_views import _proof
    from marketplace.platform.leads import provenance_line
    from tests.factories import add_lead

    other = {"public_record": True, "dataset_line": "Public record: Some Office, Some List",
             "source_line": "Public record: Some Office, Some List, record 9, retrieved 2026-01-02"}
    _migrate(db_url, lambda cfg: command.downgrade(cfg, "0035"))
    try:
        with get_engine(db_url).begin() as conn:
            for pid in (1, 2):
                conn.execute(sa.text("INSERT INTO properties (id, address_key, address, state, zip_code, created_at, "
                                     f"updated_at) VALUES ({pid}, '{pid} s lasalle', '{pid} S LASALLE', 'IL', "
                                     "'60620', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"))
        lead_id = add_lead(db_url, property_id=1, external_id="pr:1", raw_data=OLD_RAW, sale_date=date(2027, 1, 1))
        stray = add_lead(db_url, property_id=2, external_id="pr:2", raw_data=other)  # no provenance entry
        demo = add_lead(db_url, raw_data={"generated": True})
    finally:
        _migrate(db_url, lambda cfg: command.upgrade(cfg, "head"))
    raw = _raw(db_url, lead_id)
    assert raw["proof"] == {"publisher": "City of Chicago", "title": "Vacant and Abandoned Buildings - Violations",
                            "record_key": "11CP015666", "retrieved_at": "2026-11-25T12:00:00+00:00"}
    assert not {"source_line", "dataset_line"} & raw.keys()
    assert all("source_line" not in entry for entry in raw["provenance"])
    assert raw["motivation_reasons"] == ["Vacant since 2023"]
    # What viewers read: the same words as the stored lines said.
    assert provenance_line(raw) == OLD_RAW["dataset_line"]
    assert proof_line(_proof(raw, unlocked=False), "UTC") == OLD_RAW["dataset_line"]
    assert proof_line(_proof(raw, unlocked=True), "UTC") == OLD_LINE.replace("2026-11-25", "Nov 25, 2026, 12:00 PM UTC")
    stray_raw = _raw(db_url, stray)
    assert provenance_line(stray_raw) == other["dataset_line"]
    assert proof_line(_proof(stray_raw, unlocked=True), "UTC") == "Public record: Some Office, Some List, record 9"
    assert _raw(db_url, demo) == {"generated": True}

    _migrate(db_url, lambda cfg: command.downgrade(cfg, "0035"))
    try:
        assert _raw(db_url, lead_id) == OLD_RAW
        assert _raw(db_url, demo) == {"generated": True}
    finally:
        _migrate(db_url, lambda cfg: command.upgrade(cfg, "head"))
