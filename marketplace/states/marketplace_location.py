"""The marketplace's location and asking-price filters (issue 24 #8), as a mixin of
``MarketplaceState``: states, cities and ZIP codes (each repeatable), a min/max asking
price, the chips of every active filter and the city suggestions.

The values live in the same ``core.marketplace.Filters`` as the other groups (and so
in the URL, saved searches and the map). An input is checked here with
``core.filter_values``: a bad value shows its message under the inputs and changes
nothing; a minimum above the maximum applies neither end. Event arguments are
checked for type first: a hand-made event with junk is ignored or refused the same way.
"""

from __future__ import annotations

import logging
from dataclasses import replace

import reflex as rx

from marketplace import messages
from marketplace.core import filter_values as values
from marketplace.core import marketplace as rules
from marketplace.core.address_display import display_city
from marketplace.core.holders import held_chip
from marketplace.core.limits import MAX_PLACES
from marketplace.core.market_coverage import leads_text
from marketplace.core.times import format_date
from marketplace.offloop import run_blocking
from marketplace.services.marketplace import city_suggestions
from marketplace.services.record_markets import market_summaries, market_summary

log = logging.getLogger("marketplace.marketplace")

PRICE = "price"  # the chip of the price range
_CHIP_LABELS = {  # group -> how its chip reads
    "lead_types": lambda v: v,
    "roi_ranges": lambda v: "ROI " + dict(rules.ROI_BANDS).get(v, v),
    "sizes": lambda v: dict(rules.SIZE_BANDS).get(v, v),
    "tags": lambda v: dict(rules.TAGS).get(v, v),
    "states": lambda v: values.STATE_NAMES.get(v, v),
    "cities": lambda v: v,
    "zips": lambda v: f"ZIP {v}",
    "held": held_chip,  # 'Unlocked by nobody yet'
}


def _text(value: object) -> str:
    """An input's value from an event or a form: text, else nothing."""
    if isinstance(value, list):
        value = value[0] if value else ""
    return value if isinstance(value, str) and len(value) <= 1000 else ""


class MarketplaceLocationVars(rx.State, mixin=True):
    states: list[str] = []
    cities: list[str] = []
    zips: list[str] = []
    _min_price: int | None = None
    _max_price: int | None = None

    # What the inputs show (the price as '$250,000' once applied) and their messages.
    city_text: str = ""
    zip_text: str = ""
    price_min_text: str = ""
    price_max_text: str = ""
    location_error: str = ""
    price_error: str = ""
    city_options: list[str] = []  # cities of the chosen states in the inventory (datalist)
    # The covered markets (services.record_markets): {id, name, holds, leads, newest} as display text.
    market_rows: list[dict[str, str]] = []

    @rx.var
    def has_price(self) -> bool:
        return self._min_price is not None or self._max_price is not None

    @rx.var
    def filter_chips(self) -> list[dict[str, str]]:
        """One chip per active filter value, in the bar's order: {group, value, label}."""
        chips = [{"group": group.field, "value": v, "label": _CHIP_LABELS[group.field](v)}
                 for group in rules.GROUPS for v in getattr(self, group.field)]
        label = values.price_range_label(self._min_price, self._max_price)
        if label:
            chips.append({"group": PRICE, "value": "", "label": "Price " + label[0].lower() + label[1:]})
        for chip in chips:
            chip["id"] = f"chip-{chip['group']}-{chip['value'].replace(' ', '-')}".rstrip("-")
        return chips

    # ----------------------------------------------------------------- helpers

    def _place_fields(self) -> dict:
        return {"states": tuple(self.states), "cities": tuple(self.cities), "zips": tuple(self.zips),
                "min_price": self._min_price, "max_price": self._max_price}

    def _set_place_fields(self, filters: rules.Filters) -> None:
        self.states = list(filters.states)
        self.cities = list(filters.cities)
        self.zips = list(filters.zips)
        self._min_price, self._max_price = filters.min_price, filters.max_price
        self.price_min_text = values.price_text(filters.min_price)
        self.price_max_text = values.price_text(filters.max_price)

    def _clear_messages(self) -> None:
        self.location_error = ""
        self.price_error = ""

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

    async def _load_city_options(self) -> None:
        """The city suggestions for the chosen states (none without a state), and the covered markets;
        a failure leaves none."""
        await self._load_markets()
        if not self.states:
            self.city_options = []
            return
        try:
            self.city_options = await run_blocking(city_suggestions, tuple(self.states))
        except Exception:  # noqa: BLE001 - suggestions are a convenience: the filter works without them
            log.exception("city suggestions failed (%s)", self.states)
            self.city_options = []

    async def _apply(self, filters: rules.Filters) -> list:
        """Show ``filters`` (page 1); the city suggestions follow the states."""
        self._clear_messages()
        states_before = list(self.states)
        self._set_filters(filters)
        if self.states != states_before:
            await self._load_city_options()
        return await self._refresh()

    def _add(self, group: str, raw: str, invalid: str) -> rules.Filters | None:
        """The filters with ``raw`` added to ``group``; None (and the message) when refused."""
        spec = rules.GROUP_BY_FIELD[group]
        value = spec.clean(raw)
        if value is None:
            self.location_error = invalid
            return None
        current = getattr(self, group)
        if len(current) >= spec.limit and not any(v.lower() == value.lower() for v in current):
            self.location_error = messages.PLACES_LIMIT
            return None
        return self._filters().with_value(group, value)

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
        cities = tuple(display_city(c) for c in market.cities[:MAX_PLACES])
        filters = replace(self._filters(), states=(market.state,), cities=cities, zips=(), page=1)
        return await self._apply(filters)

    @rx.event
    async def add_state(self, value: str):
        """The State select: adds the chosen state (several may be chosen; chips remove them)."""
        filters = self._add("states", _text(value), messages.STATE_INVALID)
        return None if filters is None else await self._apply(filters)

    async def _add_typed(self, group: str, key: str, form_data: dict | None, invalid: str):
        """A City or ZIP form's Add (or Enter): the typed value, added; the input empties."""
        raw = _text(form_data.get(key)) if isinstance(form_data, dict) else ""
        filters = self._add(group, raw or getattr(self, f"{key}_text"), invalid)
        if filters is None:
            return None
        setattr(self, f"{key}_text", "")
        return await self._apply(filters)

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
        if (low, high) == (self._min_price, self._max_price):
            self._set_place_fields(self._filters())  # '$250,000' again
            self.price_error = ""
            return None
        return await self._apply(self._filters().with_price(low, high))

    @rx.event
    async def remove_filter(self, group: str, value: str = ""):
        """A chip's remove button: that value (or the price range) goes; page 1 again."""
        if not isinstance(group, str) or not isinstance(value, str):
            return None
        if group == PRICE:
            return await self._apply(self._filters().with_price(None, None)) if self.has_price else None
        if group not in rules.GROUP_BY_FIELD or value not in getattr(self, group):
            return None
        return await self._apply(self._filters().toggled(group, value))
