"""The property page's Deal Analyzer: Flip, Rental, BRRRR and Max offer of one lead, recomputed as the
user types, saved per user per lead. A section of ``PropertyState``.

- The page's one load (``PropertyState.load``, ``property.service``) hands it the saved analysis, or
  a first one from the lead's figures and the user's defaults, and the pinned comps' ARV: only for a lead
  the user unlocked (the access checked on the server); otherwise every var stays empty and ``an_shown``
  false.
- A keystroke is one ``set_field`` / ``set_line`` event: the typed text is read by ``property.rules_deal.form``
  (each field's problem next to it) and the results are recomputed here by ``property.rules_deal.report`` (pure,
  well under a millisecond), so the answer needs no database and no debounce; only the vars whose text
  changed travel back. The inputs are uncontrolled (``default_value``): the browser keeps what is typed,
  and ``form_key`` changes (the inputs re-mount with the state's values) on load, reset and line changes.
- Saving is debounced on the server: the first valid edit starts ``save_soon``, the tab's one background
  saver (later keystrokes send no second event), which stores the analysis once no edit has come for
  ``SAVE_DELAY`` seconds (off the event loop; the session and the unlock re-checked) and then stops. The
  indicator says Saving... / Saved / why not.
- Keystroke handlers act only for the user the tab loaded the analysis for (``_active``); the save, the
  reset and the download are ``signed_in`` handlers or re-validate the session themselves.
- The lead id is the page's (``PropertyState._lead_id``, a backend var): a hand-sent event cannot point the
  analyzer at a lead; the services refuse any lead without this user's unlock anyway.
"""

from __future__ import annotations

import asyncio
import time
import uuid

import reflex as rx

from marketplace.platform import routes
from marketplace.features.property.rules_deal.form import (
    BY_KEY,
    MAX_TYPED,
    analysis_form,
    arv_hint,
    comps_in_use,
    format_number,
    read_analysis,
)
from marketplace.features.property.rules_deal.inputs import MAX_LABEL, MAX_REHAB_LINES, DealAnalysis, to_json
from marketplace.features.property.rules_deal.report import report
from marketplace.platform.errors import UserError
from marketplace.platform.times import format_datetime
from marketplace.features.property import texts_deal as text
from marketplace.platform.offloop import run_blocking
from marketplace.features.property import service_comps as comps, service_deals as deals
from marketplace.platform import downloads
from marketplace.platform.ui.state_auth import success_toast
from marketplace.features.property.state import PropertyState, desk_section
from marketplace.platform.ui.state_signed_in import signed_in

SAVE_DELAY = 0.6  # seconds without an edit before the analysis is stored
SAVER_STALE = 10.0  # a saver silent this long (its server restarted) no longer counts as running
TABS = tuple(text.TAB_LABELS)


def _forget(state: "AnalyzerState") -> None:
    """Signed out, or a lead this user may not analyze: nothing of it stays."""
    state._an_clear()


@desk_section
class AnalyzerState(PropertyState):
    an_shown: bool = False  # the analysis of the page's lead is loaded (the card shows)
    form: dict[str, str] = {}  # field key -> the text typed (financing: 'cash' | 'hard_money')
    lines: list[dict[str, str]] = []  # rehab lines: label, amount (as typed)
    errors: dict[str, str] = {}  # field key or 'line-{i}-label' / 'line-{i}-amount' -> its problem
    values: dict[str, str] = {}  # property.texts_deal.RESULT_LABELS' keys -> '$65,440'
    hows: dict[str, str] = {}
    tones: dict[str, str] = {}
    offer_note: str = ""
    offer_targets: list[str] = []
    rehab_total: str = ""
    arv_basis: str = ""
    comps_arv: str = ""  # the ARV the user's pinned comparable sales give ('' when none), offered, never applied
    comps_arv_offer: str = ""
    comps_basis: str = ""  # the pinned sales' basis sentence (for the ARV line once their figure is in use)
    estimate_bases: dict[str, str] = {}  # rent, taxes, insurance, holding cost -> what they start at
    save_status: str = ""
    save_kind: str = ""  # saved | pending | invalid | failed | new
    form_key: int = 0
    busy: bool = False

    _edit: int = 0
    _last_edit: float = 0.0  # time.time() of the last valid edit
    _saver_beat: float = 0.0  # when the running saver last looked (0: none runs)
    _pending: dict = {}  # the last valid analysis as JSON, waiting to be saved

    def _an_clear(self) -> None:
        self.an_shown = False
        self.form, self.lines, self.errors = {}, [], {}
        self.values, self.hows, self.tones, self.offer_targets = {}, {}, {}, []
        self.offer_note = self.rehab_total = self.arv_basis = self.save_status = self.save_kind = ""
        self.comps_arv = self.comps_arv_offer = self.comps_basis = ""
        self.estimate_bases = {}
        self._pending = {}

    def _an_show(self, analysis: DealAnalysis) -> None:
        self.form, self.lines = analysis_form(analysis)
        self.errors = {}
        self._show_results(analysis)
        self.form_key += 1

    def _show_results(self, analysis: DealAnalysis) -> None:
        """The results of a valid analysis; a var is assigned only when its text changed."""
        r = report(analysis)
        for name, value in (("values", r.values), ("hows", r.hows), ("tones", r.tones),
                            ("offer_note", r.offer_note), ("offer_targets", r.offer_targets),
                            ("rehab_total", f"${format_number(analysis.flip.rehab)}")):
            if getattr(self, name) != value:
                setattr(self, name, value)

    def _saved(self, saved: deals.SavedAnalysis) -> None:
        if saved.saved_at is None:
            self.save_kind, self.save_status = "new", text.NOT_SAVED_YET
        else:
            self.save_kind = "saved"
            self.save_status = text.SAVED_AT.format(when=format_datetime(saved.saved_at, self._zone()))

    def _active(self) -> bool:
        """A keystroke acts only on the analysis this tab loaded for its signed-in user (no database
        read per key: the session itself is re-validated by the save that follows and by every other
        handler, which clear ``user_id`` when it has ended)."""
        return self.an_shown and bool(self._lead_id) and bool(self.user_id) and self.loaded_for == self.user_id

    def _edited(self):
        """After an edit: recompute, and schedule the save when the inputs are valid."""
        analysis, errors = read_analysis(self.form, self.lines)
        if self.errors != errors:
            self.errors = errors
        self._edit += 1
        if analysis is None:
            self._pending = {}
            self.save_kind, self.save_status = "invalid", text.NOT_SAVED_INVALID
            return None
        self._show_results(analysis)
        self._pending = to_json(analysis)
        if self.save_kind != "pending":
            self.save_kind, self.save_status = "pending", text.SAVE_PENDING
        self._last_edit = time.time()
        if self._last_edit - self._saver_beat > SAVER_STALE:  # no saver running: start the tab's one saver
            self._saver_beat = self._last_edit
            return AnalyzerState.save_soon
        return None

    # ------------------------------------------------------------------ load

    def _desk_clear(self, status: str) -> None:
        self._an_clear()

    def _desk_show(self, desk) -> None:
        """The shown lead's analysis (``desk.analysis``) and the ARV its pinned comps give."""
        saved = desk.analysis
        self.arv_basis = saved.arv_basis
        self.estimate_bases = dict(saved.estimate_bases or {})
        self._an_show(saved.analysis)
        self._saved(saved)
        if saved.reset:
            self.save_kind, self.save_status = "new", saved.reset
        self._offer_comps_arv(desk.comps_arv)
        self.an_shown = True

    def _offer_comps_arv(self, found: comps.CompArv | None) -> None:
        if found is None:
            self.comps_arv = self.comps_arv_offer = self.comps_basis = ""
            return
        self.comps_arv, self.comps_basis = str(found.value), found.basis
        self.comps_arv_offer = text.COMPS_ARV_OFFER.format(value=f"${found.value:,}", low=f"${found.low:,}",
                                                           high=f"${found.high:,}", basis=found.basis)

    @rx.event
    @signed_in(text.ANALYZER_LOAD_FAILED, signed_out=_forget)
    async def refresh_comps_arv(self, user_id: uuid.UUID):
        """The comps card changed its pins: offer the new ARV (the analysis itself keeps the user's)."""
        if self.an_shown and self._lead_id and self.loaded_for == str(user_id):
            try:
                found = await run_blocking(comps.comp_arv, user_id, self._lead_id)
            except UserError:
                found = None
            self._offer_comps_arv(found)

    @rx.event
    def use_comps_arv(self):
        """Put the comparable sales' ARV into the analysis (an edit like any other: recomputed, saved)."""
        if not self._active() or not self.comps_arv:
            return None
        self.form = {**self.form, "arv": self.comps_arv}
        self.form_key += 1
        return self._edited()

    @rx.var
    def arv_hint(self) -> str:
        """The line under the ARV: the comparable sales' figure when it is the one in use, else the
        default's basis (``property.rules_deal.form.arv_hint``)."""
        return arv_hint(self.form.get("arv", ""), self.arv_basis, self.comps_arv, self.comps_basis)

    @rx.var
    def comps_arv_in_use(self) -> bool:
        """The analysis' ARV is the comparable sales' figure: "Use this ARV" is not offered again."""
        return comps_in_use(self.form.get("arv", ""), self.comps_arv)

    # ------------------------------------------------------------------ typing

    @rx.event
    def set_field(self, key: str, value: str):
        if not self._active() or not isinstance(key, str) or key not in BY_KEY:
            return None
        typed = value[:MAX_TYPED] if isinstance(value, str) else ""
        self.form = {**self.form, key: typed}
        return self._edited()

    @rx.event
    def set_financing(self, value: str | list[str]):
        if not self._active() or not isinstance(value, str) or value not in text.FINANCING_CHOICES:
            return None
        self.form = {**self.form, "financing": value}
        return self._edited()

    @rx.event
    def set_line(self, index: int, part: str, value: str):
        if (not self._active() or part not in ("label", "amount") or not isinstance(index, int)
                or not 0 <= index < len(self.lines)):
            return None
        typed = value[: (MAX_LABEL + 10 if part == "label" else MAX_TYPED)] if isinstance(value, str) else ""
        self.lines = [{**line, part: typed} if i == index else line for i, line in enumerate(self.lines)]
        return self._edited()

    @rx.event
    def add_line(self):
        if not self._active() or len(self.lines) >= MAX_REHAB_LINES:
            return None
        self.lines = [*self.lines, {"label": text.REHAB_NEW_LINE, "amount": "0"}]
        self.form_key += 1
        return self._edited()

    @rx.event
    def remove_line(self, index: int):
        if not self._active() or not isinstance(index, int) or not 0 <= index < len(self.lines):
            return None
        self.lines = [line for i, line in enumerate(self.lines) if i != index]
        self.form_key += 1
        return self._edited()

    # ------------------------------------------------------------------ saving

    @rx.event(background=True)
    async def save_soon(self):
        """The tab's one saver: stores the analysis once the user has paused for ``SAVE_DELAY`` seconds,
        again if edits came while it saved, then stops (``_saver_beat`` says it runs)."""
        while True:
            async with self:
                self._saver_beat = time.time()
                if not self._pending or not self._lead_id:
                    self._saver_beat = 0.0
                    return
                wait = self._last_edit + SAVE_DELAY - time.time()
                if wait <= 0:
                    edit, data, lead_id = self._edit, self._pending, self._lead_id
                    user_id = await self._current_user_id()
                    if user_id is None:
                        self._saver_beat = 0.0
                        self._an_clear()
                        return
            if wait > 0:
                await asyncio.sleep(min(wait, SAVE_DELAY))
                continue
            try:
                saved = await run_blocking(deals.save_analysis, user_id, lead_id, data)
            except Exception:  # noqa: BLE001 - a background task (not wrapped by signed_in): the indicator says so
                async with self:
                    if edit == self._edit:
                        self.save_kind, self.save_status = "failed", text.SAVE_FAILED
                        self._saver_beat = 0.0
                        return
                continue  # newer edits came meanwhile: save those
            async with self:
                if edit == self._edit:
                    self._pending = {}
                    self._saved(saved)
                    self._saver_beat = 0.0
                    return

    @rx.event
    @signed_in(text.ANALYZER_LOAD_FAILED, signed_out=_forget, busy="busy")
    async def reset_to_defaults(self, user_id: uuid.UUID):
        """The lead's figures, the default ARV and the user's defaults again (saved like an edit)."""
        if not self._lead_id:
            return
        fresh = await run_blocking(deals.first_analysis, user_id, self._lead_id)
        self.arv_basis = fresh.arv_basis
        self._an_show(fresh.analysis)
        yield self._edited()
        yield success_toast(*text.RESET_DONE)

    @rx.event
    @signed_in(text.ANALYZER_LOAD_FAILED, signed_out=_forget, busy="busy")
    async def download_sheet(self, user_id: uuid.UUID):
        """The PDF of what is on screen, saved first: a waiting edit, or the starting analysis that was
        never saved (the sheet and the pipeline's "Analysis Saved" then name the analysis the user
        downloaded, never "Not saved yet"); the link is signed for this user and lead (the route re-checks
        both)."""
        if not self._lead_id:
            return None
        if not self._pending and self.save_kind == "new":
            shown, _ = read_analysis(self.form, self.lines)
            if shown is not None:
                self._pending = to_json(shown)
        if self._pending:
            saved = await run_blocking(deals.save_analysis, user_id, self._lead_id, self._pending)
            self._edit += 1  # a save_soon still waiting has nothing left to do
            self._pending = {}
            self._saved(saved)
        token = downloads.make_token(downloads.DEAL_SHEET, user_id, self._lead_id)
        return rx.download(url=routes.deal_sheet_url(self._lead_id, token, self._zone()))

    # ------------------------------------------------------------------ derived

    @rx.var
    def stale(self) -> bool:
        """Inputs with problems: the results shown are the last valid ones."""
        return bool(self.errors)
