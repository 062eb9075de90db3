"""``MarketplaceMapState`` without a browser (real tabs: ``tests/platform/tabs.py``; the services
answered by ``tests/features/marketplace/recorders.py``): one
input is what ``MarketplaceState`` shows (``Shown``); in the map view one ``map_points`` call per change
with the filters shown, none in the grid view; a marker's refusals and its one ``map_card`` call."""

from __future__ import annotations

import uuid

import pytest

from marketplace.features.marketplace import rules_map as lead_map
from marketplace.features.marketplace.rules import Filters
from marketplace.platform.texts import LEADS_LOAD_FAILED, MAP_LEAD_GONE
from marketplace.features.marketplace import service_map as map_service
from marketplace.features.marketplace import state as state_module
from marketplace.features.marketplace.state_map import EMPTY_POINTS
from marketplace.features.marketplace.state_map import MarketplaceMapState
from tests.features.marketplace.recorders import Calls, lead_card, market, page_of
from tests.platform.tabs import answer, sessions_in_memory, substate

LEAD = str(uuid.uuid4())
TOKEN = lead_map.lead_token(LEAD)


@pytest.fixture(autouse=True)
def _sessions(monkeypatch):
    """The tabs' users are made up: their sessions resolve from memory (no database)."""
    sessions_in_memory(monkeypatch)


@pytest.fixture
def services(monkeypatch):
    query = Calls(page_of([lead_card()]))
    points = Calls(lambda filters, user: lead_map.MapPoints(ids=[TOKEN], coords=[30.27, -97.74], open=[],
                                                            matched=1))
    card = Calls(lambda lead_id, user: lead_card(lead_id) if lead_id == LEAD else None)
    monkeypatch.setattr(state_module, "query_page", query)
    monkeypatch.setattr(map_service, "map_points", points)
    monkeypatch.setattr(map_service, "map_card", card)
    return query, points, card


def test_the_grid_view_loads_no_map(services):
    _query, points, _card = services
    tab = market()
    shown_map = substate(tab, MarketplaceMapState)
    answer(tab.load())
    answer(tab.toggle_filter("tags", "new"))
    assert points.calls == [] and shown_map.map_points == EMPTY_POINTS and not shown_map.map_loaded


def test_the_switch_loads_the_points_of_the_filters_shown_once(services):
    query, points, _card = services
    me = uuid.uuid4()
    tab = market(me, query="tag=new&sort=newest&page=2")
    shown_map = substate(tab, MarketplaceMapState)
    answer(tab.load())
    for junk in ("nope", 3, None, [], "grid"):  # 'grid' is the view already
        assert answer(tab.set_view(junk)) is None
    events = answer(tab.set_view(["map"]))
    assert len(points.calls) == 1 and points.calls[0] == (Filters(tags=("new",), sort="newest"), me)
    assert query.calls[-1][0] is points.calls[0][0]  # the grid's count and the map: one Filters value
    assert tab.view == "map" and tab.page == 1 and "view=map" in str(events[0])
    assert shown_map.map_points == {"ids": [TOKEN], "coords": [30.27, -97.74], "open": []}
    assert shown_map.map_key == "tag=new" and shown_map.map_loaded  # a sort does not refit the map
    assert shown_map.map_caption == lead_map.map_caption(1, 1, 0, False)
    answer(tab.set_view("grid"))
    assert len(points.calls) == 1 and not shown_map.map_loaded


def test_a_marker_opens_its_card_and_refuses_junk(services):
    _query, _points, card = services
    tab = market(query="view=map")
    shown_map = substate(tab, MarketplaceMapState)
    answer(tab.load())
    for junk in ("", "x" * 22, 5, None, {"t": 1}):
        assert answer(shown_map.open_map_lead(junk)) is None
    assert card.calls == [] and shown_map.map_selected == ""
    events = answer(shown_map.open_map_lead(TOKEN))
    assert card.calls == [(LEAD, None)] and shown_map.map_selected == TOKEN and "map-card-panel" in str(events)
    assert shown_map.map_card.id == LEAD and shown_map._open_card(LEAD)["id"] == LEAD
    shown_map.close_map_card()
    assert (shown_map.map_selected, shown_map._map_card) == ("", {})
    gone = lead_map.lead_token(uuid.uuid4())
    assert MAP_LEAD_GONE[1] in str(answer(shown_map.open_map_lead(gone))) and shown_map.map_selected == ""


def test_a_marker_in_the_grid_view_does_nothing(services):
    _query, _points, card = services
    tab = market()
    shown_map = substate(tab, MarketplaceMapState)
    answer(tab.load())
    assert answer(shown_map.open_map_lead(TOKEN)) is None and card.calls == []


def test_a_failed_map_says_so_and_shows_nothing(services, monkeypatch):
    monkeypatch.setattr(map_service, "map_points", Calls(RuntimeError("database down")))
    tab = market(query="view=map")
    shown_map = substate(tab, MarketplaceMapState)
    events = answer(tab.load())
    assert LEADS_LOAD_FAILED[1] in str(events) and not shown_map.map_loaded and shown_map.map_points == EMPTY_POINTS


def test_the_open_card_is_the_unlocks_and_the_galleries_in_the_map_view(services, monkeypatch):
    monkeypatch.setattr(map_service, "map_card", Calls(
        lambda lead_id, user: lead_card(lead_id, images=("https://images.example/1.jpg",))))
    tab = market(query="view=map")
    shown_map = substate(tab, MarketplaceMapState)
    answer(tab.load())
    answer(shown_map.open_map_lead(TOKEN))
    assert answer(tab._any_card(LEAD))["id"] == LEAD
    answer(tab.open_gallery(LEAD))
    assert tab.gallery_id == LEAD and tab.gallery.id == LEAD
    answer(tab.load())  # a page load closes the card
    assert shown_map.map_selected == "" and answer(tab._any_card(LEAD)) is None


def test_an_unlock_on_the_map_reloads_its_points_and_open_card(services, monkeypatch):
    from datetime import datetime, timezone

    from marketplace.features.unlock.rules_confirm import ConfirmPreference
    from marketplace.features.unlock import service_prefs as unlock_prefs
    from marketplace.features.unlock.service import UnlockResult

    _query, points, card = services
    monkeypatch.setattr(unlock_prefs, "get_preference", Calls(lambda user: ConfirmPreference(enabled=False)))
    unlock = Calls(lambda user, lead_id: UnlockResult(lead_id=uuid.UUID(lead_id), credits_deducted=10,
                                                      remaining_credits=90, purchase_type="credits",
                                                      unlocked_at=datetime.now(timezone.utc)))
    monkeypatch.setattr(state_module, "unlock_lead", unlock)
    me = uuid.uuid4()
    tab = market(me, credits=100, query="view=map")
    shown_map = substate(tab, MarketplaceMapState)
    answer(tab.load())
    answer(shown_map.open_map_lead(TOKEN))
    answer(tab.unlock(LEAD))  # the map's card, not on the grid's page
    assert unlock.calls == [(me, LEAD)] and len(points.calls) == 2 and len(card.calls) == 2
    assert shown_map.map_selected == TOKEN and tab.credits == 90


def test_a_page_load_with_a_lead_in_the_address_opens_its_card(services, monkeypatch):
    """/marketplace?view=map&lead=<token>: where a locked lead's property page sends its viewer to unlock
    it; a malformed token or a lead no longer listed opens nothing."""
    monkeypatch.setattr(map_service, "map_card", Calls(lambda lead_id, user: lead_card(lead_id)))
    tab = market(query=f"view=map&lead={TOKEN}")
    shown_map = substate(tab, MarketplaceMapState)
    answer(tab.load())
    assert shown_map.map_selected == TOKEN and answer(tab._any_card(LEAD))["id"] == LEAD
    for token, listed in (("not-a-token", True), (TOKEN, False)):
        monkeypatch.setattr(map_service, "map_card", Calls(lambda lead_id, user, listed=listed:
                                                           lead_card(lead_id) if listed else None))
        again = market(query=f"view=map&lead={token}")
        again_shown_map = substate(again, MarketplaceMapState)
        answer(again.load())
        assert again_shown_map.map_selected == "" and answer(again._any_card(LEAD)) is None
