"""The dashboard's Pipeline tab: a board with a column per stage and its count.

Each column keeps only the cards it shows (``COLUMN_PAGE`` at first, more with "Show more"); the counts come
from the database. A card moves by drag and drop (``drop_card``, sent by the column with the dragged card's
id) or by its "Move to" select (``move``); a move to Dead opens the reason dialog first, which holds the lead
id on the server. Every handler re-checks the session (``signed_in``) and the service refuses a lead the
user has not unlocked (``PIPELINE_LOCKED``): a hand-sent event for any other lead changes nothing. Dates are
the user's (``AuthState._zone``): the follow-up's "due today" and "overdue" are their calendar day.
"""

from __future__ import annotations

import dataclasses
import uuid
from datetime import date, datetime, timezone

import reflex as rx

from marketplace.features.marketplace import usd
from marketplace.platform import routes
from marketplace.features.property import rules_pipeline as pipeline_rules
from marketplace.platform.times import format_date, zone
from marketplace.features.property.texts_pipeline import PIPELINE_LOAD_FAILED, PIPELINE_MOVED, PIPELINE_UPDATE_FAILED
from marketplace.platform.offloop import run_blocking
from marketplace.platform import downloads
from marketplace.features.property import service_pipeline as service
from marketplace.platform.ui.state_auth import AuthState, success_toast
from marketplace.platform.ui.state_signed_in import signed_in

LEAD_ID_MAX = 40


@dataclasses.dataclass
class PipelineCard:
    lead_id: str = ""
    href: str = ""
    address: str = ""
    place: str = ""
    lead_type: str = ""
    stage: str = ""
    follow_up: str = ""  # 'Follow-up Dec 1, 2026' ('' when none)
    due: str = ""  # 'overdue' | 'today' | 'upcoming' | ''
    offer: str = ""  # 'Offer $180,000' ('' when none)
    dead_reason: str = ""


@dataclasses.dataclass
class PipelineColumn:
    stage: str = ""
    label: str = ""
    count: int = 0
    count_label: str = "0"
    cards: list[PipelineCard] = dataclasses.field(default_factory=list)
    has_more: bool = False


def card_row(card: service.Card, today: date, zone_name: str) -> PipelineCard:
    return PipelineCard(
        lead_id=str(card.lead_id), href=routes.property_url(str(card.lead_id)), address=card.address,
        place=f"{card.city}, {card.state} {card.zip_code}".strip(" ,"), lead_type=card.lead_type, stage=card.stage,
        follow_up=f"Follow-up {format_date(card.follow_up, zone_name)}" if card.follow_up else "",
        due=pipeline_rules.due_status(card.follow_up, card.stage, today),
        offer=f"Offer {usd(card.offer)}" if card.offer else "", dead_reason=card.dead_reason or "",
    )


def column_row(column: service.Column, today: date, zone_name: str) -> PipelineColumn:
    cards = [card_row(c, today, zone_name) for c in column.cards]
    return PipelineColumn(stage=column.stage, label=pipeline_rules.stage_label(column.stage), count=column.count,
                          count_label=f"{column.count:,}", cards=cards,
                          has_more=len(cards) < min(column.count, pipeline_rules.MAX_COLUMN_CARDS))


def clean_lead_id(value: object) -> str:
    """A lead id from an event: a UUID's text, else '' (junk is ignored)."""
    if not isinstance(value, str) or len(value) > LEAD_ID_MAX:
        return ""
    try:
        return str(uuid.UUID(value))
    except ValueError:
        return ""


def _reload_board(state: "PipelineState"):
    return PipelineState.load


def _load_failed(state: "PipelineState") -> None:
    """A failed load shows the failure with Try again, never stale or another user's cards."""
    state.columns, state.total = [], 0
    state.load_failed, state.loading = True, False


class PipelineState(AuthState):
    loaded_for: str = ""
    load_failed: bool = False
    loading: bool = False
    moving: bool = False
    columns: list[PipelineColumn] = []
    total: int = 0
    # Filters (display values; cleaned by property.rules_pipeline.BoardFilters on every use).
    filter_type: str = ""
    filter_state: str = ""
    filter_city: str = ""
    filter_follow_up: str = ""
    filter_q: str = ""
    # The Dead dialog: the lead it is for stays on the server.
    dead_open: bool = False
    dead_address: str = ""
    dead_saving: bool = False
    _dead_lead: str = ""

    def _filters(self) -> pipeline_rules.BoardFilters:
        return pipeline_rules.BoardFilters.of(self.filter_type, self.filter_state, self.filter_city, self.filter_follow_up,
                                     self.filter_q)

    def _today(self) -> date:
        return pipeline_rules.user_today(datetime.now(timezone.utc), zone(self._zone()))

    def _forget(self) -> None:
        self.loaded_for = ""
        self.load_failed = False
        self.columns = []
        self.total = 0
        self.dead_open = False
        self.dead_address = ""
        self._dead_lead = ""

    def _find(self, lead_id: str) -> PipelineCard | None:
        return next((card for column in self.columns for card in column.cards if card.lead_id == lead_id), None)

    @rx.event
    async def on_page_load(self):
        """/dashboard load: nothing of a previous visit stays; the board loads when its tab is shown."""
        self._forget()
        from marketplace.features.dashboard import DashboardState  # the page's state, not imported at module load

        dashboard = await self.get_state(DashboardState)
        if dashboard.tab == routes.PIPELINE_TAB:
            return PipelineState.load
        return None

    @rx.event
    @signed_in(PIPELINE_LOAD_FAILED, signed_out=routes.AUTH, after_error=_load_failed)
    async def load(self, user_id: uuid.UUID):
        self.loading = True
        yield
        columns = await run_blocking(service.board, user_id, self._filters(), self._today())
        today, zone_name = self._today(), self._zone()
        self.columns = [column_row(c, today, zone_name) for c in columns]
        self.total = sum(c.count for c in columns)
        self.loaded_for, self.load_failed, self.loading = str(user_id), False, False

    @rx.event
    @signed_in(PIPELINE_LOAD_FAILED, signed_out=routes.AUTH)
    async def show_more(self, user_id: uuid.UUID, stage: str):
        if self.loaded_for != str(user_id):
            yield PipelineState.load
            return
        index = next((i for i, c in enumerate(self.columns) if c.stage == stage), None)
        if index is None or not self.columns[index].has_more:
            return
        column = self.columns[index]
        more = await run_blocking(service.column_cards, user_id, self._filters(), self._today(), stage,
                                  len(column.cards))
        seen = {card.lead_id for card in column.cards}
        today, zone_name = self._today(), self._zone()
        cards = [*column.cards, *(card_row(c, today, zone_name) for c in more if str(c.lead_id) not in seen)]
        columns = list(self.columns)
        columns[index] = dataclasses.replace(
            column, cards=cards, has_more=bool(more) and len(cards) < min(column.count, pipeline_rules.MAX_COLUMN_CARDS))
        self.columns = columns

    # ------------------------------------------------------------------ filters

    @rx.event
    def set_filter(self, name: str, value: str):
        """A select changed: the board reloads under the new filters (junk reads as no filter)."""
        if name not in ("type", "state", "follow_up") or not isinstance(value, str):
            return None
        setattr(self, {"type": "filter_type", "state": "filter_state", "follow_up": "filter_follow_up"}[name],
                value[:40])
        return PipelineState.load

    @rx.event
    def search(self, form_data: dict):
        """The city and address search form."""
        if not isinstance(form_data, dict):
            return None
        cleaned = pipeline_rules.BoardFilters.of(city=form_data.get("city", ""), q=form_data.get("q", ""))
        self.filter_city, self.filter_q = cleaned.city, cleaned.q
        return PipelineState.load

    @rx.event
    def clear_filters(self):
        self.filter_type = self.filter_state = self.filter_city = self.filter_follow_up = self.filter_q = ""
        return PipelineState.load

    @rx.var
    def filters_active(self) -> bool:
        return any((self.filter_type, self.filter_state, self.filter_city, self.filter_follow_up, self.filter_q))

    @rx.var
    def summary(self) -> str:
        one = self.total == 1
        if self.filters_active:
            return f"{self.total:,} lead{'' if one else 's'} match{'es' if one else ''} your filters"
        return f"{self.total:,} lead{'' if one else 's'} in your pipeline"

    # ------------------------------------------------------------------ moves

    async def _move(self, user_id: uuid.UUID, lead_id: str, stage: str, reason: str = ""):
        entry = await run_blocking(service.move, user_id, lead_id, stage, reason)
        return success_toast(PIPELINE_MOVED.format(stage=pipeline_rules.stage_label(entry.stage)), entry.address)

    @rx.event
    @signed_in(PIPELINE_UPDATE_FAILED, signed_out=routes.AUTH, busy="moving", after_error=_reload_board)
    async def move(self, user_id: uuid.UUID, lead_id: str, stage: str):
        """The card's "Move to" select (and a drop): Dead asks for the reason first."""
        lead = clean_lead_id(lead_id)
        if not lead or stage not in pipeline_rules.STAGE_LABELS:
            return
        card = self._find(lead)
        if card is not None and card.stage == stage:
            return
        if stage == "dead":
            self._dead_lead = lead
            self.dead_address = card.address if card is not None else ""
            self.dead_open = True
            return
        yield
        yield await self._move(user_id, lead, stage)
        yield PipelineState.load

    @rx.event
    async def drop_card(self, lead_id: str, stage: str):
        """A card dropped on a column (the browser sends the dragged card's id and the column's stage)."""
        if isinstance(lead_id, str) and isinstance(stage, str):
            return PipelineState.move(lead_id, stage)
        return None

    @rx.event
    def set_dead_open(self, is_open: bool):
        if isinstance(is_open, bool) and not is_open and not self.dead_saving:
            self.dead_open = False
            self._dead_lead = ""

    @rx.event
    @signed_in(PIPELINE_UPDATE_FAILED, signed_out=routes.AUTH, busy="dead_saving")
    async def confirm_dead(self, user_id: uuid.UUID, form_data: dict):
        """The Dead dialog's Move: the lead the dialog was opened for, with the typed reason."""
        if not self._dead_lead or not isinstance(form_data, dict):
            return
        yield
        toast = await self._move(user_id, self._dead_lead, "dead", form_data.get("reason", ""))
        self.dead_open, self._dead_lead = False, ""
        yield toast
        yield PipelineState.load

    # ------------------------------------------------------------------ CSV

    @rx.event
    @signed_in(signed_out=routes.AUTH)
    async def export_csv(self, user_id: uuid.UUID):
        """The whole pipeline as CSV: a signed five-minute link for this user."""
        token = downloads.make_token(downloads.PIPELINE_CSV, user_id, downloads.PIPELINE_ALL)
        return rx.download(url=routes.pipeline_csv_url(token))
