"""The deal pipeline's rules: stages, moves, notes, follow-up dates, offers, the board's
filters and the pipeline CSV. Pure: no database, no Reflex.

- A lead the user has unlocked is in exactly one stage; a lead without a stored entry is ``new``.
- Any stage may move to any other (investors reopen dead leads and deals fall through). Moving to ``dead``
  needs a reason (1-200 characters); leaving ``dead`` clears it. ``closed`` and ``dead`` are finished: they
  keep no follow-up date (moving there clears it, and setting one is refused).
- A note is 1-2,000 characters (trimmed), append-only, at most 500 per lead.
- A follow-up date is a calendar date (``YYYY-MM-DD`` from a date input). A new or changed date cannot be
  before the user's today nor more than five years ahead; an unchanged overdue date may stay.
- An offer is whole dollars from 1 to 100,000,000, or none.
- Follow-ups are due when their date is the user's today (``today``) or before it (``overdue``), both in
  the user's time zone; finished stages never are.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Any
from urllib.parse import parse_qsl, urlencode

from marketplace.features.property.rules_deal import DealAnalysis, flip, rental, rule_70
from marketplace.platform.errors import UserError
from marketplace.platform.leads import LEAD_TYPES, US_STATES
from marketplace.platform.limits import (
    MAX_PIPELINE_NOTES,
    PIPELINE_NOTE_MAX_LENGTH,
    PIPELINE_REASON_MAX_LENGTH,
    PIPELINE_SEARCH_MAX_LENGTH,
)
from marketplace.features.scrape import neutralize
from marketplace.features.records import display_city, display_street
from marketplace.platform.texts import NO_PROVENANCE
from marketplace.features.property import texts_pipeline as msg

STAGES: tuple[tuple[str, str], ...] = (
    ("new", "New"),
    ("contacted", "Contacted"),
    ("offer_made", "Offer Made"),
    ("under_contract", "Under Contract"),
    ("closed", "Closed"),
    ("dead", "Dead"),
)
STAGE_KEYS = tuple(key for key, _ in STAGES)
STAGE_LABELS = dict(STAGES)
DEFAULT_STAGE = "new"
FINISHED = ("closed", "dead")  # no follow-up, never due
MAX_OFFER = 100_000_000
FOLLOW_UP_HORIZON_DAYS = 5 * 366
COLUMN_PAGE = 20  # cards a board column shows at first and adds with "Show more"
MAX_COLUMN_CARDS = 500  # the most one column shows (the CSV has everything)

FOLLOW_UP_FILTERS = (("", "Any follow-up"), ("due", "Due today or overdue"), ("overdue", "Overdue"),
                     ("today", "Due today"), ("upcoming", "Upcoming"), ("none", "No follow-up"))
_FOLLOW_UP_KEYS = tuple(key for key, _ in FOLLOW_UP_FILTERS)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class PipelineError(UserError):
    """A refused pipeline change: ``title`` and ``message`` are what the user is told."""


def stage_label(stage: str | None) -> str:
    return STAGE_LABELS.get(stage or DEFAULT_STAGE, STAGE_LABELS[DEFAULT_STAGE])


def clean_stage(value: object) -> str:
    if isinstance(value, str) and value in STAGE_LABELS:
        return value
    raise PipelineError(*msg.PIPELINE_STAGE_UNKNOWN)


def _clean_text(value: object) -> str:
    """Trimmed text without control characters (a newline or tab stays), NFC."""
    if not isinstance(value, str):
        return ""
    return unicodedata.normalize("NFC", _CONTROL.sub("", value)).strip()


def clean_reason(stage: str, reason: object) -> str | None:
    """The dead reason a move to ``stage`` stores: required for ``dead``, None for every other stage."""
    if stage != "dead":
        return None
    text = " ".join(_clean_text(reason).split())
    if not text:
        raise PipelineError(*msg.PIPELINE_REASON_REQUIRED)
    if len(text) > PIPELINE_REASON_MAX_LENGTH:
        raise PipelineError(*msg.PIPELINE_REASON_TOO_LONG)
    return text


def clean_note(value: object, notes_so_far: int = 0) -> str:
    text = _clean_text(value)
    if not text:
        raise PipelineError(*msg.PIPELINE_NOTE_EMPTY)
    if len(text) > PIPELINE_NOTE_MAX_LENGTH:
        raise PipelineError(*msg.PIPELINE_NOTE_TOO_LONG)
    if notes_so_far >= MAX_PIPELINE_NOTES:
        raise PipelineError(*msg.PIPELINE_NOTES_FULL)
    return text


def parse_date(value: object) -> date | None:
    """'' or None: no date; 'YYYY-MM-DD' (or a ``date``): that day; anything else is refused."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise PipelineError(*msg.PIPELINE_DATE_INVALID)


def clean_follow_up(value: object, stage: str, today: date, current: date | None = None) -> date | None:
    """The follow-up date to store for ``stage``: None for a finished stage (a date there is refused),
    a new date within [today, today + five years]; ``current`` (already stored) may stay as it is."""
    day = parse_date(value)
    if day is None:
        return None
    if stage in FINISHED:
        raise PipelineError(*msg.PIPELINE_FOLLOW_UP_FINISHED)
    if day == current:
        return day
    if day < today:
        raise PipelineError(*msg.PIPELINE_DATE_PAST)
    if day > today + timedelta(days=FOLLOW_UP_HORIZON_DAYS):
        raise PipelineError(*msg.PIPELINE_DATE_TOO_FAR)
    return day


def parse_offer(value: object) -> int | None:
    """'' or None: no offer; whole dollars 1-100,000,000 ('$180,000' and '180000' read the same)."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise PipelineError(*msg.PIPELINE_OFFER_INVALID)
    if isinstance(value, int):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, str):
        text = value.strip().replace(",", "").replace("$", "").strip()
        if not text:
            return None
        if not re.fullmatch(r"\d{1,9}(\.0{1,2})?", text):
            raise PipelineError(*msg.PIPELINE_OFFER_INVALID)
        number = int(text.split(".")[0])
    else:
        raise PipelineError(*msg.PIPELINE_OFFER_INVALID)
    if not 1 <= number <= MAX_OFFER:
        raise PipelineError(*msg.PIPELINE_OFFER_INVALID)
    return number


@dataclass(frozen=True)
class EntryChange:
    """What one save stores: the stage, its reason, the follow-up and the offer (all validated)."""

    stage: str
    dead_reason: str | None
    follow_up: date | None
    offer: int | None


def check_change(stage: object, reason: object, follow_up: object, offer: object, today: date,
                 current_follow_up: date | None = None) -> EntryChange:
    """Validate a save of the property page's card (or a board move, with the entry's own follow-up and
    offer): raises ``PipelineError`` with the first problem. A move to a finished stage drops the date."""
    key = clean_stage(stage)
    dead_reason = clean_reason(key, reason)
    offer_value = parse_offer(offer)
    day = None if key in FINISHED else clean_follow_up(follow_up, key, today, current_follow_up)
    return EntryChange(key, dead_reason, day, offer_value)


def due_status(follow_up: date | None, stage: str | None, today: date) -> str:
    """'overdue', 'today', 'upcoming' or '' (no date, or a finished stage)."""
    if follow_up is None or (stage or DEFAULT_STAGE) in FINISHED:
        return ""
    if follow_up < today:
        return "overdue"
    return "today" if follow_up == today else "upcoming"


def user_today(now: datetime, zone) -> date:
    """The calendar day it is for the user (``zone``: a tzinfo)."""
    if now.tzinfo is None:
        now = now.replace(tzinfo=timezone.utc)
    return now.astimezone(zone).date()


# --------------------------------------------------------------------------- the board's filters


@dataclass(frozen=True)
class BoardFilters:
    """The board's filters: one lead type, one state, a city, a follow-up window, an address search."""

    lead_type: str = ""
    state: str = ""
    city: str = ""
    follow_up: str = ""  # a FOLLOW_UP_FILTERS key
    q: str = ""

    @classmethod
    def of(cls, lead_type: object = "", state: object = "", city: object = "", follow_up: object = "",
           q: object = "") -> "BoardFilters":
        """Junk reads as no filter (a hand-sent event gets the whole board, never an error)."""
        def text(value: object, limit: int) -> str:
            return " ".join(_clean_text(value).split())[:limit]
        return cls(
            lead_type=lead_type if lead_type in LEAD_TYPES else "",
            state=state.upper() if isinstance(state, str) and state.upper() in US_STATES else "",
            city=text(city, 100),
            follow_up=follow_up if isinstance(follow_up, str) and follow_up in _FOLLOW_UP_KEYS else "",
            q=text(q, PIPELINE_SEARCH_MAX_LENGTH),
        )

    @classmethod
    def from_query(cls, query: str) -> "BoardFilters":
        values = dict(parse_qsl(query or "", keep_blank_values=False)) if isinstance(query, str) else {}
        return cls.of(values.get("type", ""), values.get("state", ""), values.get("city", ""),
                      values.get("follow_up", ""), values.get("q", ""))

    def to_query(self) -> str:
        pairs = [("type", self.lead_type), ("state", self.state), ("city", self.city),
                 ("follow_up", self.follow_up), ("q", self.q)]
        return urlencode([(k, v) for k, v in pairs if v])

    @property
    def active(self) -> bool:
        return any((self.lead_type, self.state, self.city, self.follow_up, self.q))


# --------------------------------------------------------------------------- the deal analyzer's figures


@dataclass(frozen=True)
class Headline:
    """The analyzer's headline figures of a saved analysis (estimates from the user's inputs)."""

    flip_profit: float
    flip_roi_pct: float | None
    rental_cash_flow_monthly: float
    cap_rate_pct: float | None
    rule_70_offer: float
    arv: float = 0.0  # the analysis' own ARV: the CSV's ARV and its profit come from the same analysis


def headline(analysis: DealAnalysis | None) -> Headline | None:
    if analysis is None:
        return None
    f = flip(analysis.flip)
    r = rental(analysis.rental)
    return Headline(f.profit, f.roi_pct, r.monthly_cash_flow, r.cap_rate_pct,
                    rule_70(analysis.flip.arv, analysis.flip.rehab), analysis.flip.arv)


# --------------------------------------------------------------------------- CSV

CSV_COLUMNS = ("Address", "City", "State", "Zip Code", "Lead Type", "Stage", "Dead Reason", "Follow-up Date",
               "Offer", "Notes", "Asking Price", "ARV", "Analysis Saved", "Flip Profit (est.)",
               "Flip ROI (%) (est.)", "Rental Cash Flow / Month (est.)", "Cap Rate (%) (est.)",
               "70% Rule Max Offer (est.)", "Stage Updated (UTC)", "Provenance")


@dataclass(frozen=True)
class CsvLead:
    """One unlocked lead with its pipeline entry (or none) and its saved analysis (or none)."""

    address: str
    city: str
    state: str
    zip_code: str
    lead_type: str
    asking_price: int | None
    arv: int | None  # the ARV the lead's headline rests on (marketplace.rules_headline)
    stage: str = DEFAULT_STAGE
    dead_reason: str | None = None
    follow_up: date | None = None
    offer: int | None = None
    notes: tuple[tuple[datetime, str], ...] = ()
    analysis_saved_at: datetime | None = None
    headline: Headline | None = None
    updated_at: datetime | None = None
    provenance: str = NO_PROVENANCE  # marketplace.rules_leads.export_provenance: 'Demo data (generated)', 'Public record: ...'


def _utc(value: datetime | None, seconds: bool = False) -> str:
    if value is None:
        return ""
    value = value.astimezone(timezone.utc) if value.tzinfo else value
    return value.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")


def _rounded(value: float | None, digits: int = 0) -> float | int | None:
    if value is None:
        return None
    return round(value) if digits == 0 else round(value, digits)


def notes_cell(notes: tuple[tuple[datetime, str], ...]) -> str:
    """Oldest first, each '[2026-11-25 20:01 UTC] text', one per line."""
    return "\n".join(f"[{_utc(at)} UTC] {text}" for at, text in notes)


def csv_row(lead: CsvLead) -> list[str]:
    h = lead.headline
    cells: list[Any] = [
        display_street(lead.address), display_city(lead.city), lead.state, lead.zip_code, lead.lead_type,
        stage_label(lead.stage),
        lead.dead_reason or "", lead.follow_up.isoformat() if lead.follow_up else "", lead.offer,
        # With a saved analysis, its ARV (the one its profit is computed from); else the lead's.
        notes_cell(lead.notes), lead.asking_price, _rounded(h.arv) if h else lead.arv,
        _utc(lead.analysis_saved_at) if lead.analysis_saved_at else "",
        _rounded(h.flip_profit) if h else None, _rounded(h.flip_roi_pct, 1) if h else None,
        _rounded(h.rental_cash_flow_monthly) if h else None, _rounded(h.cap_rate_pct, 2) if h else None,
        _rounded(h.rule_70_offer) if h else None, _utc(lead.updated_at), lead.provenance or NO_PROVENANCE,
    ]
    return [neutralize(cell) for cell in cells]


def csv_filename(today: date) -> str:
    return f"leadvault-pipeline-{today.isoformat()}.csv"
