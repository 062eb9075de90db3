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

import logging
from dataclasses import dataclass, field
from urllib.parse import urlparse

import reflex as rx

from marketplace.config import get_settings
from marketplace.core.images import allowed_images
from marketplace.core.marketplace import external_links, percent, usd
from marketplace.core.pricing import display_confidence
from marketplace.models import Lead, UserLead
from marketplace.offloop import run_blocking
from marketplace.services import unlocks
from marketplace.states.auth import AuthState
from marketplace.states.browser import browser_origin

log = logging.getLogger("marketplace.property")

# SPEC 8 (word for word) and the signed-out subtext chosen for this page.
NO_ACCESS = "You don't have access to this property"
NOT_FOUND = "Property not found"
SIGNED_OUT = "Please log in to view this property."
LOAD_FAILED = "Failed to load property details."
NOT_FOUND_TITLE = "Property Not Found"

GALLERY_SIZE = 4  # SPEC 9: at most 4 images (primary + 3), then '+N more'
ROI_EMPHASIS_ABOVE = 15.0  # SPEC 9: ROI badge emphasised above 15
# SPEC 4: the image status drives the placeholder text (pending is shown as
# being verified). "success" without a showable image cannot normally happen
# (images from unknown hosts are dropped), so it reads like no_images.
IMAGE_STATUS_TEXT = {
    "pending": "Images are being verified",
    "failed": "Images could not be loaded",
    "no_images": "No images available for this property",
    "success": "No images available for this property",
}
# Public-record fields of raw_data worth showing, in order: (key, label).
RECORD_FIELDS = (
    ("owner_name", "Owner"),
    ("year_built", "Year built"),
    ("county", "County"),
    ("parcel_id", "Parcel ID"),
    ("filing_date", "Filing date"),
)


def _number(value: int | float | None, unit: str = "") -> str:
    """'1,850' / '2.5' / 'N/A'; whole floats lose their '.0'."""
    if value is None:
        return "N/A"
    if isinstance(value, float) and not value.is_integer():
        text = f"{value:,.1f}"
    else:
        text = f"{int(value):,}"
    return f"{text}{unit}"


def profit(arv: int | None, asking: int | None, rehab: int | None) -> int | None:
    """SPEC 9: profit = ARV - asking price - rehab estimate; None when a number is missing."""
    if arv is None or asking is None or rehab is None:
        return None
    return arv - asking - rehab


def format_unlocked_at(value) -> str:
    """'Mar 4, 2026 at 3:05 PM UTC' (stored in UTC; shown in UTC, labelled)."""
    return value.strftime("%b %-d, %Y at %-I:%M %p UTC")


def confidence_color(score: int) -> str:
    if score >= 80:
        return "grass"
    if score >= 60:
        return "amber"
    return "tomato"


@dataclass
class PropertyView:
    """Everything the page shows, as display values."""

    details: dict[str, str]
    images: list[str]
    more_count: int
    roi_high: bool
    profit_kind: str  # profit | loss | unknown
    confidence: int
    archived: bool
    record: list[dict[str, str]] = field(default_factory=list)


def property_view(lead: Lead, unlock: UserLead, own_host: str | None = None) -> PropertyView:
    """The display values of an unlocked lead (pure; raises on unreadable data)."""
    images = allowed_images([lead.primary_image_url, *list(lead.image_urls or [])], own_host)
    links = external_links(lead.address, lead.city, lead.state, lead.zip_code,
                           lead.raw_data if isinstance(lead.raw_data, dict) else {})
    amount = profit(lead.arv, lead.asking_price, lead.rehab_estimate)
    confidence = display_confidence(lead.confidence_score)
    raw = lead.raw_data if isinstance(lead.raw_data, dict) else {}
    record = [
        {"label": label, "value": str(raw[key])}
        for key, label in RECORD_FIELDS
        if raw.get(key) not in (None, "")
    ]
    details = {
        "address": lead.address,
        "place": f"{lead.city}, {lead.state} {lead.zip_code}".strip(),
        "lead_type": lead.lead_type,
        "source": lead.source,
        "beds": _number(lead.beds),
        "baths": _number(lead.baths),
        "sqft": _number(lead.square_footage),
        "asking": usd(lead.asking_price),
        "market_value": usd(lead.zestimate),
        "arv": usd(lead.arv),
        "rehab": usd(lead.rehab_estimate),
        "roi": percent(lead.roi),
        "profit_label": "Potential Loss" if amount is not None and amount < 0 else "Potential Profit",
        "profit_value": usd(None if amount is None else abs(amount)),
        "confidence_text": f"{confidence}/100",
        "confidence_color": confidence_color(confidence),
        "unlocked_at": format_unlocked_at(unlock.unlocked_at),
        "credits_paid": f"{unlock.credit_cost:,} credit{'' if unlock.credit_cost == 1 else 's'}",
        "purchase_type": (unlock.purchase_type or "credits").replace("_", " ").capitalize(),
        "listing_url": links.listing,
        "listing_label": links.listing_label,
        "maps_url": links.maps,
        "web_url": links.web,
        "image_status": IMAGE_STATUS_TEXT.get(lead.images_fetch_status, IMAGE_STATUS_TEXT["no_images"]),
        "image_total": str(len(images)),
    }
    return PropertyView(
        details=details,
        images=images,
        more_count=max(0, len(images) - GALLERY_SIZE),
        roi_high=lead.roi is not None and lead.roi > ROI_EMPHASIS_ABOVE,
        profit_kind="unknown" if amount is None else ("loss" if amount < 0 else "profit"),
        confidence=confidence,
        archived=not lead.is_active,
        record=record,
    )


def lead_id_from_path(path: str) -> str:
    """The id segment of '/property/{id}' ('' for anything else)."""
    parts = [part for part in (path or "").split("/") if part]
    return parts[1] if len(parts) == 2 and parts[0] == "property" else ""


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

    @rx.event
    async def load(self):
        """on_load: server-side session and unlock check, then the lead."""
        self._clear("loading")
        yield  # the spinner replaces whatever this tab showed before
        lead_id = lead_id_from_path(self.router.url.path)
        user_id = await self._current_user_id()
        if user_id is None:
            self.status = "signed_out"
            return
        try:
            found = await run_blocking(unlocks.unlocked_lead, user_id, lead_id)
            if found is None:
                self.status = "denied" if await run_blocking(unlocks.lead_exists, lead_id) else "missing"
                return
            site_host = urlparse(get_settings().base_url(browser_origin(self))).hostname
            view = property_view(*found, own_host=site_host)
        except Exception:  # noqa: BLE001 - shown as the SPEC's load failure
            log.exception("property %r failed to load for %s", lead_id, user_id)
            self._clear("error")
            yield rx.toast.error(LOAD_FAILED)
            return
        self.details = view.details
        self.images = view.images
        self.more_count = view.more_count
        self.roi_high = view.roi_high
        self.profit_kind = view.profit_kind
        self.confidence = view.confidence
        self.archived = view.archived
        self.record = view.record
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
