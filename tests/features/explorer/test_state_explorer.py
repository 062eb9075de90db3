"""The explorer's 'Next scheduled refresh' line: the next 8:00 AM Pacific
(marketplace.rules.next_refresh), in Pacific time and relative; 'Scheduler off'."""

from __future__ import annotations

from datetime import datetime, timezone

from marketplace.features.explorer.state import next_run_label


def test_next_run_in_pacific_time_and_relative():
    # 04:48 PDT on Jun 4 -> 8:00 the same morning.
    assert next_run_label(datetime(2025, 6, 4, 11, 48, tzinfo=timezone.utc), True) == (
        "Jun 4, 2025, 8:00 AM PDT", "in 3h 12m")
    # 09:00 PST on Dec 4 -> tomorrow (winter time).
    assert next_run_label(datetime(2025, 12, 4, 17, 0, tzinfo=timezone.utc), True) == (
        "Dec 5, 2025, 8:00 AM PST", "in 23h 0m")
    # Exactly at eight: the next day's run.
    assert next_run_label(datetime(2025, 6, 4, 15, 0, tzinfo=timezone.utc), True)[0] == "Jun 5, 2025, 8:00 AM PDT"


def test_next_run_in_the_browsers_zone():
    assert next_run_label(datetime(2025, 6, 4, 11, 48, tzinfo=timezone.utc), True, "America/New_York") == (
        "Jun 4, 2025, 11:00 AM EDT", "in 3h 12m")
    assert next_run_label(datetime(2025, 12, 4, 17, 0, tzinfo=timezone.utc), True, "Nowhere/Land")[0] == (
        "Dec 5, 2025, 4:00 PM UTC")


def test_scheduler_off():
    assert next_run_label(datetime(2025, 6, 4, 11, 48, tzinfo=timezone.utc), False) == ("Scheduler off", "")
