"""Every shipped dataset reads its real sample through read_file: counts exact, fields checked by hand."""

from __future__ import annotations

import csv
import json
from datetime import date

import pytest

from marketplace.features.records.rules import HpiPoint, MappedRecord, RejectedRow
from marketplace.features.records.source_opendata import DatasetError, read_file
from marketplace.features.records.source_opendata.files import rows_from_file
from tests.fakes.portal import api_rows
from tests.features.records.opendata_helpers import DATASETS, FIXTURES, SAMPLES, by_key, counts, sample

TODAY = date(2026, 11, 25)

EXPECTED_COUNTS = {
    "allegheny-tax-liens-summary": {"mapped": 260},
    "bal-tax-sale-bidbaltimore": {"mapped": 231},
    "chi-vacant-buildings-violations": {"mapped": 260},
    "fhfa-hpi-zip3": {"hpi": 294},
    "kent-mi-parcels-arcgis": {"mapped": 15},
    "nj-atlantic-sheriff-sales": {"mapped": 260},
    "nyc-dof-rolling-sales": {"mapped": 295},
    "phl-opa-properties": {"mapped": 257},
    "phl-sheriff-sales-bid4assets": {"mapped": 20},
    "phl-tax-delinquencies": {"mapped": 259},
}


# Open lists whose sample's name gives no date: read as exported on TODAY (import-records --as-of).
AS_OF = {"allegheny-tax-liens-summary": TODAY}


def read(dataset_id: str, **kwargs) -> list:
    kwargs.setdefault("as_of", AS_OF.get(dataset_id))
    return list(read_file(DATASETS[dataset_id], sample(dataset_id), today=TODAY, **kwargs))


def test_every_dataset_has_a_sample_and_the_samples_are_the_shared_ones():
    assert sorted(SAMPLES) == sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())
    assert set(SAMPLES) <= set(DATASETS)  # the others read the samples of public_records_more
    for dataset_id in SAMPLES:
        assert (FIXTURES / dataset_id / "PROVENANCE.md").is_file()


@pytest.mark.parametrize("dataset_id", sorted(EXPECTED_COUNTS))
def test_each_sample_maps_every_row(dataset_id):
    items = read(dataset_id)
    assert dict(counts(items)) == EXPECTED_COUNTS[dataset_id]
    for item in items:
        if isinstance(item, MappedRecord):
            assert item.dataset_id == dataset_id and item.kind == DATASETS[dataset_id].kind
            # Never in the future. An undated sample (no date column, no date in its name) is as of its
            # file's modification day: in a fresh clone that is the clone's day, which may be after TODAY.
            assert item.as_of is not None and item.as_of <= max(TODAY, date.today())
            assert item.address or item.parcel_id


def test_chicago_rows_against_the_file():
    records = by_key(read("chi-vacant-buildings-violations"))
    first = records["11CP015666 9332 S LASALLE"]  # line 2
    assert first.kind == "vacant" and first.as_of == first.notice_date == date(2011, 3, 7)
    assert (first.address, first.city, first.state, first.zip_code) == ("9332 S LASALLE", "CHICAGO", "IL", None)
    assert (first.latitude, first.longitude) == (41.72433163710899, -87.62766855145455)
    assert first.owner_name == "JP MORGAN CHASE"  # "JP MORGAN CHASE, " in the file
    assert first.violations == ("13-12-125 Duty to secure and maintain vacant building.",
                                "13-12-140 Watchman required")
    assert first.extra["Violation numbers"] == "P002161520; P002161521"
    assert first.extra["Last hearing"] == "2011-08-05"  # 08/05/2011 11:00:00 AM
    last = records["22CP001713 7844 S TRUMBULL"]
    assert len(last.violations) == 6 and last.as_of == date(2022, 1, 19) and last.address == "7844 S TRUMBULL"
    no_point = records["22CP010821 4314 W WORTHINGTON"]  # empty Latitude/Longitude
    assert no_point.latitude is None and no_point.longitude is None and no_point.extra["Docket"] == "22CP010821"
    assert records["22CP010821 4314 W VAN BUREN"].latitude == 41.875277088922125  # same docket, other building
    assert next(r for r in records.values() if r.extra["Docket"] == "11CP006254").amount_owed == -184  # Current Amount Due -183.52 (an overpayment)
    assert first.record_url == "https://data.cityofchicago.org/resource/kc9i-wq85.json?docket_number=11CP015666"


def test_philadelphia_delinquencies_against_the_file():
    records = by_key(read("phl-tax-delinquencies"))
    row = records["011040100"]  # OPAnumber 11040100: the 2016 extract dropped the leading zero
    assert row.parcel_id == "011040100" and row.address == "13 TASKER ST"  # "00013 TASKER ST      "
    assert (row.city, row.state, row.zip_code) == ("PHILADELPHIA", "PA", "19148")
    assert row.amount_owed == 890 and row.years_owed == 1 and row.delinquent_since == date(1989, 1, 1)
    assert row.mailing_address is None and row.mailing_zip is None  # padded blanks
    assert row.as_of == date(2016, 7, 1)  # the extract's month, from the file name
    king = records["011307105"]
    assert king.owner_name == "KING RICHARD" and king.amount_owed == 7446 and king.years_owed == 6
    assert king.delinquent_since == date(2009, 1, 1) and king.extra["Payment agreement"] == "yes"
    assert king.assessed_value == 298400 and king.value_year == 2016
    assert king.latitude is None  # X_LONG / Y_LAT are state-plane feet: not taken
    church = records["771178000"]
    assert church.mailing_address == "518 WHARTON ST" and church.mailing_city == "PHILA"
    assert church.extra["Most recent payment"] == "2016-01-04"


def test_opa_rows_against_the_file():
    records = by_key(read("phl-opa-properties"))
    lot = records["364313005"]
    assert lot.address == "1500 S ETTING ST" and lot.zip_code == "19146" and lot.property_class == "VACANT LAND"
    assert lot.market_value == 96100 and lot.value_year == 2022 and lot.as_of == date(2022, 5, 24)
    assert lot.sale_date is None and lot.sale_price == 1  # sale_date 2071-10-01: obviously wrong, missing
    assert (lot.latitude, lot.longitude) == (39.93445754293109, -75.19013923944352)
    assert (lot.mailing_address, lot.mailing_city, lot.mailing_state) == ("1234 MARKET ST", "PHILADELPHIA", "PA")
    house = records["882968585"]
    assert house.square_footage == 2800 and house.year_built == 1960 and house.owner_name == "SHAPLEY DONALD"
    assert records["885260620"].mailing_city == "MERION STATION"
    assert all(len(r.parcel_id) == 9 for r in records.values())


def test_sheriff_sale_rows_against_the_file():
    records = by_key(read("phl-sheriff-sales-bid4assets"))
    first = records["1275357"]
    assert (first.sale_type, first.sale_date, first.as_of) == ("sheriff", date(2026, 7, 7), date(2026, 7, 7))
    assert first.address == "5818 WOODCREST AVENUE" and first.zip_code == "19131" and first.parcel_id == "522145900"
    assert first.opening_bid == 37600 and first.amount_owed == 274634 and first.extra["Final bid"] == "179000"
    lot = records["1279540"]  # two properties joined with " & ": the record keeps the first
    assert lot.parcel_id == "452124000" and lot.address == "1915 CLARENCE STREET"
    assert lot.extra["OPA numbers"] == "452124000 & 452124100"
    postponed = records["1276421"]
    assert postponed.extra["Result"] == "Postponed" and "Final bid" not in postponed.extra


def test_baltimore_rows_against_the_file():
    records = by_key(read("bal-tax-sale-bidbaltimore"))
    row = records["0032 060"]
    assert row.address == "ES BRUCE ST 110 FT N OF LAURENS ST"  # "**ES BRUCE ST ..."
    assert row.zip_code is None  # "00000"
    assert row.owner_name == "CHARLES JOHNSON PARK DEVELOPMENT CORPORATION"
    assert (row.sale_type, row.amount_owed, row.as_of) == ("tax", 517, date(2020, 7, 22))
    assert row.mailing_zip == "21217" and row.extra["Vacant"] == "no" and row.extra["Ward"] == "15"
    with sample("bal-tax-sale-bidbaltimore").open(newline="") as handle:
        vacant = sum(1 for row in csv.DictReader(handle) if row["Vacant"] == "1")
    assert vacant == 83 and sum(1 for r in records.values() if r.extra.get("Vacant") == "yes") == vacant


def test_nj_rows_against_the_file():
    records = by_key(read("nj-atlantic-sheriff-sales"))
    row = records["610942811"]
    assert (row.address, row.city, row.state, row.zip_code) == ("98 Gasko Rd", "Mays Landing", "NJ", "08330")
    assert row.as_of == row.sale_date == date(2019, 2, 14) and row.amount_owed == 1266  # "$1,265.96"
    assert row.owner_name == "Pat Vander" and row.extra["Status"] == "Pending Bankruptcy"
    assert row.record_url == "https://salesweb.civilview.com/Sales/SaleDetails?PropertyId=610942811"
    assert records["610942821"].amount_owed == 604196


def test_nyc_rows_against_the_file():
    items = read("nyc-dof-rolling-sales")
    first = items[0]
    assert first.record_key == "3-6359-70-4/28/2020" and first.parcel_id == "3063590070"
    assert (first.address, first.zip_code, first.city) == ("8684 15TH AVENUE", "11228", "BROOKLYN")
    assert first.sale_price == 1300000 and first.sale_date == date(2020, 4, 28) and first.square_footage == 4080
    coop = next(i for i in items if i.address == "9707 4TH AVENUE, 6K")
    assert coop.square_footage is None and coop.sale_price == 390000 and coop.year_built == 1957
    assert sum(1 for i in items if i.sale_price == 0) == 96


def test_kent_rows_against_the_recorded_arcgis_answer():
    items = read("kent-mi-parcels-arcgis", as_of=date(2016, 8, 14))
    first = items[0]
    assert first.parcel_id == "41-01-06-100-009" and first.owner_name == "NIECE JERMEY J & SARAH R"
    assert (first.address, first.city, first.state, first.zip_code) == ("4660 22 MILE RD NW", "GRANT", "MI", "49327")
    assert first.assessed_value == 56100 and first.extra["Taxable value"] == "55270"
    assert first.as_of == date(2016, 8, 14) and first.latitude is None


def test_kent_error_answer_raises_naming_the_dataset():
    path = FIXTURES / "kent-mi-parcels-arcgis" / "us-mi-kent-statistics.json"
    with pytest.raises(DatasetError, match="^kent-mi-parcels-arcgis: .*error answer: 400 Unable to complete"):
        list(read_file(DATASETS["kent-mi-parcels-arcgis"], path))


def test_allegheny_rows_are_as_of_the_day_the_list_was_taken_never_a_guess():
    """An open list: every row is as of the day the export was taken (--as-of); its name gives no date, so
    without one no day is guessed (neither today nor the file's modification day: the import asks)."""
    items = read("allegheny-tax-liens-summary", as_of=date(2026, 11, 20))
    assert {i.as_of for i in items} == {date(2026, 11, 20)}
    assert {i.as_of for i in read("allegheny-tax-liens-summary", as_of=None)} == {None}
    first = items[0]
    assert first.parcel_id == "0001B00010000000" and first.amount_owed == 13585
    assert first.extra["Number of liens"] == "11" and first.address is None and first.state == "PA"


def test_fhfa_points_skip_the_preamble_and_read_dots_as_missing():
    points = read("fhfa-hpi-zip3")
    assert all(isinstance(p, HpiPoint) for p in points)
    assert points[0] == HpiPoint("fhfa-hpi-zip3", "083", 1975, 100.0, None)
    assert points[1] == HpiPoint("fhfa-hpi-zip3", "083", 1976, 105.57, 5.57)
    assert {p.zip3 for p in points} == {"083", "112", "152", "191", "212", "495", "606"}


def test_a_bad_value_rejects_a_row_with_its_reason(tmp_path):
    text = sample("chi-vacant-buildings-violations").read_text()
    broken = tmp_path / "chi.csv"
    broken.write_text(text.replace("03/07/2011", "13/45/2011", 1).replace("5015 S ROCKWELL ", "", 1))
    items = list(read_file(DATASETS["chi-vacant-buildings-violations"], broken, today=TODAY))
    assert dict(counts(items)) == {"mapped": 258, "rejected": 2}
    assert items[0] == RejectedRow("chi-vacant-buildings-violations", 1, "Issued Date: '13/45/2011' is not a date")
    assert items[1] == RejectedRow("chi-vacant-buildings-violations", 2, "no address and no parcel id")


def test_a_far_future_main_date_rejects_the_row(tmp_path):
    text = sample("phl-opa-properties").read_text()
    broken = tmp_path / "opa.csv"
    broken.write_text(text.replace(",2022-05-24,", ",2071-05-24,", 1))
    items = list(read_file(DATASETS["phl-opa-properties"], broken, today=TODAY))
    assert items[0] == RejectedRow("phl-opa-properties", 1, "assessment_date: '2071-05-24' is more than a year in "
                                                            "the future")
    assert dict(counts(items)) == {"mapped": 256, "rejected": 1}


def test_a_bad_optional_value_is_left_empty(tmp_path):
    text = sample("chi-vacant-buildings-violations").read_text()
    broken = tmp_path / "chi.csv"
    broken.write_text(text.replace("41.72433163710899,", "north,", 1))
    first = next(iter(read_file(DATASETS["chi-vacant-buildings-violations"], broken, today=TODAY)))
    assert isinstance(first, MappedRecord) and first.latitude is None and first.longitude == -87.62766855145455


def test_a_file_without_the_header_is_refused(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("a,b\n1,2\n")
    with pytest.raises(DatasetError, match="^chi-vacant-buildings-violations: x.csv has no header line naming "
                                           "Docket Number"):
        list(read_file(DATASETS["chi-vacant-buildings-violations"], path))


@pytest.mark.parametrize("shape", ["socrata", "carto", "ckan", "arcgis"])
def test_a_saved_api_answer_reads_like_the_export(tmp_path, shape):
    """read_file takes JSON exactly as each API answers, under the API's field names."""
    dataset = DATASETS["chi-vacant-buildings-violations"]
    rows = api_rows(dataset, list(rows_from_file(dataset, sample(dataset.id))[1]))
    body = {"socrata": rows, "carto": {"rows": rows, "time": 0.1, "fields": {}, "total_rows": len(rows)},
            "ckan": {"help": "", "success": True, "result": {"records": rows, "total": len(rows)}},
            "arcgis": {"features": [{"attributes": r} for r in rows], "exceededTransferLimit": False}}[shape]
    path = tmp_path / "answer.json"
    path.write_text(json.dumps(body))
    assert list(read_file(dataset, path, today=TODAY)) == read(dataset.id)


def test_an_unsuccessful_ckan_answer_is_refused(tmp_path):
    path = tmp_path / "answer.json"
    path.write_text(json.dumps({"success": False, "error": {"message": "Not found"}}))
    with pytest.raises(DatasetError, match="^allegheny-tax-liens-summary: answer.json holds an error answer: Not found"):
        list(read_file(DATASETS["allegheny-tax-liens-summary"], path))


def test_a_missing_file_raises_naming_the_dataset(tmp_path):
    for dataset_id in ("allegheny-tax-liens-summary", "chi-vacant-buildings-violations"):
        with pytest.raises(DatasetError, match=f"^{dataset_id}: cannot read nothing.csv"):
            list(read_file(DATASETS[dataset_id], tmp_path / "nothing.csv"))
