"""Marketplace rules: masking, bands, filters in the URL, pagination, countdown, money."""

from datetime import datetime, timezone

import pytest

from marketplace.features.marketplace import rules_listing_links as listing_links
from marketplace.platform import paging
from marketplace.features.marketplace import rules as m


@pytest.mark.parametrize(
    ("address", "masked"),
    [("1234 Maple Ridge Dr", "•••• •••• •••• Dr"), ("12 Oak St", "•••• •••• St"), ("Main", "••••"), ("", "")],
)
def test_mask_keeps_only_the_last_word(address, masked):
    assert m.mask_address(address) == masked


@pytest.mark.parametrize(
    ("roi", "band"),
    [(None, "unknown"), (0, "unknown"), (0.1, "0-10"), (9.99, "0-10"), (10, "10-20"), (19.99, "10-20"),
     (20, "20-30"), (30, "20-30"), (30.01, "gt30"), (-5, "lt0"), (-0.1, "lt0")],
)
def test_roi_bands(roi, band):
    assert m.roi_band(roi) == band


@pytest.mark.parametrize(("sqft", "band"), [(None, None), (1000, "small"), (1001, "medium"), (2000, "medium"),
                                             (2001, "large")])
def test_size_bands(sqft, band):
    assert m.size_band(sqft) == band


def test_filters_round_trip_through_the_url_and_drop_junk():
    f = m.Filters(lead_types=("Probate", "Auction"), roi_ranges=("gt30",), tags=("new",), sort="price_asc",
                  page=3, page_size=50)
    assert m.Filters.from_query(f.to_query()) == f
    junk = m.Filters.from_query("type=Bogus&roi=99&sort=drop_table&per_page=7&page=-4&tag=new&tag=new")
    assert junk == m.Filters(tags=("new",))
    assert m.Filters().to_query() == ""


def test_toggling_a_filter_returns_to_page_one():
    f = m.Filters(page=4).toggled("tags", "vacant")
    assert (f.tags, f.page) == (("vacant",), 1)
    assert f.toggled("tags", "vacant").tags == ()
    assert m.Filters(tags=("new",), sort="newest", page_size=100, page=2).cleared() == m.Filters(
        sort="newest", page_size=100)


@pytest.mark.parametrize(
    ("current", "pages", "window"),
    [(1, 1, [1]), (1, 5, [1, 2, 3, 4, 5]), (1, 12, [1, 2, 3, None, 12]), (6, 12, [1, None, 4, 5, 6, 7, 8, None, 12]),
     (12, 12, [1, None, 10, 11, 12]), (4, 12, [1, 2, 3, 4, 5, 6, None, 12]), (5, 12, [1, 2, 3, 4, 5, 6, 7, None, 12])],
)
def test_pagination_window(current, pages, window):
    assert paging.pagination_window(current, pages) == window


def test_total_pages():
    assert (paging.total_pages(0, 20), paging.total_pages(20, 20), paging.total_pages(21, 20)) == (1, 1, 2)


@pytest.mark.parametrize(
    ("now", "text"),
    [(datetime(2026, 11, 21, 15, 59, tzinfo=timezone.utc), "Next refresh in: 0h 1m"),  # 07:59 PST
     (datetime(2026, 11, 21, 16, 0, tzinfo=timezone.utc), "Next refresh in: 24h 0m"),
     (datetime(2026, 7, 1, 14, 30, tzinfo=timezone.utc), "Next refresh in: 0h 30m"),  # 07:30 PDT
     # the night DST starts (2026-03-08): 23 hours between 08:00 PST and 08:00 PDT
     (datetime(2026, 3, 7, 16, 0, tzinfo=timezone.utc), "Next refresh in: 23h 0m")],
)
def test_refresh_countdown_is_dst_correct(now, text):
    assert m.refresh_countdown(now) == text


def test_money_and_percent():
    assert (m.usd(285000), m.usd(None), m.usd(-12500.4), m.usd(0)) == ("$285,000", "N/A", "-$12,500", "$0")
    assert (m.percent(22.44), m.percent(None)) == ("22.4%", "N/A")


def test_external_links_prefer_a_known_listing_site():
    links = listing_links.external_links("12 Oak St", "Austin", "TX", "78701",
                             {"url": "https://evil.example/x", "zillow_url": "https://www.zillow.com/homedetails/1/"})
    assert links.listing == "https://www.zillow.com/homedetails/1/" and links.listing_label == "View Listing"
    fallback = listing_links.external_links("12 Oak St", "Austin", "TX", "78701", {"url": "https://evil.example/x"})
    assert fallback.listing.startswith("https://www.zillow.com/homes/") and fallback.listing_label == "Search on Zillow"
    assert "12+Oak+St%2C+Austin%2C+TX+78701" in fallback.maps and fallback.web.startswith("https://www.google.com/search")


def test_parse_whole_number_takes_page_numbers_and_refuses_junk():
    from marketplace.platform.paging import parse_whole_number

    assert parse_whole_number(3) == 3
    assert parse_whole_number(3.0) == 3
    assert parse_whole_number(" 50 ") == 50
    for junk in (float("inf"), float("-inf"), float("nan"), 2.5, "abc", "", {"page": 2}, [2], None, True,
                 "1e999", "9" * 40, 10**20):
        assert parse_whole_number(junk) is None, junk


def test_the_filter_registry_is_one_row_per_filter():
    specs = m.FILTERS
    assert [s.key for s in specs] == ["type", "roi", "size", "tag", "state", "city", "zip", "held", "spots"]
    assert len({s.field for s in specs}) == len({s.key for s in specs}) == len(specs)
    for spec in specs:
        assert (spec.column == "") == (spec.matches is not None), spec.field  # one way to match
        if spec.options is not None:  # a checkbox filter accepts exactly its options
            assert all(spec.clean(value) == value for value, _ in spec.options)
            assert spec.clean("nope") is None and spec.clean(None) is None
            assert spec.matches is None or set(spec.matches) == {value for value, _ in spec.options}
    # lead_facets counts only what its columns answer: the public-record flags, the user's own
    # "unlocked" and today's "Auction Soon" are counted over the leads.
    assert m.LEAD_ONLY_TAGS == {"unlocked", "two_signals", "absentee", "out_of_state", "bank_owned",
                                    "auction_soon"}
    assert [s.field for s in specs if s.place] == ["states", "cities", "zips"]
    assert m.FILTER_BY_FIELD["roi_ranges"].chip("gt30") == "ROI Over 30%"
    assert m.FILTER_BY_FIELD["zips"].chip("78701") == "ZIP 78701"
    assert m.FILTER_BY_FIELD["states"].chip("TX") == "Texas"


def test_a_match_holds_on_a_lead_as_its_sql_matches():
    lead = {"roi": 0, "square_footage": 1000, "is_new": True, "bank_owned": None, "signal_count": None,
            "lead_type": "Vacancy", "unlock_count": 2, "sale_date": None}
    offered = {spec.field: spec.offered(lead, None) for spec in m.FILTERS if not spec.place}
    assert offered == {"lead_types": {"Vacancy"}, "roi_ranges": {"unknown"}, "sizes": {"small"},
                       "tags": {"new", "vacant"}, "held": {"1-2"}, "spots": {"open"}}
    # The cap: 2 holders of 2 spots is full; an exclusive holder fills any cap; 0 = no cap.
    spots = m.FILTER_BY_FIELD["spots"]
    assert spots.offered({**lead, "max_holders": 2}, None) == set()
    assert spots.offered({**lead, "max_holders": 3}, None) == {"open"}
    assert spots.offered({**lead, "max_holders": 3, "exclusive": True}, None) == set()
    assert spots.offered({**lead, "max_holders": 0}, None) == {"open"}


def test_a_percent_that_rounds_to_zero_reads_zero_not_minus_zero():
    from marketplace.features.marketplace.rules import percent

    assert [percent(v) for v in (-0.0, -0.04, 0.04, -0.05, 12.34, None)] == \
        ["0.0%", "0.0%", "0.0%", "-0.1%", "12.3%", "N/A"]
