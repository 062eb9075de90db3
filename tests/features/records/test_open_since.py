"""How long a status item has been open (issue 38, item 2): the duration wording, its boundaries, the lead's
longest-open item and the card's line before and after the unlock."""

from datetime import date, datetime, timezone
from types import SimpleNamespace

import pytest

from marketplace.features.records import rules_open_since as open_since
from marketplace.features.marketplace.rules_cards import card_data, open_since_text
from marketplace.features.records.rules_open_since import (
    duration_text,
    from_raw,
    full_months,
    longest_open,
    raw_value,
    since_line,
)
from marketplace.platform.times import today_in

TODAY = date(2026, 7, 13)


@pytest.mark.parametrize(("since", "today", "words"), [
    (date(2009, 3, 4), date(2026, 7, 13), "17 years"),
    (date(2025, 7, 13), date(2026, 7, 13), "1 year"),          # the anniversary itself: 1 year
    (date(2025, 7, 14), date(2026, 7, 13), "11 months"),       # the day before: 11 months, not 1 year
    (date(2024, 7, 14), date(2026, 7, 13), "1 year"),          # 23 months: whole years only
    (date(2025, 11, 20), date(2026, 7, 13), "7 months"),
    (date(2026, 6, 13), date(2026, 7, 13), "1 month"),
    (date(2026, 6, 14), date(2026, 7, 13), "29 days"),
    (date(2026, 7, 1), date(2026, 7, 13), "12 days"),
    (date(2026, 7, 12), date(2026, 7, 13), "1 day"),
    (date(2026, 7, 13), date(2026, 7, 13), "today"),
    # leap days: Feb 29's anniversary in a common year is Feb 28 (the month's last day)
    (date(2024, 2, 29), date(2025, 2, 27), "11 months"),
    (date(2024, 2, 29), date(2025, 2, 28), "1 year"),
    (date(2024, 2, 29), date(2028, 2, 28), "3 years"),        # 2028 has a Feb 29: 4 years only then
    (date(2024, 2, 29), date(2028, 2, 29), "4 years"),
    (date(2024, 2, 28), date(2024, 3, 28), "1 month"),
    (date(2024, 1, 31), date(2024, 2, 29), "1 month"),        # Jan 31 -> the end of February
    (date(2025, 1, 31), date(2025, 2, 27), "27 days"),
    (date(2025, 1, 31), date(2025, 2, 28), "1 month"),
    (date(2023, 3, 1), date(2024, 2, 29), "11 months"),       # a leap year's Feb 29 counts as a day
    (date(2024, 2, 1), date(2024, 3, 1), "1 month"),
    (date(2024, 2, 1), date(2024, 2, 29), "28 days"),
])
def test_duration_words_at_every_boundary(since, today, words):
    assert duration_text(since, today) == words


def test_a_date_to_come_has_no_duration():
    assert duration_text(date(2026, 7, 14), TODAY) is None
    assert since_line("vacant", date(2026, 7, 14), TODAY) == ""
    assert full_months(date(2026, 7, 14), TODAY) == 0


@pytest.mark.parametrize(("kind", "since", "exact", "line"), [
    ("vacant", date(2009, 3, 4), True, "Vacant since Mar 4, 2009 (17 years)"),
    ("vacant", date(2009, 3, 4), False, "Vacant since 2009 (17 years)"),
    ("code_violation", date(2019, 3, 1), True, "Open since Mar 1, 2019 (7 years)"),
    ("code_violation", date(2019, 3, 1), False, "Open since 2019 (7 years)"),
    ("vacant", date(2025, 11, 20), True, "Vacant since Nov 20, 2025 (7 months)"),
    # a locked card: under a year, neither the day nor the month
    ("vacant", date(2025, 11, 20), False, "Vacant since 2025 (under a year)"),
    ("vacant", date(2026, 7, 1), False, "Vacant since 2026 (under a year)"),
    ("vacant", date(2026, 7, 13), True, "Vacant since Jul 13, 2026 (today)"),
    # a tax delinquency is known by its first tax year owed (stored as January 1): the year, either way
    ("tax_delinquent", date(1978, 1, 1), True, "Delinquent since tax year 1978 (48 years)"),
    ("tax_delinquent", date(1978, 1, 1), False, "Delinquent since tax year 1978 (48 years)"),
    ("tax_delinquent", date(2026, 1, 1), False, "Delinquent since tax year 2026 (6 months)"),
    ("sale_list", date(2026, 1, 1), True, ""),  # an event list's item is not "open since"
])
def test_the_line_per_kind(kind, since, exact, line):
    assert since_line(kind, since, TODAY, exact=exact) == line


def signal(kind, notice=None, delinquent=None, as_of=None):
    return SimpleNamespace(kind=kind, notice_date=notice, delinquent_since=delinquent, as_of=as_of)


def test_the_lead_shows_its_longest_open_item():
    vacancy = signal("vacant", notice=date(2011, 3, 7), as_of=date(2016, 10, 20))
    tax = signal("tax_delinquent", delinquent=date(1998, 1, 1), as_of=date(2016, 7, 1))
    violation = signal("code_violation", notice=date(2013, 10, 11))
    assert longest_open([vacancy, tax, violation]) == (tax, date(1998, 1, 1))
    assert longest_open([vacancy, violation]) == (vacancy, date(2011, 3, 7))
    # on the same day the stronger kind names it
    same = signal("code_violation", notice=date(2011, 3, 7))
    assert longest_open([same, vacancy]) == (vacancy, date(2011, 3, 7))


def test_the_list_day_and_event_kinds_are_never_the_items_date():
    # as_of is the day the list was taken; a sale list or a foreclosure is an event, not an open item
    assert longest_open([signal("vacant", as_of=date(2024, 6, 24))]) is None
    assert longest_open([signal("sale_list", notice=date(2020, 1, 1)),
                         signal("foreclosure", notice=date(2020, 1, 1))]) is None
    # NYC's tax lien sale list names the list month (notice_date), not when the debt began: nothing
    assert longest_open([signal("tax_delinquent", notice=date(2019, 4, 1))]) is None
    # a date to come is ignored
    assert longest_open([signal("vacant", notice=date(2026, 8, 1))], TODAY) is None


def test_the_lead_keeps_the_item_in_its_raw_data():
    raw = {open_since.RAW_KEY: raw_value("vacant", date(2009, 3, 4), "Vacant Building Notices")}
    item = from_raw(raw)
    assert (item.kind, item.since, item.title) == ("vacant", date(2009, 3, 4), "Vacant Building Notices")
    assert open_since.basis_text(item) == "Notice date from Vacant Building Notices"
    assert from_raw({}) is None
    assert from_raw({open_since.RAW_KEY: {"kind": "vacant", "date": "not a date"}}) is None
    assert from_raw({open_since.RAW_KEY: {"kind": "sale_list", "date": "2020-01-01"}}) is None


def card(unlocked, kind="vacant", since=date(2009, 3, 4)):
    return {"id": "x", "address": "•••• •••• ST" if not unlocked else "1 MAIN ST", "city": "BALTIMORE",
            "state": "MD", "zip_code": "21217", "lead_type": "Vacancy", "asking_price": None, "zestimate": None,
            "arv": None, "rehab_estimate": None, "roi": None, "beds": None, "baths": None, "square_footage": None,
            "confidence": 60, "credit_cost": 60, "is_new": False, "is_high_roi": False, "images": [],
            "unlocked": unlocked, "open_since_kind": kind, "open_since": since}


def test_the_card_shows_the_year_locked_and_the_day_unlocked():
    assert card_data(card(False), today=TODAY)["open_since"] == "Vacant since 2009 (17 years)"
    assert card_data(card(True), today=TODAY)["open_since"] == "Vacant since Mar 4, 2009 (17 years)"
    # no viewer's day, no date or a sample card: no line
    assert card_data(card(True))["open_since"] == ""
    assert card_data(card(True, kind="", since=None), today=TODAY)["open_since"] == ""
    assert card_data(card(True), is_sample=True, today=TODAY)["open_since"] == ""
    assert open_since_text("vacant", date(2009, 3, 4), None, True) == ""


def test_the_viewers_today_is_their_zones_day():
    # 03:30 UTC on Jul 14 is still Jul 13 in Los Angeles: a notice of Jul 13 is 'today' there
    now = datetime(2026, 7, 14, 3, 30, tzinfo=timezone.utc)
    assert today_in("America/Los_Angeles", now) == date(2026, 7, 13)
    assert today_in("Europe/Berlin", now) == date(2026, 7, 14)
    assert today_in("Not/A_Zone", now) == date(2026, 7, 14)  # unknown: UTC
    assert since_line("vacant", date(2026, 7, 13), today_in("America/Los_Angeles", now)) == \
        "Vacant since Jul 13, 2026 (today)"
