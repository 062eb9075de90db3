"""The public-record value parsers, fed the odd values actually found in shared/public-records."""

import re
from datetime import date

import pytest

from marketplace.features.records import rules_parse as parse


@pytest.mark.parametrize("raw, expected", [
    ("00013 TASKER ST               ", "00013 TASKER ST"),           # Philadelphia Revenue padding
    ("13-12-125  Duty to secure", "13-12-125 Duty to secure"),      # Chicago double space
    ("NULL", None), ("", None), ("   ", None), (None, None),
    ("\ufeffThree-Digit ZIP Code", "Three-Digit ZIP Code"),         # FHFA BOM
    ("JP MORGAN CHASE, ", "JP MORGAN CHASE,"),
    (410106100009.0, "410106100009"),
])
def test_text_strips_folds_and_reads_null(raw, expected):
    assert parse.text(raw) == expected


@pytest.mark.parametrize("raw, expected", [
    ("$1,234.50", 1235), ("1234.5", 1235), ("1,234.49", 1234), ("(1,234.00)", -1234),
    ("-45.50", -46), ("890.23", 890), ("96100.0", 96100), ("1,300,000", 1300000), (" 0 ", 0),
    ("$604,196.15", 604196), (56100, 56100), (13585.47, 13585), ("NULL", None), ("", None),
])
def test_money_is_whole_dollars_rounded_half_up(raw, expected):
    assert parse.money(raw) == expected


@pytest.mark.parametrize("parser, raw, message", [
    *((parse.money, raw, "is not an amount of money") for raw in ("abc", "12..5", "1.2.3", "$", "Stayed")),
    *((parse.day, raw, "is not a date") for raw in ("13/45/2011", "2016-02-30", "soon", "12345", "1797")),
    *((parse.zip_code, raw, "is not a ZIP code") for raw in ("MI49327", "191", "ABCDE", "191320")),
])
def test_parsers_refuse_what_they_cannot_read_and_name_the_value(parser, raw, message):
    with pytest.raises(ValueError, match=re.escape(f"'{raw}' {message}")):
        parser(raw)


@pytest.mark.parametrize("raw, expected", [("3", 3), ("3.0", 3), ("1,300", 1300), ("  2 ", 2), (None, None)])
def test_integer(raw, expected):
    assert parse.integer(raw) == expected


def test_integer_refuses_fractions_and_words():
    with pytest.raises(ValueError, match="'3.5' is not a whole number"):
        parse.integer("3.5")
    with pytest.raises(ValueError, match="'three' is not a whole number"):
        parse.integer("three")


def test_floating():
    assert parse.floating("41.72433163710899") == 41.72433163710899
    assert parse.floating("-87.62766855145455") == -87.62766855145455
    assert parse.floating("2.5") == 2.5 and parse.floating("") is None
    with pytest.raises(ValueError, match="'POINT \\(1 2\\)' is not a number"):
        parse.floating("POINT (1 2)")


@pytest.mark.parametrize("raw, expected", [
    ("Y", True), ("N", False), ("y", True), ("true", True), ("false", False), ("TRUE", True),
    ("1", True), ("0", False), ("yes", True), ("No", False), (True, True), ("NULL", None), ("", None),
])
def test_boolean(raw, expected):
    assert parse.boolean(raw) is expected


def test_boolean_refuses_other_words():
    with pytest.raises(ValueError, match="'bankrupt' is not yes or no"):
        parse.boolean("bankrupt")


@pytest.mark.parametrize("raw, expected", [
    ("20151231", date(2015, 12, 31)),                    # YYYYMMDD (Philadelphia Revenue)
    ("03/07/2011", date(2011, 3, 7)),                    # MM/DD/YYYY (Chicago)
    ("9/3/2019", date(2019, 9, 3)),                      # M/D/YYYY (NYC)
    ("08/05/2011 11:00:00 AM", date(2011, 8, 5)),        # Chicago hearing date-time
    ("07-07-26 10:00 AM", date(2026, 7, 7)),             # Bid4Assets
    ("07-07-26 01:00 PM ET", date(2026, 7, 7)),
    ("07-07-26", date(2026, 7, 7)),                      # MM-DD-YY
    ("2022-05-24", date(2022, 5, 24)),                   # ISO (OPA)
    ("2020-07-22 13:51:11", date(2020, 7, 22)),          # Baltimore Last Modified
    ("2011-03-07T00:00:00.000", date(2011, 3, 7)),       # Socrata floating timestamp
    ("2071-03-05T00:00:00Z", date(2071, 3, 5)),          # parsed: the mapper treats far-future as missing
    (1471132800000, date(2016, 8, 14)),                  # ArcGIS epoch milliseconds
    ("1471132800000", date(2016, 8, 14)),
    ("NULL", None), ("", None),
])
def test_day_reads_every_layout_in_the_samples(raw, expected):
    assert parse.day(raw) == expected


def test_year():
    assert parse.year("2019") == 2019 and parse.year("20151231") == 2015 and parse.year(2016) == 2016
    assert parse.year("2022-05-24") == 2022 and parse.year("") is None
    with pytest.raises(ValueError, match="'twenty' is not a year"):
        parse.year("twenty")


@pytest.mark.parametrize("raw, expected", [
    ("19148", "19148"), ("19132-3133", "19132"), ("08330", "08330"), ("8330", "08330"), (8330, "08330"),
    ("211060000", "21106"), ("00000", None), ("     ", None), ("NULL", None),
])
def test_zip_code(raw, expected):
    assert parse.zip_code(raw) == expected


def test_parcel_id_is_text_with_its_leading_zeros():
    assert parse.parcel_id("011337800") == "011337800"
    assert parse.parcel_id("0001B00010000000") == "0001B00010000000"
    assert parse.parcel_id("11040100", width=9) == "011040100"       # the 2016 extract lost the zero
    assert parse.parcel_id("41-01-06-100-009", width=9) == "41-01-06-100-009"
    assert parse.parcel_id(410106100009.0) == "410106100009"
    assert parse.parcel_id("59206 4700") == "59206 4700" and parse.parcel_id("NULL") is None
