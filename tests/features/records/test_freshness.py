"""A public-record lead's freshness line (records.rules_freshness): the day its list was taken and when LeadVault
first saw it; the day only on a locked card, the clock in the viewer's zone on the property page."""

from datetime import date, datetime, timezone

from marketplace.features.records.rules_freshness import listed_line

SEEN = datetime(2026, 11, 27, 19, 5, tzinfo=timezone.utc)


def test_a_status_list_names_its_day_and_the_first_sighting():
    assert listed_line("Baltimore City", True, date(2026, 11, 27), SEEN) == \
        "Baltimore City open list of Nov 27, 2026 · first seen Nov 27, 2026"
    assert listed_line("Baltimore City", True, date(2026, 11, 27), SEEN, "America/New_York", exact=True) == \
        "Baltimore City open list of Nov 27, 2026 · first seen Nov 27, 2026, 2:05 PM EST"


def test_an_event_names_its_record_day_and_nothing_without_a_day():
    assert listed_line("Cook County", False, date(2025, 1, 1), SEEN) == \
        "Cook County record of Jan 1, 2025 · first seen Nov 27, 2026"
    assert listed_line("Cook County", False, None, SEEN) == ""
    assert listed_line("Cook County", True, date(2026, 11, 27), None) == "Cook County open list of Nov 27, 2026"
