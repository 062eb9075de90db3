"""/property/{id}: one unlocked lead in full (SPEC 2, 4, 8, 9), and the base of its section states.

One on_load, ``load``, opens the page: it resolves the session once (``AuthState._open_page``: the header's
data, as every page load), reads the page's whole view model with ``property.service.load`` (the
access checked once, on the server) and hands each section state (comps, analyzer, owner contact,
pipeline: ``@desk_section`` substates of this state) its part, then the bell's count. Until the access
passes, every lead var stays empty, so a visitor, a user who has not unlocked the lead, or an unknown or
malformed id never receives any of the lead's data over the websocket.

The lead id is read from the URL once, here, and kept in the backend var ``_lead_id``: every section's
edit handler acts on that lead (never on an id from the browser), and its service re-checks the unlock.

``status`` drives the page:

* ``loading``    - spinner (also while ``loaded_for`` is not the signed-in user);
* ``shown``      - the property;
* ``signed_out`` - 'Property Not Found', 'Please log in to view this property.'
                   and a Login button (the lead's existence is not revealed);
* ``denied``     - 'Property Not Found', 'You don't have access to this property'
                   (the lead exists but this user has not unlocked it);
* ``missing``    - 'Property Not Found', 'Property not found' (no such lead or a
                   malformed id);
* ``error``      - an unexpected failure: toast 'Failed to load property
                   details.' and the same text on the page with Try again.

Archived (``is_active`` false) leads stay readable by the users who unlocked
them. Every display string is computed here (``property_view``), so the page
only lays them out.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timezone
from urllib.parse import urlparse

import reflex as rx

from marketplace.platform.config import get_settings
from marketplace.features.marketplace import lead_token, single_point
from marketplace.features.marketplace import local_today
from marketplace.platform.times import today_in
from marketplace.features.property.rules import (
    DEFAULT_HINTS,
    GALLERY_SIZE,
    RecordSection,
    property_view,
    record_section,
)
from marketplace.platform import texts as messages, routes
from marketplace.platform.offloop import run_blocking
from marketplace.features.property import service as property_desk
from marketplace.platform.ui.state_auth import AuthState
from marketplace.platform.ui.state_browser import browser_origin
from marketplace.features.marketplace import NotificationsState

# The section states, each a substate of PropertyState with ``_desk_show(desk)`` (its part of the page's
# view model; may return events) and ``_desk_clear(status)`` (nothing of a lead; status as ``_clear``'s).
SECTIONS: list[type] = []


def desk_section(cls: type) -> type:
    """Register a section state: ``PropertyState.load`` hands it its part of every page open."""
    SECTIONS.append(cls)
    return cls


def lead_id_from_path(path: str) -> str:
    """The id segment of '/property/{id}' ('' for anything else)."""
    parts = [part for part in (path or "").split("/") if part]
    return parts[1] if len(parts) == 2 and parts[0] == "property" else ""


RECORD_VARS = ("shown", "signals", "closed", "owner", "flags", "motivation", "reasons", "confidence_reasons",
               "facts", "sales", "comps", "datasets")  # RecordSection's fields, each in PropertyState's 'pr_' var


class PropertyState(AuthState):
    status: str = "loading"
    # denied (the lead exists, this user has not unlocked it): the marketplace's map with its card open,
    # where the user can unlock it (routes.lead_on_map_url); '' otherwise
    unlock_link: str = ""
    _lead_id: str = ""  # the lead this tab shows (set by ``load`` once the access passed; '' otherwise)
    # The user the shown data belongs to: content renders only when it is the
    # signed-in user, so nothing from a previous session can show.
    loaded_for: str = ""

    details: dict[str, str] = {}
    images: list[str] = []
    broken_images: list[str] = []
    more_count: int = 0
    roi_high: bool = False
    profit_kind: str = "unknown"
    confidence: int = 0
    archived: bool = False
    record: list[dict[str, str]] = []
    # The small map: this unlocked lead at its own coordinates (marketplace.rules_map.single_point).
    map_point: dict[str, list] = {"ids": [], "coords": [], "open": []}
    # The 'Public record' section (property.rules.record_section): set only for a
    # public-record lead this user unlocked; ``hints`` is the basis line under each value of any lead.
    pr_shown: bool = False
    pr_signals: list[dict[str, str]] = []
    pr_closed: list[str] = []
    pr_owner: dict[str, str] = {}
    pr_flags: list[str] = []
    pr_motivation: str = ""
    pr_reasons: list[str] = []
    pr_confidence_reasons: list[str] = []
    pr_facts: list[dict[str, str]] = []
    pr_sales: list[dict[str, str]] = []  # the parcel's recorded sales
    pr_comps: list[dict[str, str]] = []  # its market's comparable recorded sales
    pr_datasets: list[dict[str, str]] = []  # every dataset that mentions the parcel
    hints: dict[str, str] = dict(DEFAULT_HINTS)

    def _set_record(self, section: RecordSection) -> None:
        for name in RECORD_VARS:
            setattr(self, f"pr_{name}", getattr(section, name))
        self.hints = section.hints

    def _clear(self, status: str) -> None:
        self.status = status
        self.unlock_link = ""
        self.loaded_for = self._lead_id = ""
        self.details = {}
        self.images = []
        self.broken_images = []
        self.more_count = 0
        self.roi_high = False
        self.profit_kind = "unknown"
        self.confidence = 0
        self.archived = False
        self.record = []
        self.map_point = {"ids": [], "coords": [], "open": []}
        self._set_record(RecordSection())

    async def _sections(self) -> list:
        return [await self.get_state(section) for section in SECTIONS]

    @rx.event
    async def load(self):
        """The page's one on_load: the session once, the page's view model in one read, every section."""
        self._clear("loading")
        sections = await self._sections()
        for section in sections:
            section._desk_clear("loading")
        user_id, events = await self._open_page()
        yield events or None  # the header and the spinner reach the browser
        bell = await self.get_state(NotificationsState)
        if user_id is None:
            self._clear("signed_out")
            for section in sections:
                section._desk_clear("idle")
            bell._clear()
            return
        self.status = "error"  # until the lead is read: a failure shows the error panel and the toast
        shown: list = []
        try:
            desk = await run_blocking(property_desk.load, user_id, lead_id_from_path(self.router.url.path))
            if desk.access != "shown":
                self.status = desk.access
                if desk.access == "denied":
                    self.unlock_link = routes.lead_on_map_url(lead_token(lead_id_from_path(self.router.url.path)))
                for section in sections:
                    section._desk_clear("unavailable")
            else:
                self._show_desk(desk, user_id)
                shown = [event for section in sections if (event := section._desk_show(desk)) is not None]
        except Exception as exc:  # noqa: BLE001 - the page's one failure toast ('Failed to load ...')
            self._clear("error")
            for section in sections:
                section._desk_clear("unavailable")
            shown = [self._error_toast(exc, (messages.PROPERTY_LOAD_FAILED, ""), f"property load for {user_id}")]
        await bell._page_opened(user_id)
        yield shown or None

    def _show_desk(self, desk: property_desk.DeskView, user_id: uuid.UUID) -> None:
        """The facts, gallery, map and public record of the shown lead."""
        site_host = urlparse(get_settings().base_url(browser_origin(self))).hostname
        now = datetime.now(timezone.utc)
        view = property_view(desk.lead, desk.unlock, own_host=site_host, zone_name=self._zone(),
                             today=local_today(now), viewer_today=today_in(self._zone(), now),
                             max_holders=get_settings().lead_max_holders)
        lead = desk.lead
        self._lead_id = str(lead.id)
        self.details = view.details
        self.images = view.images
        self.more_count = view.more_count
        self.roi_high = view.roi_high
        self.profit_kind = view.profit_kind
        self.confidence = view.confidence
        self.archived = view.archived
        self.record = view.record
        self.map_point = single_point(lead.id, lead.zip_code, lead.latitude, lead.longitude)
        if desk.record is not None:
            section = record_section(desk.record, self._zone())
            self._set_record(section)
            if section.source_line:  # the unlocked lead's line names its record and the retrieval day
                self.details = {**self.details, "provenance": section.source_line}
        # The headline's ARV basis and ROI label (marketplace.rules_headline), the same the card shows.
        self.hints = {**self.hints, **view.hints}
        self.loaded_for = str(user_id)
        self.status = "shown"

    @rx.event
    def image_failed(self, url: str):
        """An image that failed to load in the browser shows a placeholder instead."""
        if isinstance(url, str) and url in self.images and url not in self.broken_images:
            self.broken_images = [*self.broken_images, url]

    # ------------------------------------------------------------------ gallery layout

    @rx.var
    def thumbnails(self) -> list[str]:
        """Images 2-4 of the gallery (the primary is the first)."""
        return self.images[1:GALLERY_SIZE]

    @rx.var
    def desktop_columns(self) -> str:
        return "2fr 1fr" if len(self.images) > 1 else "1fr"

    @rx.var
    def desktop_rows(self) -> str:
        return f"repeat({max(1, len(self.thumbnails))}, minmax(0, 1fr))"

    @rx.var
    def phone_columns(self) -> str:
        return f"repeat({max(1, len(self.thumbnails))}, minmax(0, 1fr))"
