"""The marketplace's location and asking-price inputs, the substate
``MarketplaceLocationState`` of ``MarketplaceState``: states, cities and ZIP codes
(each repeatable), a min/max asking price and the city suggestions.

The values live in the same ``marketplace.rules.Filters`` as the other filters (and so
in the URL, saved searches and the map): a handler reads the filters shown
(``MarketplaceState._current_filters``), builds the new value and hands it to
``MarketplaceState._apply``, which hands what it shows back to ``_follow`` (``Shown``:
the price as applied, the city suggestions of the chosen states). An input is checked here with
``marketplace.rules_filter_values``: a bad value shows its message under the inputs and changes
nothing; a minimum above the maximum applies neither end. Event arguments are
checked for type first: a hand-made event with junk is ignored or refused the same way.
"""

from __future__ import annotations

import logging
from dataclasses import replace

import reflex as rx

from marketplace.platform import texts as messages
from marketplace.features.marketplace import rules_filter_values as values
from marketplace.features.marketplace import rules as marketplace_rules
from marketplace.features.records import display_city
from marketplace.platform.limits import MAX_PLACES
from marketplace.features.records import leads_text
from marketplace.platform.times import format_date
from marketplace.platform.offloop import run_blocking
from marketplace.features.marketplace.service import city_suggestions
from marketplace.features.records import market_summaries, market_summary
from marketplace.features.marketplace.state import MarketplaceState
from marketplace.features.marketplace.state_view import Shown

log = logging.getLogger("marketplace.marketplace")

def _text(value: object) -> str:
    """An input's value from an event or a form: text, else nothing."""
    if isinstance(value, list):
        value = value[0] if value else ""
    return value if isinstance(value, str) and len(value) <= 1000 else ""


class MarketplaceLocationState(MarketplaceState):
    # What the inputs show (the price as '$250,000' once applied) and their messages.
    city_text: str = ""
    zip_text: str = ""
    price_min_text: str = ""
    price_max_text: str = ""
    location_error: str = ""
    price_error: str = ""
    city_options: list[str] = []  # cities of the chosen states in the inventory (datalist)
    _options_for: tuple[str, ...] | None = None  # the states of city_options (None: load them)
    # The covered markets (records.service_markets): {id, name, holds, leads, newest} as display text.
    market_rows: list[dict[str, str]] = []

    # ----------------------------------------------------------------- helpers

    def _clear_messages(self) -> None:
        self.location_error = ""
        self.price_error = ""

    async def _follow(self, shown: Shown) -> bool:
        """The filters shown: the price inputs show the range applied; the city suggestions
        follow the states (none without a state; a failure leaves none). A page load starts
        with nothing typed and the suggestions loaded afresh."""
        filters = shown.filters
        if shown.page_load:
            self.city_text = self.zip_text = ""
            self._options_for = None
            await self._load_markets()
        if shown.clear_messages:
            self._clear_messages()
        self.price_min_text = values.price_text(filters.min_price)
        self.price_max_text = values.price_text(filters.max_price)
        if filters.states == self._options_for:
            return True
        self._options_for = filters.states
        try:
            self.city_options = await run_blocking(city_suggestions, filters.states) if filters.states else []
        except Exception:  # noqa: BLE001 - suggestions are a convenience: the filter works without them
            log.exception("city suggestions failed (%s)", filters.states)
            self.city_options = []
        return True  # the filters work without suggestions

    async def _load_markets(self) -> None:
        """The covered markets with what each holds; a failure leaves none (the inputs still work)."""
        try:
            found = await run_blocking(market_summaries)
        except Exception:  # noqa: BLE001 - the market list is a shortcut: the filter works without it
            log.exception("market summaries failed")
            found = []
        self.market_rows = [{"id": m.id, "name": m.name, "holds": m.holds, "leads": leads_text(m.leads),
                             "newest": "Newest record " + format_date(m.newest, "UTC") if m.newest else
                             "No dated record"} for m in found]

    async def _add(self, group: str, raw: str, invalid: str) -> marketplace_rules.Filters | None:
        """The filters with ``raw`` added to ``group``; None (and the message) when refused."""
        spec = marketplace_rules.FILTER_BY_FIELD[group]
        value = spec.clean(raw)
        if value is None:
            self.location_error = invalid
            return None
        current = (await self.get_state(MarketplaceState))._current_filters()
        chosen = getattr(current, group)
        if len(chosen) >= spec.limit and not any(v.lower() == value.lower() for v in chosen):
            self.location_error = messages.PLACES_LIMIT
            return None
        return current.with_value(group, value)

    async def _choose(self, filters: marketplace_rules.Filters) -> list:
        """Hand the marketplace the filters wanted: it shows them (and this state follows)."""
        return await (await self.get_state(MarketplaceState))._apply(filters, clear_messages=True)

    # ------------------------------------------------------------------ events

    @rx.event
    def set_city_text(self, value: str):
        self.city_text = _text(value)[:values.CITY_MAX_LENGTH + 20]

    @rx.event
    def set_zip_text(self, value: str):
        self.zip_text = _text(value)[:10]

    @rx.event
    def set_price_min_text(self, value: str):
        self.price_min_text = _text(value)[:20]

    @rx.event
    def set_price_max_text(self, value: str):
        self.price_max_text = _text(value)[:20]

    @rx.event
    async def pick_market(self, market_id: str):
        """A covered market: the location filters become its state and the cities its live leads are in
        (the ``MAX_PLACES`` with the most leads); read again here, so a hand-sent id only picks a market."""
        if not isinstance(market_id, str) or len(market_id) > 100:
            return None
        market = await run_blocking(market_summary, market_id)
        if market is None:
            return None
        if not market.cities:
            self.location_error = messages.MARKET_NO_LEADS.format(name=market.name)
            return None
        current = (await self.get_state(MarketplaceState))._current_filters()
        cities = tuple(display_city(c) for c in market.cities[:MAX_PLACES])
        return await self._choose(replace(current, states=(market.state,), cities=cities, zips=(), page=1))

    @rx.event
    async def add_state(self, value: str):
        """The State select: adds the chosen state (several may be chosen; chips remove them)."""
        filters = await self._add("states", _text(value), messages.STATE_INVALID)
        return None if filters is None else await self._choose(filters)

    async def _add_typed(self, group: str, key: str, form_data: dict | None, invalid: str):
        """A City or ZIP form's Add (or Enter): the typed value, added; the input empties."""
        raw = _text(form_data.get(key)) if isinstance(form_data, dict) else ""
        filters = await self._add(group, raw or getattr(self, f"{key}_text"), invalid)
        if filters is None:
            return None
        setattr(self, f"{key}_text", "")
        return await self._choose(filters)

    @rx.event
    async def add_city(self, form_data: dict | None = None):
        return await self._add_typed("cities", "city", form_data, messages.CITY_INVALID)

    @rx.event
    async def add_zip(self, form_data: dict | None = None):
        return await self._add_typed("zips", "zip", form_data, messages.ZIP_INVALID)

    @rx.event
    async def apply_price(self, form_data: dict | None = None):
        """Min/Max: whole dollars ('$250,000' is fine); either may be empty; min <= max."""
        data = form_data if isinstance(form_data, dict) else {}
        texts = [_text(data.get(key, default)).strip() for key, default in
                 (("min_price", self.price_min_text), ("max_price", self.price_max_text))]
        parsed = [values.parse_price(t) if t else None for t in texts]
        self.price_min_text, self.price_max_text = texts
        if any(t and p is None for t, p in zip(texts, parsed)):
            self.price_error = messages.PRICE_INVALID
            return None
        low, high = parsed
        if low is not None and high is not None and low > high:
            self.price_error = messages.PRICE_MIN_ABOVE_MAX
            return None
        current = (await self.get_state(MarketplaceState))._current_filters()
        if (low, high) == (current.min_price, current.max_price):
            self.price_min_text = values.price_text(low)  # '$250,000' again
            self.price_max_text = values.price_text(high)
            self.price_error = ""
            return None
        return await self._choose(current.with_price(low, high))
