"""The property page's Pipeline card, a section of ``PropertyState``: the lead's stage (and dead reason), next follow-up
date, offer and notes, for the signed-in user who unlocked it.

The page's one load (``PropertyState.load``, ``property.service``) hands it the entry, only for a lead
the user unlocked: otherwise the card stays hidden and empty. ``save`` and ``add_note`` act on the page's
lead (``PropertyState._lead_id``, held on the server, never taken from the event), re-checked by the service.
Note times are shown in the user's time zone (``platform.times.format_datetime``).
"""

from __future__ import annotations

import dataclasses
import uuid
from datetime import datetime, timezone

import reflex as rx

from marketplace.features.marketplace import usd
from marketplace.features.property import rules_pipeline as pipeline_rules
from marketplace.platform.times import format_date, format_datetime, zone
from marketplace.platform.texts import NOT_SIGNED_IN
from marketplace.features.property.texts_pipeline import (
    PIPELINE_NOTE_ADDED,
    PIPELINE_SAVED,
    PIPELINE_UPDATE_FAILED,
    PIPELINE_NO_FOLLOW_UP,
)
from marketplace.platform.offloop import run_blocking
from marketplace.features.property import service_pipeline as service
from marketplace.platform.ui.state_auth import success_toast
from marketplace.features.property.state import PropertyState, desk_section
from marketplace.platform.ui.state_signed_in import signed_in

TEXT_MAX = 4000  # an input's value from an event; longer is junk (the rules refuse past their own limits)


@dataclasses.dataclass
class NoteRow:
    id: str = ""
    when: str = ""  # 'Nov 25, 2026, 8:01 PM PST'
    body: str = ""


def _text(value: object) -> str:
    return value[:TEXT_MAX] if isinstance(value, str) else ""


@desk_section
class PropertyPipelineState(PropertyState):
    pl_shown: bool = False  # the entry of the page's lead is loaded (the card shows)
    stage: str = pipeline_rules.DEFAULT_STAGE
    stage_label: str = pipeline_rules.stage_label(None)
    dead_reason: str = ""
    follow_up_label: str = PIPELINE_NO_FOLLOW_UP
    due: str = ""
    offer_label: str = "N/A"
    updated: str = ""
    # The form's inputs.
    stage_input: str = pipeline_rules.DEFAULT_STAGE
    reason_input: str = ""
    follow_up_input: str = ""  # YYYY-MM-DD
    offer_input: str = ""
    note_input: str = ""
    notes: list[NoteRow] = []
    notes_more: str = ""  # 'Showing the newest 50 of 61 notes' ('' when all are shown)
    saving: bool = False
    note_saving: bool = False

    def _desk_clear(self, status: str = "") -> None:
        self.pl_shown = False
        self.notes, self.notes_more = [], ""
        self.stage = self.stage_input = pipeline_rules.DEFAULT_STAGE
        self.reason_input = self.follow_up_input = self.offer_input = self.note_input = ""
        self.dead_reason = self.updated = self.due = ""

    def _today(self):
        return pipeline_rules.user_today(datetime.now(timezone.utc), zone(self._zone()))

    def _desk_show(self, desk) -> None:
        self._pl_show(desk.pipeline)

    def _pl_show(self, entry: service.Entry) -> None:
        zone_name = self._zone()
        self.pl_shown = True
        self.stage = self.stage_input = entry.stage
        self.stage_label = pipeline_rules.stage_label(entry.stage)
        self.dead_reason = self.reason_input = entry.dead_reason or ""
        self.follow_up_input = entry.follow_up.isoformat() if entry.follow_up else ""
        self.follow_up_label = format_date(entry.follow_up, zone_name) if entry.follow_up else PIPELINE_NO_FOLLOW_UP
        self.due = pipeline_rules.due_status(entry.follow_up, entry.stage, self._today())
        self.offer_input = str(entry.offer) if entry.offer else ""
        self.offer_label = usd(entry.offer)
        self.updated = f"Updated {format_datetime(entry.updated_at, zone_name)}" if entry.updated_at else ""
        self.notes = [NoteRow(str(n.id), format_datetime(n.created_at, zone_name), n.body) for n in entry.notes]
        self.notes_more = (f"Showing the newest {len(entry.notes):,} of {entry.note_count:,} notes"
                           if entry.note_count > len(entry.notes) else "")

    @rx.event
    def set_stage_input(self, value: str):
        if isinstance(value, str) and value in pipeline_rules.STAGE_LABELS:
            self.stage_input = value

    @rx.event
    def set_note_input(self, value: str):
        self.note_input = _text(value)

    @rx.event
    @signed_in(PIPELINE_UPDATE_FAILED, signed_out=NOT_SIGNED_IN, busy="saving")
    async def save(self, user_id: uuid.UUID, form_data: dict):
        """Save stage (and reason), follow-up date and offer together (refused as a whole)."""
        if not self.pl_shown or not isinstance(form_data, dict):
            return
        yield
        entry = await run_blocking(service.save_entry, user_id, self._lead_id, _text(form_data.get("stage")),
                                   _text(form_data.get("reason")), _text(form_data.get("follow_up")),
                                   _text(form_data.get("offer")), self._today())
        self._pl_show(entry)
        yield success_toast(*PIPELINE_SAVED)

    @rx.event
    @signed_in(PIPELINE_UPDATE_FAILED, signed_out=NOT_SIGNED_IN, busy="note_saving")
    async def add_note(self, user_id: uuid.UUID, form_data: dict):
        if not self.pl_shown or not isinstance(form_data, dict):
            return
        yield
        entry = await run_blocking(service.add_note, user_id, self._lead_id, _text(form_data.get("note")))
        self._pl_show(entry)
        self.note_input = ""
        yield success_toast(*PIPELINE_NOTE_ADDED)
