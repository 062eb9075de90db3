"""The samples of shared/public-records-more read through their dataset files (counts and fields checked
by hand against the files), and the small capabilities of the mapping they needed: parcel ids per market,
points from hex WKB, JSON-array cells, Microsoft and month-only dates, saved SODA answers, columns in any
case, a file date written with underscores."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest

from marketplace.features.records import rules_parcel_ids as parcel_ids, rules_parse as parse
from marketplace.features.records.rules import MappedRecord, RejectedRow
from marketplace.features.records.source_opendata import DatasetError, file_date, load_datasets, read_file
from marketplace.features.records.source_opendata.files import json_rows
from tests.features.records.opendata_helpers import by_key, counts

MORE = Path(__file__).resolve().parents[2] / "fixtures" / "public_records_more"
DATASETS = load_datasets()
TODAY = date(2026, 11, 25)

# dataset id, sample file, mapped, rejected, newest as_of
SAMPLES = [
    ("bal-vacant-building-notices", "bal-vacant-building-notices/Vacant_Buildings_2016-10_sample.csv", 250, 0, date(2016, 10, 1)),
    ("cook-ccao-parcel-addresses", "cook-ccao-parcel-addresses/3723-97qp_batch_000_years2025-2026.json", 80, 0, date(2026, 1, 1)),
    ("cook-ccao-parcel-sales", "cook-ccao-parcel-sales/wvhk-k5uv_batch_000.json", 95, 0, date(2025, 10, 17)),
    ("cook-ccao-res-characteristics-sample", "cook-ccao-res-characteristics-sample/chars_sample_athena.csv", 70, 0, date(2021, 1, 1)),
    ("cook-ccao-residential-sales-assessments", "cook-ccao-residential-sales-assessments/cmfproperty_example_data_sample.csv", 262, 0, date(2019, 1, 1)),
    ("cook-treasurer-annual-tax-sale", "cook-treasurer-annual-tax-sale/55ju-2fs9_batch_000.json", 99, 0, date(2014, 1, 1)),
    ("cook-treasurer-scavenger-sale", "cook-treasurer-scavenger-sale/ydgz-vkrp_batch_000.json", 10, 0, date(2015, 1, 1)),
    ("cook-treasurer-scavenger-sale", "cook-treasurer-scavenger-sale/tax_agency_scavenger_consolidated.json", 35, 0, date(2015, 1, 1)),
    ("cuy-recorder-probate-trigger-docs", "cuy-recorder-probate-trigger-docs/cuyahoga_all_records_20260317_150646.json", 98, 52, date(2026, 3, 17)),
    ("nyc-acris-real-property", "nyc-acris-real-property/acris_real_property_legals_sample.csv", 100, 0, date(2017, 11, 30)),
    ("nyc-dcp-pluto", "nyc-dcp-pluto/pluto_16v2_BK_sample.csv", 100, 0, date(2016, 1, 1)),
    ("nyc-dcp-pluto", "nyc-dcp-pluto/pluto_25v2_1_first5.csv", 5, 0, date(2025, 1, 1)),
    ("nyc-dob-vacate-orders", "nyc-dob-vacate-orders/dob_vacate_orders_2012_sample.csv", 100, 0, TODAY),
    ("nyc-dof-property-valuation-assessments", "nyc-dof-property-valuation-assessments/dof_property_valuation_and_assessments_sample.csv", 5, 0, date(2024, 1, 1)),
    ("nyc-dof-tax-lien-sale-list", "nyc-dof-tax-lien-sale-list/dof_tax_lien_sale_list_2019-04_first100.csv", 100, 0, date(2019, 4, 1)),
    ("nyc-hpd-vacate-orders", "nyc-hpd-vacate-orders/hpd_vacateorders_sample.csv", 100, 0, TODAY),
    ("nyc-hpd-violations", "nyc-hpd-violations/hpd_violations_sample.csv", 100, 0, TODAY),
    ("phl-opa-properties", "phl-opa-properties-vacant-overlap/opa_properties_public_vacant_overlap_sample.csv", 167, 0, date(2024, 1, 11)),
    ("phl-property-tax-balances-2014-with-li", "phl-property-tax-balances-2014-with-li/2014-Philadelphia-Property-Tax-Liabilities-With-Permits_sample.csv", 62, 0, TODAY),
    ("phl-vacant-indicators-buildings", "phl-vacant-indicators-2024-backup/vacant_buildings_backup_2024_06_24_sample.csv", 97, 0, date(2024, 6, 24)),
    ("phl-vacant-indicators-land", "phl-vacant-indicators-2024-backup/vacant_land_backup_2024_06_24_sample.csv", 173, 0, date(2024, 6, 24)),
]
EVALUATION_ONLY = ("cuy-recorder-probate-trigger-docs", "nyc-dob-vacate-orders", "phl-property-tax-balances-2014-with-li")


# Open (status) lists whose file name gives no date: read as exported on TODAY (import-records --as-of);
# an open list is as of the day it was taken, its rows carry no day of their own.
AS_OF = {"nyc-dob-vacate-orders": TODAY, "nyc-hpd-vacate-orders": TODAY, "nyc-hpd-violations": TODAY,
         "phl-property-tax-balances-2014-with-li": TODAY}


def read(dataset_id: str, path: str) -> list:
    return list(read_file(DATASETS[dataset_id], MORE / path, as_of=AS_OF.get(dataset_id), today=TODAY))


@pytest.mark.parametrize(("dataset_id", "path", "mapped", "rejected", "newest"), SAMPLES,
                         ids=[p.split("/")[-1] for _, p, *_ in SAMPLES])
def test_each_sample_reads_with_its_dataset_file(dataset_id, path, mapped, rejected, newest):
    items = read(dataset_id, path)
    assert dict(counts(items)) == {k: v for k, v in (("mapped", mapped), ("rejected", rejected)) if v}
    records = [i for i in items if isinstance(i, MappedRecord)]
    assert len({r.record_key for r in records}) == len(records)  # the record key is unique
    assert max(r.as_of for r in records) == newest
    dataset = DATASETS[dataset_id]
    assert dataset.status_note and dataset.licence and dataset.attribution
    assert dataset.licence.startswith("Evaluation only") == (dataset_id in EVALUATION_ONLY)
    if dataset_id in EVALUATION_ONLY:
        assert dataset.status_note.startswith("Evaluation only")


def test_every_folder_has_a_dataset_file_read_here():
    folders = {p.name for p in MORE.iterdir() if p.is_dir()}
    read_here = {path.split("/")[0] for _, path, *_ in SAMPLES}
    # The ZIP-code aggregate names no property: there is no record shape for it (area context only).
    assert folders - read_here == {"phl-real-estate-tax-balances-zip"}
    for dataset_id, path, *_ in SAMPLES:
        folder = path.split("/")[0]
        assert dataset_id == folder or folder.startswith(dataset_id) or dataset_id.startswith(
            folder.removesuffix("-2024-backup")), (dataset_id, folder)
    readme = (Path(__file__).resolve().parents[3] / "marketplace" / "features" / "records" / "datasets" / "README.md").read_text()
    for dataset_id in EVALUATION_ONLY:
        assert f"`{dataset_id}`" in readme


def test_cook_rows_against_the_files():
    sale = by_key(read("cook-treasurer-annual-tax-sale", SAMPLES[5][1]))["24-25-201-080-0000 2011"]
    assert (sale.parcel_id, sale.kind, sale.sale_type, sale.as_of) == ("24252010800000", "sale_list", "tax", date(2011, 1, 1))
    assert sale.amount_owed == 7544 and sale.property_class == "295"  # "7543.88"
    assert (sale.latitude, sale.longitude) == (41.6769739135051, -87.6847283294222)  # nested location_1
    assert sale.extra["Sold at sale"] == "yes" and sale.extra["Tax buyer"] == "Belmont Realty Corp."
    assert sale.address is None and sale.state == "IL"
    scavenger = by_key(read("cook-treasurer-scavenger-sale", SAMPLES[6][1]))["24-25-201-080-0000 2015"]
    assert scavenger.delinquent_since == date(2006, 1, 1) and scavenger.extra["Tax years offered"] == "2006-2013"
    sales = by_key(read("cook-ccao-parcel-sales", SAMPLES[2][1]))
    first = next(r for r in sales.values() if r.extra.get("Document number") == "1713249187")
    assert (first.parcel_id, first.sale_date, first.sale_price) == ("18124170210000", date(2017, 4, 7), 45000)
    assert first.extra["Deed type (MyDec)"] == "Special Warranty Deed" and first.extra["Filter: deed type"] == "no"
    assert first.extra["Parcels in the sale"] == "1"  # "1.0"
    roll = by_key(read("cook-ccao-parcel-addresses", SAMPLES[1][1]))
    row = roll["181241702100002026"]  # year "2026.0"
    assert (row.address, row.city, row.zip_code, row.value_year, row.as_of) == (
        "5446 S 73RD AVE", "SUMMIT", "60501", 2026, date(2026, 1, 1))
    assert (row.owner_name, row.mailing_address, row.mailing_city) == ("FORAN FUNERAL HOME", "7300 W ARCHER AVE", "SUMMIT")
    chars = by_key(read("cook-ccao-res-characteristics-sample", SAMPLES[3][1]))["10254170360000 2015"]
    assert (chars.beds, chars.square_footage, chars.year_built, chars.property_class) == (4, 1775, 1948, "205")
    assert chars.baths is None and (chars.extra["Full baths"], chars.extra["Half baths"]) == ("2", "1")


def test_philadelphia_rows_against_the_files():
    buildings = by_key(read("phl-vacant-indicators-buildings", SAMPLES[19][1]))
    padded = buildings["033214600"]  # opa_id 33214600: the integer column lost the leading zero
    assert (padded.parcel_id, padded.address, padded.owner_name, padded.as_of) == (
        "033214600", "1138 S 60TH ST", "IRVIN LAMONT", date(2024, 6, 24))
    assert padded.latitude == pytest.approx(39.9, abs=0.2) and padded.longitude == pytest.approx(-75.2, abs=0.1)
    land = by_key(read("phl-vacant-indicators-land", SAMPLES[20][1]))["471264310"]
    assert land.latitude is None and land.longitude is None  # state-plane multipolygon: no guessed point
    balances = by_key(read("phl-property-tax-balances-2014-with-li", SAMPLES[18][1]))
    row = balances["021019300 2014 1505R14003116"]
    assert (row.address, row.owner_name, row.amount_owed, row.delinquent_since) == (
        "1214 CHRISTIAN ST", "KEVIN J WRIGHT", 1330, date(2014, 1, 1))
    assert (row.latitude, row.longitude) == (39.9394112178464, -75.1630729829343)
    assert len(row.violations) == 20 and row.violations[0] == "PROSEC- STD INFO"
    assert row.extra["Violation dates"].startswith("2007-01-10")  # /Date(1168387200000)/
    assert row.extra["Number of violations"] == "20"


def test_new_york_rows_against_the_files():
    pluto = by_key(read("nyc-dcp-pluto", SAMPLES[10][1]))["3011510060"]  # CamelCase headers, "16V2"
    assert (pluto.address, pluto.zip_code, pluto.owner_name, pluto.square_footage, pluto.year_built) == (
        "215 PROSPECT PLACE", "11238", "LIPKIN, DAVID O", 3680, 1910)
    assert (pluto.assessed_value, pluto.value_year, pluto.as_of) == (31581, 2016, date(2016, 1, 1))
    lien = by_key(read("nyc-dof-tax-lien-sale-list", SAMPLES[14][1]))["1-16-3 04/2019 90 Day Notice"]
    assert (lien.parcel_id, lien.address, lien.zip_code, lien.as_of) == ("1000160003", "401 SOUTH END AVENUE", "10280", date(2019, 4, 1))
    dob = [r for r in read("nyc-dob-vacate-orders", SAMPLES[12][1]) if isinstance(r, MappedRecord)][0]
    assert (dob.parcel_id, dob.address, dob.violations) == ("4029700038", "62-66 83 STREET", ("ILLEGAL CONVERSION",))
    assert dob.extra["Disposition"] == "PARTIAL VACATE ORDER ISSUED"
    rejected = [r for r in read("cuy-recorder-probate-trigger-docs", SAMPLES[8][1]) if isinstance(r, RejectedRow)]
    assert {r.reason for r in rejected} == {"no address and no parcel id"}


@pytest.mark.parametrize(("value", "pin"), [
    ("18-12-417-021-0000", "18124170210000"), ("18124170210000", "18124170210000"),
    ("1812417021", "18124170210000"), ("9363230550000", "09363230550000"), (None, None), ("", None)])
def test_cook_pin_is_fourteen_digits(value, pin):
    assert parcel_ids.cook_pin(value) == pin


@pytest.mark.parametrize("value", ["18-12-417", "ABCDEFGHIJKLMN", "1.01E+12"])
def test_a_malformed_cook_pin_is_refused_quoting_it(value):
    with pytest.raises(ValueError, match=re.escape(f"'{value}' is not a Cook County PIN")):
        parcel_ids.cook_pin(value)


@pytest.mark.parametrize(("value", "opa"), [("31062000", "031062000"), (31062000, "031062000"),
                                            ("403298900", "403298900"), ("31062000.0", "031062000")])
def test_philadelphia_opa_number_is_nine_digits(value, opa):
    assert parcel_ids.phl_opa(value) == opa


@pytest.mark.parametrize(("value", "bbl"), [
    ("3011510060", "3011510060"), ("2029580065.00", "2029580065"), (2029580065.0, "2029580065"),
    ("1 16 3", "1000160003"), ("Queens 2970 38", "4029700038"), ("BK-108-15", "3001080015"),
    ("STATEN ISLAND 1 1", "5000010001")])
def test_nyc_bbl_is_ten_digits(value, bbl):
    assert parcel_ids.nyc_bbl(value) == bbl


@pytest.mark.parametrize("value", ["6011510060", "301151006", "Jersey 1 1", "1 123456 1"])
def test_a_malformed_bbl_is_refused(value):
    with pytest.raises(ValueError, match="is not a BBL"):
        parcel_ids.nyc_bbl(value)


def test_wkb_points_in_wgs84_only():
    point = "010100000089997d1ea3cf52c015562aa8a8fc4340"  # the first vacant building, EPSG:4326
    assert parcel_ids.wkb_longitude(point) == pytest.approx(-75.2443) and parcel_ids.wkb_latitude(point) == pytest.approx(39.9739, abs=1e-3)
    ewkb = "0101000020e6100000" + point[10:]  # the same point with SRID 4326
    assert parcel_ids.wkb_point(ewkb) == parcel_ids.wkb_point(point)
    assert parcel_ids.wkb_point("0101000020110b0000" + point[10:]) is None  # SRID 2833: not WGS84
    state_plane = "0101000000" + "00000000a08c4441" + "00000000c0010e41"  # x 2,693,000 ft: not degrees
    assert parcel_ids.wkb_point(state_plane) is None
    assert parcel_ids.wkb_latitude("0106000000010000000103000000") is None  # a multipolygon
    assert parcel_ids.wkb_latitude(None) is None
    with pytest.raises(ValueError, match="is not hex WKB"):
        parcel_ids.wkb_point("POINT (1 2)")


def test_published_years_prices_and_dates():
    assert parse.year("2026.0") == 2026 and parse.year("2025") == 2025
    assert parse.money("45000.0") == 45000 and parse.integer("1.0") == 1
    assert parse.day("/Date(1446733406000)/") == date(2015, 11, 5)
    assert parse.day("04/2019") == date(2019, 4, 1)
    with pytest.raises(ValueError):
        parse.day("/Date(abc)/")


def test_a_saved_soda_answer_in_its_wrapper_and_a_bare_array_read_alike(tmp_path):
    dataset = DATASETS["cook-treasurer-scavenger-sale"]
    wrapped = json.loads((MORE / SAMPLES[6][1]).read_text())
    bare = tmp_path / "ydgz-vkrp.json"
    bare.write_text(json.dumps(wrapped["records"]))
    assert read_file(dataset, bare, today=TODAY) and list(read_file(dataset, bare, today=TODAY)) == list(
        read_file(dataset, MORE / SAMPLES[6][1], today=TODAY))
    assert json_rows(dataset, {"records": [{"pin": "1"}], "queries": []}, where="x") == [{"pin": "1"}]
    with pytest.raises(DatasetError, match="is not a Socrata, ArcGIS, Carto or CKAN answer"):
        json_rows(dataset, {"records": "none"}, where="x")


def test_a_json_array_cell_that_is_not_json_leaves_the_field_empty(tmp_path):
    dataset = DATASETS["phl-property-tax-balances-2014-with-li"]
    source = (MORE / SAMPLES[18][1]).read_text().splitlines(keepends=True)
    header = source[0]
    broken = tmp_path / "balances.csv"
    broken.write_text(header + '021019300,X,1214 CHRISTIAN ST,,1,"[not json",0,,0,,2014,1,1,1,1,4.00,L1,"(39.9, -75.1)"\n')
    (record,) = read_file(dataset, broken, today=TODAY)
    assert record.violations == () and record.amount_owed == 4 and "Violation codes" not in record.extra


def test_file_dates_with_underscores():
    assert file_date(Path("vacant_land_backup_2024_06_24_sample.csv")) == date(2024, 6, 24)
    assert file_date(Path("rollingsales_brooklyn_2019-09_2020-08_sample.csv")) == date(2019, 9, 1)
