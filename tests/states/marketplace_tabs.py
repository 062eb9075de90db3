"""Stand-ins for the marketplace's states (``MarketplaceState`` and its map and location
substates): their real handlers, helpers and computed vars bound to plain objects, the
services they call replaced by recorders. Reflex's own wiring (``get_state``, deltas) is
proven by the browser tests; here, what each handler decides."""

from __future__ import annotations

import uuid
from types import SimpleNamespace

from marketplace.core.marketplace import Filters
from marketplace.services.marketplace import LeadCard, MarketplacePage
from marketplace.states.auth import AuthState
from marketplace.states.marketplace import MarketplaceState
from marketplace.states.marketplace_location import MarketplaceLocationState as L
from marketplace.states.marketplace_map import EMPTY_POINTS
from marketplace.states.marketplace_map import MarketplaceMapState as M
from tests import aio


def lead_card(lead_id: str | None = None, unlocked: bool = False, images: tuple[str, ...] = ()) -> LeadCard:
    return LeadCard(id=lead_id or str(uuid.uuid4()), address="•••• Main St", unlocked=unlocked, city="Austin",
                    state="TX", zip_code="78701", lead_type="Probate", asking_price=200_000, zestimate=None,
                    arv=None, rehab_estimate=None, roi=12.0, beds=3, baths=2.0, square_footage=1500,
                    confidence=80, credit_cost=10, is_new=False, is_high_roi=False, images=list(images))


class Calls:
    """A service stand-in: records each call's arguments, answers ``answer(*args)``."""

    def __init__(self, answer):
        self.answer, self.calls = answer, []

    def __call__(self, *args):
        self.calls.append(args)
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer(*args)


def page_of(cards: list[LeadCard], total: int | None = None, pages: int = 1):
    """A ``query_page`` stand-in answering these cards for whatever filters it is given."""
    return lambda filters, _user: MarketplacePage(cards=cards, total=len(cards) if total is None else total,
                                                  page=min(filters.page, pages), pages=pages, filters=filters)


def _var(state, name: str) -> property:
    """A computed var of ``state`` as a plain property of the stand-in."""
    return property(state.computed_vars[name].fget)


class _Account:
    """The AuthState vars the computed vars read."""

    def _account(self, user: uuid.UUID | None, credits: int) -> None:
        self.user, self.user_id, self.credits = user, str(user) if user else "", credits
        self.subscribed, self.leads_remaining, self.resolved = False, 0, 0


class Market(_Account):
    _error_text, _error_toast, _access_denied = AuthState._error_text, AuthState._error_toast, AuthState._access_denied
    _apply, _query, _show_samples, _sync_url = MarketplaceState._apply, MarketplaceState._query, MarketplaceState._show_samples, MarketplaceState._sync_url
    _hand_over, _card_of, _any_card, _current_filters = MarketplaceState._hand_over, MarketplaceState._card_of, MarketplaceState._any_card, MarketplaceState._current_filters
    _tick_countdown, _take_confirmation, _ask_first = MarketplaceState._tick_countdown, MarketplaceState._take_confirmation, MarketplaceState._ask_first
    load, tick, toggle_filter, set_sort = MarketplaceState.load.fn, MarketplaceState.tick.fn, MarketplaceState.toggle_filter.fn, MarketplaceState.set_sort.fn
    set_page_size, go_to_page, set_view = MarketplaceState.set_page_size.fn, MarketplaceState.go_to_page.fn, MarketplaceState.set_view.fn
    remove_filter, clear_filters, retry = MarketplaceState.remove_filter.fn, MarketplaceState.clear_filters.fn, MarketplaceState.retry.fn
    open_gallery, close_gallery = MarketplaceState.open_gallery.fn, MarketplaceState.close_gallery.fn
    unlock, confirm_unlock, _unlock_now, _stop_asking = MarketplaceState.unlock.fn, MarketplaceState.confirm_unlock.fn, MarketplaceState._unlock_now, MarketplaceState._stop_asking
    chosen, sort, page = _var(MarketplaceState, "chosen"), _var(MarketplaceState, "sort"), _var(MarketplaceState, "page")
    has_price, active_filter_count = _var(MarketplaceState, "has_price"), _var(MarketplaceState, "active_filter_count")
    filter_chips, range_label = _var(MarketplaceState, "filter_chips"), _var(MarketplaceState, "range_label")
    page_size_value, gallery = _var(MarketplaceState, "page_size_value"), _var(MarketplaceState, "gallery")

    def __init__(self, user: uuid.UUID | None = None, credits: int = 0, query: str = ""):
        self._account(user, credits)
        self.router = SimpleNamespace(url=SimpleNamespace(query=query))
        self._filters, self.view = Filters(), "grid"
        self.total, self.pages, self.page_window = 0, 1, [1]
        self.loading, self.loaded, self.load_failed, self.showing_samples = True, False, False, False
        self.shown_query, self._page_cards, self._next_pictures = "", [], []
        self.unlocking_id, self.gallery_id, self._gallery_card, self.gallery_large = "", "", {}, 0
        self.countdown, self._confirm_lead_id, self.confirm_open, self.confirm_dont_ask = "", "", False, False
        self.map, self.location = MapTab(self), LocationTab(self)

    async def _current_user_id(self):
        self.resolved += 1
        return self.user

    async def _load_user(self, user_id):
        return True

    async def _substates(self) -> list:
        return [self.location, self.map]

    async def get_state(self, cls):
        return {MarketplaceState: self, M: self.map, L: self.location}[cls]


class MapTab(_Account):
    _follow, _close, _close_card, _open_card = M._follow, M._close, M._close_card, M._open_card
    _reload_map_card = M._reload_map_card
    open_map_lead, close_map_card = M.open_map_lead.fn, M.close_map_card.fn
    map_card = _var(M, "map_card")

    def __init__(self, market: Market):
        self.market = market
        self._account(market.user, market.credits)
        self.map_points, self.map_key, self.map_caption = EMPTY_POINTS, "", ""
        self.map_loaded, self.map_selected, self._map_card = False, "", {}

    async def get_state(self, cls):
        return await self.market.get_state(cls)


class LocationTab:
    _follow, _clear_messages, _add, _choose, _add_typed = L._follow, L._clear_messages, L._add, L._choose, L._add_typed
    _load_markets = L._load_markets
    add_state, add_city, add_zip, apply_price = L.add_state.fn, L.add_city.fn, L.add_zip.fn, L.apply_price.fn
    pick_market = L.pick_market.fn
    set_city_text, set_price_min_text = L.set_city_text.fn, L.set_price_min_text.fn

    def __init__(self, market: Market):
        self.market = market
        self.city_text = self.zip_text = self.price_min_text = self.price_max_text = ""
        self.location_error = self.price_error = ""
        self.city_options, self._options_for = [], None
        self.market_rows = []

    async def get_state(self, cls):
        return await self.market.get_state(cls)


def run(coro):
    return aio.run(coro)


def drain(gen) -> list:
    async def go():
        return [item async for item in gen]
    return aio.run(go())
