"""Display helpers of the Saved Searches tab, the Save search dialog and the bell: the
suggested name, a row's texts (in the browser's zone), event ids that are junk."""

from __future__ import annotations

from datetime import datetime, timezone

from marketplace.features.marketplace.rules import Filters
from marketplace.features.marketplace.rules_saved_searches import summary
from marketplace.features.marketplace.service_notifications import NotificationView
from marketplace.features.marketplace.service_saved_searches import SavedSearchView
from marketplace.features.marketplace.state_notifications import _notification_id, notification_row
from marketplace.features.marketplace.state_saved_searches import _query_arg, _search_id, default_name, search_row

WHEN = datetime(2026, 3, 5, 3, 30, tzinfo=timezone.utc)


def view(**changes) -> SavedSearchView:
    fields = dict(id=7, name="Austin probate", query="type=Probate", summary="Probate · sorted by Highest ROI",
                  matches_now=1234, new_since_opened=3, alerts_enabled=True, email_enabled=False, created_at=WHEN)
    return SavedSearchView(**{**fields, **changes})


def test_the_suggested_name_is_the_filters_without_the_default_wording():
    assert default_name(summary(Filters(lead_types=("Probate",)))) == "Probate"
    assert default_name(summary(Filters(lead_types=("Probate", "Auction"), tags=("vacant",)))) == (
        "Probate or Auction · Vacant")
    assert default_name(summary(Filters())) == "All leads"
    assert default_name(summary(Filters(sort="price_asc"))) == "All leads · sorted by Lowest Price"
    long = default_name(summary(Filters(lead_types=("Probate", "Auction", "Pre-Foreclosure"),
                                        roi_ranges=("gt30", "20-30"), sizes=("small",))))
    assert len(long) == 60 and long.endswith("…")


def test_a_row_in_the_browsers_zone():
    row = search_row(view(), "America/Los_Angeles")
    assert (row.id, row.name, row.matches, row.new_label, row.created, row.alerts, row.email) == (
        "7", "Austin probate", "1,234 matches now", "3 new", "Saved Mar 4, 2026", True, False)
    assert search_row(view(matches_now=1, new_since_opened=0), "UTC").matches == "1 match now"
    assert search_row(view(new_since_opened=0), "UTC").new_label == ""
    assert search_row(view(), "UTC").created == "Saved Mar 5, 2026"


def test_a_notification_row():
    note = NotificationView(id=4, title="3 new leads match your saved searches", body="Austin probate: 3",
                            created_at=WHEN, read=False, url="/marketplace?type=Probate")
    row = notification_row(note, "America/New_York")
    assert (row.id, row.when, row.unread, row.url) == ("4", "Mar 4, 2026, 10:30 PM EST", True,
                                                       "/marketplace?type=Probate")


def test_junk_event_arguments_are_ignored():
    assert _search_id("12") == 12 and _search_id(12) == 12
    for junk in ("", "0", "-1", "1e3", "12a", "9" * 20, None, True, 1.5, {"id": 1}, [1], 0, -4):
        assert _search_id(junk) is None, junk
    assert _notification_id("5") == 5
    for junk in ("", "0", "x", 5, None, "9" * 13):
        assert _notification_id(junk) is None, junk
    assert _query_arg("type=Probate") == "type=Probate"
    assert _query_arg({"type": "Probate"}) == "" and _query_arg("x" * 5000) == ""
