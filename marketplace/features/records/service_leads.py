"""Leads made from public-record properties: one marketplace lead per property with an open
lead-making signal, kept in step with its signals.

``materialise(conn, property_ids, today)`` runs inside the caller's transaction (the ingestion's). For each
property it reads the open signals, and:

- with at least one lead-making signal (``records.rules_motivation.lead_type_for``): inserts or updates the lead
  ``external_id = "pr:<property id>"`` (``leads.property_id`` is UNIQUE: one lead per property, an archived
  one is re-activated, never duplicated). ``lead_type`` is the strongest signal's, ``source`` the title of
  the dataset that proves it; the market value, ARV, rehab, ROI and confidence come from
  ``property.rules_valuation``, the unlock cost from ``platform.pricing`` for that confidence, the motivation score from
  ``records.rules_motivation``. ``raw_data`` holds the provenance of every open signal, the basis sentence of
  every figure and the current status item open longest (``records.rules_open_since``: kind, own date, dataset title),
  which the card reads with its row. A lead whose values did not change is not written.
- a property without a street address and ZIP (parcel-only: ``has_street_address``) makes no lead whatever
  its signals, until a record of its parcel names them;
- with none: archives the lead (``is_active = false``). Archived leads stay readable by the users who
  unlocked them (the property page reads through ``user_leads``). In the same transaction, the purchases of
  every lead left without a current signal (archived now or before) whose signals the county closed within
  ``GUARANTEE_DAYS`` of the purchase get their credits back (``unlock.service_refunds``, once per purchase);
- an open signal a recorded sale of its property shows a new owner after is closed first ("sold on <date>
  (recorded sale)", ``unlock.rules_guarantee.sold_after``).

Only *current* signals count (``records.rules_signal_currency``): an open signal whose sale was held or whose record
is older than its dataset's ``max_age_days`` is history (the property page lists it) and neither makes nor
keeps a lead. ``is_new`` is set here, never by the insert: a lead is New while one of its current
lead-making signals first appeared in its dataset within the last seven days (and is dated within them).

Owner privacy: the lead carries the owner flags only (absentee, out of state, bank-owned: each may be
None, unknown); the owner's name and mailing address stay in
``properties``. What the UI reads (chips, the property page's panel, the owner) is ``record_views``.
"""

from __future__ import annotations

import uuid
from datetime import date, datetime, timedelta
from typing import Any, Iterable

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from marketplace.features.unlock import rules_guarantee as guarantee
from marketplace.features.records import rules_motivation as motivation_rules
from marketplace.features.records import rules_open_since as open_since
from marketplace.platform import pricing
from marketplace.features.marketplace import rules_sale_dates as sale_dates
from marketplace.features.records import rules_signal_currency as signal_currency
from marketplace.features.property import rules_valuation as valuation
from marketplace.features.marketplace import rules_headline as headline
from marketplace.features.records import rules_roll_facts as roll_facts
from marketplace.features.records.rules_addresses import address_key, zip_city_state
from marketplace.features.property import Comp, Subject, property_type
from marketplace.features.marketplace import zip_centre
from marketplace.features.records.rules import SIGNAL_KINDS, HpiPoint
from marketplace.platform.models import HpiPointRow, Lead, Property, PropertySignal, RecordedSale, utcnow
from marketplace.features.records.service_comps import recorded_sales_near
from marketplace.platform import bulk_rows
from marketplace.platform.leads import PROOF_KEY
from marketplace.features.records import service_sales as record_sales
from marketplace.features.unlock import service_refunds as refunds
from marketplace.features.records.service_titles import (
    MaxAgeLookup,
    TitleLookup,
    max_age_for,
    short_source,
    signal_label,
)
from marketplace.features.records.service_titles import list_place

leads_t = Lead.__table__
props_t = Property.__table__
signals_t = PropertySignal.__table__
sales_t = RecordedSale.__table__
hpi_t = HpiPointRow.__table__

EXTERNAL_PREFIX = "pr:"
IMAGE_STATUS = "no_images"  # public records publish no pictures (never "pending": nothing will come)
# The lead columns materialise writes (and compares, so an unchanged lead is not written).
LEAD_COLUMNS = (
    "address", "city", "state", "zip_code", "lead_type", "source", "asking_price", "zestimate", "arv",
    "rehab_estimate", "roi", "beds", "baths", "square_footage", "confidence_score", "credit_cost",
    "is_high_roi", "is_active", "raw_data", "latitude", "longitude", "motivation_score", "signal_count",
    "absentee_owner", "out_of_state_owner", "bank_owned", "sale_date", "comps_arv", "comps_count", "roi_basis",
    "is_new",  # set by materialise from the signals' currency (records.rules_signal_currency), not by lead_values
)

def _facts(signal: Any, titles: TitleLookup) -> motivation_rules.SignalFacts:
    """The signal as the score reads it; its dataset's title is the list it stacks as."""
    return motivation_rules.SignalFacts(kind=signal.kind, as_of=signal.as_of, amount_owed=signal.amount_owed,
                                        years_owed=signal.years_owed, sale_date=signal.sale_date,
                                        sale_type=signal.sale_type, notice_date=signal.notice_date,
                                        delinquent_since=signal.delinquent_since,
                                        source=titles(signal.dataset_id)[0])


def _proving(signals: list[Any], lead_type: str) -> Any:
    """The signal that proves the lead type: of that kind, the most recent record."""
    kind = next(k for k, t in motivation_rules.LEAD_TYPE_ORDER if t == lead_type)
    of_kind = [s for s in signals if s.kind == kind]
    return max(of_kind, key=lambda s: (s.as_of or date.min, s.record_key))


def _comps_arv(prop: Any, comps: list[Comp], today: date) -> headline.CompsArv:
    """The default selection's ARV of the recorded sales near the property (never its own sale)."""
    position = (prop.latitude, prop.longitude) if prop.latitude is not None and prop.longitude is not None \
        else zip_centre(prop.zip_code)
    subject = Subject(position[0] if position else None, position[1] if position else None, prop.square_footage,
                      prop.beds, property_type(prop.property_class))
    others = []
    if comps:  # no recorded sales near: nothing to tell apart from the property's own sale
        own = (address_key(prop.address or ""), prop.zip_code)
        others = [c for c in comps if (address_key(c.address), c.zip_code) != own]
    return headline.default_comps_arv(subject, others, today)


def _iso(value: date | datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def lead_values(prop: Any, signals: list[Any], titles: TitleLookup, *, hpi: list[HpiPoint],
                sales: list[valuation.Sale], today: date, comps: list[Comp] | None = None,
                parcel_sales: list | None = None, market_sales: list | None = None) -> dict | None:
    """The lead columns of a property from its open signals; None when no signal makes a lead. Pure.
    The property's market adds its roll facts, last recorded sale and comps (``record_sales.county_inputs``;
    a market without a roll costs the lowest tier)."""
    signals = [s for s in signals if s.kind in SIGNAL_KINDS]
    county, recorded, comps, arms_length = record_sales.county_inputs(signals, parcel_sales, market_sales, comps,
                                                                      today)
    kinds = {s.kind for s in signals}
    lead_type = motivation_rules.lead_type_for(kinds)
    if lead_type is None:
        return None
    proof = _proving(signals, lead_type)
    title, _ = titles(proof.dataset_id)
    last_sale = None
    if prop.last_sale_price and prop.last_sale_date:
        last_sale = valuation.Sale(price=prop.last_sale_price, sale_date=prop.last_sale_date,
                                   square_footage=prop.square_footage, zip_code=prop.zip_code)
    elif arms_length is not None:  # the parcel's last arm's-length recorded sale
        last_sale = valuation.Sale(price=arms_length.price, sale_date=arms_length.sale_date,
                                   square_footage=prop.square_footage, zip_code=prop.zip_code)
    value_label = titles(prop.value_dataset_id)[0] if prop.value_dataset_id else "assessor"
    market = valuation.market_value(assessor_value=prop.market_value, assessor_year=prop.value_year,
                                    assessor_label=value_label, last_sale=last_sale, hpi=hpi, today=today)
    after = valuation.arv(square_footage=prop.square_footage, zip_code=prop.zip_code, sales=sales, today=today)
    repair = valuation.rehab(square_footage=prop.square_footage, kinds=kinds, year_built=prop.year_built,
                             today=today)
    roi, roi_basis = valuation.roi(asking_price=None, market_value=market.value, arv=after.value,
                                   rehab=repair.value)
    # The headline ROI rests on the comps ARV where there are enough comps (marketplace.rules_headline).
    comps_arv, comps_basis = record_sales.price_comps_arv(prop, market_sales, today,
                                                          _comps_arv(prop, comps or [], today))
    top = headline.columns(asking_price=None, market_value=market.value, estimate_arv=after.value,
                           rehab=repair.value, comps=comps_arv)
    roi = top["roi"]
    if top["roi_basis"] == headline.COMPS:
        roi_basis = f"{roi_basis}, with the comps ARV ({top['comps_count']} comparable sales, default selection)"
    dated = [s.as_of for s in signals if s.as_of is not None]
    confidence, confidence_reasons = valuation.confidence(
        has_address=bool(prop.address), has_zip=bool(prop.zip_code), has_sqft=bool(prop.square_footage),
        market_value_basis=market.basis, arv_sample_size=after.sample_size, arv_widened_steps=after.widened_steps,
        newest_record_age_days=(today - max(dated)).days if dated else None,
    )
    score = motivation_rules.motivation([_facts(s, titles) for s in signals], market_value=market.value,
                                        today=today)
    city = prop.city or (zip_city_state(prop.zip_code) or ("", ""))[0]
    provenance = []
    for s in sorted(signals, key=lambda s: (s.dataset_id, s.record_key)):
        s_title, publisher = titles(s.dataset_id)
        provenance.append({
            "kind": s.kind, "sale_type": s.sale_type, "dataset_id": s.dataset_id, "title": s_title,
            "publisher": publisher, "record_key": s.record_key,
            "as_of": s.as_of.isoformat() if s.as_of else None,
            "retrieved_at": s.retrieved_at.isoformat(), "record_url": s.record_url,
        })
    proof_title, proof_publisher = titles(proof.dataset_id)
    sale, sale_source = _next_sale(signals, titles, today)
    longest = open_since.longest_open(signals, today)
    return {
        "address": prop.address + (f" UNIT {prop.unit}" if prop.unit else ""),
        "city": city.upper() if city else "",
        "state": prop.state,
        "zip_code": prop.zip_code,
        "lead_type": lead_type,
        "source": short_source(title),
        "asking_price": None,
        "zestimate": market.value,
        "arv": after.value,
        "rehab_estimate": repair.value,
        "roi": roi,
        "beds": prop.beds,
        "baths": prop.baths,
        "square_footage": prop.square_footage,
        "confidence_score": confidence,
        "credit_cost": roll_facts.credit_cost(county, pricing.credit_cost_for_confidence(confidence)),
        "is_high_roi": roi is not None and roi >= pricing.HIGH_ROI_THRESHOLD,
        "comps_arv": top["comps_arv"],
        "comps_count": top["comps_count"],
        "roi_basis": top["roi_basis"],
        "is_active": True,
        "latitude": prop.latitude,
        "longitude": prop.longitude,
        "motivation_score": score.score,
        "signal_count": len(signals),
        # Three-valued (None = unknown), as records.rules_owner_flags set them on the property.
        "absentee_owner": prop.absentee_owner,
        "out_of_state_owner": prop.out_of_state_owner,
        "bank_owned": prop.bank_owned,
        "sale_date": sale,
        "raw_data": {
            "public_record": True,
            "property_id": prop.id,
            # The proving record as facts: its lines (platform.leads.public_record_line) are written when shown,
            # without the record key for a viewer who has not unlocked the lead (it names the house).
            PROOF_KEY: {"publisher": proof_publisher, "title": proof_title, "record_key": proof.record_key,
                        "retrieved_at": proof.retrieved_at.isoformat()},
            "provenance": provenance,
            # records.rules_freshness.listed_line: the proving record's list (or event) day and its first sighting,
            # as values (the line is written when shown, in the viewer's zone)
            "listed": {"place": list_place(proof.dataset_id, proof_publisher),
                       "status_list": bool(getattr(proof, "status_list", False)),
                       "day": _iso(signal_currency.record_date(proof)),
                       "first_seen": _iso(getattr(proof, "first_seen_at", None))},
            "motivation_reasons": list(score.reasons),
            "basis": {"market_value": market.basis, "arv": after.basis, "rehab": repair.basis, "roi": roi_basis,
                      "confidence": list(confidence_reasons)},
            "arv_low": after.low, "arv_high": after.high,
            **record_sales.county_raw(prop, county, recorded, comps_basis),
            **({sale_dates.SOURCE_KEY: sale_source} if sale_source else {}),
            # records.rules_open_since: the current status item open longest (its kind, own date and dataset); the
            # card and the property page count its duration from the viewer's today.
            **({open_since.RAW_KEY: open_since.raw_value(longest[0].kind, longest[1], titles(longest[0].dataset_id)[0])}
               if longest else {}),
        },
    }


def _next_sale(signals: list[Any], titles: TitleLookup, today: date) -> tuple[date | None, dict | None]:
    """The lead's next sale date (marketplace.rules_sale_dates): the earliest date still ahead among its open signals'
    sale dates, with what says where it comes from ('Sheriff sale date from <dataset>, retrieved <date>')."""
    ahead = [s for s in signals if s.sale_date is not None and s.sale_date >= today]
    if not ahead:
        return None, None
    first = min(ahead, key=lambda s: (s.sale_date, s.dataset_id, s.record_key))
    return first.sale_date, sale_dates.record_source(signal_label(first.kind, first.sale_type),
                                                     titles(first.dataset_id)[0], first.retrieved_at)


def has_street_address(prop: Any) -> bool:
    """A property makes a lead only with its street address and ZIP: a parcel-only property (a parcel id and
    coordinates, no address yet) holds its signals and is never listed until a record of its parcel names
    them."""
    return bool(prop.address and prop.address_key and prop.zip_code)


def _same(stored: Any, new: Any) -> bool:
    if isinstance(new, float) and stored is not None:
        return abs(float(stored) - new) < 1e-9
    return stored == new


def current_signals(signals: Iterable[Any], max_ages: MaxAgeLookup, today: date) -> list[Any]:
    """The signals still current on ``today`` (``records.rules_signal_currency``): the others are history."""
    return [s for s in signals if signal_currency.is_current(s, max_ages(s.dataset_id), today)]


def lead_is_new(signals: Iterable[Any], max_ages: MaxAgeLookup, today: date) -> bool:
    """New: one of the current lead-making signals first appeared within the last seven days."""
    making = {kind for kind, _ in motivation_rules.LEAD_TYPE_ORDER}
    return any(signal_currency.signal_is_new(s, max_ages(s.dataset_id), today) for s in signals if s.kind in making)


def _prefetch(conn: Connection, zips: set[str], today: date, hpi_cache: dict, sales_cache: dict) -> None:
    """The index points of the ZIP3 areas and the recent sales of the ZIPs not read yet: one query each."""
    areas = sorted({z[:3] for z in zips} - set(hpi_cache))
    if areas:
        found: dict[str, list[Any]] = {a: [] for a in areas}
        for r in conn.execute(sa.select(hpi_t).where(hpi_t.c.zip3.in_(areas)).order_by(hpi_t.c.zip3, hpi_t.c.year,
                                                                                       hpi_t.c.id)):
            found[r.zip3].append(r)
        for area, rows in found.items():
            # One dataset per ZIP3 (the FHFA file); several would be a mapping mistake: take the first's.
            first = rows[0].dataset_id if rows else None
            hpi_cache[area] = [HpiPoint(r.dataset_id, r.zip3, r.year, r.index, r.annual_change)
                               for r in rows if r.dataset_id == first]
    wanted = sorted(zips - set(sales_cache))
    if wanted:
        since = today - timedelta(days=366 * max(valuation.ARV_WINDOWS_MONTHS) // 12 + 31)
        sales: dict[str, list[valuation.Sale]] = {z: [] for z in wanted}
        for r in conn.execute(
                sa.select(sales_t.c.price, sales_t.c.sale_date, sales_t.c.square_footage, sales_t.c.zip_code,
                          sales_t.c.address)
                .where(sales_t.c.zip_code.in_(wanted), sales_t.c.sale_date > since, sales_t.c.sale_date <= today)):
            sales[r.zip_code].append(valuation.Sale(price=r.price, sale_date=r.sale_date,
                                                    square_footage=r.square_footage, zip_code=r.zip_code,
                                                    address=r.address))
        sales_cache.update(sales)


# A signal's columns as the leads read them (its ``details`` are shown on the property page, never used here).
_SIGNAL_READ = tuple(c for c in signals_t.c if c.name != "details")
CHUNK = 1000  # properties read and written per round on SQLite (IN lists)
PG_CHUNK = 5000  # on PostgreSQL (one array parameter per read): memory stays flat however many properties


def materialise(conn: Connection, property_ids: Iterable[int], titles: TitleLookup, today: date,
                outcomes: dict[int, str] | None = None, added_since: datetime | None = None,
                max_ages: MaxAgeLookup | None = None) -> dict:
    """Insert, update or archive the leads of ``property_ids`` (inside the caller's transaction), in bulk:
    per round (``PG_CHUNK`` properties on PostgreSQL, ``CHUNK`` on SQLite), one read each of the properties,
    their open signals, their leads, the areas' index and the ZIPs' sales, then one COPY or multi-row
    INSERT, one merge of the leads whose values changed (``bulk_rows.update_rows``) and one UPDATE of the
    leads to archive. Returns counts: added, updated, archived,
    unchanged; ``outcomes`` (when given) receives each written property's outcome. A lead created at or
    after ``added_since`` (by an earlier batch of the same run) is written but not counted again: the run
    counts it once, as added. Only current signals count (module docstring); ``max_ages`` (dataset id ->
    ``max_age_days``) defaults to the one ``titles`` carries."""
    max_ages = max_ages or max_age_for(titles)
    counts = {"added": 0, "updated": 0, "archived": 0, "unchanged": 0}
    ids = sorted(set(property_ids))
    hpi_cache: dict[str, list[HpiPoint]] = {}      # by ZIP3: one read per area, not per property
    sales_cache: dict[str, list[valuation.Sale]] = {}  # by ZIP
    comps_cache: dict[str, list[Comp]] = {}  # by ZIP3: the recorded sales property.rules_comps selects from
    market_cache: dict[tuple[str, str], list] = {}  # by (market, ZIP3): record_sales.market_sales
    size = PG_CHUNK if conn.dialect.name == "postgresql" else CHUNK
    for start in range(0, len(ids), size):
        chunk = ids[start:start + size]
        props = {p.id: p for p in conn.execute(sa.select(props_t).where(bulk_rows.any_of(conn, props_t.c.id, chunk)))}
        open_signals: dict[int, list[Any]] = {}
        for s in conn.execute(sa.select(*_SIGNAL_READ).where(bulk_rows.any_of(conn, signals_t.c.property_id, chunk),
                                                         signals_t.c.status == "open")):
            open_signals.setdefault(s.property_id, []).append(s)
        existing = {r.property_id: r for r in conn.execute(
            sa.select(leads_t).where(bulk_rows.any_of(conn, leads_t.c.property_id, chunk)))}
        _prefetch(conn, {p.zip_code for p in props.values() if p.zip_code}, today, hpi_cache, sales_cache)
        own_sales = record_sales.parcel_sales(conn, props.values(), titles)
        now = utcnow()
        _close_sold(conn, open_signals, own_sales, today, now)
        inserts, updates, archives = [], [], []
        closed_leads: dict[uuid.UUID, int] = {}  # leads without a current signal: refunds.refund_contradicted
        for pid in chunk:
            prop, lead = props.get(pid), existing.get(pid)
            if prop is None:
                continue
            signals = current_signals(open_signals.get(pid, []), max_ages, today)
            values = None
            if has_street_address(prop) and motivation_rules.lead_type_for({s.kind for s in signals}) is not None:
                nearby = record_sales.cached_market_sales(conn, record_sales.market_for(signals), prop.zip_code, today, titles,
                                                          market_cache)
                if nearby is None and prop.zip_code[:3] not in comps_cache:
                    comps_cache[prop.zip_code[:3]] = recorded_sales_near(conn, prop.zip_code, today)[0]
                values = lead_values(prop, signals, titles, hpi=hpi_cache[prop.zip_code[:3]],
                                     sales=sales_cache[prop.zip_code], today=today,
                                     comps=comps_cache.get(prop.zip_code[:3]), parcel_sales=own_sales.get(pid),
                                     market_sales=nearby)
                values["is_new"] = lead_is_new(signals, max_ages, today)
            outcome = None
            if values is None and lead is not None:
                closed_leads[lead.id] = pid
            if values is None:
                if lead is not None and (lead.is_active or lead.is_new):
                    archives.append(lead.id)  # archived leads are never New
                    outcome = "archived" if lead.is_active else None
            elif lead is None:
                inserts.append(dict(values, id=uuid.uuid4(), external_id=f"{EXTERNAL_PREFIX}{pid}", property_id=pid,
                                    created_at=now, image_urls=[], images_fetch_status=IMAGE_STATUS))
                outcome = "added"
            elif any(not _same(getattr(lead, k), v) for k, v in values.items()):
                updates.append({**values, "id": lead.id})
                outcome = "updated"
            else:
                counts["unchanged"] += 1
            if outcome is not None and added_since is not None and lead is not None \
                    and lead.created_at >= added_since:
                outcome = None  # added earlier in this run: counted then
            if outcome is not None:
                counts[outcome] += 1
                if outcomes is not None:
                    outcomes[pid] = outcome
        bulk_rows.insert_rows(conn, leads_t, inserts)
        bulk_rows.update_rows(conn, leads_t, updates, LEAD_COLUMNS)
        if archives:
            conn.execute(sa.update(leads_t).where(bulk_rows.any_of(conn, leads_t.c.id, archives)).values(is_active=False,
                                                                                     is_new=False))
        refunds.refund_contradicted(conn, closed_leads, titles, max_ages, now)
    return counts


def _close_sold(conn: Connection, open_signals: dict[int, list[Any]], own_sales: dict[int, list], today: date,
                now: datetime) -> None:
    """Close every open signal a recorded sale of its property shows a new owner after
    (``unlock.rules_guarantee.sold_after``: "sold on <date> (recorded sale)"), and drop it from ``open_signals``."""
    for pid, signals in open_signals.items():
        sales = own_sales.get(pid)
        if not sales:
            continue
        kept = []
        for s in signals:
            sale = guarantee.sold_after(s, sales, today)
            if sale is None:
                kept.append(s)
                continue
            conn.execute(sa.update(signals_t).where(signals_t.c.id == s.id, signals_t.c.status == "open").values(
                status="closed", closed_at=now, closed_reason=guarantee.sold_reason(sale.sale_date)))
        signals[:] = kept
