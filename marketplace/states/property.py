"""/property/{id}: one unlocked lead in full (SPEC 2, 4, 8, 9).

Access is decided on the server in ``load`` (the page's on_load): the session
is re-validated and the ``user_leads`` row looked up through
``services.unlocks.unlocked_lead``. Until both pass, every lead var stays
empty, so a visitor, a user who has not unlocked the lead, or an unknown or
malformed id never receives any of the lead's data over the websocket.

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

from marketplace.config import get_settings
from marketplace.core.lead_map import single_point
from marketplace.core.sale_dates import local_today
from marketplace.core.property_view import DEFAULT_HINTS, GALLERY_SIZE, RecordSection, property_view, record_section
from marketplace import messages
from marketplace.offloop import run_blocking
from marketplace.services import record_views, unlocks
from marketplace.states.auth import AuthState
from marketplace.states.browser import browser_origin
from marketplace.states.signed_in import signed_in


def lead_id_from_path(path: str) -> str:
    """The id segment of '/property/{id}' ('' for anything else)."""
    parts = [part for part in (path or "").split("/") if part]
    return parts[1] if len(parts) == 2 and parts[0] == "property" else ""



def _signed_out(state) -> None:
    """No session (``signed_in``'s answer): the page's 'Please log in' panel, nothing else."""
    state._clear("signed_out")

RECORD_VARS = ("shown", "signals", "closed", "owner", "flags", "motivation", "reasons", "confidence_reasons",
               "facts", "datasets")  # RecordSection's fields, each in PropertyState's 'pr_' var


class PropertyState(AuthState):
    status: str = "loading"
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
    # The small map: this unlocked lead at its own coordinates (core.lead_map.single_point).
    map_point: dict[str, list] = {"ids": [], "coords": [], "open": []}
    # The 'Public record' section (issue 23; core.property_view.record_section): set only for a
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
    pr_datasets: list[dict[str, str]] = []  # every dataset that mentions the parcel
    hints: dict[str, str] = dict(DEFAULT_HINTS)

    def _set_record(self, section: RecordSection) -> None:
        for name in RECORD_VARS:
            setattr(self, f"pr_{name}", getattr(section, name))
        self.hints = section.hints

    def _clear(self, status: str) -> None:
        self.status = status
        self.loaded_for = ""
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

    @rx.event
    @signed_in((messages.PROPERTY_LOAD_FAILED, ""), signed_out=_signed_out)
    async def load(self, user_id: uuid.UUID):
        """on_load: server-side session and unlock check, then the lead."""
        self._clear("loading")
        yield  # the spinner replaces whatever this tab showed before
        lead_id = lead_id_from_path(self.router.url.path)
        self.status = "error"  # until the lead is read: a failure shows the error panel and the toast
        found = await run_blocking(unlocks.unlocked_lead, user_id, lead_id)
        if found is None:
            self.status = "denied" if await run_blocking(unlocks.lead_exists, lead_id) else "missing"
            return
        site_host = urlparse(get_settings().base_url(browser_origin(self))).hostname
        view = property_view(*found, own_host=site_host, zone_name=self._zone(),
                             today=local_today(datetime.now(timezone.utc)))
        lead = found[0]
        point = single_point(lead.id, lead.zip_code, lead.latitude, lead.longitude)
        self.details = view.details
        self.images = view.images
        self.more_count = view.more_count
        self.roi_high = view.roi_high
        self.profit_kind = view.profit_kind
        self.confidence = view.confidence
        self.archived = view.archived
        self.record = view.record
        self.map_point = point
        if lead.property_id is not None:
            panel = await run_blocking(record_views.public_record_panel, lead.id, user_id)
            section = record_section(panel, self._zone())
            self._set_record(section)
            if section.source_line:  # the unlocked lead's line names its record and the retrieval day
                self.details = {**self.details, "provenance": section.source_line}
        # The headline's ARV basis and ROI label (core.headline), the same the card shows.
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
