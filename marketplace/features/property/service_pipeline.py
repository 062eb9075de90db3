"""The deal pipeline: every read and write of pipeline entries and notes.

Every function takes the user's id and reaches only leads that user has unlocked (a ``user_leads`` row):
anything else, a malformed id included, is ``PIPELINE_LOCKED`` (a ``UserError``) and nothing is read or
written. A lead without an entry is in stage 'new'; the first change writes its entry (one per user and lead,
UNIQUE: a concurrent first write retries as an update). The rules are ``property.rules_pipeline``'s; ``today`` is the
user's calendar day (in their time zone), computed by the caller.

- ``board``: each stage's count and its first cards under the board's filters; ``column_cards`` the next ones.
- ``move``: a board move (the Dead column asks for a reason); ``save_entry``: the property card's save.
- ``add_note``: append one note; ``load_entry``: the card's entry and its newest notes.
- ``due_follow_ups``: the bell's follow-ups due today and overdue.
- ``csv_leads``: every unlocked lead with its entry, notes and saved analysis, for the CSV export.
- ``forget_user``: inside the caller's transaction, removes the user's entries and notes (account deletion).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from marketplace.features.property import rules_pipeline as pipeline_rules
from marketplace.features.property.rules_deal import DealInputError, analysis_from_json
from marketplace.features.marketplace import arv_used
from marketplace.platform.leads import LeadLine, export_provenance
from marketplace.platform.db import city_in, read_scope, session_scope
from marketplace.features.property.texts_pipeline import PIPELINE_LOCKED
from marketplace.platform.models import DealAnalysisRow, Lead, PipelineEntry, PipelineNote, UserLead, utcnow
from marketplace.platform import lead_access

ul = UserLead.__table__
leads_t = Lead.__table__
entries = PipelineEntry.__table__
notes_t = PipelineNote.__table__
analyses = DealAnalysisRow.__table__
NOTES_SHOWN = 50


@dataclass(frozen=True)
class Card(LeadLine):
    stage: str
    dead_reason: str | None
    follow_up: date | None
    offer: int | None


@dataclass(frozen=True)
class Column:
    stage: str
    count: int
    cards: list[Card]


@dataclass(frozen=True)
class Note:
    id: int
    created_at: datetime
    body: str


@dataclass(frozen=True)
class Entry:
    lead_id: uuid.UUID
    address: str
    stage: str
    dead_reason: str | None
    follow_up: date | None
    offer: int | None
    updated_at: datetime | None  # None: never changed (a lead without an entry)
    notes: list[Note]  # newest first, at most NOTES_SHOWN
    note_count: int


@dataclass(frozen=True)
class DueFollowUp:
    lead_id: uuid.UUID
    address: str
    stage: str
    follow_up: date
    status: str  # 'today' | 'overdue'


# --------------------------------------------------------------------------- reads


def _stage_is(stage: str):
    if stage == pipeline_rules.DEFAULT_STAGE:
        return sa.or_(entries.c.stage.is_(None), entries.c.stage == stage)
    return entries.c.stage == stage


def _board_from():
    return ul.join(leads_t, leads_t.c.id == ul.c.lead_id).outerjoin(
        entries, sa.and_(entries.c.user_id == ul.c.user_id, entries.c.lead_id == ul.c.lead_id))


def _conditions(user_id: uuid.UUID, filters: pipeline_rules.BoardFilters, today: date) -> list:
    conds = [ul.c.user_id == user_id]
    if filters.lead_type:
        conds.append(leads_t.c.lead_type == filters.lead_type)
    if filters.state:
        conds.append(leads_t.c.state == filters.state)
    if filters.city:
        conds.append(city_in(leads_t.c.city, [filters.city]))
    if filters.q:
        conds.append(sa.func.lower(leads_t.c.address).contains(filters.q.lower(), autoescape=True))
    if filters.follow_up:
        day = entries.c.follow_up_date
        open_stage = sa.or_(entries.c.stage.is_(None), entries.c.stage.notin_(pipeline_rules.FINISHED))
        window = {
            "due": sa.and_(day <= today, open_stage),
            "overdue": sa.and_(day < today, open_stage),
            "today": sa.and_(day == today, open_stage),
            "upcoming": sa.and_(day > today, open_stage),
            "none": day.is_(None),
        }[filters.follow_up]
        conds.append(window)
    return conds


def _card_columns():
    return (leads_t.c.id, leads_t.c.address, leads_t.c.city, leads_t.c.state, leads_t.c.zip_code,
            leads_t.c.lead_type, entries.c.stage, entries.c.dead_reason, entries.c.follow_up_date,
            entries.c.offer_amount)


def _card(row) -> Card:
    return Card(row.id, row.address or "", row.city or "", row.state or "", row.zip_code or "", row.lead_type or "",
                row.stage or pipeline_rules.DEFAULT_STAGE, row.dead_reason, row.follow_up_date, row.offer_amount)


def _cards(conn, user_id, filters, today, stage: str, offset: int, limit: int) -> list[Card]:
    order = (sa.case((entries.c.follow_up_date.is_(None), 1), else_=0), entries.c.follow_up_date,
             sa.case((entries.c.updated_at.is_(None), 1), else_=0), entries.c.updated_at.desc(),
             ul.c.unlocked_at.desc(), leads_t.c.id)
    rows = conn.execute(
        sa.select(*_card_columns()).select_from(_board_from())
        .where(*_conditions(user_id, filters, today), _stage_is(stage))
        .order_by(*order).offset(offset).limit(limit)
    ).all()
    return [_card(row) for row in rows]


def board(user_id: uuid.UUID, filters: pipeline_rules.BoardFilters, today: date,
          per_column: int = pipeline_rules.COLUMN_PAGE) -> list[Column]:
    """Every stage in order: how many of the user's leads match ``filters`` there, and the first cards."""
    per_column = max(1, min(per_column, pipeline_rules.MAX_COLUMN_CARDS))
    with read_scope() as session:
        conn = session.connection()
        stage_expr = sa.func.coalesce(entries.c.stage, pipeline_rules.DEFAULT_STAGE)
        counts = dict(conn.execute(
            sa.select(stage_expr, sa.func.count()).select_from(_board_from())
            .where(*_conditions(user_id, filters, today)).group_by(stage_expr)
        ).all())
        return [Column(stage, int(counts.get(stage, 0)),
                       _cards(conn, user_id, filters, today, stage, 0, per_column) if counts.get(stage) else [])
                for stage in pipeline_rules.STAGE_KEYS]


def column_cards(user_id: uuid.UUID, filters: pipeline_rules.BoardFilters, today: date, stage: str, offset: int,
                 limit: int = pipeline_rules.COLUMN_PAGE) -> list[Card]:
    """The cards of one column after the first ``offset`` ("Show more")."""
    stage = pipeline_rules.clean_stage(stage)
    offset = max(0, min(int(offset), pipeline_rules.MAX_COLUMN_CARDS))
    limit = max(0, min(limit, pipeline_rules.MAX_COLUMN_CARDS - offset))
    if not limit:
        return []
    with read_scope() as session:
        return _cards(session.connection(), user_id, filters, today, stage, offset, limit)


def entry_of(session: Session, user_id: uuid.UUID, lead: Lead) -> Entry:
    conn = session.connection()
    row = conn.execute(sa.select(entries).where(entries.c.user_id == user_id, entries.c.lead_id == lead.id)).first()
    notes: list[Note] = []
    count = 0
    if row is not None:
        count = conn.execute(sa.select(sa.func.count()).where(notes_t.c.entry_id == row.id)).scalar_one()
        notes = [Note(n.id, n.created_at, n.body) for n in conn.execute(
            sa.select(notes_t).where(notes_t.c.entry_id == row.id)
            .order_by(notes_t.c.created_at.desc(), notes_t.c.id.desc()).limit(NOTES_SHOWN)).all()]
    return Entry(
        lead_id=lead.id, address=lead.address or "",
        stage=row.stage if row is not None else pipeline_rules.DEFAULT_STAGE,
        dead_reason=row.dead_reason if row is not None else None,
        follow_up=row.follow_up_date if row is not None else None,
        offer=row.offer_amount if row is not None else None,
        updated_at=row.updated_at if row is not None else None,
        notes=notes, note_count=count,
    )


def load_entry(user_id: uuid.UUID | None, lead_id: object) -> Entry:
    with read_scope() as session:
        lead = lead_access.require_unlocked(session, user_id, lead_id, PIPELINE_LOCKED)
        return entry_of(session, user_id, lead)


def due_follow_ups(user_id: uuid.UUID, today: date, limit: int = 20) -> tuple[int, list[DueFollowUp]]:
    """How many open leads have a follow-up today or earlier, and the ``limit`` most overdue first."""
    due = sa.and_(entries.c.user_id == user_id, entries.c.follow_up_date <= today,
                  entries.c.stage.notin_(pipeline_rules.FINISHED))
    joined = entries.join(ul, sa.and_(ul.c.user_id == entries.c.user_id, ul.c.lead_id == entries.c.lead_id)).join(
        leads_t, leads_t.c.id == entries.c.lead_id)
    with read_scope() as session:
        conn = session.connection()
        count = conn.execute(sa.select(sa.func.count()).select_from(joined).where(due)).scalar_one()
        rows = conn.execute(
            sa.select(leads_t.c.id, leads_t.c.address, entries.c.stage, entries.c.follow_up_date)
            .select_from(joined).where(due)
            .order_by(entries.c.follow_up_date, leads_t.c.address, leads_t.c.id).limit(max(0, limit))
        ).all() if count else []
    return count, [DueFollowUp(r.id, r.address or "", r.stage, r.follow_up_date,
                               pipeline_rules.due_status(r.follow_up_date, r.stage, today)) for r in rows]


# --------------------------------------------------------------------------- writes


def _write(user_id: uuid.UUID | None, lead_id: object, apply) -> Entry:
    """One transaction: the unlock check, the entry (created at the first change), ``apply(session, row)``,
    then the entry as the card shows it."""
    lead_uuid = lead_access.parse_lead(user_id, lead_id, PIPELINE_LOCKED)
    for attempt in range(2):  # a concurrent first write of the same lead: the second attempt updates its row
        try:
            with session_scope() as session:
                lead = lead_access.require_unlocked(session, user_id, lead_uuid, PIPELINE_LOCKED)
                row = session.exec(select(PipelineEntry).where(
                    PipelineEntry.user_id == user_id, PipelineEntry.lead_id == lead_uuid)).first()
                if row is None:
                    row = PipelineEntry(user_id=user_id, lead_id=lead_uuid, stage=pipeline_rules.DEFAULT_STAGE)
                apply(session, row)
                row.updated_at = utcnow()
                session.add(row)
                session.flush()
                return entry_of(session, user_id, lead)
        except IntegrityError:
            if attempt:
                raise
    raise AssertionError("unreachable")


def move(user_id: uuid.UUID | None, lead_id: object, stage: object, reason: object = "") -> Entry:
    """Move the lead to ``stage`` (a board move): the reason only for Dead; a finished stage drops the
    follow-up date; the offer stays."""
    key = pipeline_rules.clean_stage(stage)
    dead_reason = pipeline_rules.clean_reason(key, reason)

    def apply(session, row: PipelineEntry) -> None:
        row.stage, row.dead_reason = key, dead_reason
        if key in pipeline_rules.FINISHED:
            row.follow_up_date = None

    return _write(user_id, lead_id, apply)


def save_entry(user_id: uuid.UUID | None, lead_id: object, stage: object, reason: object, follow_up: object,
               offer: object, today: date) -> Entry:
    """The property card's Save: stage (and reason), follow-up date and offer, validated together."""
    pipeline_rules.clean_stage(stage)  # a junk stage is refused before anything is read

    def apply(session, row: PipelineEntry) -> None:
        change = pipeline_rules.check_change(stage, reason, follow_up, offer, today, row.follow_up_date)
        row.stage, row.dead_reason = change.stage, change.dead_reason
        row.follow_up_date, row.offer_amount = change.follow_up, change.offer

    return _write(user_id, lead_id, apply)


def add_note(user_id: uuid.UUID | None, lead_id: object, text: object) -> Entry:
    pipeline_rules.clean_note(text)  # an empty or long note is refused before anything is read

    def apply(session, row: PipelineEntry) -> None:
        if row.id is None:
            session.add(row)
            session.flush()
        count = session.connection().execute(
            sa.select(sa.func.count()).where(notes_t.c.entry_id == row.id)).scalar_one()
        session.add(PipelineNote(entry_id=row.id, body=pipeline_rules.clean_note(text, count), created_at=utcnow()))

    return _write(user_id, lead_id, apply)


# --------------------------------------------------------------------------- CSV, account deletion


def csv_leads(user_id: uuid.UUID) -> Iterator[pipeline_rules.CsvLead]:
    """Every lead the user unlocked (newest unlock first) with its entry, notes and saved analysis."""
    with read_scope() as session:
        conn = session.connection()
        rows = conn.execute(
            sa.select(*_card_columns(), leads_t.c.asking_price, leads_t.c.arv, leads_t.c.comps_arv,
                      leads_t.c.roi_basis, leads_t.c.raw_data, leads_t.c.source, entries.c.id.label("entry_id"),
                      entries.c.updated_at, analyses.c.inputs, analyses.c.updated_at.label("analysis_at"))
            .select_from(_board_from().outerjoin(
                analyses, sa.and_(analyses.c.user_id == ul.c.user_id, analyses.c.lead_id == ul.c.lead_id)))
            .where(ul.c.user_id == user_id).order_by(ul.c.unlocked_at.desc(), leads_t.c.id)
        ).all()
        notes: dict[int, list[tuple[datetime, str]]] = {}
        for n in conn.execute(
            sa.select(notes_t.c.entry_id, notes_t.c.created_at, notes_t.c.body)
            .join(entries, entries.c.id == notes_t.c.entry_id).where(entries.c.user_id == user_id)
            .order_by(notes_t.c.created_at, notes_t.c.id)
        ):
            notes.setdefault(n.entry_id, []).append((n.created_at, n.body))
    for row in rows:
        analysis_at, figures = None, None
        if row.inputs is not None:
            try:
                figures = pipeline_rules.headline(analysis_from_json(row.inputs))
                analysis_at = row.analysis_at
            except DealInputError:  # a stored analysis that no longer validates: no figures (as the page)
                figures = None
        yield pipeline_rules.CsvLead(
            address=row.address or "", city=row.city or "", state=row.state or "", zip_code=row.zip_code or "",
            lead_type=row.lead_type or "", asking_price=row.asking_price,
            arv=arv_used(row.arv, row.comps_arv, row.roi_basis),
            stage=row.stage or pipeline_rules.DEFAULT_STAGE, dead_reason=row.dead_reason, follow_up=row.follow_up_date,
            offer=row.offer_amount, notes=tuple(notes.get(row.entry_id, ())), analysis_saved_at=analysis_at,
            headline=figures, updated_at=row.updated_at, provenance=export_provenance(row.raw_data, row.source),
        )


def forget_user(session: Session, user_id: uuid.UUID) -> None:
    """Inside the caller's transaction: delete the user's pipeline entries and their notes."""
    own = sa.select(entries.c.id).where(entries.c.user_id == user_id)
    session.execute(sa.delete(notes_t).where(notes_t.c.entry_id.in_(own)))
    session.execute(sa.delete(entries).where(entries.c.user_id == user_id))
