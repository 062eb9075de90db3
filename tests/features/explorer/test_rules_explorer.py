"""The explorer's leads table rules: search parsing, views, labels and the 22-column CSV."""

from __future__ import annotations

import csv
import io
import uuid
from datetime import date, datetime, timezone
from urllib.parse import parse_qs

import pytest

from marketplace.features.explorer import rules
from marketplace.features.explorer.rules import LeadSearch, parse_search, zip_range


@pytest.mark.parametrize("text, expected", [
    ("Austin", LeadSearch(city="Austin")),
    ("TX", LeadSearch(state="TX")),
    ("tx", LeadSearch(state="TX")),
    ("78701", LeadSearch(zip_prefix="78701")),
    ("787", LeadSearch(zip_prefix="787")),
    ("78701-1234", LeadSearch(zip_prefix="78701-1234")),
    ("78701-", LeadSearch(zip_prefix="78701")),
    ("Austin, TX", LeadSearch(city="Austin", state="TX")),
    ("Austin TX", LeadSearch(city="Austin", state="TX")),
    ("  san   antonio ,tx ", LeadSearch(city="san antonio", state="TX")),
    ("Austin, TX 78701", LeadSearch(city="Austin", state="TX", zip_prefix="78701")),
    ("TX 787", LeadSearch(state="TX", zip_prefix="787")),
    ("New York, NY", LeadSearch(city="New York", state="NY")),
    ("Austin,", LeadSearch(city="Austin")),
    ("", LeadSearch()),
    ("   ", LeadSearch()),
    ("Zz", LeadSearch(city="Zz")),  # not a state code: a city that matches nothing
    ("123456", LeadSearch(city="123456")),  # not a ZIP
    (None, LeadSearch()),
    ({"$gt": ""}, LeadSearch()),
])
def test_parse_search(text, expected):
    assert parse_search(text) == expected


def test_search_is_capped_and_described():
    assert len(parse_search("x" * 500).city) == rules.SEARCH_MAX_LENGTH
    assert parse_search("Austin, TX 787").describe() == 'city "Austin", state TX, ZIP 787...'
    assert parse_search("78701").describe() == "ZIP 78701"
    assert parse_search("").empty and not parse_search("TX").empty


@pytest.mark.parametrize("prefix, expected", [
    ("787", ("787", "788")),
    ("78701", ("78701", "78702")),
    ("7899", ("7899", "79")),
    ("799", ("799", "8")),
    ("999", ("999", None)),
    ("0", ("0", "1")),
    ("33101-12", ("33101", "33102")),
])
def test_zip_range(prefix, expected):
    assert zip_range(prefix) == expected


def test_view_parsing_falls_back_to_defaults():
    view = rules.LeadView.of("  Austin ,  TX ", "nonsense", {"x": 1})
    assert (view.query, view.status, view.sort) == ("Austin , TX", "all", "newest")
    assert rules.LeadView.of(status="archived", sort="sqft_asc").params() == "q=&status=archived&sort=sqft_asc"
    assert parse_qs(rules.LeadView.of("a&b=c").params())["q"] == ["a&b=c"]
    assert [rules.parse_page_size(v) for v in ("25", 50, "100", "20", "1e999", None)] == [25, 50, 100, None, None, None]
    assert set(rules.SORT_VALUES) == {"newest", "roi_desc", "price_asc", "zestimate_desc", "sqft_asc"}


def test_labels():
    assert rules.range_label(1, 50, 1234) == "Showing 1-50 of 1,234 leads"
    assert rules.range_label(25, 50, 1234) == "Showing 1,201-1,234 of 1,234 leads"
    assert rules.range_label(1, 25, 1) == "Showing 1-1 of 1 lead"
    assert rules.range_label(1, 25, 0) == "No leads"
    assert rules.counts_label(1000, 234) == "1,000 active, 234 archived"
    assert [rules.view_total(s, 7, 3) for s in ("all", "active", "archived")] == [10, 7, 3]


LEAD = {
    "id": uuid.UUID("12345678-1234-5678-1234-567812345678"),
    "created_at": datetime(2026, 11, 23, 14, 5, tzinfo=timezone.utc),
    "is_active": False, "address": "12 Oak St", "city": "Austin", "state": "TX", "zip_code": "78701",
    "lead_type": "Probate", "source": "builtin", "asking_price": 250000, "zestimate": 300000, "arv": 340000,
    "rehab_estimate": 25000, "roi": 18.456, "beds": 3, "baths": 2.5, "square_footage": 1500,
    "confidence_score": None, "credit_cost": None, "is_new": True, "is_high_roi": False,
    "images_fetch_status": "pending",
}


def test_csv_has_the_spec_22_columns_then_provenance_and_one_cell_each():
    assert len(rules.CSV_COLUMNS) == 23 == len(set(rules.CSV_COLUMNS))
    assert rules.CSV_COLUMNS[-1] == "Provenance"
    assert rules.csv_row({**LEAD, "provenance": "Demo data (generated)"}) == [
        "12345678-1234-5678-1234-567812345678", "2026-11-23T14:05:00+00:00", "Archived", "12 Oak St", "Austin",
        "TX", "78701", "Probate", "builtin", "250000", "300000", "340000", "25000", "18.5", "3", "2.5", "1500",
        "85", "85", "Yes", "No", "pending", "Demo data (generated)",
    ]
    assert rules.csv_row(LEAD)[-1] == "N/A"
    text = rules.csv_chunk([LEAD, {**LEAD, "address": "=cmd|' /C calc'!A0", "city": "+1", "roi": None}], header=True)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == list(rules.CSV_COLUMNS)
    assert rows[2][3:5] == ["'=cmd|' /C calc'!A0", "'+1"] and rows[2][13] == ""
    assert text.endswith("\r\n")


def test_table_row_and_filename():
    row = rules.table_row({**LEAD, "is_active": True, "confidence_score": 92, "credit_cost": 150})
    assert row == {
        "id": "12345678-1234-5678-1234-567812345678", "created": "Nov 23, 2026", "address": "12 Oak St",
        "city": "Austin", "state": "TX", "zip": "78701", "place": "Austin, TX 78701", "lead_type": "Probate",
        "price": "$250,000", "market": "$300,000", "sqft": "1,500", "roi": "18.5%", "confidence": "92",
        "cost": "150", "image_status": "pending", "status": "Active",
    }
    # The app's one date format, in the viewer's zone (14:05 UTC is the next morning in Auckland).
    assert rules.table_row(LEAD, "Pacific/Auckland")["created"] == "Nov 24, 2026"
    missing = rules.table_row({**LEAD, "asking_price": None, "roi": None, "zestimate": None, "square_footage": None})
    assert (missing["price"], missing["roi"], missing["market"], missing["sqft"]) == ("N/A",) * 4
    assert rules.export_filename(date(2026, 11, 23)) == "leads-export-2026-11-23.csv"
