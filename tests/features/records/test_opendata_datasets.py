"""The dataset files: all ten load, a bad file is refused naming the file and the field, freshness."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from marketplace.features.records.rules import RECORD_KINDS, SALE_TYPES
from marketplace.features.records.source_opendata import freshness, load_datasets, read_file, tally
from marketplace.features.records.source_opendata.dataset import DATASETS_DIR
from tests.features.records.opendata_helpers import DATASETS, SAMPLES, sample

TODAY = date(2026, 11, 25)

GOOD = """
id = "{name}"
title = "Test"
publisher = "Somewhere"
protocol = "socrata"
endpoint = "https://data.example.org"
resource = "abcd-1234"
kind = "vacant"
list = "event"
max_age_days = 30
licence = "public"
attribution = "Data: Somewhere"
record_key = "id"

[fields]
as_of = "issued"
address = "address"
"""


def write(tmp_path: Path, text: str, name: str = "test-set") -> Path:
    (tmp_path / f"{name}.toml").write_text(text.replace("{name}", name))
    return tmp_path


def test_the_shipped_datasets_load():
    datasets = load_datasets()
    assert sorted(datasets) == sorted([
        "allegheny-tax-liens-summary", "bal-tax-sale-bidbaltimore", "chi-vacant-buildings-violations",
        "fhfa-hpi-zip3", "kent-mi-parcels-arcgis", "nj-atlantic-sheriff-sales", "nyc-dof-rolling-sales",
        "phl-opa-properties", "phl-sheriff-sales-bid4assets", "phl-tax-delinquencies",
        # the samples of shared/public-records-more
        "bal-vacant-building-notices", "cook-ccao-parcel-addresses", "cook-ccao-parcel-sales",
        "cook-ccao-res-characteristics-sample", "cook-ccao-residential-sales-assessments",
        "cook-treasurer-annual-tax-sale", "cook-treasurer-scavenger-sale", "cuy-recorder-probate-trigger-docs",
        "nyc-acris-real-property", "nyc-dcp-pluto", "nyc-dob-vacate-orders", "nyc-dof-property-valuation-assessments",
        "nyc-dof-tax-lien-sale-list", "nyc-hpd-vacate-orders", "nyc-hpd-violations",
        "phl-property-tax-balances-2014-with-li", "phl-vacant-indicators-buildings", "phl-vacant-indicators-land"])
    assert {d.protocol for d in datasets.values()} == {"socrata", "arcgis", "carto", "ckan", "file"}
    for dataset in datasets.values():
        assert dataset.kind in RECORD_KINDS + ("hpi",)
        assert (dataset.sale_type in SALE_TYPES) == (dataset.kind == "sale_list")
        assert dataset.licence and dataset.attribution and dataset.status_note
    assert datasets["chi-vacant-buildings-violations"].constants == {"city": "CHICAGO", "state": "IL"}
    assert datasets["nyc-dof-rolling-sales"].constants == {"city": "BROOKLYN", "state": "NY"}
    assert datasets["bal-tax-sale-bidbaltimore"].sale_type == "tax"


def test_a_good_file_loads(tmp_path):
    dataset = load_datasets(write(tmp_path, GOOD))["test-set"]
    assert (dataset.protocol, dataset.resource, dataset.page_size, dataset.status_note) == (
        "socrata", "abcd-1234", 1000, None)
    assert dataset.mapping["as_of"].type == "date" and dataset.mapping["address"].api == "address"


@pytest.mark.parametrize("change, message", [
    (('protocol = "socrata"', 'protocol = "odata"'),
     "test-set.toml: protocol: 'odata' is not one of socrata, arcgis, carto, ckan, file"),
    (('kind = "vacant"', 'kind = "make_me_move"'), "test-set.toml: kind: 'make_me_move' is not one of"),
    (('kind = "vacant"', 'kind = "sale_list"'), "test-set.toml: sale_type: None is not one of sheriff, tax, trustee"),
    (('title = "Test"\n', ''), "test-set.toml: title: is required (non-empty text)"),
    (('max_age_days = 30', 'max_age_days = "soon"'), "test-set.toml: max_age_days: must be a whole number of days"),
    (('resource = "abcd-1234"', 'resource = "x; DROP"'), "test-set.toml: resource: 'x; DROP' is not a socrata"),
    (('endpoint = "https://data.example.org"', 'endpoint = "ftp://x"'), "test-set.toml: endpoint: 'ftp://x' is not"),
    (('as_of = "issued"', 'as_of = { colum = "issued" }'), "test-set.toml: fields.as_of: unknown key 'colum'"),
    (('as_of = "issued"', 'as_of = { column = "issued", type = "datetime" }'),
     "test-set.toml: fields.as_of: type 'datetime' is not one of"),
    (('as_of = "issued"', 'as_of = { column = "issued", pattern = "(" }'),
     "test-set.toml: fields.as_of: pattern does not compile"),
    (('as_of = "issued"', 'as_oof = "issued"'), "test-set.toml: fields.as_oof: is not a field of a record"),
    (('as_of = "issued"\n', ''), "test-set.toml: fields.as_of: is required"),
    (('address = "address"', 'city = "x"'), "test-set.toml: fields: maps neither address nor parcel_id"),
    (('record_key = "id"', 'record_key = { file = "ID" }'), "test-set.toml: record_key: names no API column"),
    (('licence = "public"', 'licence = "public"\nowner = "me"'), "test-set.toml: owner: unknown key"),
    (('id = "{name}"', 'id = "other"'), "test-set.toml: id: 'other' is not the file's name ('test-set')"),
    (('max_age_days = 30', 'max_age_days = 30\nfreshness_field = "x; DROP TABLE y"'),
     "test-set.toml: freshness_field: 'x; DROP TABLE y' is not a plain field name"),
    (('protocol = "socrata"', 'protocol = "ckan"\nfilter = "municipality = 1"'),
     "test-set.toml: filter: a CKAN filter must be a JSON object of field values"),
    (('[fields]', '[fields'), "test-set.toml: cannot be read as TOML"),
    (('list = "event"\n', ''), 'test-set.toml: list: is required: "status" (items open on the day the list was '
                                'taken) or "event" (dated events)'),
    (('list = "event"', 'list = "open"'), 'test-set.toml: list: is required: "status"'),
    (('list = "event"', "list = \"status\"\nfile_name_date = '(\\d{4})'"),
     "test-set.toml: file_name_date: must be a regular expression with 2 or 3 groups (year, month, day)"),
    (('list = "event"', "list = \"status\"\nfile_name_date = '(\\d{4}'"), "test-set.toml: file_name_date: must be"),
])
def test_a_bad_file_is_refused_naming_the_file_and_the_field(tmp_path, change, message):
    old, new = change
    assert old in GOOD
    with pytest.raises(ValueError) as caught:
        load_datasets(write(tmp_path, GOOD.replace(old, new)))
    assert str(caught.value).startswith(message)


def test_one_bad_file_fails_the_whole_load(tmp_path):
    write(tmp_path, GOOD, "good-one")
    write(tmp_path, GOOD.replace('kind = "vacant"', 'kind = "x"'), "bad-one")
    with pytest.raises(ValueError, match="^bad-one.toml: kind:"):
        load_datasets(tmp_path)


def test_the_shipped_files_are_the_directory_default():
    assert DATASETS_DIR == Path(__file__).resolve().parents[3] / "marketplace" / "features" / "records" / "datasets"


# Undated samples: the date each was taken (PROVENANCE.md), given to read_file as the extract date.
TAKEN = {"allegheny-tax-liens-summary": date(2026, 3, 14), "kent-mi-parcels-arcgis": date(2016, 8, 14)}


@pytest.mark.parametrize("dataset_id", sorted(SAMPLES))  # the others: tests/features/records/test_opendata_more.py
def test_every_shipped_sample_is_reported_stale_with_its_status_note(dataset_id):
    dataset = DATASETS[dataset_id]
    counted = tally(read_file(dataset, sample(dataset_id), as_of=TAKEN.get(dataset_id), today=TODAY))
    newest = counted.newest_as_of
    assert newest == {"fhfa-hpi-zip3": date(2016, 12, 31), "nj-atlantic-sheriff-sales": date(2019, 5, 23),
                      "phl-sheriff-sales-bid4assets": date(2026, 7, 7), "phl-tax-delinquencies": date(2016, 7, 1),
                      "chi-vacant-buildings-violations": date(2023, 9, 18), "phl-opa-properties": date(2024, 1, 9),
                      "nyc-dof-rolling-sales": date(2020, 8, 31), "bal-tax-sale-bidbaltimore": date(2020, 7, 22),
                      **TAKEN}[dataset_id]
    report = freshness(dataset, newest, TODAY)
    age = (TODAY - newest).days
    assert report.stale and not report.ok and report.age_days == age > dataset.max_age_days
    assert report.message == f"newest record {newest.isoformat()} is {age} days old (max {dataset.max_age_days})"
    assert report.status_note == dataset.status_note


def test_tally_counts_a_read():
    counted = tally(read_file(DATASETS["phl-opa-properties"], sample("phl-opa-properties"), today=TODAY))
    assert (counted.mapped, counted.rejected, counted.rows, counted.sample_rejects) == (257, 0, 257, ())


def test_freshness_messages():
    chicago = DATASETS["chi-vacant-buildings-violations"]
    newest = max(i.as_of for i in read_file(chicago, sample("chi-vacant-buildings-violations"), today=TODAY))
    assert newest == date(2023, 9, 18)
    assert freshness(chicago, newest, TODAY).message == "newest record 2023-09-18 is 1164 days old (max 60)"
    fresh = freshness(chicago, date(2026, 11, 1), TODAY)
    assert fresh.ok and fresh.message == "newest record 2026-11-01 is 24 days old (max 60)"
    none = freshness(chicago, None, TODAY)
    assert none.stale and none.message == "no dated record (max 60 days)"
    phl = freshness(DATASETS["phl-tax-delinquencies"], date(2016, 7, 1), TODAY)
    assert phl.status_note.startswith("Stopped updating in 2024")


def test_a_status_list_needs_no_date_column_and_reads_its_day_from_its_own_file_name_pattern(tmp_path):
    """An open list is as of the day it was taken: its rows need no date of their own, and the day comes from
    the dataset's own naming pattern, never a guess (no pattern or no match: no day)."""
    text = GOOD.replace('list = "event"', 'list = "status"\nfile_name_date = \'^Open_(\\d{4})-(\\d{2})(?:-(\\d{2}))?\'')
    text = text.replace('as_of = "issued"\n', 'notice_date = "issued"\n')
    dataset = load_datasets(write(tmp_path, text))["test-set"]
    assert (dataset.list_kind, dataset.status_list, dataset.snapshot_dated) == ("status", True, True)
    assert dataset.name_date("Open_2026-11-27.csv") == date(2026, 11, 27)
    assert dataset.name_date("Open_2016-10.csv") == date(2016, 10, 1)
    assert dataset.name_date("phl_shape.csv") is None and dataset.name_date("Open_2016-13.csv") is None
    event = load_datasets(write(tmp_path, GOOD, "event-set"))["event-set"]
    assert (event.list_kind, event.snapshot_dated, event.name_date("Open_2026-11-27.csv")) == ("event", False, None)
