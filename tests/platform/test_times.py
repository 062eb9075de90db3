"""Times in the browser's time zone (platform.times), DST included."""

from datetime import date, datetime, timezone

import pytest

from marketplace.platform.times import clean_zone_name, format_date, format_datetime


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=timezone.utc)


def test_eastern_winter_and_summer():
    assert format_datetime(utc(2026, 1, 9, 20, 7), "America/New_York") == "Jan 9, 2026, 3:07 PM EST"
    assert format_datetime(utc(2026, 7, 9, 20, 7), "America/New_York") == "Jul 9, 2026, 4:07 PM EDT"


def test_spring_forward_new_york():
    # 2026-03-08: 2:00 AM EST jumps to 3:00 AM EDT (07:00 UTC).
    assert format_datetime(utc(2026, 3, 8, 6, 59), "America/New_York") == "Mar 8, 2026, 1:59 AM EST"
    assert format_datetime(utc(2026, 3, 8, 7, 0), "America/New_York") == "Mar 8, 2026, 3:00 AM EDT"


def test_fall_back_repeats_the_hour_with_its_own_abbreviation():
    # 2026-11-01: 1:30 AM happens twice in Los Angeles, first PDT then PST.
    assert format_datetime(utc(2026, 11, 1, 8, 30), "America/Los_Angeles") == "Nov 1, 2026, 1:30 AM PDT"
    assert format_datetime(utc(2026, 11, 1, 9, 30), "America/Los_Angeles") == "Nov 1, 2026, 1:30 AM PST"


def test_seconds_and_one_format():
    when = utc(2026, 3, 4, 23, 5, 9)
    assert format_datetime(when, "UTC", seconds=True) == "Mar 4, 2026, 11:05:09 PM UTC"
    # One format: the date-time starts with the date as format_date writes it, in the same zone.
    assert format_datetime(when, "Europe/Berlin") == "Mar 5, 2026, 12:05 AM CET"
    assert format_datetime(when, "Europe/Berlin").startswith(format_date(when, "Europe/Berlin") + ", ")


def test_date_is_the_day_in_the_zone():
    late = utc(2026, 3, 1, 3, 0)  # still Feb 28 in the Americas
    assert format_date(late, "America/Chicago") == "Feb 28, 2026"
    assert format_date(late, "Asia/Tokyo") == "Mar 1, 2026"
    assert format_date(date(2026, 3, 1), "America/Chicago") == "Mar 1, 2026"
    assert format_date(None, "UTC") == format_datetime(None, "UTC") == ""


def test_naive_values_are_utc():
    assert format_datetime(datetime(2026, 1, 9, 20, 7), "America/New_York") == "Jan 9, 2026, 3:07 PM EST"


@pytest.mark.parametrize("junk", ["", "Mars/Olympus", "../../etc/passwd", "America/New_York\n", None, 42,
                                  "A" * 200, "/etc/localtime", "America//New_York"])
def test_unknown_zones_read_as_utc(junk):
    assert clean_zone_name(junk) == "UTC"
    assert format_datetime(utc(2026, 1, 9, 20, 7), junk) == "Jan 9, 2026, 8:07 PM UTC"


def test_known_zones_pass():
    assert clean_zone_name("America/Argentina/Buenos_Aires") == "America/Argentina/Buenos_Aires"
    assert clean_zone_name("Etc/GMT+5") == "Etc/GMT+5"
