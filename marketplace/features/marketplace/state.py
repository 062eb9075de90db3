"""/marketplace: filters, sorts and pages over all active leads, and unlocking.

Only the current page of cards reaches the browser, formatted, from
``marketplace.service.query_page``, which masks every address the user has not
unlocked. The raw page is the backend var ``_page_cards``; ``cards`` adds each
card's action (``unlock.rules`` via ``marketplace.rules_cards``). One View Images
dialog: ``gallery``, built only while open.

The filters are one ``marketplace.rules.Filters`` value, the backend var
``_filters``; every control, chip and count is a computed var of it
(``chosen``, ``sort``, ``page``, ``filter_chips``...). A change builds the new
value once and hands it to ``_apply``: one ``query_page`` call, the answer in
state, the URL (``history.replaceState``, with ``view=map`` for the map) and
``Shown`` handed to the substates' ``_follow``: the location and price inputs
(``features/marketplace/state_location.py``, which call ``_apply`` with the filters
they want) and the map (``features/marketplace/state_map.py``). This state never
imports them.

Every handler re-validates the session (``_current_user_id``); database work
runs off the event loop (``run_blocking``); event arguments are checked for
type: a hand-made event with junk is ignored.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import replace
from datetime import datetime, timezone

import reflex as rx

from marketplace.features.marketplace import rules_map as lead_map
from marketplace.features.marketplace import rules as marketplace_rules
from marketplace.features.marketplace import rules_samples as samples
from marketplace.platform import paging
from marketplace.features.marketplace.rules_cards import CardView, GalleryView, card_data, gallery_view, with_action
from marketplace.platform.times import today_in
from marketplace.platform.texts import (
    ERROR_TITLE,
    LEADS_LOAD_FAILED,
    SAMPLE_NOT_UNLOCKABLE,
    UNLOCK_AUTH_REQUIRED,
    UNLOCK_FAILED,
    UNLOCK_SUCCESS_TITLE,
)
from marketplace.platform.offloop import run_blocking
from marketplace.features.marketplace.service import query_page
from marketplace.features.unlock import UnlockError, unlock_lead
from marketplace.platform.ui.state_auth import AuthState, error_toast, success_toast
from marketplace.features.marketplace.state_view import PRICE, Shown, filter_chips, page_script, unlock_message
from marketplace.platform.ui.state_signed_in import signed_in
from marketplace.features.unlock import UnlockConfirmVars

log = logging.getLogger("marketplace.marketplace")


class MarketplaceState(UnlockConfirmVars, AuthState):
    # ----------------------------------------------------------------- filters
    _filters: marketplace_rules.Filters = marketplace_rules.Filters()  # the one value: URL, grid, map, chips, counts
    view: str = lead_map.DEFAULT_VIEW  # 'grid' or 'map' (``view=map`` in the URL)

    # ----------------------------------------------------------------- results
    _page_cards: list[dict] = []  # card_data() dicts of the current page
    _next_pictures: list[str] = []  # fetched by the browser while idle (PREFETCH_PICTURES)
    total: int = 0
    pages: int = 1
    # Page numbers of the pagination bar; 0 stands for an ellipsis.
    page_window: list[int] = [1]
    loading: bool = True  # until the first load: 'Loading fresh leads...'
    loaded: bool = False
    load_failed: bool = False
    showing_samples: bool = False
    # The filter query the grid currently shows (data-query on the grid).
    shown_query: str = ""

    unlocking_id: str = ""  # the card whose unlock is in flight ('Unlocking...')
    gallery_id: str = ""  # the card whose View Images dialog is open (one dialog for the page)
    _gallery_card: dict = {}  # that card (of the grid's page or the map's open card)
    gallery_large: int = 0  # the picture the dialog shows large (a clicked thumbnail)
    countdown: str = ""

    # ------------------------------------------------------------ computed vars

    @rx.var
    def chosen(self) -> dict[str, list[str]]:
        """Each filter's chosen values by ``Filters`` field (what its checkboxes and badge show)."""
        return {spec.field: list(getattr(self._filters, spec.field)) for spec in marketplace_rules.FILTERS}

    @rx.var
    def sort(self) -> str:
        return self._filters.sort

    @rx.var
    def page(self) -> int:
        return self._filters.page

    @rx.var
    def page_size_value(self) -> str:
        return str(self._filters.page_size)

    @rx.var
    def has_price(self) -> bool:
        return self._filters.has_price

    @rx.var
    def active_filter_count(self) -> int:
        return self._filters.active_count

    @rx.var
    def filter_chips(self) -> list[dict[str, str]]:
        return filter_chips(self._filters)

    @rx.var
    def cards(self) -> list[CardView]:
        # unlock.rules decides each card's button (the service charges by the same function).
        signed_in = self.user_id != ""
        return [with_action(card, signed_in, self.credits, self.subscribed, self.leads_remaining)
                for card in self._page_cards]

    @rx.var
    def gallery(self) -> GalleryView:
        """The View Images dialog's content: built only while it is open."""
        if not self.gallery_id:
            return GalleryView()
        return gallery_view(self._gallery_card, self.gallery_large)

    @rx.var
    def result_count_label(self) -> str:
        if not self.loaded:  # no "0 leads" before the first page arrives
            return ""
        if self.showing_samples:
            return f"{len(self._page_cards)} sample leads"
        return f"{self.total:,} lead{'' if self.total == 1 else 's'}"

    @rx.var
    def credits_label(self) -> str:
        return f"{self.credits:,}"

    @rx.var
    def low_credits(self) -> bool:
        return self.user_id != "" and self.credits < marketplace_rules.LOW_CREDIT_THRESHOLD

    @rx.var
    def range_label(self) -> str:
        """'Showing 21-40 of 5,000'."""
        if self.total == 0 or self.showing_samples:
            return ""
        size = self._filters.page_size
        first = (self._filters.page - 1) * size + 1
        last = min(self.total, self._filters.page * size)
        return f"Showing {first:,}-{last:,} of {self.total:,}"

    # ----------------------------------------------------------------- helpers

    def _current_filters(self) -> marketplace_rules.Filters:
        """The filters shown (the substates read them here, never ``_filters``)."""
        return self._filters

    def _viewer_today(self):
        """The viewer's calendar day (their browser's zone): what a card's 'Vacant since' counts to."""
        return today_in(self._zone(), datetime.now(timezone.utc))

    def _card_of(self, lead_id: str) -> dict | None:
        return next((c for c in self._page_cards if c["id"] == lead_id), None)

    async def _any_card(self, lead_id: str) -> dict | None:
        """A card of the grid's page, or the map's open card (unlock and View Images look here)."""
        card = self._card_of(lead_id)
        for sub in await self._substates() if card is None and self.view == "map" else ():
            card = card or (sub._open_card(lead_id) if hasattr(sub, "_open_card") else None)
        return card

    async def _query(self, user_id: uuid.UUID | None) -> bool:
        """Load the page for ``_filters`` (one service call); False (and samples) on failure."""
        filters = self._filters
        try:
            result = await run_blocking(query_page, filters, user_id)
        except Exception:  # noqa: BLE001 - shown as the SPEC's load failure
            log.exception("marketplace query failed (%s)", filters.to_query())
            self._show_samples(failed=True)
            return False
        self._filters = result.filters  # the page may have been clamped
        self.total, self.pages = result.total, result.pages
        self.page_window = [n or 0 for n in paging.pagination_window(result.page, result.pages)]
        self.load_failed = False
        if result.total == 0 and filters.active_count == 0:
            # No active leads at all: show what a lead looks like.
            self._show_samples(failed=False)
        else:
            self.showing_samples = False
            today = self._viewer_today()
            self._page_cards = [card_data(card, today=today) for card in result.cards]
            self._next_pictures = result.next_pictures
        self.shown_query = result.filters.to_query()
        return True

    def _show_samples(self, failed: bool) -> None:
        self.load_failed, self.showing_samples = failed, True
        self.total, self.pages, self.page_window = 0, 1, [1]
        self._filters = replace(self._filters, page=1)
        self._page_cards = [card_data(lead, is_sample=True) for lead in samples.sample_leads()]
        self._next_pictures = []
        self.shown_query = self._filters.to_query()

    def _sync_url(self, scroll: bool = False):
        """The address bar, the next page's pictures and the scroll (``page_script``)."""
        next_pictures = self._next_pictures if self.view != "map" else []
        return rx.call_script(page_script(lead_map.with_view(self.shown_query, self.view), next_pictures, scroll))

    async def _substates(self) -> list:
        """The substates that follow the filters shown (the map, the location inputs): each
        has ``_follow(Shown) -> bool`` and reads nothing else of this state."""
        return [await self.get_state(sub) for sub in sorted(type(self).get_substates(), key=lambda c: c.get_name())
                if hasattr(sub, "_follow")]

    async def _hand_over(self, user_id: uuid.UUID | None, **how) -> bool:
        shown = Shown(self._filters, self.view, user_id, **how)
        return all([await sub._follow(shown) for sub in await self._substates()])

    async def _apply(self, filters: marketplace_rules.Filters, scroll: bool = False, clear_messages: bool = False,
                   page_load: bool = False) -> list:
        """Show ``filters``: the one query, the substates, the URL; the events to send back. No
        "loading" delta (the query takes milliseconds; a round trip more would double the wait):
        ``loading`` covers the first load only ('Loading fresh leads...')."""
        self._filters = filters
        user_id = await self._current_user_id()
        ok = await self._query(user_id)
        ok = await self._hand_over(user_id, clear_messages=clear_messages, page_load=page_load) and ok
        self.loading, self.loaded = False, True
        events = [self._sync_url(scroll=scroll)]
        if not ok:
            events.append(error_toast(*LEADS_LOAD_FAILED))
        return events

    def _tick_countdown(self) -> None:
        self.countdown = marketplace_rules.refresh_countdown(datetime.now(timezone.utc))

    # ------------------------------------------------------------------ events

    @rx.event
    async def load(self):
        """on_load: filters from the URL query string, then the first page."""
        filters = marketplace_rules.Filters.from_query(self.router.url.query)
        self.view = lead_map.view_from_query(self.router.url.query)
        if self.view == "map":
            filters = replace(filters, page=1)  # the map shows every matching lead
        self.unlocking_id, self.gallery_id, self._gallery_card = "", "", {}
        self._take_confirmation()  # a reload does not bring back a confirmation left open
        self._tick_countdown()
        if self.loaded:  # back on the page in the same session: no stale grid while loading
            self.loaded, self.loading = False, True
            yield
        for event in await self._apply(filters, clear_messages=True, page_load=True):
            yield event

    @rx.event
    async def tick(self, _value: str = ""):
        """Every 60 seconds (hidden rx.moment): the refresh countdown."""
        await self._current_user_id()
        self._tick_countdown()

    @rx.event
    async def toggle_filter(self, group: str, value: str):
        """A checkbox of a filter with options (``FilterSpec.options``)."""
        spec = marketplace_rules.FILTER_BY_FIELD.get(group) if isinstance(group, str) else None
        if spec is None or spec.options is None or not isinstance(value, str):
            return None
        if value not in {option for option, _ in spec.options}:
            return None
        return await self._apply(self._filters.toggled(group, value))

    @rx.event
    async def set_sort(self, value: str):
        if not isinstance(value, str) or value not in marketplace_rules.SORT_VALUES or value == self._filters.sort:
            return None
        return await self._apply(replace(self._filters, sort=value, page=1))

    @rx.event
    async def set_page_size(self, value: str | list[str]):
        """SPEC 4: a page size change goes back to page 1."""
        if isinstance(value, list):
            value = value[0] if value else ""
        size = paging.parse_whole_number(value)
        if size is None or size not in marketplace_rules.PAGE_SIZES or size == self._filters.page_size:
            return None
        return await self._apply(replace(self._filters, page_size=size, page=1))

    @rx.event
    async def go_to_page(self, number: int):
        wanted = paging.parse_whole_number(number)
        if wanted is None:
            return None  # junk (a dict, 'abc', Infinity, NaN, 1e999): ignored
        number = max(1, min(wanted, self.pages))
        if number == self._filters.page:
            return None
        return await self._apply(replace(self._filters, page=number), scroll=True)

    @rx.event
    async def set_view(self, view: str | list[str]):
        """The Grid | Map switch (the map shows every matching lead: page 1)."""
        if isinstance(view, list):
            view = view[0] if view else ""
        if not isinstance(view, str) or view not in lead_map.VIEWS or view == self.view:
            return None
        self.view = view
        return await self._apply(replace(self._filters, page=1))

    @rx.event
    async def remove_filter(self, group: str, value: str = ""):
        """A chip's remove button: that value (or the price range) goes; page 1 again."""
        if not isinstance(group, str) or not isinstance(value, str):
            return None
        if group == PRICE:
            if not self._filters.has_price:
                return None
            return await self._apply(self._filters.with_price(None, None), clear_messages=True)
        if group not in marketplace_rules.FILTER_BY_FIELD or value not in getattr(self._filters, group):
            return None
        return await self._apply(self._filters.toggled(group, value), clear_messages=True)

    @rx.event
    async def clear_filters(self):
        return await self._apply(self._filters.cleared(), clear_messages=True)

    @rx.event
    async def retry(self):
        return await self._apply(self._filters)

    @rx.event
    async def open_gallery(self, lead_id: str):
        """A card's View Images: the page's one dialog shows that card's pictures."""
        card = await self._any_card(lead_id) if isinstance(lead_id, str) else None
        if card and card["images"]:
            self.gallery_id, self._gallery_card, self.gallery_large = lead_id, card, 0

    @rx.event
    def show_large(self, index: int):
        """A thumbnail's click: that picture large (an index out of range shows the first)."""
        self.gallery_large = index if isinstance(index, int) and not isinstance(index, bool) else 0

    @rx.event
    def close_gallery(self, _open: bool = False):
        self.gallery_id, self._gallery_card, self.gallery_large = "", {}, 0

    @rx.event
    @signed_in(UNLOCK_FAILED, signed_out=UNLOCK_AUTH_REQUIRED)
    async def unlock(self, user_id: uuid.UUID, lead_id: str):
        """Unlock one lead; per-card 'Unlocking...' while it runs. When the unlock quote says
        so (the user's threshold), the confirmation dialog opens instead (``UnlockConfirmVars``:
        a UX guard, not a security boundary; the unlock itself is checked as always)."""
        if self.unlocking_id or not isinstance(lead_id, str) or not 0 < len(lead_id) <= 64:
            return
        card = await self._any_card(lead_id)
        if card is not None and card["unlocked"]:
            return  # a repeated click that arrived after the unlock finished
        if card is not None and await self._ask_first(user_id, card):
            return
        async for update in self._unlock_now(user_id, lead_id):
            yield update

    @rx.event
    @signed_in(UNLOCK_FAILED, signed_out=UNLOCK_AUTH_REQUIRED)
    async def unlock_exclusive(self, user_id: uuid.UUID, lead_id: str):
        """'Unlock exclusively for N credits': always through the confirmation dialog, which names
        the spots and their price (``UnlockConfirmVars._ask_exclusive``). A card that offers no
        exclusive unlock any more (the page changed meanwhile) is shown again."""
        if self.unlocking_id or not isinstance(lead_id, str) or not 0 < len(lead_id) <= 64:
            return
        card = await self._any_card(lead_id)
        if card is None or card["unlocked"]:
            return
        if not self._ask_exclusive(card):
            await self._query(user_id)

    @rx.event
    @signed_in(UNLOCK_FAILED, signed_out=UNLOCK_AUTH_REQUIRED)
    async def confirm_unlock(self, user_id: uuid.UUID):
        """The dialog's 'Unlock for N credits' (or 'Unlock exclusively for N credits'): the lead the
        dialog held (server-side), the ordinary (or exclusive) unlock path. Sent without an open
        dialog it does nothing."""
        lead_id, dont_ask, spots = self._take_confirmation()
        if not lead_id or self.unlocking_id:
            return
        if dont_ask:
            await self._stop_asking(user_id)
        async for update in self._unlock_now(user_id, lead_id, spots):
            yield update

    async def _unlock_now(self, user_id: uuid.UUID, lead_id: str, exclusive_spots: int = 0):
        """The unlock itself (``exclusive_spots``: an exclusive unlock of that many spots, as shown);
        a refusal or failure propagates to ``signed_in``'s toast."""
        self.unlocking_id = lead_id
        yield
        try:
            try:
                if samples.is_sample_id(lead_id):
                    raise UnlockError(ERROR_TITLE, SAMPLE_NOT_UNLOCKABLE)
                if exclusive_spots:
                    result = await run_blocking(unlock_lead, user_id, lead_id, exclusive=True,
                                                expected_spots=exclusive_spots)
                else:
                    result = await run_blocking(unlock_lead, user_id, lead_id)
            except UnlockError:
                # The server knows better (already unlocked, archived, credits
                # spent elsewhere): show its balance and cards again.
                await self._load_user(user_id)
                await self._query(user_id)
                await self._hand_over(user_id, unlocked=True)  # the map's points and open card again
                raise
            # The unlock is committed: say so at once. Nothing changed since the
            # 'Unlocking...' delta, so this message is the toast alone (a few hundred
            # bytes), not queued behind the page of cards below (one card changes,
            # but a list var goes out whole: 80 KB for 100 cards).
            yield success_toast(UNLOCK_SUCCESS_TITLE, unlock_message(result))
            self.credits = result.remaining_credits
            if result.purchase_type == "subscription":
                self.leads_remaining = result.subscription_leads_remaining or 0
            # Reload the page: this card now carries its full address, and with
            # the "unlocked" tag the page itself may change.
            await self._query(user_id)
            await self._hand_over(user_id, unlocked=True)  # the marker moves to the lead's own coordinates
        finally:
            self.unlocking_id = ""
