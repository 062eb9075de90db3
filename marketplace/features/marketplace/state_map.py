"""The marketplace's Map view, the substate ``MarketplaceMapState`` of
``MarketplaceState`` (the same page, filters, URL and unlock path as the grid).

``MarketplaceState.view`` is 'grid' or 'map' and travels in the URL with the
filters (``view=map``; the page and page size do not apply to the map). Its
one input is explicit: ``MarketplaceState`` hands ``_follow`` what it shows
(``Shown``: the filters, the view, the user; after an unlock, ``unlocked``), and
its unlock asks ``_open_card`` for the open card. In the map view ``map_points``
holds every lead matching the filters as the compact
payload of ``marketplace.rules_map`` (built by ``marketplace.service_map.map_points``): a lead
the user has not unlocked is at its ZIP code's centre and nowhere finer. A
marker's click sends its token to ``open_map_lead``, which loads that lead's
grid card (``marketplace.service_map.map_card``) into ``_map_card``; the page shows it
with the grid's card component and action (Login, Unlock for N credits with
the confirmation dialog, Insufficient Credits - Buy More, View Details).
After an unlock the points and the card are loaded again: the marker moves
to the lead's own coordinates.
"""

from __future__ import annotations

import dataclasses
import logging
import uuid

import reflex as rx

from marketplace.platform import routes
from marketplace.features.marketplace import rules_map as lead_map
from marketplace.features.marketplace import rules as marketplace_rules
from marketplace.features.marketplace.rules_cards import CardView, card_data, with_action
from marketplace.platform.texts import LEADS_LOAD_FAILED, MAP_LEAD_GONE
from marketplace.platform.offloop import run_blocking
from marketplace.features.marketplace import service_map as map_service
from marketplace.platform.ui.state_auth import error_toast
from marketplace.features.marketplace.state import MarketplaceState
from marketplace.features.marketplace.state_view import Shown

log = logging.getLogger("marketplace.map")

EMPTY_POINTS = {"ids": [], "coords": [], "open": []}
# Once the card is rendered, bring it on screen below the sticky header and filter bar:
# its top under the bar when it fits, and in any case its action (Login / Unlock) visible.
# Nothing moves when it is already in view (a keyboard-opened card keeps the scroll).
SHOW_PANEL = (
    "setTimeout(() => { const el = document.getElementById('map-card-panel'); if (!el) return;"
    " const bar = document.getElementById('filter-bar'); const head = document.querySelector('.lv-header');"
    " const covered = Math.max(bar ? bar.getBoundingClientRect().bottom : 0,"
    " head ? head.getBoundingClientRect().bottom : 0) + 8;"
    " const box = el.getBoundingClientRect(); const action = el.querySelector('.lv-lc-btn');"
    " let dy = box.top < covered ? box.top - covered : 0;"
    " if (box.top - dy + box.height > window.innerHeight - 8) {"
    " dy = Math.max(dy, Math.min(box.bottom - window.innerHeight + 8, box.top - covered)); }"
    " if (action) { const a = action.getBoundingClientRect();"
    " if (a.bottom - dy > window.innerHeight - 8) dy = a.bottom - window.innerHeight + 8;"
    " if (a.top - dy < covered) dy = a.top - covered; }"
    " if (dy) window.scrollBy({top: dy, behavior: 'instant'}); }, 80);"
)


class MarketplaceMapState(MarketplaceState):
    map_points: dict[str, list] = EMPTY_POINTS
    map_key: str = ""  # the filter query of map_points: the map fits its leads when it changes
    map_caption: str = ""  # 'Showing 1,234 leads on the map.' (+ how many are not on it)
    map_loaded: bool = False
    map_selected: str = ""  # the token of the marker whose card is open
    _map_card: dict = {}  # card_data() of that lead

    @rx.var
    def map_card(self) -> CardView:
        if not self._map_card:
            return CardView()
        return with_action(self._map_card, self.user_id != "", self.credits, self.subscribed, self.leads_remaining)

    def _open_card(self, lead_id: str) -> dict | None:
        """The open card when it is ``lead_id``'s (the unlock and View Images look here)."""
        return self._map_card if self._map_card and self._map_card["id"] == lead_id else None

    def _close(self) -> None:
        """Nothing on the map (a page load, the grid view)."""
        self.map_points = EMPTY_POINTS
        self.map_key = ""
        self.map_caption = ""
        self.map_loaded = False
        self._close_card()

    async def _follow(self, shown: Shown) -> bool:
        """The points for the filters shown, in the map view (one service call); False on failure. A page
        load of ``/marketplace?view=map&lead=<token>`` opens that lead's card (``routes.lead_on_map_url``)."""
        if shown.page_load or shown.view != "map":
            self._close()
        if shown.view != "map":
            return True
        filters, user_id = shown.filters, shown.user_id
        try:
            points = await run_blocking(map_service.map_points, filters, user_id)
        except Exception:  # noqa: BLE001 - shown as the marketplace's load failure
            log.exception("map query failed (%s)", filters.to_query())
            self._close()
            return False
        self.map_points = points.payload
        # Refit only when the set of leads changes (not for a sort or an unlock).
        self.map_key = dataclasses.replace(filters, sort=marketplace_rules.DEFAULT_SORT, page=1,
                                           page_size=marketplace_rules.DEFAULT_PAGE_SIZE).to_query()
        self.map_caption = lead_map.map_caption(len(points.ids), points.matched, points.unplaced, points.capped)
        self.map_loaded = True
        if self.map_selected and self.map_selected not in points.ids:
            self._close_card()
        elif self.map_selected and shown.unlocked:
            await self._reload_map_card(user_id)
        if shown.page_load:  # after the points: the card stands even for a lead the map cannot place
            await self._open_from_address(user_id)
        return True

    async def _open_from_address(self, user_id: uuid.UUID | None) -> None:
        """The card of the lead the address names (a locked property page's 'Unlock it' link); nothing for a
        malformed token or a lead that is not listed (any viewer may ask: the card is the public one)."""
        token = self.router.url.query_parameters.get(routes.LEAD_PARAM, "")
        lead_id = lead_map.lead_id_from_token(token)
        if lead_id is None:
            return
        try:
            card = await run_blocking(map_service.map_card, lead_id, user_id)
        except Exception:  # noqa: BLE001 - the map still loads; the marker's click can open it
            log.exception("map card %s from the address failed", lead_id)
            return
        if card is not None:
            self.map_selected = token
            self._map_card = card_data(card, today=self._viewer_today())

    async def _reload_map_card(self, user_id: uuid.UUID | None) -> None:
        lead_id = lead_map.lead_id_from_token(self.map_selected)
        try:
            card = await run_blocking(map_service.map_card, lead_id, user_id) if lead_id else None
        except Exception:  # noqa: BLE001 - the card closes; the unlock itself is done
            log.exception("map card %s failed", lead_id)
            card = None
        self._map_card = card_data(card, today=self._viewer_today()) if card else {}
        if not card:
            self.map_selected = ""

    @rx.event
    async def open_map_lead(self, token: str):
        """A marker's click: that lead's card over the map."""
        lead_id = lead_map.lead_id_from_token(token)
        market = await self.get_state(MarketplaceState)
        if lead_id is None or market.view != "map":
            return None
        user_id = await market._current_user_id()
        try:
            card = await run_blocking(map_service.map_card, lead_id, user_id)
        except Exception:  # noqa: BLE001 - a marker click works signed out too (not a signed_in handler):
            # the marketplace's load failure
            log.exception("map card %s failed", lead_id)
            return error_toast(*LEADS_LOAD_FAILED)
        if card is None:
            self._close_card()
            return error_toast(*MAP_LEAD_GONE)
        self.map_selected = token
        self._map_card = card_data(card, today=self._viewer_today())
        return rx.call_script(SHOW_PANEL)

    @rx.event
    def close_map_card(self):
        self._close_card()

    def _close_card(self) -> None:
        self.map_selected = ""
        self._map_card = {}
