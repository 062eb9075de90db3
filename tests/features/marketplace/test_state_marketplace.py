"""``MarketplaceState`` without a browser (a real tab: ``tests/platform/tabs.py``; the services answered by
``tests/features/marketplace/recorders.py``): each
filter handler's refusals (no service call, nothing changed), its one ``query_page`` call with the
filters built once, and what it puts in state (the chosen values, the chips, the count, the URL)."""

from __future__ import annotations

import dataclasses
import uuid

import pytest

from marketplace.features.marketplace import rules
from marketplace.features.marketplace.rules import Filters
from marketplace.platform.texts import LEADS_LOAD_FAILED
from marketplace.features.marketplace import service_map as map_service
from marketplace.features.marketplace import state as state_module
from marketplace.features.marketplace import state_location as location_module
from marketplace.features.marketplace.state_location import MarketplaceLocationState
from tests.features.marketplace.recorders import Calls, lead_card, market, page_of, value
from tests.platform.tabs import answer, resolutions, sessions_in_memory, substate


@pytest.fixture(autouse=True)
def _sessions(monkeypatch):
    """The tabs' users are made up: their sessions resolve from memory (no database)."""
    sessions_in_memory(monkeypatch)


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


def test_a_checkbox_builds_the_filters_once_and_calls_the_service_once(service, built, monkeypatch):
    resolved = resolutions(monkeypatch)
    me = uuid.uuid4()
    tab = market(me)
    built.clear()
    events = answer(tab.toggle_filter("tags", "new"))
    assert len(built) == 1 and len(service.calls) == 1 and resolved(tab) == 1
    (filters, user), = service.calls
    assert filters == Filters(tags=("new",)) and filters is value(tab._filters) and user == me
    assert tab.chosen["tags"] == ["new"] and tab.active_filter_count == 1
    assert (tab.total, tab.pages, tab.page_window, tab.shown_query) == (45, 3, [1, 2, 3], "tag=new")
    assert tab.filter_chips == [{"group": "tags", "value": "new", "label": "New", "id": "chip-tags-new"}]
    assert "/marketplace?tag=new" in str(events[0]) and len(events) == 1
    assert tab.range_label == "Showing 1-20 of 45" and tab.loaded and not tab.loading


def test_a_checkbox_refuses_junk_and_values_that_are_not_its_options(service, monkeypatch):
    resolved = resolutions(monkeypatch)
    tab = market()
    for group, value in (("tags", "nope"), ("nope", "new"), ("cities", "Austin"), ("states", "TX"),
                         (["tags"], "new"), ("tags", {"v": 1}), (None, None), ("tags", "New")):
        assert answer(tab.toggle_filter(group, value)) is None, (group, value)
    assert service.calls == [] and tab._filters == Filters() and resolved(tab) == 0


def test_a_second_click_on_a_checkbox_removes_its_value(service):
    tab = market()
    answer(tab.toggle_filter("roi_ranges", "gt30"))
    answer(tab.toggle_filter("held", "none"))
    assert tab.chosen["roi_ranges"] == ["gt30"] and tab.chosen["held"] == ["none"]
    assert [chip["label"] for chip in tab.filter_chips] == ["ROI Over 30%", "Unlocked by nobody yet"]
    answer(tab.toggle_filter("roi_ranges", "gt30"))
    assert service.calls[-1][0] == Filters(held=("none",)) and tab.shown_query == "held=none"


def test_sort_page_size_and_page(service):
    tab = market()
    for junk in ("nope", 3, None, rules.DEFAULT_SORT):  # the current sort again changes nothing
        assert answer(tab.set_sort(junk)) is None
    for junk in ("13", "abc", {"n": 1}, None, "20", 1e999):
        assert answer(tab.set_page_size(junk)) is None
    assert service.calls == []
    answer(tab.set_sort("price_asc"))
    answer(tab.set_page_size(["50"]))
    assert (tab.sort, tab.page_size_value, tab.page) == ("price_asc", "50", 1)
    assert answer(tab.go_to_page("abc")) is None and answer(tab.go_to_page(1)) is None and len(service.calls) == 2
    events = answer(tab.go_to_page(99))  # clamped to the last page; the grid scrolls back to its top
    assert service.calls[-1][0] == Filters(sort="price_asc", page_size=50, page=3) and tab.page == 3
    assert "scrollIntoView" in str(events[0]) and "/marketplace?sort=price_asc&per_page=50&page=3" in str(events[0])
    answer(tab.toggle_filter("sizes", "small"))  # any filter change goes back to page 1
    assert tab.page == 1 and tab.sort == "price_asc"


def test_chips_remove_their_value_or_the_price_and_clear_keeps_the_sort(service):
    tab = market(query="type=Probate&state=TX&zip=78701&min_price=100000&sort=newest&per_page=50")
    place = substate(tab, MarketplaceLocationState)
    answer(tab.load())
    assert [chip["label"] for chip in tab.filter_chips] == ["Probate", "Texas", "ZIP 78701", "Price from $100,000"]
    assert place.city_options == ["Austin", "Dallas"] and place.price_min_text == "$100,000"
    place.location_error = "a message"
    for group, value in (("tags", "new"), ("nope", "x"), (3, "x"), ("lead_types", "Auction")):
        assert answer(tab.remove_filter(group, value)) is None
    assert len(service.calls) == 1 and place.location_error == "a message"
    answer(tab.remove_filter("price"))
    assert not tab.has_price and place.price_min_text == "" and place.location_error == ""
    assert answer(tab.remove_filter("price")) is None
    answer(tab.remove_filter("states", "TX"))
    assert tab.chosen["states"] == [] and place.city_options == []
    answer(tab.clear_filters())
    assert service.calls[-1][0] == Filters(sort="newest", page_size=50) and tab.active_filter_count == 0


def test_a_failed_query_shows_the_samples_and_says_so(monkeypatch):
    monkeypatch.setattr(state_module, "query_page", Calls(RuntimeError("database down")))
    tab = market()
    events = answer(tab.toggle_filter("tags", "vacant"))
    assert tab.load_failed and tab.showing_samples and tab.total == 0 and len(tab._page_cards) > 0
    assert LEADS_LOAD_FAILED[1] in str(events) and tab.shown_query == "tag=vacant"
    answer(tab.retry())
    assert tab.load_failed


def test_no_leads_at_all_shows_samples_but_no_match_does_not(monkeypatch):
    monkeypatch.setattr(state_module, "query_page", Calls(page_of([], total=0)))
    tab = market()
    answer(tab.load())
    assert tab.showing_samples and not tab.load_failed
    answer(tab.toggle_filter("tags", "new"))  # nothing matches: the grid says so, no samples
    assert not tab.showing_samples and tab.total == 0 and tab._page_cards == []


def test_the_gallery_opens_only_for_a_card_with_pictures(service, monkeypatch):
    with_pictures = lead_card(images=("https://images.example/1.jpg",))
    monkeypatch.setattr(state_module, "query_page", Calls(page_of([with_pictures, lead_card()])))
    tab = market()
    answer(tab.load())
    bare = tab._page_cards[1]["id"]
    for junk in (bare, "unknown", 7, None):
        answer(tab.open_gallery(junk))
        assert tab.gallery_id == ""
    answer(tab.open_gallery(with_pictures.id))
    assert tab.gallery_id == with_pictures.id and tab._gallery_card["id"] == with_pictures.id
    tab.close_gallery()
    assert (tab.gallery_id, tab._gallery_card) == ("", {})


def test_the_url_holds_every_filter_of_the_registry(service):
    query = "&".join(f"{spec.key}={value}" for spec, value in zip(rules.FILTERS, (
        "Probate", "gt30", "small", "new", "TX", "Austin", "78701", "none", "open")))
    tab = market(query=query)
    answer(tab.load())
    assert dataclasses.asdict(service.calls[0][0]) == dataclasses.asdict(Filters.from_query(query))
    assert tab.shown_query == query and len(tab.filter_chips) == len(rules.FILTERS)


@pytest.fixture
def unlocks(monkeypatch):
    """``unlock_lead`` answering a credit unlock; the confirmation preference: never ask."""
    from datetime import datetime, timezone

    from marketplace.features.unlock.rules_confirm import ConfirmPreference
    from marketplace.features.unlock import service_prefs as unlock_prefs
    from marketplace.features.unlock.service import UnlockResult

    monkeypatch.setattr(unlock_prefs, "get_preference", Calls(lambda user: ConfirmPreference(enabled=False)))
    unlock = Calls(lambda user, lead_id: UnlockResult(lead_id=uuid.UUID(lead_id), credits_deducted=10,
                                                      remaining_credits=90, purchase_type="credits",
                                                      unlocked_at=datetime.now(timezone.utc)))
    monkeypatch.setattr(state_module, "unlock_lead", unlock)
    return unlock


def test_an_unlock_is_refused_signed_out_for_junk_and_for_samples(service, unlocks):
    from marketplace.platform.texts import UNLOCK_AUTH_REQUIRED

    tab = market()
    answer(tab.load())
    assert UNLOCK_AUTH_REQUIRED[1] in str(answer(tab.unlock(tab._page_cards[0]["id"])))
    tab = market(uuid.uuid4(), credits=100)
    answer(tab.load())
    for junk in ("", "x" * 65, 7, None):
        assert answer(tab.unlock(junk)) == []
    from marketplace.features.marketplace.rules_samples import SAMPLE_PREFIX
    from marketplace.platform.texts import SAMPLE_NOT_UNLOCKABLE

    assert SAMPLE_NOT_UNLOCKABLE in str(answer(tab.unlock(SAMPLE_PREFIX + "1")))
    assert unlocks.calls == [] and tab.unlocking_id == "" and tab.credits == 100


def test_an_unlock_calls_the_service_once_and_shows_the_new_balance(service, unlocks):
    me = uuid.uuid4()
    tab = market(me, credits=100)
    answer(tab.load())
    lead_id = tab._page_cards[0]["id"]
    updates = answer(tab.unlock(lead_id))
    assert unlocks.calls == [(me, lead_id)] and tab.credits == 90 and tab.unlocking_id == ""
    assert "Lead unlocked for 10 credits. 90 credits remaining." in str(updates)
    assert len(service.calls) == 2  # the page again: the card now carries its full address
