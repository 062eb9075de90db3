"""Which public-record signals are current, when a lead is New, and how history reads (pure rules)."""

from __future__ import annotations

from datetime import date, datetime, timezone
from types import SimpleNamespace

import pytest

from marketplace.features.records import rules_signal_currency as currency

TODAY = date(2026, 11, 27)


def signal(kind="vacant", *, as_of=None, notice_date=None, sale_date=None, sale_type=None, status="open",
           closed_reason=None, first_seen_at=None):
    return SimpleNamespace(kind=kind, as_of=as_of, notice_date=notice_date, sale_date=sale_date,
                           sale_type=sale_type, status=status, closed_reason=closed_reason,
                           first_seen_at=first_seen_at, dataset_id="d", record_key="k")


BALTIMORE = signal("sale_list", sale_type="tax", as_of=date(2020, 7, 22), sale_date=date(2020, 7, 23))


def test_event_and_record_dates_per_kind():
    assert currency.event_date(BALTIMORE) == date(2020, 7, 23)
    assert currency.record_date(BALTIMORE) == date(2020, 7, 22)
    notice = signal("vacant", as_of=date(2016, 10, 1), notice_date=date(2016, 9, 5))
    assert (currency.event_date(notice), currency.record_date(notice)) == (date(2016, 9, 5), date(2016, 9, 5))
    tax = signal("tax_delinquent", as_of=date(2016, 7, 1))
    assert currency.event_date(tax) == date(2016, 7, 1)
    assert currency.event_date(signal("sale_list", as_of=date(2026, 11, 1))) is None  # no sale date published


def test_a_held_sale_closes_its_signal_whatever_the_maximum_age():
    assert currency.closes_because(BALTIMORE, 400, TODAY) == "sale held on 2020-07-23"
    assert currency.closes_because(BALTIMORE, None, TODAY) == "sale held on 2020-07-23"
    assert not currency.is_current(BALTIMORE, 400, TODAY)
    day_of = signal("sale_list", as_of=date(2026, 11, 1), sale_date=TODAY)
    assert currency.is_current(day_of, 45, TODAY)  # held today: still current until tomorrow


def test_a_sale_still_ahead_keeps_an_old_list_current():
    old_list = signal("sale_list", sale_type="sheriff", as_of=date(2016, 7, 1), sale_date=date(2026, 12, 20))
    assert currency.is_current(old_list, 45, TODAY)


@pytest.mark.parametrize("age, current", [(60, True), (61, False)])
def test_a_notice_older_than_its_datasets_maximum_age_is_history(age, current):
    notice = signal("vacant", as_of=date.fromordinal(TODAY.toordinal() - age))
    assert currency.is_current(notice, 60, TODAY) is current
    if not current:
        assert currency.closes_because(notice, 60, TODAY) == (
            f"as of {notice.as_of.isoformat()}, older than the dataset's maximum age of 60 days")


def test_undated_lists_and_lists_without_a_maximum_age():
    undated_list = signal("sale_list", as_of=date(2020, 7, 22))
    assert not currency.is_current(undated_list, 400, TODAY)  # a 2020 list without a sale date: history
    assert currency.is_current(signal("probate", as_of=date(2016, 1, 1)), None, TODAY)  # no maximum age
    assert currency.is_current(signal("vacant"), 60, TODAY)  # an undated record cannot be shown stale
    assert not currency.is_current(signal("vacant", as_of=TODAY, status="closed"), 60, TODAY)


def test_new_means_first_seen_and_dated_within_seven_days_and_current():
    three_days_ago = datetime(2026, 11, 24, 15, 0, tzinfo=timezone.utc)
    assert currency.is_new(three_days_ago, date(2026, 11, 24), TODAY)
    assert currency.is_new(datetime(2026, 11, 21, tzinfo=timezone.utc), date(2026, 11, 21), TODAY)
    assert not currency.is_new(datetime(2026, 11, 20, tzinfo=timezone.utc), date(2026, 11, 20), TODAY)
    # First stored today from a 2016 row: not new.
    assert not currency.is_new(datetime(2026, 11, 27, tzinfo=timezone.utc), date(2016, 7, 1), TODAY)
    assert not currency.is_new(three_days_ago, date(2026, 11, 24), TODAY, current=False)
    assert not currency.is_new(None, date(2026, 11, 24), TODAY)
    assert not currency.is_new(three_days_ago, None, TODAY)
    fresh = signal("vacant", as_of=date(2026, 11, 24), first_seen_at=three_days_ago)
    assert currency.signal_is_new(fresh, 60, TODAY)
    stale = signal("vacant", as_of=date(2016, 7, 1), first_seen_at=datetime(2026, 11, 27, tzinfo=timezone.utc))
    assert not currency.signal_is_new(stale, None, TODAY)


def test_history_lines_name_the_event_date():
    assert currency.history_line(BALTIMORE) == "Tax sale held Jul 23, 2020 (history)"
    closed = signal("sale_list", sale_type="tax", as_of=date(2020, 7, 22), sale_date=date(2020, 7, 23),
                    status="closed", closed_reason="sale held on 2020-07-23")
    assert currency.history_line(closed) == "Tax sale held Jul 23, 2020 (history)"
    assert currency.history_line(signal("vacant", as_of=date(2016, 10, 5))) == (
        "Vacancy notice of Oct 5, 2016 (history)")
    assert currency.history_line(signal("sale_list", sale_type="tax", as_of=date(2020, 7, 22))) == (
        "Tax sale list as of Jul 22, 2020 (history)")
    gone = signal("tax_delinquent", as_of=date(2016, 7, 1), status="closed",
                  closed_reason="no longer in the dataset as of 2026-11-25")
    assert currency.history_line(gone) == (
        "Tax delinquent as of Jul 1, 2016: no longer in the dataset as of 2026-11-25 (history)")
    assert currency.history_line(signal("code_violation")) == "Code violation (undated) (history)"
