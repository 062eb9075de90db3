"""/property/{id}: the Comparable Sales card, a section of ``PropertyState``.

The page's one load (``PropertyState.load``, ``property.service``) hands the card its comps: only for
a lead the user unlocked, so a hand-sent event or URL of a locked lead gets an empty card and nothing else. The selection (``property.rules_comps``) runs on the server; the browser receives
display strings of one page of rows (``PAGE_SIZE``) and a map payload of the subject and that page.
``toggle_pin`` pins or unpins one sale of the shown lead and stores the choice (restored on the next load).
"""

from __future__ import annotations

import uuid

import reflex as rx

from marketplace.features.property.rules_comps import Scored
from marketplace.features.marketplace import usd
from marketplace.platform.times import format_date
from marketplace.features.property import texts_comps as text
from marketplace.platform.offloop import run_blocking
from marketplace.features.property import service_comps as comps
from marketplace.features.property.state import PropertyState, desk_section
from marketplace.features.property.state_analyzer import AnalyzerState
from marketplace.platform.ui.state_auth import error_toast
from marketplace.platform.ui.state_signed_in import signed_in

PAGE_SIZE = 10
EMPTY_POINTS = {"ids": [], "coords": [], "open": []}


def _facts(scored: Scored) -> str:
    c = scored.comp
    beds = "N/A" if c.beds is None else f"{c.beds} bd"
    baths = "N/A" if c.baths is None else f"{c.baths:g} ba"
    return f"{beds} / {baths} / {c.square_footage:,} sqft"


def _row(scored: Scored, pinned: bool, outlier: bool) -> dict[str, str]:
    c = scored.comp
    day = format_date(c.sale_date, "UTC")
    place = ", ".join(part for part in (c.city.title() if c.city.isupper() else c.city, c.state) if part)
    distance = f"{scored.miles:.2f} mi" + (f" ({text.APPROXIMATE})" if c.approximate_position else "")
    return {
        "id": c.comp_id, "address": c.address, "place": f"{place} {c.zip_code}".strip(), "date": day,
        "price": usd(c.price), "per_sqft": f"${scored.per_sqft:,.0f}", "facts": _facts(scored),
        "distance": distance, "pinned": "1" if pinned else "", "outlier": "1" if outlier else "",
        "pin_label": text.PIN_LABEL.format(address=c.address, date=day),
        "unpin_label": text.UNPIN_LABEL.format(address=c.address, date=day),
        "lat": f"{c.latitude:.5f}", "lon": f"{c.longitude:.5f}",
    }


@desk_section
class PropertyCompsState(PropertyState):
    comps_status: str = "idle"         # idle, loading, shown, unavailable
    comps_rows: list[dict[str, str]] = []
    comps_note: str = ""
    comps_basis: str = ""
    comps_error: str = ""
    comps_count: int = 0               # rows in the table (outliers included when shown)
    comps_outliers: int = 0
    comps_show_outliers: bool = False
    comps_page: int = 0
    comps_pages: int = 1
    comps_pinned: int = 0
    comps_arv: str = "N/A"
    comps_arv_range: str = ""
    comps_arv_basis: str = ""
    comps_points: dict[str, list] = EMPTY_POINTS
    comps_busy: bool = False
    _comps_all: list[dict[str, str]] = []
    _comps_subject: list[float] = []

    def _comps_clear(self, status: str) -> None:
        self.comps_status, self.comps_rows, self.comps_note, self.comps_basis = status, [], "", ""
        self.comps_error, self.comps_count, self.comps_outliers, self.comps_page = "", 0, 0, 0
        self.comps_pages, self.comps_pinned, self.comps_points = 1, 0, EMPTY_POINTS
        self.comps_arv, self.comps_arv_range, self.comps_arv_basis = "N/A", "", ""
        self._comps_all, self._comps_subject = [], []

    def _comps_show(self, view: comps.CompsView) -> None:
        pins = set(view.pinned)
        self._comps_all = [_row(s, s.comp.comp_id in pins, s.comp.comp_id in view.outliers)
                           for s in view.selection.comps]
        self._comps_subject = list(view.subject_position or [])
        self.comps_note = view.selection.note if view.selection.comps or not view.error else ""
        self.comps_basis, self.comps_error = view.source_basis, view.error
        self.comps_outliers, self.comps_pinned = len(view.outliers), len(view.pinned)
        if view.arv is None:
            self.comps_arv, self.comps_arv_range = "N/A", ""
            self.comps_arv_basis = text.ARV_NO_SQFT if not view.subject_sqft else text.ARV_NONE
        else:
            self.comps_arv = usd(view.arv.value)
            self.comps_arv_range = f"{usd(view.arv.low)} - {usd(view.arv.high)}"
            self.comps_arv_basis = view.arv.basis
        self.comps_status = "shown"
        self._comps_page_rows()

    def _comps_page_rows(self) -> None:
        shown = [r for r in self._comps_all if self.comps_show_outliers or not r["outlier"]]
        self.comps_count = len(shown)
        self.comps_pages = max(1, -(-len(shown) // PAGE_SIZE))
        self.comps_page = min(max(0, self.comps_page), self.comps_pages - 1)
        rows = shown[self.comps_page * PAGE_SIZE:(self.comps_page + 1) * PAGE_SIZE]
        self.comps_rows = rows
        if len(self._comps_subject) == 2:
            coords = list(self._comps_subject)
            for r in rows:
                coords.extend((float(r["lat"]), float(r["lon"])))
            self.comps_points = {"ids": ["subject", *[f"comp-{r['id']}" for r in rows]], "coords": coords,
                                 "open": [0]}
        else:
            self.comps_points = EMPTY_POINTS

    def _desk_clear(self, status: str) -> None:
        """Nothing of a lead: 'loading' while the page opens, 'unavailable' for a lead not unlocked (the
        page itself says 'Property Not Found'), 'idle' signed out."""
        self._comps_clear(status)

    def _desk_show(self, desk):
        """The shown lead's comps (``desk.comps``); their failure is the card's toast."""
        if desk.comps is None:
            return error_toast(*text.FAILED)
        self.comps_show_outliers = False
        self._comps_show(desk.comps)
        return None

    @rx.event
    @signed_in(text.FAILED, busy="comps_busy")
    async def toggle_pin(self, user_id: uuid.UUID, comp_id: str):
        """Pin or unpin one sale of the shown lead; the service re-checks the unlock and stores the pins."""
        row = next((r for r in self._comps_all if r["id"] == comp_id), None) if isinstance(comp_id, str) else None
        if not self._lead_id or row is None:
            return
        view = await run_blocking(comps.set_pinned, user_id, self._lead_id, comp_id, not row["pinned"])
        self._comps_show(view)
        return AnalyzerState.refresh_comps_arv  # the analyzer offers the new ARV

    @rx.event
    def toggle_outliers(self):
        if self.comps_status == "shown":
            self.comps_show_outliers = not self.comps_show_outliers
            self._comps_page_rows()

    @rx.event
    def comps_go(self, delta: int):
        if self.comps_status == "shown" and isinstance(delta, int) and not isinstance(delta, bool):
            self.comps_page += 1 if delta > 0 else -1
            self._comps_page_rows()

    @rx.var
    def comps_outlier_toggle(self) -> str:
        if self.comps_show_outliers:
            return text.HIDE_OUTLIERS
        return text.SHOW_OUTLIERS.format(count=self.comps_outliers, s="" if self.comps_outliers == 1 else "s")

    @rx.var
    def comps_page_label(self) -> str:
        return f"Page {self.comps_page + 1} of {self.comps_pages}"
