"""A lead's sale date and the "Auction Soon" rule (issue 24 item 9): 30 days, both ends included."""

from datetime import date, datetime, timedelta, timezone

from marketplace.features.marketplace import rules_cards as lead_cards, rules_sale_dates as sale_dates
from marketplace.features.marketplace import rules_saved_searches as searches
from marketplace.features.scrape import rules as scrape
from marketplace.features.marketplace.rules import Filters
from marketplace.features.property.rules import property_view
from tests.factories import lead

TODAY = date(2026, 11, 25)


def days(n: int) -> date:
    return TODAY + timedelta(days=n)


def test_auction_soon_is_a_date_from_today_to_thirty_days_ahead():
    assert sale_dates.AUCTION_SOON_DAYS == 30
    assert [n for n in (-1, 0, 1, 29, 30, 31, 45) if sale_dates.is_auction_soon(days(n), TODAY)] == [0, 1, 29, 30]
    assert sale_dates.is_auction_soon(None, TODAY) is False
    assert sale_dates.soon_window(TODAY) == (TODAY, date(2026, 12, 25))


def test_today_is_the_pacific_calendar_day():
    # 02:00 UTC on Nov 26 is still Nov 25 in Los Angeles (the 8:00 AM Pacific refresh's zone).
    assert sale_dates.local_today(datetime(2026, 11, 26, 2, 0, tzinfo=timezone.utc)) == date(2026, 11, 25)
    assert sale_dates.local_today(datetime(2026, 11, 26, 9, 0, tzinfo=timezone.utc)) == date(2026, 11, 26)


def test_the_day_count_a_card_shows():
    assert sale_dates.sale_in_text(days(17), TODAY) == "Sale in 17 days"
    assert sale_dates.sale_in_text(days(1), TODAY) == "Sale tomorrow"
    assert sale_dates.sale_in_text(days(0), TODAY) == "Sale today"
    assert sale_dates.sale_in_text(days(-3), TODAY) == "Sale date passed"
    assert sale_dates.sale_in_text(None, TODAY) == ""


def test_the_full_date_and_its_source():
    assert sale_dates.date_line(days(17), TODAY) == "Sale date: Dec 12, 2026 (in 17 days)"
    assert sale_dates.date_line(days(-1), TODAY) == "Sale date: Nov 24, 2026 (passed)"
    assert sale_dates.date_line(None, TODAY) == ""
    assert sale_dates.source_text({"generated": True}) == "Demo date"
    source = sale_dates.record_source("Sheriff sale", "Sheriff Sales (Bid4Assets)",
                                      datetime(2026, 11, 20, 7, 0, tzinfo=timezone.utc))
    assert sale_dates.source_text({"public_record": True, sale_dates.SOURCE_KEY: source}) == (
        "Sheriff sale date from Sheriff Sales (Bid4Assets), retrieved Nov 20, 2026")
    assert sale_dates.source_text({}) == "Source not recorded"


def test_demo_dates_are_one_to_ninety_days_ahead_and_the_same_for_a_lead():
    made = [sale_dates.demo_sale_date(f"lead-{n}", TODAY) for n in range(500)]
    assert min(made) >= days(1) and max(made) <= days(90)
    assert len(set(made)) > 60  # spread over the range
    assert sale_dates.demo_sale_date("lead-7", TODAY) == made[7]


def test_saved_search_facets_follow_the_date_not_the_lead_type():
    def tags(lead_type, sale):
        facets = searches.lead_facets(lead_type, 12.0, 1500, False, False, sale_date=sale, today=TODAY)
        return {value for group, value in facets if group == "tag"}

    assert "auction_soon" in tags("Probate", days(30))
    assert "auction_soon" not in tags("Auction", days(31))
    assert "auction_soon" not in tags("Auction", None)
    assert "auction_soon" not in tags("Auction", days(-1))
    soon = Filters(tags=("auction_soon",))
    assert searches.matches(soon, searches.lead_facets("Auction", 5, 1500, False, False, sale_date=days(29),
                                                       today=TODAY))
    assert not searches.matches(soon, searches.lead_facets("Auction", 5, 1500, False, False))


def test_the_bulk_results_filter_uses_the_same_rule():
    rows = [{"id": "a", "lead_type": "Auction", "sale_date": days(29).isoformat()},
            {"id": "b", "lead_type": "Probate", "sale_date": days(30).isoformat()},
            {"id": "c", "lead_type": "Auction", "sale_date": days(31).isoformat()},
            {"id": "d", "lead_type": "Auction", "sale_date": days(-1).isoformat()},
            {"id": "e", "lead_type": "Auction", "sale_date": None}]
    chosen = scrape.filter_results(rows, tags=["auction_soon"], today=TODAY)
    assert sorted(r["id"] for r in chosen) == ["a", "b"]


def test_the_property_page_shows_the_full_date_and_its_source():
    from types import SimpleNamespace

    row = lead(lead_type="Auction", sale_date=days(12), raw_data={"generated": True})
    unlock = SimpleNamespace(unlocked_at=datetime(2026, 11, 20, tzinfo=timezone.utc), credit_cost=120,
                             purchase_type="credits")
    view = property_view(row, unlock, today=TODAY)
    assert (view.details["sale_date"], view.details["sale_source"]) == ("Sale date: Dec 7, 2026 (in 12 days)",
                                                                        "Demo date")
    assert property_view(lead(), unlock, today=TODAY).details["sale_date"] == ""


def test_a_card_carries_the_tag_and_the_count_only():
    card = lead_cards.card_data({"id": "x", "address": "•••• Oak St", "city": "Austin", "state": "TX",
                                 "zip_code": "78701", "lead_type": "Auction", "beds": 3, "baths": 2,
                                 "square_footage": 1500, "roi": 10.0, "asking_price": 1, "zestimate": 1, "arv": 1,
                                 "rehab_estimate": 1, "confidence": 90, "credit_cost": 150, "is_new": False,
                                 "is_high_roi": False, "unlocked": False, "images": [],
                                 "auction_soon": True, "sale_in": "Sale in 12 days"})
    assert (card["auction_soon"], card["sale_in"]) == (True, "Sale in 12 days")
    assert "Dec" not in str(card)
