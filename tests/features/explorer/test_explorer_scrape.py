"""The explorer's manual scrape (``features/explorer/state_scrape.py``), its real handlers on a real tab against
the test database: a member gets 'Access Denied' and nothing is scraped; refused numbers are listed and nothing
is stored; a scrape adds the leads to the marketplace, charges nothing and shows them."""

from __future__ import annotations

import sqlalchemy as sa

from marketplace.features.explorer import rules_scrape as dev_scrape
from marketplace.platform.db import get_engine
from marketplace.platform.models import Lead
from marketplace.features.explorer.state_scrape import ExplorerScrapeState
from tests.platform.tabs import background, open_tab, seen, toasts

DENIED = ("toast", "error", "Access Denied: You don't have super admin privileges", "")


def _leads() -> int:
    with get_engine().connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(Lead.__table__)).scalar_one()


def _form(**fields) -> dict:
    return {**dev_scrape.default_form(), **fields}


def test_a_member_is_denied_and_nothing_is_scraped(db_url, new_user):
    tab = open_tab(ExplorerScrapeState, new_user().id, path="/explorerdev")
    assert seen(background(tab, "run_scrape", _form(leadCount="3"))) == [DENIED, ("redirect", "/")]
    assert seen(tab.toggle_state("TX")) == [DENIED, ("redirect", "/")]
    assert (tab.scraping, tab.result_rows, _leads()) == (False, [], 0)
    assert seen(background(open_tab(ExplorerScrapeState, None), "run_scrape", _form(leadCount="3"))) == [("redirect", "/")]


def test_refused_numbers_are_listed_and_nothing_is_stored(db_url, new_user):
    tab = open_tab(ExplorerScrapeState, new_user(admin=True).id, path="/explorerdev")
    ((kind, title, message),) = toasts(seen(background(tab, "run_scrape", _form(leadCount="500", minPrice="cheap"))))
    assert (kind, title) == ("error", "Check the scrape parameters")
    assert tab.problems and message == " ".join(tab.problems)
    assert any(p.startswith("Lead count") for p in tab.problems)
    assert any(p == "Minimum price must be a number." for p in tab.problems)
    assert (tab.scraping, tab.result_rows, _leads()) == (False, [], 0)
    seen(tab.toggle_state("ZZ"))  # not one of the chips: nothing changes
    assert tab.selected_states == list(dev_scrape.DEFAULTS["selectedStates"])


def test_a_scrape_adds_the_leads_and_shows_them(db_url, new_user):
    admin = new_user(admin=True, credits=0)
    tab = open_tab(ExplorerScrapeState, admin.id, path="/explorerdev")
    events = seen(background(tab, "run_scrape", _form(leadCount="3")))
    assert ("toast", "success", "Scrape Completed!", "Added 3 leads to the marketplace.") in events
    assert events[-1] == ("event", "ExplorerLeadsState.reload_leads")
    assert (tab.scraping, tab.problems, len(tab.result_rows), _leads()) == (False, [], 3, 3)
    assert tab.result_label == "3 new leads added" and tab.progress_label == "3 of 3 leads"
    assert tab.total_leads == "3" and tab.credits == 0  # the overview follows; nothing is charged
    seen(tab.reset_form())
    assert (tab.form_values, tab.form_key) == (dev_scrape.default_form(), 1)
