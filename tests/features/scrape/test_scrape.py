"""Bulk scrape rules: cost tiers at every edge, form clamps, webhook body, CSV."""

from __future__ import annotations

import csv
import io
from datetime import date, datetime, timezone

import pytest

from marketplace.features.scrape import rules as scrape, rules_webhook as webhook


@pytest.mark.parametrize(("count", "percent"), [
    (1, 0), (30, 0), (31, 5), (35, 5), (40, 5), (41, 10), (50, 10), (51, 15), (60, 15), (61, 20), (70, 20),
    (71, 25), (80, 25), (81, 30), (90, 30), (91, 35), (100, 35), (1000, 35),
])
def test_discount_follows_the_tier_table(count, percent):
    assert scrape.discount_percent(count) == percent
    assert scrape.scrape_cost(count) == count * 100 * (100 - percent) // 100


def test_cost_examples():
    assert scrape.scrape_cost(1) == 100
    assert scrape.scrape_cost(50) == 4_500
    assert scrape.scrape_cost(91) == 5_915
    assert scrape.scrape_cost(1000) == 65_000
    assert [scrape.tier_label(i) for i in range(len(scrape.DISCOUNT_TIERS))] == [
        "0-30", "31-40", "41-50", "51-60", "61-70", "71-80", "81-90", "91+"]


def test_form_clamps_and_defaults():
    assert scrape.parse_lead_count("") == 50
    assert scrape.parse_lead_count("0") == 1
    assert scrape.parse_lead_count("5000") == 1000
    assert scrape.parse_lead_count("12.9") == 12
    assert scrape.parse_confidence("abc") == 70
    assert scrape.parse_confidence("-5") == 0
    assert scrape.parse_confidence("150") == 100
    assert scrape.parse_confidence(float("nan")) == 70
    assert scrape.parse_at_least_zero("-10", 0) == 0
    assert scrape.parse_at_least_zero("1,250,000", 0) == 1_250_000
    assert scrape.parse_at_least_zero("x", 1_000_000) == 1_000_000
    assert scrape.parse_roi("120", 100) == 100
    assert scrape.parse_cities(" Austin, , Dallas ,Houston,") == ("Austin", "Dallas", "Houston")
    assert scrape.parse_cities("Austin, TX, Miami") == ("Austin, TX", "Miami")
    assert scrape.parse_cities({"a": 1}) == ()


def test_min_above_max_is_a_problem():
    request = scrape.ScrapeRequest(price=(500_000, 100_000))
    assert request.problems() == ["Price: the minimum (500,000) is above the maximum (100,000)."]


def test_webhook_body_required_fields():
    for body in ({}, {"leadCount": 5}, {"location": "Austin, TX"}, {"leadCount": 5, "location": " "}):
        with pytest.raises(webhook.WebhookBodyError) as err:
            webhook.validate_body(body).to_request()
        assert str(err.value) == "Missing required parameters: leadCount, location"


@pytest.mark.parametrize(("body", "message"), [
    ({"leadCount": 0, "location": "TX"}, "leadCount must be a whole number from 1 to 1,000."),
    ({"leadCount": 1001, "location": "TX"}, "leadCount must be a whole number from 1 to 1,000."),
    ({"leadCount": "5", "location": "TX"}, "leadCount must be a whole number from 1 to 1,000."),
    ({"leadCount": 2.5, "location": "TX"}, "leadCount must be a whole number from 1 to 1,000."),
    ({"leadCount": True, "location": "TX"}, "leadCount must be a whole number from 1 to 1,000."),
    ({"leadCount": 5, "location": 7}, "location must be a string of at most 120 characters."),
    ({"leadCount": 5, "location": "Austin, ZZ"},
     "location must be a city, a state code, or 'city, state' (e.g. 'Austin, TX')."),
    ({"leadCount": 5, "location": "TX", "minPrice": "cheap"}, "minPrice must be a number from 0 to 1,000,000,000."),
    ({"leadCount": 5, "location": "TX", "minPrice": 2_000_000_000},
     "minPrice must be a number from 0 to 1,000,000,000."),
    ({"leadCount": 10**400, "location": "TX"}, "leadCount must be a whole number from 1 to 1,000."),
    ({"leadCount": 5, "location": "TX", "minPrice": 10**400}, "minPrice must be a number from 0 to 1,000,000,000."),
    ({"leadCount": 5, "location": "TX", "maxROI": -10**400}, "maxROI must be a number from 0 to 100."),
    ({"leadCount": 5, "location": "TX", "maxROI": float("nan")}, "maxROI must be a number from 0 to 100."),
    ({"leadCount": 5, "location": "TX", "minPrice": 9, "maxPrice": 1}, "minPrice must not be above maxPrice."),
    ({"leadCount": 5, "location": "TX", "maxROI": 300}, "maxROI must be a number from 0 to 100."),
    ({"leadCount": 5, "location": "TX", "includeAuction": "yes"}, "includeAuction must be true or false."),
    ({"leadCount": 5, "location": "TX", "includeAuction": False},
     "At least one include flag must be true (or leave them all out for every lead type)."),
    ([1, 2], "The request body must be a JSON object."),
])
def test_webhook_body_errors(body, message):
    with pytest.raises(webhook.WebhookBodyError) as err:
        webhook.validate_body(body).to_request()
    assert str(err.value) == message


def test_webhook_body_maps_onto_a_request():
    request = webhook.validate_body({
        "leadCount": 25, "location": "austin,  tx", "minPrice": 100000, "maxPrice": 400000,
        "minROI": 10, "includeAuction": True, "includePreForeclosure": True, "includeDistressed": False,
    }).to_request()
    assert request.lead_count == 25
    assert request.cities == ("austin, TX",) and request.states == ()
    assert request.price == (100_000, 400_000)
    assert request.roi == (10, 100)
    assert request.lead_types == ("Pre-Foreclosure", "Auction")
    assert webhook.validate_body({"leadCount": 3, "location": "fl"}).to_request().states == ("FL",)
    assert webhook.validate_body({"leadCount": 3, "location": "Dallas"}).to_request().cities == ("Dallas",)


def test_csv_has_the_spec_columns_and_neutralizes_formulas():
    lead = {
        "address": "=HYPERLINK(\"http://evil\")", "city": "+Austin", "state": "TX", "zip_code": "78701",
        "lead_type": "Probate", "asking_price": 250000, "zestimate": 320000, "arv": 360000,
        "rehab_estimate": 40000, "roi": 24.1234, "beds": 3, "baths": 2.5, "square_footage": 1800,
        "confidence_score": 91, "created_at": datetime(2026, 11, 20, 15, 0, tzinfo=timezone.utc),
    }
    text = scrape.csv_text([{**lead, "provenance": "Demo data (generated)"},
                            {**lead, "address": "12 Main St, Unit 4", "city": "-1", "roi": None}])
    rows = list(csv.reader(io.StringIO(text)))
    # SPEC 9's 15 columns first and in order, then the provenance of every row (a deliberate 16th)
    assert rows[0] == list(scrape.CSV_COLUMNS) and len(rows[0]) == 16
    assert rows[0][:15] == ["Address", "City", "State", "Zip Code", "Lead Type", "Asking Price", "Market Value",
                            "ARV", "Rehab Estimate", "ROI (%)", "Beds", "Baths", "Square Footage",
                            "Confidence Score", "Created Date"]
    assert rows[0][15] == "Provenance"
    assert rows[1] == ["'=HYPERLINK(\"http://evil\")", "'+Austin", "TX", "78701", "Probate", "250000", "320000",
                       "360000", "40000", "24.1", "3", "2.5", "1800", "91", "2026-11-20", "Demo data (generated)"]
    assert rows[2][0] == "12 Main St, Unit 4" and rows[2][1] == "'-1" and rows[2][9] == ""
    assert rows[2][15] == "N/A"  # a row that says nothing about its origin never passes for a public record
    assert scrape.neutralize("@SUM(A1)") == "'@SUM(A1)"
    assert scrape.neutralize(-5) == "-5"


def test_file_names():
    when = datetime(2026, 11, 23, 8, 5, 9)
    assert scrape.results_filename(when) == "bulk-scrape-2026-11-23.csv"
    assert scrape.stored_scrape_filename(91, when) == "bulk-scrape-91-leads-20261123-080509.csv"


def test_result_filters_and_sorts():
    rows = [
        {"id": "a", "roi": 35.0, "square_footage": 900, "lead_type": "Auction", "is_high_roi": True, "is_new": True,
         "asking_price": 300, "zestimate": 500, "created_at": "2026-11-20", "sale_date": "2026-12-10"},
        {"id": "b", "roi": 25.0, "square_footage": 1500, "lead_type": "Vacancy", "is_high_roi": True,
         "is_new": False, "asking_price": 100, "zestimate": 900, "created_at": "2026-11-22"},
        {"id": "c", "roi": 5.0, "square_footage": 2500, "lead_type": "Probate", "is_high_roi": False,
         "is_new": False, "asking_price": None, "zestimate": None, "created_at": "2026-11-21"},
        {"id": "d", "roi": None, "square_footage": None, "lead_type": "Probate", "is_high_roi": False,
         "is_new": False, "asking_price": 50, "zestimate": 100, "created_at": "2026-11-19"},
    ]
    ids = lambda out: [r["id"] for r in out]  # noqa: E731
    assert ids(scrape.filter_results(rows)) == ["a", "b", "c", "d"]
    assert ids(scrape.filter_results(rows, roi_bands=["gt30", "0-10"])) == ["a", "c"]
    assert ids(scrape.filter_results(rows, roi_bands=["unknown"])) == ["d"]
    assert ids(scrape.filter_results(rows, sizes=["medium", "large"])) == ["b", "c"]
    # "Auction Soon": a sale date within 30 days (marketplace.rules_sale_dates), not the lead type.
    assert ids(scrape.filter_results(rows, tags=["vacant", "auction_soon"], today=date(2026, 11, 25))) == ["a", "b"]
    assert ids(scrape.filter_results(rows, tags=["auction_soon"], today=date(2026, 11, 1))) == []
    assert ids(scrape.filter_results(rows, roi_bands=["20-30", "gt30"], tags=["new"])) == ["a"]
    assert ids(scrape.filter_results(rows, sort="price_asc")) == ["d", "b", "a", "c"]
    assert ids(scrape.filter_results(rows, sort="newest")) == ["b", "c", "a", "d"]
    assert ids(scrape.filter_results(rows, sort="zestimate_desc")) == ["b", "a", "d", "c"]


# --------------------------------------------------------------------------- issue 24 items 14 and 16

def test_base_price_says_lead_for_one():
    assert scrape.base_price_label(1) == "1 lead x 100 = 100 credits"
    assert scrape.base_price_label(91) == "91 leads x 100 = 9,100 credits"
    assert scrape.base_price_label(1000) == "1,000 leads x 100 = 100,000 credits"
    assert (scrape.leads_text(1), scrape.leads_text(2)) == ("1 lead", "2 leads")


def test_balance_after_an_unaffordable_scrape_says_the_shortfall_not_zero():
    assert scrape.balance_after_label(10_000, 5_915) == "4,085 credits"
    assert scrape.balance_after_label(5_915, 5_915) == "0 credits"
    assert scrape.balance_after_label(1_880, 4_500) == "Short by 2,620 credits"
    assert scrape.balance_after_label(4_499, 4_500) == "Short by 1 credit"


def test_need_and_delivered_messages_use_thousands_separators():
    assert scrape.need_credits_message(4_500, 1_880) == \
        "You need 4,500 credits to run this scrape. You have 1,880 credits."
    assert scrape.need_credits_message(500, 20) == "You need 500 credits to run this scrape. You have 20 credits."
    assert scrape.delivered_shortfall(1_000, 1_000) == ""
    assert scrape.delivered_shortfall(1_000, 640) == \
        "Only 640 of 1,000 matched your criteria; you were charged for the 640 delivered."


def test_an_roi_maximum_of_100_means_100_percent_or_more():
    """The form stops at 100 (SPEC 5) while cards show ROIs above it: 100 is no upper bound."""
    assert scrape.ScrapeRequest().criteria().roi.max is None
    assert scrape.ScrapeRequest(roi=(10, 100)).criteria().roi.contains(121.6)
    narrowed = scrape.ScrapeRequest(roi=(10, 40)).criteria().roi
    assert (narrowed.min, narrowed.max) == (10, 40) and not narrowed.contains(121.6)
