"""Live reads through a fake portal (real HTTP on 127.0.0.1): paging per protocol, retries, failures."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date

import httpx
import pytest

from marketplace.features.records.rules import MappedRecord, RejectedRow
from marketplace.features.scrape.source_base import SourceError
from marketplace.features.records.source_opendata import DatasetError, check, fetch, load_datasets, read_file
from marketplace.features.records.source_opendata.files import rows_from_file
from tests.fakes.portal import FakePortal, api_rows
from tests.features.records.opendata_helpers import DATASETS, FIXTURES, counts, sample

TODAY = date(2026, 11, 25)
CHICAGO = DATASETS["chi-vacant-buildings-violations"]
KENT_ERROR = (FIXTURES / "kent-mi-parcels-arcgis" / "us-mi-kent-statistics.json").read_bytes()


def file_rows(dataset_id: str) -> list[dict]:
    return list(rows_from_file(DATASETS[dataset_id], sample(dataset_id))[1])


def served(dataset_id: str) -> list[dict]:
    """The sample's rows under the API's field names."""
    dataset = DATASETS[dataset_id]
    rows = file_rows(dataset_id)
    return rows if rows_from_file(dataset, sample(dataset_id))[0] == "api" else api_rows(dataset, rows)


def live(dataset, portal: FakePortal, **changes):
    return replace(dataset, endpoint=portal.url, **changes)


def by_key(items: list) -> list:
    """Records in key order (the portal's order is the record key's, the file's its own)."""
    return sorted(items, key=lambda item: item.record_key)


def pull(dataset, **kwargs) -> list:
    kwargs.setdefault("today", TODAY)
    kwargs.setdefault("sleep", lambda s: None)
    return list(fetch(dataset, **kwargs))


def test_socrata_pages_with_limit_offset_and_a_stable_order_and_matches_the_file():
    with FakePortal("socrata", served("chi-vacant-buildings-violations"), resource="kc9i-wq85") as portal:
        items = pull(live(CHICAGO, portal, page_size=100), app_token="tok-123")
    assert items == list(read_file(CHICAGO, sample("chi-vacant-buildings-violations"), today=TODAY))
    assert dict(counts(items)) == {"mapped": 260}
    assert [(r.path, r.params["$limit"], r.params["$offset"], r.params["$order"]) for r in portal.requests] == [
        ("/resource/kc9i-wq85.json", "100", str(offset), ":id") for offset in (0, 100, 200)]
    assert all(r.headers["x-app-token"] == "tok-123" for r in portal.requests)


def test_the_fake_answers_socrata_dates_as_the_api_does():
    with FakePortal("socrata", served("chi-vacant-buildings-violations")[:1], resource="kc9i-wq85") as portal:
        body = httpx.get(f"{portal.url}/resource/kc9i-wq85.json").json()
    assert body[0]["issued_date"] == "2011-03-07T00:00:00.000"
    assert body[0]["last_hearing_date"] == "2011-08-05T11:00:00.000"


ARCGIS_WITH_DATES = """
id = "test-arcgis"
title = "Code Violations"
publisher = "Test County"
protocol = "arcgis"
endpoint = "https://gis.example.org/arcgis/rest/services/Violations/FeatureServer"
resource = "0"
filter = "STATUS = 'OPEN'"
kind = "code_violation"
list = "event"
freshness_field = "ISSUED"
max_age_days = 30
licence = "public"
attribution = "Data: Test County"
record_key = "CASE_NO"

[fields]
as_of = "ISSUED"
notice_date = "ISSUED"
address = "SITE_ADDR"
"""


def test_arcgis_dates_in_epoch_milliseconds_and_since_in_the_where_clause(tmp_path):
    (tmp_path / "test-arcgis.toml").write_text(ARCGIS_WITH_DATES)
    dataset = load_datasets(tmp_path)["test-arcgis"]
    rows = [{"CASE_NO": "V-1", "ISSUED": 1690848000000, "SITE_ADDR": "1 MAIN ST"},      # 2023-08-01
            {"CASE_NO": "V-2", "ISSUED": 1577836800000, "SITE_ADDR": "2 MAIN ST"},      # 2020-01-01
            {"CASE_NO": "V-3", "ISSUED": None, "SITE_ADDR": "3 MAIN ST"}]
    with FakePortal("arcgis", rows, resource="0") as portal:
        items = pull(live(dataset, portal), since=date(2023, 1, 1))
    assert portal.requests[0].params["where"] == "(STATUS = 'OPEN') AND (ISSUED >= DATE '2023-01-01')"
    assert [(i.record_key, i.as_of) for i in items if isinstance(i, MappedRecord)] == [("V-1", date(2023, 8, 1))]
    assert items[1] == RejectedRow("test-arcgis", 3, "ISSUED: missing")


def test_socrata_since_filters_on_the_freshness_field():
    with FakePortal("socrata", served("chi-vacant-buildings-violations"), resource="kc9i-wq85") as portal:
        items = pull(live(CHICAGO, portal), since=date(2022, 1, 1))
    assert portal.requests[0].params["$where"] == "(issued_date >= '2022-01-01T00:00:00')"
    recent = [i for i in read_file(CHICAGO, sample(CHICAGO.id), today=TODAY) if i.as_of >= date(2022, 1, 1)]
    assert len(recent) == 66  # the sample's rows whose Issued Date ends in 2022 or 2023
    assert items == recent


def test_arcgis_pages_while_exceeded_transfer_limit_and_matches_the_recorded_answer():
    kent = DATASETS["kent-mi-parcels-arcgis"]
    rows = [f["attributes"] for f in json.loads(sample("kent-mi-parcels-arcgis").read_text())["features"]]
    with FakePortal("arcgis", rows, resource="5", max_record_count=4) as portal:
        items = pull(live(kent, portal))
    assert by_key(items) == by_key(read_file(kent, sample("kent-mi-parcels-arcgis"), as_of=TODAY, today=TODAY))
    assert len(items) == 15 and all(i.as_of == TODAY for i in items)  # undated: as of the day fetched
    assert [(r.path, r.params["resultOffset"], r.params["where"], r.params["orderByFields"])
            for r in portal.requests] == [("/MapServer/5/query", str(o), "(1=1)", "PNUM") for o in (0, 4, 8, 12)]
    assert portal.requests[0].params["returnGeometry"] == "false" and portal.requests[0].params["f"] == "json"


def test_arcgis_error_body_raises_naming_the_dataset():
    kent = DATASETS["kent-mi-parcels-arcgis"]
    with FakePortal("arcgis", [{"PNUM": "1"}], resource="5") as portal:
        portal.script(body=KENT_ERROR)
        with pytest.raises(DatasetError) as caught:
            pull(live(kent, portal))
    assert str(caught.value) == (f"kent-mi-parcels-arcgis: the answer from {portal.url}/5/query holds an error "
                                 "answer: 400 Unable to complete operation.")


def test_carto_pages_with_limit_offset_in_the_sql_and_matches_the_file():
    opa = DATASETS["phl-opa-properties"]
    with FakePortal("carto", served("phl-opa-properties")) as portal:
        items = pull(live(opa, portal, page_size=100))
    assert by_key(items) == by_key(read_file(opa, sample("phl-opa-properties"), today=TODAY))
    assert [i.record_key for i in items] == sorted(i.record_key for i in items)
    assert [r.params["q"] for r in portal.requests] == [
        f"SELECT * FROM opa_properties_public ORDER BY parcel_number LIMIT 100 OFFSET {o}" for o in (0, 100, 200)]


def test_carto_with_the_published_names_of_the_delinquency_table():
    phl = DATASETS["phl-tax-delinquencies"]
    with FakePortal("carto", served("phl-tax-delinquencies")) as portal:
        items = pull(live(phl, portal), since=date(2020, 1, 1))  # undated: no server-side since
    assert by_key(items) == by_key(read_file(phl, sample("phl-tax-delinquencies"), as_of=TODAY, today=TODAY))
    assert "WHERE" not in portal.requests[0].params["q"]
    assert items[0].record_key == "011040100" and items[0].address == "13 TASKER ST"


def test_ckan_pages_until_the_total_and_matches_the_file():
    allegheny = DATASETS["allegheny-tax-liens-summary"]
    with FakePortal("ckan", served("allegheny-tax-liens-summary"), resource="65855e14-liens") as portal:
        items = pull(live(allegheny, portal, resource="65855e14-liens", page_size=100))
    assert items == list(read_file(allegheny, sample("allegheny-tax-liens-summary"), as_of=TODAY, today=TODAY))
    assert [(r.params["offset"], r.params["limit"], r.params["sort"]) for r in portal.requests] == [
        ("0", "100", "_id"), ("100", "100", "_id"), ("200", "100", "_id")]


def test_max_rows_stops_early():
    with FakePortal("socrata", served("chi-vacant-buildings-violations"), resource="kc9i-wq85") as portal:
        items = pull(live(CHICAGO, portal, page_size=100), max_rows=150)
    assert len(items) == 150 and [r.params["$limit"] for r in portal.requests] == ["100", "50"]


def test_a_429_is_retried_after_its_retry_after_then_succeeds():
    sleeps: list[float] = []
    with FakePortal("socrata", served("chi-vacant-buildings-violations"), resource="kc9i-wq85") as portal:
        portal.script(status=429, headers={"Retry-After": "2"}, body={"message": "slow down"})
        items = pull(live(CHICAGO, portal), sleep=sleeps.append)
    assert sleeps == [2.0] and len(items) == 260 and len(portal.requests) == 2


def test_a_500_every_time_raises_dataset_error_naming_the_dataset_after_bounded_attempts():
    sleeps: list[float] = []
    with FakePortal("socrata", served("chi-vacant-buildings-violations"), resource="kc9i-wq85") as portal:
        portal.script(status=500, body={"message": "internal"}, times=None)
        with pytest.raises(SourceError) as caught:
            pull(live(CHICAGO, portal), attempts=3, retry_delay=0.01, sleep=sleeps.append)
    assert isinstance(caught.value, DatasetError)
    assert str(caught.value) == ("chi-vacant-buildings-violations: the portal returned HTTP 500 after 3 attempts "
                                 f"on {portal.url}/resource/kc9i-wq85.json")
    assert sleeps == [0.01, 0.02] and len(portal.requests) == 3


def test_the_real_sleep_is_used_by_default_with_a_short_base_delay():
    with FakePortal("socrata", served("chi-vacant-buildings-violations")[:3], resource="kc9i-wq85") as portal:
        portal.script(status=503)
        items = list(fetch(live(CHICAGO, portal), retry_delay=0.01, today=TODAY))
    assert len(items) == 3 and len(portal.requests) == 2


def test_a_refused_request_is_not_retried():
    with FakePortal("socrata", [], resource="kc9i-wq85") as portal:
        portal.script(status=400, body={"error": True, "message": "No such column: issued"})
        with pytest.raises(DatasetError, match="^chi-vacant-buildings-violations: the portal refused the request "
                                               r"\(HTTP 400\): No such column: issued on "):
            pull(live(CHICAGO, portal))
    assert len(portal.requests) == 1


def test_malformed_json_raises_naming_the_dataset():
    with FakePortal("socrata", [], resource="kc9i-wq85") as portal:
        portal.script(body=b"[{\"docket_number\": ")
        with pytest.raises(DatasetError, match="^chi-vacant-buildings-violations: the portal sent malformed JSON"):
            pull(live(CHICAGO, portal))


def test_a_slow_portal_times_out():
    with FakePortal("socrata", [], resource="kc9i-wq85") as portal:
        portal.script(delay=1.0)
        with pytest.raises(DatasetError, match="^chi-vacant-buildings-violations: the portal did not answer "
                                               r"within 0.2s after 1 attempts"):
            pull(live(CHICAGO, portal), timeout=0.2, attempts=1)


def test_a_malformed_row_is_counted_as_rejected():
    rows = served("chi-vacant-buildings-violations")
    rows[4]["issued_date"] = "13/45/2011"
    with FakePortal("socrata", rows, resource="kc9i-wq85") as portal:
        items = pull(live(CHICAGO, portal, page_size=100))
    assert dict(counts(items)) == {"mapped": 259, "rejected": 1}
    assert items[4] == RejectedRow(CHICAGO.id, 5, "issued_date: '13/45/2011' is not a date")


def test_a_file_only_dataset_cannot_be_fetched():
    with pytest.raises(DatasetError, match="^bal-tax-sale-bidbaltimore: published only as a download: "
                                           "use import-records$"):
        pull(DATASETS["bal-tax-sale-bidbaltimore"])
    with pytest.raises(DatasetError, match="^allegheny-tax-liens-summary: has no API resource id yet"):
        check(DATASETS["allegheny-tax-liens-summary"])


def test_check_reads_one_page_and_reports_counts_missing_columns_and_rejects():
    rows = served("chi-vacant-buildings-violations")
    for row in rows:
        row.pop("total_paid", None)
    rows[1]["issued_date"] = "soon"
    with FakePortal("socrata", rows, resource="kc9i-wq85") as portal:
        report = check(live(CHICAGO, portal, page_size=100), today=TODAY, sleep=lambda s: None)
    assert len(portal.requests) == 1
    assert (report.dataset_id, report.rows, report.mapped, report.rejected) == (CHICAGO.id, 100, 99, 1)
    assert report.missing_columns == ("total_paid",)
    assert report.sample_rejects == (RejectedRow(CHICAGO.id, 2, "issued_date: 'soon' is not a date"),)
    assert report.newest_as_of == max(i.as_of for i in read_file(CHICAGO, sample(CHICAGO.id), today=TODAY)
                                      if isinstance(i, MappedRecord) and i.record_key in
                                      {f"{r['docket_number']} {r['property_address'].strip()}" for r in rows[:100]})
    assert report.url == f"{portal.url}/resource/kc9i-wq85.json"
