"""What a market holds in words, its completeness, a dataset's portal page, and the Public record section's
dataset rows (records.rules_market_coverage, property.rules.dataset_rows)."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace

from marketplace.features.records import rules_market_coverage as mc
from marketplace.features.property.rules import dataset_rows

ROLES = {"roll": ("roll-a", "roll-b"), "sales": ("sales-a",), "lists": ("list-a", "list-b")}
TITLES = {"roll-a": "Parcel Addresses", "roll-b": "Characteristics", "sales-a": "Parcel Sales",
          "list-a": "Annual Tax Sale", "list-b": "Scavenger Sale"}


def test_holds_names_the_imported_datasets_by_role_in_the_files_order():
    title = TITLES.__getitem__
    assert mc.holds_text(ROLES, ["list-b", "roll-a", "list-a"], title) == (
        "Roll: Parcel Addresses · Lists: Annual Tax Sale, Scavenger Sale")
    assert mc.holds_text(ROLES, [], title) == ""


def test_completeness_tells_imported_from_configured_from_missing():
    assert mc.completeness_text(ROLES, ["roll-b"]) == (
        "Roll: imported · Sales: configured, not imported · Lists: configured, not imported")
    assert mc.completeness({"roll": (), "sales": (), "lists": ("x",)}, ["x"]) == [
        ("Roll", "missing"), ("Sales", "missing"), ("Lists", "imported")]


def test_leads_text():
    assert (mc.leads_text(0), mc.leads_text(1), mc.leads_text(1234)) == (
        "0 live leads", "1 live lead", "1,234 live leads")


def test_a_datasets_page_on_its_portal():
    assert mc.dataset_page_url("socrata", "https://datacatalog.cookcountyil.gov/", "55ju-2fs9") == (
        "https://datacatalog.cookcountyil.gov/d/55ju-2fs9")
    assert mc.dataset_page_url("arcgis", "https://x.example/FeatureServer", "0") == "https://x.example/FeatureServer/0"
    assert mc.dataset_page_url("carto", "https://phl.carto.com", "opa_properties_public") == "https://phl.carto.com"
    assert mc.dataset_page_url("file", "", "") is None
    assert mc.dataset_page_url("file", "shared/public-records", "") is None


def _mention(dataset_id, title, what, key, day, label, url, own):
    return SimpleNamespace(dataset_id=dataset_id, title=title, publisher="Cook County Assessor's Office",
                           role="sales", what=what, record_key=key, date=day, date_label=label, url=url,
                           record_page=own)


def test_dataset_rows_head_each_dataset_once_and_say_what_the_link_opens():
    rows = dataset_rows([
        _mention("s", "Parcel Sales", "Recorded sale: $245,000", "7326518", date(2022, 2, 24), "Sold",
                 "https://d.example/d/s", False),
        _mention("s", "Parcel Sales", "Recorded sale: $75,500", "7264365", date(2021, 10, 1), "Sold",
                 "https://d.example/d/s", False),
        _mention("r", "Roll", "Assessed value, tax year 2019", "", None, "As of", None, False),
        _mention("t", "Tax Sale", "Tax sale", "24-25 2026", date(2026, 1, 1), "As of", "https://t.example/1", True),
    ])
    assert [(r["title"], r["what"], r["record"], r["date"], r["url"], r["link"]) for r in rows] == [
        ("Parcel Sales", "Recorded sale: $245,000", "Record 7326518", "Sold Feb 24, 2022", "https://d.example/d/s",
         "View the dataset"),
        ("", "Recorded sale: $75,500", "Record 7264365", "Sold Oct 1, 2021", "https://d.example/d/s",
         "View the dataset"),
        ("Roll", "Assessed value, tax year 2019", "", "", "", "View the dataset"),
        ("Tax Sale", "Tax sale", "Record 24-25 2026", "As of Jan 1, 2026", "https://t.example/1", "View the record"),
    ]
