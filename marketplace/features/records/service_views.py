"""What the UI reads of a public-record lead: its signal chips, the public-record panel of the
property page, and the owner, each for one viewer.

Privacy, decided here once:
- a record key, a link to the record, the parcel id, a signal's exact date, the motivation reasons (they
  quote amounts and dates) and the closed signals find the house in the public dataset in a minute: they
  are shown only to a user who unlocked the lead;
- the owner's name and mailing address (``properties``) are read only for a user who unlocked the lead;
- everyone sees the signals' kinds (the chips), the dataset they come from, the absentee and
  out-of-state flags, the motivation score and the basis of every figure.

Chips are the *current* signals only (``records.rules_signal_currency``); a closed signal, a held sale and a record
older than its dataset's maximum age are the page's history, each with its event date ('Tax sale held
Jul 23, 2020 (history)').

How long a status item has been open (``records.rules_open_since``) is told to a locked viewer by its year and whole
years ('Vacant since 2009 (17 years)', 'Vacant since 2026 (under a year)'), never by its day or month: a
notice's day with the card's ZIP finds the house in the county's list of open notices (Baltimore's holds a
few notices per ZIP a month), its year leaves dozens. What it weighs for an investor (how long the owner has
left it) is whole years. A tax delinquency is known by its first tax year owed, the same for everyone. The
exact day is the unlocked card's and the property page's.

The sale or auction date (``leads.sale_date``) is the one day a locked viewer is told
about, and only as the "Auction Soon" tag and a day count ('Sale in 17 days', ``marketplace.rules_sale_dates``), never
as a calendar date or with the record it comes from. Why the count may be shown: it is what an investor
weighs before paying (is there time to raise the money and inspect?), and it does not find the house on
its own: a sale list is published per sale date with every property of that sale on it (a sheriff or tax
sale lists dozens to thousands of houses), so the date only names the list the card's dataset line
already names; what singles the house out of that list (the record key, the docket or parcel number, the
opening bid and amounts owed, the address) stays paid. The count is derived on the server from today, so
no calendar date reaches a locked card's data. The residual risk is a small list (a county selling a few
houses a week) where date, ZIP and size together narrow it to a handful; accepted, since a lead with a
sale a few weeks away is worth little if the buyer cannot judge the time left. The full date and its
source ('Sheriff sale date from <dataset>, retrieved <date>', or 'Demo date' for a generated lead) are
shown on the property page and the dashboard, which only unlockers reach.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa

from marketplace.features.records import rules_motivation as motivation_rules
from marketplace.features.records import rules_signal_currency as signal_currency
from marketplace.features.marketplace import local_today
from marketplace.platform.db import read_scope
from marketplace.platform.models import Lead, Property, PropertySignal, utcnow
from marketplace.platform import lead_access
from marketplace.features.records.service_leads import current_signals
from marketplace.features.records.service_titles import signal_label
from marketplace.platform.leads import public_record_line, record_proof
from marketplace.features.records.service_titles import TitleLookup, max_age_for
from marketplace.features.records.service_titles import titles as dataset_file_titles
from marketplace.features.records.service_titles import list_place
from marketplace.features.records.service_sales import SalesView, sales_view
from marketplace.features.records.rules_roll_facts import ROLL_KEY, page_facts
from marketplace.features.records.source_opendata.markets import markets
from marketplace.features.records.service_mentions import DatasetMention, parcel_mentions

leads_t = Lead.__table__
props_t = Property.__table__
signals_t = PropertySignal.__table__


@dataclass(frozen=True)
class SignalChip:
    """One open signal as a card chip and a property-page line (provenance included)."""

    kind: str
    label: str              # 'Tax delinquent', 'Sheriff sale', ...
    dataset_id: str
    record_key: str
    as_of: date | None
    retrieved_at: datetime
    record_url: str | None
    source: str             # 'Public record: <publisher>, <title>' (platform.leads.public_record_line)
    # records.rules_freshness: whose list it is, whether a status list, and when LeadVault first stored the record
    place: str = ""
    status_list: bool = False
    first_seen_at: datetime | None = None
    listed_day: date | None = None  # the list's day (status) or the event's (records.rules_signal_currency.record_date)


@dataclass(frozen=True)
class OwnerDetails:
    name: str | None
    mailing_address: str | None
    mailing_city: str | None
    mailing_state: str | None
    mailing_zip: str | None
    absentee_owner: bool | None     # None: unknown (no mailing address on record)
    out_of_state_owner: bool | None


@dataclass(frozen=True)
class RecordProof:
    """The record that proves the lead (``raw_data[platform.leads.PROOF_KEY]``): its dataset for everyone,
    its key and retrieval instant for a viewer who unlocked the lead."""

    publisher: str
    title: str
    record_key: str = ""                 # unlocked only
    retrieved_at: datetime | None = None  # unlocked only


@dataclass(frozen=True)
class PublicRecordPanel:
    """The public-record part of a lead's page (module docstring: what a locked viewer does not get)."""

    unlocked: bool
    motivation_score: int | None
    motivation_reasons: tuple[str, ...]
    signal_count: int
    absentee_owner: bool | None     # None: unknown (no mailing address on record)
    out_of_state_owner: bool | None
    chips: list[SignalChip]
    basis: dict[str, Any]               # market_value, arv, rehab, roi: sentences; confidence: reasons
    proof: RecordProof | None           # the proving record (without its key when locked)
    parcel_id: str | None = None        # unlocked only
    year_built: int | None = None
    property_class: str | None = None
    bank_owned: bool | None = None
    class_dataset: str | None = None    # the dataset whose record gave the property its facts (class codes)
    owner: OwnerDetails | None = None   # unlocked only
    closed: list[str] = field(default_factory=list)  # history: 'Tax sale held Jul 23, 2020 (history)'
    # The county's roll facts with their basis ('Value basis': 'Cook County Assessor, tax year 2025'), or
    # the market's 'No property facts: ...' line (records.rules_roll_facts); no owner in them.
    roll_facts: list[tuple[str, str]] = field(default_factory=list)
    # Unlocked only: the parcel's recorded sales and its market's comparable sales (records.service_sales).
    sales: SalesView | None = None
    # unlocked only: every dataset that mentions the parcel (each signal, the roll records, the recorded
    # sales), by dataset (``records.service_mentions``)
    datasets: list[DatasetMention] = field(default_factory=list)


def _titles(titles: TitleLookup | None) -> TitleLookup:
    if titles is not None:
        return titles
    return dataset_file_titles()


def _chips(rows: list[Any], titles: TitleLookup, unlocked: bool) -> list[SignalChip]:
    order = {kind: i for i, (kind, _) in enumerate(motivation_rules.LEAD_TYPE_ORDER)}
    chips = []
    for s in sorted(rows, key=lambda s: (order.get(s.kind, len(order)), s.dataset_id, s.record_key)):
        title, publisher = titles(s.dataset_id)
        chips.append(SignalChip(kind=s.kind, label=signal_label(s.kind, s.sale_type), dataset_id=s.dataset_id,
                                record_key=s.record_key if unlocked else "", as_of=s.as_of if unlocked else None,
                                retrieved_at=s.retrieved_at, record_url=s.record_url if unlocked else None,
                                source=public_record_line(publisher, title), place=list_place(s.dataset_id, publisher),
                                status_list=bool(getattr(s, "status_list", False)),
                                first_seen_at=getattr(s, "first_seen_at", None),
                                listed_day=signal_currency.record_date(s)))
    return chips


def _proof(raw: dict, unlocked: bool) -> RecordProof | None:
    """The lead's proving record (``raw_data[platform.leads.PROOF_KEY]``) as this viewer may see it."""
    proof = record_proof(raw)
    if not proof.get("title"):
        return None
    if not unlocked:
        return RecordProof(publisher=str(proof.get("publisher") or ""), title=str(proof["title"]))
    try:
        retrieved_at = datetime.fromisoformat(str(proof.get("retrieved_at")))
    except ValueError:
        retrieved_at = None
    return RecordProof(publisher=str(proof.get("publisher") or ""), title=str(proof["title"]),
                       record_key=str(proof.get("record_key") or ""), retrieved_at=retrieved_at)


def _signal_rows(conn, lead_id: uuid.UUID, status: str) -> list[Any]:
    return conn.execute(
        sa.select(signals_t).join(leads_t, leads_t.c.property_id == signals_t.c.property_id)
        .where(leads_t.c.id == lead_id, signals_t.c.status == status)
    ).all()


def _owner(row: Any) -> OwnerDetails:
    return OwnerDetails(name=row.owner_name, mailing_address=row.mailing_address, mailing_city=row.mailing_city,
                        mailing_state=row.mailing_state, mailing_zip=row.mailing_zip,
                        absentee_owner=row.absentee_owner, out_of_state_owner=row.out_of_state_owner)


def history_lines(open_rows: list[Any], closed_rows: list[Any], titles: TitleLookup, today: date) -> list[str]:
    """The property's signals that are no longer current (closed, held, or older than their dataset's
    maximum age), newest event first, each with its event date (``records.rules_signal_currency.history_line``)."""
    current = {id(s) for s in current_signals(open_rows, max_age_for(titles), today)}
    past = [s for s in open_rows if id(s) not in current] + list(closed_rows)
    past.sort(key=lambda s: (signal_currency.event_date(s) or signal_currency.record_date(s) or date.min,
                             s.dataset_id, s.record_key), reverse=True)
    return [signal_currency.history_line(s) for s in past]


def public_record_panel(lead_id: str | uuid.UUID, user_id: uuid.UUID | None = None,
                        titles: TitleLookup | None = None, database_url: str | None = None,
                        today: date | None = None, unlocked: bool | None = None) -> PublicRecordPanel | None:
    """The public-record panel of a lead's page for this viewer; None for a lead not made from public
    records (or no such lead). Archived leads answer too (their unlockers still read them). ``today``
    (default: the app's calendar day) decides which signals are current. ``unlocked``: the caller's answer
    of ``lead_access`` for this viewer (None: asked here)."""
    lead_uuid = lead_access.lead_uuid(lead_id)
    if lead_uuid is None:
        return None
    with read_scope(database_url) as session:
        return panel_in(session.connection(), lead_uuid, user_id, titles, today, unlocked)


def panel_in(conn: Any, lead_uuid: uuid.UUID, user_id: uuid.UUID | None, titles: TitleLookup | None = None,
             today: date | None = None, unlocked: bool | None = None) -> PublicRecordPanel | None:
    """``public_record_panel`` read on the caller's connection (the property desk's one read)."""
    titles = _titles(titles)
    lead = conn.execute(sa.select(leads_t).where(leads_t.c.id == lead_uuid,
                                                 leads_t.c.property_id.is_not(None))).first()
    if lead is None:
        return None
    prop = conn.execute(sa.select(props_t).where(props_t.c.id == lead.property_id)).first()
    if unlocked is None:
        unlocked = lead_access.is_unlocked(conn, user_id, lead_uuid)
    open_rows = _signal_rows(conn, lead_uuid, "open")
    closed_rows = _signal_rows(conn, lead_uuid, "closed")
    raw = lead.raw_data if isinstance(lead.raw_data, dict) else {}
    market = markets().get(str((raw.get(ROLL_KEY) or {}).get("market") or ""))
    day = today or local_today(utcnow())
    sales = sales_view(conn, prop, market, day, titles) if unlocked and prop is not None else None
    mentions = parcel_mentions(conn, prop, [*open_rows, *closed_rows], titles) \
        if unlocked and prop is not None else []
    today = today or local_today(utcnow())
    closed = history_lines(open_rows, closed_rows, titles, today) if unlocked else []
    return PublicRecordPanel(
        unlocked=unlocked, motivation_score=lead.motivation_score,
        motivation_reasons=tuple(raw.get("motivation_reasons") or ()) if unlocked else (),
        signal_count=lead.signal_count,
        absentee_owner=lead.absentee_owner, out_of_state_owner=lead.out_of_state_owner,
        chips=_chips(current_signals(open_rows, max_age_for(titles), today), titles, unlocked),
        basis=dict(raw.get("basis") or {}), proof=_proof(raw, unlocked),
        parcel_id=prop.parcel_id if unlocked and prop is not None else None,
        year_built=prop.year_built if prop is not None else None,
        property_class=prop.property_class if prop is not None else None,
        bank_owned=lead.bank_owned,
        class_dataset=(prop.facts_record or "").split("/")[0] or None if prop is not None else None,
        owner=_owner(prop) if unlocked and prop is not None else None, closed=closed,
        roll_facts=page_facts(raw), sales=sales, datasets=mentions,
    )


def chip_labels(conn, property_ids: list[int], titles: TitleLookup | None = None,
                today: date | None = None) -> dict[int, list[str]]:
    """The card chips of many properties in ONE query (a page of the marketplace): per property, the
    labels of its current signals, one per kind ('Tax delinquent', 'Vacant', 'Sheriff sale'), strongest
    first. Kinds only: no record key, date or owner (what every viewer may see)."""
    ids = sorted({i for i in property_ids if i is not None})
    if not ids:
        return {}
    order = {kind: i for i, (kind, _) in enumerate(motivation_rules.LEAD_TYPE_ORDER)}
    rows = conn.execute(
        sa.select(signals_t.c.property_id, *(signals_t.c[name] for name in signal_currency.READS))
        .where(signals_t.c.property_id.in_(ids), signals_t.c.status == "open")
    ).all()
    rows = current_signals(rows, max_age_for(_titles(titles)), today or local_today(utcnow()))
    labels: dict[int, list[str]] = {}
    for row in sorted(rows, key=lambda r: (order.get(r.kind, len(order)), r.kind, r.sale_type or "")):
        label = signal_label(row.kind, row.sale_type)
        shown = labels.setdefault(row.property_id, [])
        if label not in shown:
            shown.append(label)
    return labels
