"""``MarketplaceMapState`` without a browser (stand-ins: ``tests/states/marketplace_tabs.py``): its one
input is what ``MarketplaceState`` shows (``Shown``); in the map view one ``map_points`` call per change
with the filters shown, none in the grid view; a marker's refusals and its one ``map_card`` call."""

from __future__ import annotations

import uuid

import pytest

from marketplace.core import lead_map
from marketplace.core.marketplace import Filters
from marketplace.messages import LEADS_LOAD_FAILED, MAP_LEAD_GONE
from marketplace.services import map as map_service
from marketplace.states import marketplace as state_module
from marketplace.states.marketplace_map import EMPTY_POINTS
from tests.states.marketplace_tabs import Calls, Market, drain, lead_card, page_of, run

LEAD = str(uuid.uuid4())
TOKEN = lead_map.lead_token(LEAD)


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
    tab = Market()
    drain(tab.load())
    run(tab.toggle_filter("tags", "new"))
    assert points.calls == [] and tab.map.map_points == EMPTY_POINTS and not tab.map.map_loaded


def test_the_switch_loads_the_points_of_the_filters_shown_once(services):
    query, points, _card = services
    me = uuid.uuid4()
    tab = Market(me, query="tag=new&sort=newest&page=2")
    drain(tab.load())
    for junk in ("nope", 3, None, [], "grid"):  # 'grid' is the view already
        assert run(tab.set_view(junk)) is None
    events = run(tab.set_view(["map"]))
    assert len(points.calls) == 1 and points.calls[0] == (Filters(tags=("new",), sort="newest"), me)
    assert query.calls[-1][0] is points.calls[0][0]  # the grid's count and the map: one Filters value
    assert tab.view == "map" and tab.page == 1 and "view=map" in str(events[0])
    assert tab.map.map_points == {"ids": [TOKEN], "coords": [30.27, -97.74], "open": []}
    assert tab.map.map_key == "tag=new" and tab.map.map_loaded  # a sort does not refit the map
    assert tab.map.map_caption == lead_map.map_caption(1, 1, 0, False)
    run(tab.set_view("grid"))
    assert len(points.calls) == 1 and not tab.map.map_loaded


def test_a_marker_opens_its_card_and_refuses_junk(services):
    _query, _points, card = services
    tab = Market(query="view=map")
    drain(tab.load())
    for junk in ("", "x" * 22, 5, None, {"t": 1}):
        assert run(tab.map.open_map_lead(junk)) is None
    assert card.calls == [] and tab.map.map_selected == ""
    events = run(tab.map.open_map_lead(TOKEN))
    assert card.calls == [(LEAD, None)] and tab.map.map_selected == TOKEN and "map-card-panel" in str(events)
    assert tab.map.map_card.id == LEAD and tab.map._open_card(LEAD)["id"] == LEAD
    tab.map.close_map_card()
    assert (tab.map.map_selected, tab.map._map_card) == ("", {})
    gone = lead_map.lead_token(uuid.uuid4())
    assert MAP_LEAD_GONE[1] in str(run(tab.map.open_map_lead(gone))) and tab.map.map_selected == ""


def test_a_marker_in_the_grid_view_does_nothing(services):
    _query, _points, card = services
    tab = Market()
    drain(tab.load())
    assert run(tab.map.open_map_lead(TOKEN)) is None and card.calls == []


def test_a_failed_map_says_so_and_shows_nothing(services, monkeypatch):
    monkeypatch.setattr(map_service, "map_points", Calls(RuntimeError("database down")))
    tab = Market(query="view=map")
    events = drain(tab.load())
    assert LEADS_LOAD_FAILED[1] in str(events) and not tab.map.map_loaded and tab.map.map_points == EMPTY_POINTS


def test_the_open_card_is_the_unlocks_and_the_galleries_in_the_map_view(services, monkeypatch):
    monkeypatch.setattr(map_service, "map_card", Calls(
        lambda lead_id, user: lead_card(lead_id, images=("https://images.example/1.jpg",))))
    tab = Market(query="view=map")
    drain(tab.load())
    run(tab.map.open_map_lead(TOKEN))
    assert run(tab._any_card(LEAD))["id"] == LEAD
    run(tab.open_gallery(LEAD))
    assert tab.gallery_id == LEAD and tab.gallery.id == LEAD
    drain(tab.load())  # a page load closes the card
    assert tab.map.map_selected == "" and run(tab._any_card(LEAD)) is None


def test_an_unlock_on_the_map_reloads_its_points_and_open_card(services, monkeypatch):
    from datetime import datetime, timezone

    from marketplace.core.unlock_confirm import ConfirmPreference
    from marketplace.services import unlock_prefs
    from marketplace.services.unlocks import UnlockResult

    _query, points, card = services
    monkeypatch.setattr(unlock_prefs, "get_preference", Calls(lambda user: ConfirmPreference(enabled=False)))
    unlock = Calls(lambda user, lead_id: UnlockResult(lead_id=uuid.UUID(lead_id), credits_deducted=10,
                                                      remaining_credits=90, purchase_type="credits",
                                                      unlocked_at=datetime.now(timezone.utc)))
    monkeypatch.setattr(state_module, "unlock_lead", unlock)
    me = uuid.uuid4()
    tab = Market(me, credits=100, query="view=map")
    drain(tab.load())
    run(tab.map.open_map_lead(TOKEN))
    drain(tab.unlock(LEAD))  # the map's card, not on the grid's page
    assert unlock.calls == [(me, LEAD)] and len(points.calls) == 2 and len(card.calls) == 2
    assert tab.map.map_selected == TOKEN and tab.credits == 90
