"""``MarketplaceState`` without a browser (stand-ins: ``tests/states/marketplace_tabs.py``): each
filter handler's refusals (no service call, nothing changed), its one ``query_page`` call with the
filters built once, and what it puts in state (the chosen values, the chips, the count, the URL)."""

from __future__ import annotations

import dataclasses
import uuid

import pytest

from marketplace.core import marketplace as rules
from marketplace.core.marketplace import Filters
from marketplace.messages import LEADS_LOAD_FAILED
from marketplace.services import map as map_service
from marketplace.states import marketplace as state_module
from marketplace.states import marketplace_location as location_module
from tests.states.marketplace_tabs import Calls, Market, drain, lead_card, page_of, run


@pytest.fixture
def service(monkeypatch):
    """``query_page`` answering two cards; the map and the city suggestions must not be called."""
    query = Calls(page_of([lead_card(), lead_card()], total=45, pages=3))
    monkeypatch.setattr(state_module, "query_page", query)
    monkeypatch.setattr(map_service, "map_points", Calls(AssertionError("the grid view loads no map")))
    monkeypatch.setattr(location_module, "city_suggestions", Calls(lambda states: ["Austin", "Dallas"]))
    return query


@pytest.fixture
def built(monkeypatch):
    """How many ``Filters`` values are made (``Filters(...)``, ``replace``, ``toggled``...)."""
    made = []
    real = Filters.__init__

    def counted(self, *args, **kwargs):
        made.append(1)
        real(self, *args, **kwargs)

    monkeypatch.setattr(Filters, "__init__", counted)
    return made


def test_a_checkbox_builds_the_filters_once_and_calls_the_service_once(service, built):
    me = uuid.uuid4()
    tab = Market(me)
    built.clear()
    events = run(tab.toggle_filter("tags", "new"))
    assert len(built) == 1 and len(service.calls) == 1 and tab.resolved == 1
    (filters, user), = service.calls
    assert filters == Filters(tags=("new",)) and filters is tab._filters and user == me
    assert tab.chosen["tags"] == ["new"] and tab.active_filter_count == 1
    assert (tab.total, tab.pages, tab.page_window, tab.shown_query) == (45, 3, [1, 2, 3], "tag=new")
    assert tab.filter_chips == [{"group": "tags", "value": "new", "label": "New", "id": "chip-tags-new"}]
    assert "/marketplace?tag=new" in str(events[0]) and len(events) == 1
    assert tab.range_label == "Showing 1-20 of 45" and tab.loaded and not tab.loading


def test_a_checkbox_refuses_junk_and_values_that_are_not_its_options(service):
    tab = Market()
    for group, value in (("tags", "nope"), ("nope", "new"), ("cities", "Austin"), ("states", "TX"),
                         (["tags"], "new"), ("tags", {"v": 1}), (None, None), ("tags", "New")):
        assert run(tab.toggle_filter(group, value)) is None, (group, value)
    assert service.calls == [] and tab._filters == Filters() and tab.resolved == 0


def test_a_second_click_on_a_checkbox_removes_its_value(service):
    tab = Market()
    run(tab.toggle_filter("roi_ranges", "gt30"))
    run(tab.toggle_filter("held", "none"))
    assert tab.chosen["roi_ranges"] == ["gt30"] and tab.chosen["held"] == ["none"]
    assert [chip["label"] for chip in tab.filter_chips] == ["ROI Over 30%", "Unlocked by nobody yet"]
    run(tab.toggle_filter("roi_ranges", "gt30"))
    assert service.calls[-1][0] == Filters(held=("none",)) and tab.shown_query == "held=none"


def test_sort_page_size_and_page(service):
    tab = Market()
    for junk in ("nope", 3, None, rules.DEFAULT_SORT):  # the current sort again changes nothing
        assert run(tab.set_sort(junk)) is None
    for junk in ("13", "abc", {"n": 1}, None, "20", 1e999):
        assert run(tab.set_page_size(junk)) is None
    assert service.calls == []
    run(tab.set_sort("price_asc"))
    run(tab.set_page_size(["50"]))
    assert (tab.sort, tab.page_size_value, tab.page) == ("price_asc", "50", 1)
    assert run(tab.go_to_page("abc")) is None and run(tab.go_to_page(1)) is None and len(service.calls) == 2
    events = run(tab.go_to_page(99))  # clamped to the last page; the grid scrolls back to its top
    assert service.calls[-1][0] == Filters(sort="price_asc", page_size=50, page=3) and tab.page == 3
    assert "scrollIntoView" in str(events[0]) and "/marketplace?sort=price_asc&per_page=50&page=3" in str(events[0])
    run(tab.toggle_filter("sizes", "small"))  # any filter change goes back to page 1
    assert tab.page == 1 and tab.sort == "price_asc"


def test_chips_remove_their_value_or_the_price_and_clear_keeps_the_sort(service):
    tab = Market(query="type=Probate&state=TX&zip=78701&min_price=100000&sort=newest&per_page=50")
    drain(tab.load())
    assert [chip["label"] for chip in tab.filter_chips] == ["Probate", "Texas", "ZIP 78701", "Price from $100,000"]
    assert tab.location.city_options == ["Austin", "Dallas"] and tab.location.price_min_text == "$100,000"
    tab.location.location_error = "a message"
    for group, value in (("tags", "new"), ("nope", "x"), (3, "x"), ("lead_types", "Auction")):
        assert run(tab.remove_filter(group, value)) is None
    assert len(service.calls) == 1 and tab.location.location_error == "a message"
    run(tab.remove_filter("price"))
    assert not tab.has_price and tab.location.price_min_text == "" and tab.location.location_error == ""
    assert run(tab.remove_filter("price")) is None
    run(tab.remove_filter("states", "TX"))
    assert tab.chosen["states"] == [] and tab.location.city_options == []
    run(tab.clear_filters())
    assert service.calls[-1][0] == Filters(sort="newest", page_size=50) and tab.active_filter_count == 0


def test_a_failed_query_shows_the_samples_and_says_so(monkeypatch):
    monkeypatch.setattr(state_module, "query_page", Calls(RuntimeError("database down")))
    tab = Market()
    events = run(tab.toggle_filter("tags", "vacant"))
    assert tab.load_failed and tab.showing_samples and tab.total == 0 and len(tab._page_cards) > 0
    assert LEADS_LOAD_FAILED[1] in str(events) and tab.shown_query == "tag=vacant"
    run(tab.retry())
    assert tab.load_failed


def test_no_leads_at_all_shows_samples_but_no_match_does_not(monkeypatch):
    monkeypatch.setattr(state_module, "query_page", Calls(page_of([], total=0)))
    tab = Market()
    drain(tab.load())
    assert tab.showing_samples and not tab.load_failed
    run(tab.toggle_filter("tags", "new"))  # nothing matches: the grid says so, no samples
    assert not tab.showing_samples and tab.total == 0 and tab._page_cards == []


def test_the_gallery_opens_only_for_a_card_with_pictures(service, monkeypatch):
    with_pictures = lead_card(images=("https://images.example/1.jpg",))
    monkeypatch.setattr(state_module, "query_page", Calls(page_of([with_pictures, lead_card()])))
    tab = Market()
    drain(tab.load())
    bare = tab._page_cards[1]["id"]
    for junk in (bare, "unknown", 7, None):
        run(tab.open_gallery(junk))
        assert tab.gallery_id == ""
    run(tab.open_gallery(with_pictures.id))
    assert tab.gallery_id == with_pictures.id and tab._gallery_card["id"] == with_pictures.id
    tab.close_gallery()
    assert (tab.gallery_id, tab._gallery_card) == ("", {})


def test_the_url_holds_every_filter_of_the_registry(service):
    query = "&".join(f"{spec.key}={value}" for spec, value in zip(rules.FILTERS, (
        "Probate", "gt30", "small", "new", "TX", "Austin", "78701", "none")))
    tab = Market(query=query)
    drain(tab.load())
    assert dataclasses.asdict(service.calls[0][0]) == dataclasses.asdict(Filters.from_query(query))
    assert tab.shown_query == query and len(tab.filter_chips) == len(rules.FILTERS)


@pytest.fixture
def unlocks(monkeypatch):
    """``unlock_lead`` answering a credit unlock; the confirmation preference: never ask."""
    from datetime import datetime, timezone

    from marketplace.core.unlock_confirm import ConfirmPreference
    from marketplace.services import unlock_prefs
    from marketplace.services.unlocks import UnlockResult

    monkeypatch.setattr(unlock_prefs, "get_preference", Calls(lambda user: ConfirmPreference(enabled=False)))
    unlock = Calls(lambda user, lead_id: UnlockResult(lead_id=uuid.UUID(lead_id), credits_deducted=10,
                                                      remaining_credits=90, purchase_type="credits",
                                                      unlocked_at=datetime.now(timezone.utc)))
    monkeypatch.setattr(state_module, "unlock_lead", unlock)
    return unlock


def test_an_unlock_is_refused_signed_out_for_junk_and_for_samples(service, unlocks):
    from marketplace.messages import UNLOCK_AUTH_REQUIRED

    tab = Market()
    drain(tab.load())
    assert UNLOCK_AUTH_REQUIRED[1] in str(drain(tab.unlock(tab._page_cards[0]["id"])))
    tab = Market(uuid.uuid4(), credits=100)
    drain(tab.load())
    for junk in ("", "x" * 65, 7, None):
        assert drain(tab.unlock(junk)) == []
    from marketplace.core.samples import SAMPLE_PREFIX
    from marketplace.messages import SAMPLE_NOT_UNLOCKABLE

    assert SAMPLE_NOT_UNLOCKABLE in str(drain(tab.unlock(SAMPLE_PREFIX + "1")))
    assert unlocks.calls == [] and tab.unlocking_id == "" and tab.credits == 100


def test_an_unlock_calls_the_service_once_and_shows_the_new_balance(service, unlocks):
    me = uuid.uuid4()
    tab = Market(me, credits=100)
    drain(tab.load())
    lead_id = tab._page_cards[0]["id"]
    updates = drain(tab.unlock(lead_id))
    assert unlocks.calls == [(me, lead_id)] and tab.credits == 90 and tab.unlocking_id == ""
    assert "Lead unlocked for 10 credits. 90 credits remaining." in str(updates)
    assert len(service.calls) == 2  # the page again: the card now carries its full address
