"""/bulkscraper (``features/scrape/state.py``), its real handlers on a real tab against the test database:
signed out, each handler answers 'Authentication Required' and nothing runs; a form with a minimum above its
maximum, or a balance below the cost, is refused before the confirmation and charges nothing; a scrape runs the
real service once, charges what the form showed and puts its results in state, and a reload shows them again."""

from __future__ import annotations

import sqlalchemy as sa

from marketplace.platform.db import get_engine
from marketplace.platform.models import BulkScrape
from marketplace.features.scrape.state import BulkScraperState
from tests.platform.tabs import background, open_tab, seen, sign_in, toasts

SIGNED_OUT = ("error", "Authentication Required", "Please log in to use the bulk scraper.")


def _scrapes() -> int:
    with get_engine().connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(BulkScrape.__table__)).scalar_one()


def _form(tab, count: str = "5") -> None:
    tab.set_field("lead_count", count)
    tab.set_field("cities", "Austin, TX")


def test_signed_out_the_scraper_refuses_and_shows_nothing(db_url):
    tab = open_tab(BulkScraperState, None, path="/bulkscraper")
    seen(tab.load())
    assert (tab.loaded, tab.scrape_id, tab.rows, tab.result_count) == (True, "", [], 0)
    _form(tab)
    assert toasts(seen(tab.open_confirm())) == [SIGNED_OUT]
    assert not tab.confirm_open
    assert toasts(seen(background(tab, "run_scrape"))) == [SIGNED_OUT]
    assert toasts(seen(tab.download_csv())) == [SIGNED_OUT]
    assert (tab.scraping, tab.confirm_open, _scrapes()) == (False, False, 0)


def test_the_form_shows_the_cost_it_will_charge(db_url, new_user):
    user = new_user(credits=1_000)
    tab = open_tab(BulkScraperState, user.id, path="/bulkscraper")
    seen(tab.load())
    assert (tab.credits, tab.lead_count, tab.cost_label) == (1_000, "50", "4,500 credits")
    assert (tab.discount_label, tab.balance_after_label, tab.short_of_credits) == (
        "10% (-500 credits)", "Short by 3,500 credits", True)
    _form(tab, "5")
    assert (tab.cost_label, tab.balance_after_label, tab.start_disabled) == ("500 credits", "500 credits", False)
    tab.set_field("lead_count", "5000")
    tab.clamp_fields()
    assert tab.lead_count == "1000"  # the most one scrape takes


def test_a_bad_form_or_too_few_credits_is_refused_before_the_confirmation(db_url, new_user):
    user = new_user(credits=400)
    tab = open_tab(BulkScraperState, user.id, path="/bulkscraper")
    seen(tab.load())
    _form(tab, "5")
    assert toasts(seen(tab.open_confirm())) == [
        ("error", "Insufficient Credits", "You need 500 credits to run this scrape. You have 400 credits.")]
    tab.set_field("lead_count", "2")
    tab.set_field("price_min", "500000")
    tab.set_field("price_max", "100000")
    (title, message), = [t[1:] for t in toasts(seen(tab.open_confirm()))]
    assert title == "Check your criteria" and message.startswith("Price:") and message == tab.form_problems
    assert (tab.confirm_open, tab.credits, _scrapes()) == (False, 400, 0)


def test_a_scrape_charges_once_and_shows_its_results_again_after_a_reload(db_url, new_user):
    user = new_user(credits=1_000)
    tab = open_tab(BulkScraperState, user.id, path="/bulkscraper")
    seen(tab.load())
    _form(tab, "5")
    assert seen(tab.open_confirm()) == [] and tab.confirm_open
    events = seen(background(tab, "run_scrape"))
    assert toasts(events) == [("success", "Scrape Completed!", "Successfully scraped 5 leads. 500 credits deducted.")]
    assert (tab.scraping, tab.confirm_open, tab.credits, _scrapes()) == (False, False, 500, 1)
    assert (tab.result_count, tab.result_credits, tab.filtered_count, len(tab.rows)) == (5, 500, 5, 5)
    assert tab.results_label == "5 leads · page 1 of 1" and tab.progress_label == "5 of 5 leads"
    assert all(row["city_line"].startswith("Austin, TX") for row in tab.rows)
    (kind, url), = seen(tab.download_csv())
    assert kind == "download" and tab.scrape_id in url

    again = open_tab(BulkScraperState, user.id, path="/bulkscraper")  # a reload: the last scrape, nothing charged
    seen(again.load())
    assert (again.scrape_id, again.result_count, again.credits, _scrapes()) == (tab.scrape_id, 5, 500, 1)
    assert [r["id"] for r in again.rows] == [r["id"] for r in tab.rows]
    again.set_sort("nonsense")
    again.toggle_result_filter("roi", "bogus")
    assert (again.sort, again.roi_filter) == ("roi_desc", [])


def test_another_users_results_never_stay_in_the_tab(db_url, new_user):
    first, second = new_user(credits=1_000), new_user(credits=1_000)
    tab = open_tab(BulkScraperState, first.id, path="/bulkscraper")
    seen(tab.load())
    _form(tab, "2")
    seen(background(tab, "run_scrape"))
    assert tab.result_count == 2
    sign_in(tab, second.id)  # the other account signs in in this tab
    seen(tab.load())
    assert (tab.scrape_id, tab.result_count, tab.rows) == ("", 0, [])
