"""Comparable sales of an unlocked lead, and each user's pinned comps and the ARV they give.

Only a user with an unlock record of the lead (``lead_access``) reaches any of it; anyone else gets
``property.texts_comps.LOCKED`` (a ``UserError``) and nothing is read or written.

- ``comps_for(user_id, lead_id)``: the sales near the lead from its source's provider (chosen by the lead's
  source: a public-record lead -> ``comps_records``; a generated lead -> ``property.source_builtin_comps``; a
  RentCast lead -> ``property.source_rentcast_comps``, its answer kept ``CACHE_DAYS`` in ``lead_comp_cache``, and the
  lead's headline ROI recomputed from it, ``marketplace.rules_headline``), the
  selection, outliers and ARV of ``property.rules_comps``, and the user's pins. Before the user chooses, the default
  pins (every selected sale but the outliers) are stored, so ``comp_arv`` reads what the page showed.
- ``set_pinned(user_id, lead_id, comp_id, pinned)``: pins or unpins one selected sale (an id that is not
  in the selection changes nothing) and stores the pins and their ARV; the choice is restored next time.
- ``comp_arv(user_id, lead_id) -> CompArv | None``: the stored ARV of the user's pins (None before the
  comps were first viewed, or with nothing pinned). Cheap: no provider call. The deal analyzer's default.
- ``forget_user``: inside the caller's transaction, removes the user's comp choices (account deletion).

A comp is a recorded sale: a sale whose street address equals that of a lead the user has not unlocked
(or of the subject itself) is left out, so no locked lead's address appears in any comp.
"""

from __future__ import annotations

import uuid
from dataclasses import asdict, dataclass, replace
from datetime import date, datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, select

from marketplace.platform.config import lead_settings
from marketplace.features.property import rules_comps as comps_rules
from marketplace.features.marketplace import rules_headline as headline
from marketplace.features.marketplace import zip_centre
from marketplace.platform.leads import is_generated
from marketplace.platform.times import format_date
from marketplace.platform.db import read_scope, session_scope
from marketplace.features.property import texts_comps as text
from marketplace.platform.models import CompChoice, Lead, LeadCompCache, UserLead, utcnow
from marketplace.platform import lead_access
from marketplace.features.records import recorded_sales_near, subject_property
from marketplace.features.scrape import SourceError
from marketplace.features.property.source_builtin_comps import DEMO_SUFFIX, SINGLE_FAMILY, BuiltinComps
from marketplace.features.property.source_comps import LeadFacts
from marketplace.features.scrape import DEFAULT_BASE_URL
from marketplace.features.property.source_rentcast_comps import RentCastComps

CACHE_DAYS = 7
SOURCES = ("records", "builtin", "rentcast", "none")


@dataclass(frozen=True)
class CompArv:
    """The ARV of a user's pinned comps: value, low and high (25th/75th percentile $/sqft x living area),
    how many sales are pinned, and the sentence it rests on."""

    value: int
    low: int
    high: int
    count: int
    basis: str


@dataclass(frozen=True)
class CompsView:
    lead_id: uuid.UUID
    source: str                                  # one of SOURCES
    source_basis: str                            # where the sales come from (property.texts_comps.BASIS_*)
    subject_sqft: int | None
    subject_position: tuple[float, float] | None
    selection: comps_rules.Selection
    outliers: frozenset[str] = frozenset()
    pinned: tuple[str, ...] = ()
    customized: bool = False
    arv: comps_rules.Arv | None = None
    error: str = ""                              # the provider failed: nothing selected, nothing stored


@dataclass(frozen=True)
class _Prepared:
    lead_id: uuid.UUID
    source: str
    facts: LeadFacts | None
    subject: comps_rules.Subject
    sales: list[comps_rules.Comp] | None               # None: the provider must be asked (outside the transaction)
    datasets: list[str]
    cached_at: datetime | None
    row: tuple[list, bool] | None                # the stored (pins, customized)
    own: tuple[str, str]                         # the subject's (street, ZIP5): never its own comp


def _source_of(lead: Lead) -> str:
    if lead.property_id is not None:
        return "records"
    if is_generated(lead.raw_data):
        return "builtin"
    if isinstance(lead.raw_data, dict) and lead.raw_data.get("provider") == "rentcast":
        return "rentcast"
    return "none"


def _rentcast_type(lead: Lead) -> str | None:
    listing = (lead.raw_data or {}).get("rentcast")
    value = listing.get("propertyType") if isinstance(listing, dict) else None
    return value if isinstance(value, str) and value.strip() else None


def _street(address: str) -> str:
    return address.removesuffix(DEMO_SUFFIX).strip().upper()


def _blocked(session: Session, user_id: uuid.UUID, sales: list[comps_rules.Comp]) -> set[tuple[str, str]]:
    """(street, ZIP5) of the ``sales`` that are the address of a lead the user has not unlocked."""
    streets = sorted({_street(c.address) for c in sales})
    zips = sorted({c.zip_code[:5] for c in sales if c.zip_code})
    if not streets or not zips:
        return set()
    blocked: set[tuple[str, str]] = set()
    for start in range(0, len(streets), 500):
        rows = session.exec(
            select(Lead.address, Lead.zip_code).outerjoin(
                UserLead, sa.and_(UserLead.lead_id == Lead.id, UserLead.user_id == user_id))
            .where(Lead.zip_code.in_(zips), sa.func.upper(Lead.address).in_(streets[start:start + 500]),
                   UserLead.id.is_(None))
        ).all()
        blocked.update((_street(a), (z or "")[:5]) for a, z in rows)
    return blocked


def prepare(session: Session, user_id: uuid.UUID, lead: Lead, today: date) -> _Prepared:
    """Inside the caller's read, for a lead the caller found unlocked (``lead_access``): what choosing
    its comps needs from the database (``view_of`` does the rest)."""
    lead_id = lead.id
    source = _source_of(lead)
    facts, sales, datasets, cached_at = None, None, [], None
    subject = comps_rules.Subject(lead.latitude, lead.longitude, lead.square_footage, lead.beds, None)
    if source == "records":
        prop = subject_property(session.connection(), lead.property_id)
        if prop is not None:
            subject = comps_rules.Subject(prop.latitude if prop.latitude is not None else lead.latitude,
                                    prop.longitude if prop.longitude is not None else lead.longitude,
                                    prop.square_footage or lead.square_footage, prop.beds or lead.beds,
                                    comps_rules.property_type(prop.property_class))
        sales, datasets = _records_comps(session.connection(), lead, today)
    elif source in ("builtin", "rentcast"):
        raw_type = SINGLE_FAMILY if source == "builtin" else _rentcast_type(lead)
        subject = comps_rules.Subject(lead.latitude, lead.longitude, lead.square_footage, lead.beds,
                                comps_rules.property_type(raw_type))
        facts = LeadFacts(lead.id, lead.address, lead.city, lead.state, (lead.zip_code or "")[:5], lead.latitude,
                          lead.longitude, lead.square_footage, lead.beds, lead.baths, raw_type,
                          lead.created_at.date())
        if source == "rentcast":
            cache = session.get(LeadCompCache, lead_id)
            if cache is not None and cache.fetched_at > utcnow() - timedelta(days=CACHE_DAYS):
                sales, cached_at = [_from_json(item) for item in cache.comps], cache.fetched_at
    else:
        sales = []
    if subject.latitude is None or subject.longitude is None:  # placed at its ZIP centre (approximate)
        centre = zip_centre(lead.zip_code)
        if centre is not None:
            subject = replace(subject, latitude=centre[0], longitude=centre[1])
    row = session.exec(select(CompChoice).where(CompChoice.user_id == user_id,
                                                CompChoice.lead_id == lead_id)).first()
    stored = (list(row.pinned or []), bool(row.customized)) if row is not None else None
    return _Prepared(lead_id, source, facts, subject, sales, datasets, cached_at, stored,
                     (_street(lead.address), (lead.zip_code or "")[:5]))


def _records_comps(conn, lead: Lead, today: date) -> tuple[list[comps_rules.Comp], list[str]]:
    """A public-record lead's candidate sales: its market's own recorded sales where the market has a sales
    dataset (``records.service_sales``), else every recorded sale of its ZIP area."""
    from marketplace.features.records import ROLL_KEY
    from marketplace.features.records import service_sales as record_sales
    from marketplace.features.records import titles
    from marketplace.features.records import markets

    raw = lead.raw_data if isinstance(lead.raw_data, dict) else {}
    market = markets().get(str((raw.get(ROLL_KEY) or {}).get("market") or ""))
    if market is None or not market.sales:
        return recorded_sales_near(conn, lead.zip_code, today)
    found = record_sales.market_sales(conn, market, lead.zip_code, today, titles())
    return record_sales.as_comps(found), sorted({s.dataset_id for s in found})


def _to_json(comp: comps_rules.Comp) -> dict:
    return {**asdict(comp), "sale_date": comp.sale_date.isoformat()}


def _from_json(item: dict) -> comps_rules.Comp:
    return comps_rules.Comp(**{**item, "sale_date": date.fromisoformat(item["sale_date"])})


def _rentcast() -> RentCastComps | None:
    settings = lead_settings()
    if not settings.source_api_key:
        return None
    try:
        timeout = float(settings.source_timeout)
    except ValueError:
        timeout = 10.0
    return RentCastComps(settings.source_url or DEFAULT_BASE_URL, settings.source_api_key, timeout=timeout)


def _fetch(prepared: _Prepared, today: date, database_url: str | None) -> tuple[list[comps_rules.Comp], str]:
    """The provider's sales (outside any transaction), and an error text ('' when it answered)."""
    if prepared.sales is not None:
        return prepared.sales, ""
    if prepared.source == "builtin":
        return BuiltinComps().sales_near(prepared.facts, today), ""
    provider = _rentcast()
    if provider is None:
        return [], text.RENTCAST_NO_KEY
    try:
        sales = provider.sales_near(prepared.facts, today)
    except SourceError as exc:
        return [], text.SOURCE_FAILED.format(reason=str(exc).rstrip("."))
    finally:
        provider.close()
    with session_scope(database_url) as session:
        cache = session.get(LeadCompCache, prepared.lead_id) or LeadCompCache(lead_id=prepared.lead_id,
                                                                             provider="rentcast")
        cache.comps, cache.fetched_at = [_to_json(c) for c in sales], utcnow()
        session.add(cache)
        _store_headline(session, prepared, sales, today)
    return sales, ""


def _store_headline(session: Session, prepared: _Prepared, sales: list[comps_rules.Comp], today: date) -> None:
    """A RentCast lead's headline (marketplace.rules_headline) once its comparables are known: the default selection's
    ARV (never its own address), the ROI the card shows and sorts by."""
    lead = session.get(Lead, prepared.lead_id)
    if lead is None:
        return
    others = [c for c in sales if (_street(c.address), c.zip_code[:5]) != prepared.own]
    columns = headline.columns(asking_price=lead.asking_price, market_value=lead.zestimate,
                               estimate_arv=lead.arv, rehab=lead.rehab_estimate,
                               comps=headline.default_comps_arv(prepared.subject, others, today))
    for name, value in columns.items():
        setattr(lead, name, value)
    session.add(lead)


def _basis(prepared: _Prepared, today: date) -> str:
    if prepared.source == "records":
        return text.BASIS_RECORDS.format(datasets=", ".join(prepared.datasets) or "none in the last 12 months")
    if prepared.source == "builtin":
        return text.BASIS_DEMO
    if prepared.source == "rentcast":
        return text.BASIS_RENTCAST.format(date=format_date(prepared.cached_at or today, "UTC"))
    return text.BASIS_NONE


def _view(user_id: uuid.UUID, prepared: _Prepared, today: date, database_url: str | None) -> CompsView:
    sales, error = _fetch(prepared, today, database_url)
    with read_scope(database_url) as session:
        blocked = _blocked(session, user_id, sales) | {prepared.own}
    visible = [c for c in sales if (_street(c.address), c.zip_code[:5]) not in blocked]
    selection = comps_rules.select_comps(prepared.subject, visible, today)
    hidden = comps_rules.outliers(selection.comps)
    ids = [s.comp.comp_id for s in selection.comps]
    customized = bool(prepared.row and prepared.row[1])
    pins = tuple(i for i in ids if i in set(prepared.row[0])) if customized else comps_rules.default_pins(selection.comps)
    pinned = [s for s in selection.comps if s.comp.comp_id in pins]
    position = None
    if prepared.subject.latitude is not None and prepared.subject.longitude is not None:
        position = (prepared.subject.latitude, prepared.subject.longitude)
    return CompsView(prepared.lead_id, prepared.source, _basis(prepared, today), prepared.subject.square_footage,
                     position, selection, hidden, pins, customized,
                     comps_rules.pinned_arv(prepared.subject.square_footage, pinned), error)


def _store(session: Session, user_id: uuid.UUID, view: CompsView, customized: bool) -> None:
    row = session.exec(select(CompChoice).where(CompChoice.user_id == user_id,
                                                CompChoice.lead_id == view.lead_id)).first()
    if row is None:
        row = CompChoice(user_id=user_id, lead_id=view.lead_id)
    row.pinned, row.customized = list(view.pinned), customized
    row.arv = view.arv.value if view.arv else None
    row.arv_low = view.arv.low if view.arv else None
    row.arv_high = view.arv.high if view.arv else None
    row.pinned_count = view.arv.count if view.arv else 0
    row.basis = view.arv.basis[:255] if view.arv else ""
    row.updated_at = utcnow()
    session.add(row)


def _today(today: date | None) -> date:
    return today or utcnow().date()


def comps_for(user_id: uuid.UUID | None, lead_id: object, database_url: str | None = None, *,
              today: date | None = None) -> CompsView:
    """The lead's comps for this user (module docstring); ``UserError(LOCKED)`` without an unlock."""
    day = _today(today)
    with read_scope(database_url) as session:
        prepared = prepare(session, user_id, lead_access.require_unlocked(session, user_id, lead_id, text.LOCKED),
                           day)
    return view_of(user_id, prepared, day, database_url)[0]


def view_of(user_id: uuid.UUID, prepared: _Prepared, today: date,
            database_url: str | None = None) -> tuple[CompsView, bool]:
    """The comps of a ``prepare``d lead (the provider asked outside any transaction) and whether the
    default pins were stored now. The default pins are stored when they changed: the user's own choice of
    public sales, written for the user whose unlock ``prepare``'s caller checked."""
    view = _view(user_id, prepared, today, database_url)
    stored = prepared.row
    if not view.error and not view.customized and (stored is None or tuple(stored[0]) != view.pinned):
        with session_scope(database_url) as session:
            _store(session, user_id, view, customized=False)
        return view, True
    return view, False


def set_pinned(user_id: uuid.UUID | None, lead_id: object, comp_id: object, pinned: object,
               database_url: str | None = None, *, today: date | None = None) -> CompsView:
    """Pin (``pinned`` true) or unpin one selected sale, store the choice and its ARV; the new view."""
    lead_uuid = lead_access.parse_lead(user_id, lead_id, text.LOCKED)
    day = _today(today)
    with read_scope(database_url) as session:
        prepared = prepare(session, user_id, lead_access.require_unlocked(session, user_id, lead_uuid, text.LOCKED),
                           day)
    view = _view(user_id, prepared, day, database_url)
    ids = [s.comp.comp_id for s in view.selection.comps]
    if view.error or not isinstance(comp_id, str) or comp_id not in ids or not isinstance(pinned, bool):
        return view
    wanted = set(view.pinned) | {comp_id} if pinned else set(view.pinned) - {comp_id}
    pins = tuple(i for i in ids if i in wanted)
    chosen = [s for s in view.selection.comps if s.comp.comp_id in wanted]
    view = CompsView(view.lead_id, view.source, view.source_basis, view.subject_sqft, view.subject_position,
                     view.selection, view.outliers, pins, True, comps_rules.pinned_arv(view.subject_sqft, chosen))
    with session_scope(database_url) as session:
        lead_access.require_unlocked(session, user_id, lead_uuid, text.LOCKED)
        _store(session, user_id, view, customized=True)
    return view


def comp_arv(user_id: uuid.UUID | None, lead_id: object, database_url: str | None = None) -> CompArv | None:
    """The stored ARV of the user's pinned comps of the lead, or None; ``UserError(LOCKED)`` without an
    unlock."""
    with read_scope(database_url) as session:
        lead = lead_access.require_unlocked(session, user_id, lead_id, text.LOCKED)
        return stored_arv(session, user_id, lead.id)


def stored_arv(session: Session, user_id: uuid.UUID, lead_id: uuid.UUID) -> CompArv | None:
    """Inside the caller's read, for a lead the caller found unlocked: the stored ARV of the user's pins."""
    row = session.exec(select(CompChoice).where(CompChoice.user_id == user_id,
                                                CompChoice.lead_id == lead_id)).first()
    if row is None or row.arv is None:
        return None
    return CompArv(row.arv, row.arv_low if row.arv_low is not None else row.arv,
                   row.arv_high if row.arv_high is not None else row.arv, row.pinned_count, row.basis)


def forget_user(session: Session, user_id: uuid.UUID) -> None:
    """Inside the caller's transaction: delete the user's comp choices."""
    session.execute(sa.delete(CompChoice.__table__).where(CompChoice.__table__.c.user_id == user_id))
