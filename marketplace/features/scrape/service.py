"""Bulk scrapes (SPEC 2, 3, 4, 7, 8, 9): one service for the /bulkscraper page,
the webhook API and the developer explorer.

A scrape asks the lead source for ``lead_count`` leads matching the request
and gives the user the full data of each. The leads are stored as leads that
belong to the scrape (``leads.scrape_id``; never listed on the marketplace),
each with an unlock record of purchase_type 'bulk_scrape', so they show on
the dashboard and their property pages open. A property the user already
holds (same source listing, or same address and ZIP) is never returned or
charged for again, and a listing that is for sale on the marketplace is not
handed out by a scrape (a scrape is never a cheap way to unlock one). When
fewer leads than asked can be found, the user pays only for what was
delivered (the discount tier of the delivered count) and is told so.

When public records are configured (``records.service_inventory``), a scrape draws from the ingested
public-record leads instead of the generator, and buying one records the user's unlock of that lead (no
copy): its property page then shows what an unlock shows. Such a delivery takes one of the lead's spots
(``LEAD_MAX_HOLDERS``): the source offers only leads with a spot left, and ``store`` claims each spot with
a conditional UPDATE in its transaction (``unlock_counts.claim``), dropping a lead that filled meanwhile
before the cost is computed, so a scrape or webhook call never exceeds the cap and never charges for a
lead it did not deliver.

The developer explorer's manual scrape (``explorer.service_scrape``) goes
through the same generation and source (``generate_or_fail``), but adds the
leads to the marketplace inventory instead.

Generation runs first, without a transaction (it may take a while and calls
the source). Then one transaction locks the user's profile row, checks the
leads against what the user holds again (a concurrent scrape, another tab or
a retried webhook call may have delivered some meanwhile), and stores the
scrape row, the leads, the unlock records, the ``held_properties`` rows (whose
primary key lets the database refuse a second delivery of a property to one
user) and the ledger spend: a failure at any step (including a balance spent
meanwhile) leaves credits and rows exactly as they were.

Refusals are ``ScrapeError`` subclasses (title and message for the user);
``features/scrape/api_webhook.py`` maps each class to its HTTP status in one table. A failing
lead source is logged with its detail; the user is told only that the source
is unavailable.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from marketplace.features.scrape.rules_webhook import ScrapedLead
from marketplace.features.scrape import rules as scrape_rules
from marketplace.features.records import display_city, display_street
from marketplace.features.marketplace import CriteriaError
from marketplace.platform.errors import UserError
from marketplace.platform.config import get_settings
from marketplace.platform.leads import export_provenance, is_generated
from marketplace.features.marketplace import parse_date
from marketplace.platform.pricing import display_confidence
from marketplace.platform.db import read_scope, session_scope
from marketplace.platform.texts import (
    ALL_HELD_MEANWHILE,
    DEMO_SOURCE_REFUSED,
    INSUFFICIENT_CREDITS_TITLE,
    SCRAPE_FAILED_TITLE,
    SOURCE_UNAVAILABLE,
    USER_NOT_FOUND,
)
from marketplace.features.unlock import SCRAPE_ALL_SOLD_OUT
from marketplace.platform.models import BulkScrape, HeldProperty, Lead, Profile, UserLead, utcnow
from marketplace.platform import ledger
from marketplace.features.unlock import service_counts as unlock_counts
from marketplace.features.scrape.source_base import LeadSource, SourceError
from marketplace.features.scrape.source_markets import pin_cities

log = logging.getLogger("marketplace.scrapes")

BUILTIN_SOURCE = "builtin"  # scrape.source_builtin.BuiltinSource.name: the demo generator
CHUNK = 100          # leads asked of the source per step (progress is reported per step)
TOP_UP_ROUNDS = 3    # extra asks when duplicates were dropped

Progress = Callable[[int, int], None]
# (session, user id, candidates) -> (listing ids, (address, ZIP) keys) the candidates must not repeat
Held = Callable[..., tuple[set[str], set[tuple[str, str]]]]


class ScrapeError(UserError):
    """A refused or failed scrape (bad criteria, nothing matched): ``title``/``message`` are shown."""


class ScrapeUserNotFound(ScrapeError):
    """The user has no profile."""


class ScrapeInsufficientCredits(ScrapeError):
    """The balance is below the cost; nothing was charged."""


class SourceUnavailable(ScrapeError):
    """The lead source failed; its detail is in the server log, never in the message."""


# Called inside the scrape's transaction, after the spend: (session, result) -> the caller's answer,
# which comes back as ``ScrapeResult.answer`` (the webhook API's 200 body, built once).
Within = Callable[..., Any]


@dataclass(frozen=True)
class ScrapeResult:
    scrape_id: uuid.UUID
    created_at: datetime
    lead_count: int
    leads_generated: int
    credits_used: int
    balance: int
    leads: list[dict]
    answer: Any = None  # what ``within`` returned

    @property
    def shortfall(self) -> str:
        """'' when every lead asked for was delivered; otherwise what the user is told."""
        return scrape_rules.delivered_shortfall(self.lead_count, self.leads_generated)


def _held(session, user_id: uuid.UUID, candidates: list[dict]) -> tuple[set[str], set[tuple[str, str]]]:
    """Listing ids and (address, ZIP) keys among ``candidates`` the user already holds,
    plus listing ids for sale on the marketplace (returned in the first set)."""
    listing_ids = {c["external_id"] for c in candidates if c.get("external_id")}
    zips = {c.get("zip_code") for c in candidates if c.get("zip_code")}
    held_ids: set[str] = set()
    held_addresses: set[tuple[str, str]] = set()
    if listing_ids:
        rows = session.exec(
            select(Lead.external_id, Lead.source_listing_id)
            .where(sa.or_(Lead.external_id.in_(listing_ids), Lead.source_listing_id.in_(listing_ids)))
            .where(sa.or_(
                Lead.is_active == sa.true(),
                Lead.id.in_(select(UserLead.lead_id).where(UserLead.user_id == user_id)),
            ))
        ).all()
        for external_id, listing_id in rows:
            held_ids.update(x for x in (external_id, listing_id) if x)
    if zips:
        rows = session.exec(
            select(Lead.address, Lead.zip_code)
            .join(UserLead, UserLead.lead_id == Lead.id)
            .where(UserLead.user_id == user_id, Lead.zip_code.in_(zips))
        ).all()
        held_addresses = {scrape_rules.address_key(a, z) for a, z in rows}
    return held_ids, held_addresses


def _search(source: LeadSource, criteria) -> list[dict]:
    """The source's leads; a built-in search that cannot be filled returns what it found."""
    search_partial = getattr(source, "search_partial", None)
    if search_partial is not None:
        return search_partial(criteria)
    return source.search(criteria)


def generate(user_id: uuid.UUID, request: scrape_rules.ScrapeRequest, source: LeadSource,
             progress: Progress | None = None, held: Held | None = None) -> list[dict]:
    """Up to ``request.lead_count`` new leads for this user (no transaction held).

    Candidates are asked of the source in chunks (progress is reported per
    chunk), then checked with one read against what they must not repeat
    (``held``: by default what the user holds); when duplicates were dropped,
    the shortfall is asked again (a few rounds at most)."""
    held = held or _held
    wanted = request.lead_count
    base = request.criteria()
    found: list[dict] = []
    seen_ids: set[str] = set()
    seen_addresses: set[tuple[str, str]] = set()
    for _round in range(1 + TOP_UP_ROUNDS):
        need = wanted - len(found)
        if need <= 0:
            break
        batch: list[dict] = []
        exhausted = False
        while len(batch) < need:
            step = min(CHUNK, need - len(batch))
            got = _search(source, _with_count(base, step))
            batch.extend(got)
            if progress is not None:
                progress(min(wanted, len(found) + len(batch)), wanted)
            if len(got) < step:
                exhausted = True
                break
        with read_scope() as session:
            held_ids, held_addresses = held(session, user_id, batch)
        if get_settings().is_production:
            batch = [lead for lead in batch if not is_generated(lead.get("raw_data"))]  # never sold
        for lead in batch:
            key = scrape_rules.address_key(lead.get("address"), lead.get("zip_code"))
            listing = lead.get("external_id")
            if key in held_addresses or key in seen_addresses or (
                    listing and (listing in held_ids or listing in seen_ids)):
                continue
            seen_addresses.add(key)
            if listing:
                seen_ids.add(listing)
            found.append(lead)
            if len(found) >= wanted:
                break
        if exhausted or not batch:
            break
    if progress is not None:
        progress(len(found), wanted)
    return found[:wanted]


def _with_count(criteria, count: int):
    return replace(criteria, count=count)


def output_row(lead_id: uuid.UUID, lead: dict, created_at: datetime) -> dict:
    """A lead as the user receives it (page, CSV, webhook response, stored output): ``rules_webhook.ScrapedLead``."""
    sale_date = parse_date(lead.get("sale_date"))
    return ScrapedLead(
        id=str(lead_id),
        # In reading case, as the cards show it (records.rules_address_display: "466 Roundview Road", "Chicago").
        address=display_street(lead.get("address")),
        city=display_city(lead.get("city")),
        state=lead.get("state"),
        zip_code=lead.get("zip_code"),
        lead_type=lead.get("lead_type"),
        source=lead.get("source"),
        asking_price=lead.get("asking_price"),
        zestimate=lead.get("zestimate"),
        arv=lead.get("arv"),
        rehab_estimate=lead.get("rehab_estimate"),
        roi=lead.get("roi"),
        beds=lead.get("beds"),
        baths=lead.get("baths"),
        square_footage=lead.get("square_footage"),
        confidence_score=display_confidence(lead.get("confidence_score")),
        is_high_roi=bool(lead.get("is_high_roi")),
        is_new=bool(lead.get("is_new", True)),
        created_at=created_at.isoformat(),
        # Where the lead comes from, on every row of every export: 'Demo data (generated)' for the built-in
        # source's leads, 'Public record: <publisher>, <dataset>' (platform.leads.export_provenance).
        provenance=export_provenance(lead.get("raw_data"), lead.get("source")),
        # The next sale or auction date, ISO (None without one): the results' "Auction Soon" (marketplace.rules_sale_dates).
        sale_date=sale_date.isoformat() if sale_date else None,
    ).model_dump()


def check_balance(user_id: uuid.UUID, lead_count: int) -> int:
    """The balance, or ``ScrapeError`` (402) when it is below the cost (nothing charged)."""
    cost = scrape_rules.scrape_cost(lead_count)
    with read_scope() as session:
        balance = session.exec(select(Profile.credits_remaining).where(Profile.user_id == user_id)).first()
    if balance is None:
        raise ScrapeUserNotFound(SCRAPE_FAILED_TITLE, USER_NOT_FOUND)
    if balance < cost:
        raise ScrapeInsufficientCredits(INSUFFICIENT_CREDITS_TITLE, scrape_rules.need_credits_message(cost, balance))
    return balance


def run_scrape(user_id: uuid.UUID, request: scrape_rules.ScrapeRequest, *, origin: str = "ui", charge: bool = True,
               source: LeadSource | None = None, progress: Progress | None = None,
               within: Within | None = None) -> ScrapeResult:
    """Generate, then charge and store in one transaction (``within(session, result)`` runs in it
    last, e.g. the webhook's log row). Raises ``ScrapeError``."""
    problems = request.problems()
    if problems:
        raise ScrapeError(SCRAPE_FAILED_TITLE, " ".join(problems))
    request = pin_request(request)
    if charge:
        check_balance(user_id, request.lead_count)
    leads = generate_or_fail(user_id, request, source, progress)
    return store(user_id, request, leads, origin=origin, charge=charge, within=within)


def pin_request(request: scrape_rules.ScrapeRequest) -> scrape_rules.ScrapeRequest:
    """The request with every city as the 'City, ST' places it means (``scrape.source_markets.resolve_city``:
    a city without a state and no state selected is the largest of that name), so the form's
    preview, the webhook API and every source agree. ``ScrapeError`` for a city that does not exist."""
    if not request.cities:
        return request
    try:
        return replace(request, cities=pin_cities(request.cities, request.states))
    except CriteriaError as exc:
        raise ScrapeError(SCRAPE_FAILED_TITLE, str(exc)) from exc


def generate_or_fail(user_id: uuid.UUID, request, source: LeadSource | None, progress: Progress | None,
                      held: Held | None = None, nothing: str = "nothing was charged") -> list[dict]:
    """``generate`` with the configured source; ``ScrapeError`` when the source fails or nothing matched."""
    if source is None:
        from marketplace.features.records import scrape_source

        source = scrape_source()  # the real inventory when there is one (always in production), else the generator
    if get_settings().is_production and getattr(source, "name", "") == BUILTIN_SOURCE:
        raise ScrapeError(SCRAPE_FAILED_TITLE, DEMO_SOURCE_REFUSED)  # invented data is never sold
    try:
        leads = generate(user_id, request, source, progress, held)
    except CriteriaError as exc:
        raise ScrapeError(SCRAPE_FAILED_TITLE, str(exc)) from exc
    except SourceError as exc:
        log.warning("scrape for %s: lead source failed: %s", user_id, exc)
        raise SourceUnavailable(SCRAPE_FAILED_TITLE, SOURCE_UNAVAILABLE) from exc
    if not leads:
        raise ScrapeError(SCRAPE_FAILED_TITLE, f"No leads matched your criteria; {nothing}. Try widening the ranges.")
    return leads


def _lock_profile(session, user_id: uuid.UUID) -> bool:
    """Lock the user's profile row for the rest of the transaction (PostgreSQL ``FOR UPDATE``;
    SQLite's ``BEGIN IMMEDIATE`` already serializes writers). False when there is none."""
    return session.exec(select(Profile.user_id).where(Profile.user_id == user_id).with_for_update()).first() is not None


def _not_held(session, user_id: uuid.UUID, leads: list[dict]) -> list[dict]:
    """``leads`` less those the user holds now (checked under the profile lock)."""
    held_ids, held_addresses = _held(session, user_id, leads)
    return [lead for lead in leads
            if scrape_rules.address_key(lead.get("address"), lead.get("zip_code")) not in held_addresses
            and not (lead.get("external_id") and lead["external_id"] in held_ids)]


def store(user_id: uuid.UUID, request: scrape_rules.ScrapeRequest, leads: list[dict], *, origin: str,
          charge: bool, within: Within | None = None) -> ScrapeResult:
    """One transaction: lock the user's row, drop leads the user came to hold meanwhile, then the
    scrape row, leads, unlock records, held properties, ledger spend (and ``within``)."""
    now = utcnow()
    scrape_id = uuid.uuid4()
    try:
        with session_scope() as session:
            if not _lock_profile(session, user_id):
                raise ScrapeUserNotFound(SCRAPE_FAILED_TITLE, USER_NOT_FOUND)
            leads = _not_held(session, user_id, leads)
            if not leads:
                raise ScrapeError(SCRAPE_FAILED_TITLE, ALL_HELD_MEANWHILE)
            # A marketplace (public-record) lead takes one of its spots (LEAD_MAX_HOLDERS): claimed here,
            # in this transaction; a lead whose last spot went meanwhile is not delivered or charged.
            claimed = unlock_counts.claim(session, [lead["id"] for lead in leads if lead.get("property_id")],
                                          get_settings().lead_max_holders)
            leads = [lead for lead in leads if not lead.get("property_id") or lead["id"] in claimed]
            if not leads:
                raise ScrapeError(SCRAPE_FAILED_TITLE, SCRAPE_ALL_SOLD_OUT)
            delivered = len(leads)
            cost = scrape_rules.scrape_cost(delivered) if charge else 0
            # exact: cost = delivered x (100 - discount); rounded down all the same, so that the refunds of a
            # scrape's leads (unlock.service_refunds, at this per-lead price) never exceed what it charged
            per_lead = cost // delivered
            lead_rows, unlock_rows, held_rows, output = [], [], {}, []
            for lead in leads:
                listing = lead.get("external_id")
                if lead.get("property_id"):  # a public-record lead: the purchase is an unlock of it, no copy
                    lead_id = lead["id"]
                else:
                    lead_id = uuid.uuid4()
                    columns = {k: v for k, v in lead.items()
                               if k in Lead.__table__.columns and k not in ("id", "external_id")}
                    lead_rows.append({
                        **columns,
                        "id": lead_id,
                        "external_id": None,
                        "source_listing_id": listing,
                        "scrape_id": scrape_id,
                        "is_active": False,
                        "is_new": False,
                        "created_at": now,
                        "unlock_count": 0,  # the user's copy: its one holder is counted below
                    })
                unlock_rows.append({"user_id": user_id, "lead_id": lead_id, "unlocked_at": now,
                                    "credit_cost": per_lead, "purchase_type": "bulk_scrape"})
                for key in scrape_rules.holding_keys(lead.get("address"), lead.get("zip_code"), listing):
                    held_rows.setdefault(key, {"user_id": user_id, "key": key, "lead_id": lead_id, "created_at": now})
                output.append(output_row(lead_id, lead, now))
            session.add(BulkScrape(
                id=scrape_id, user_id=user_id, created_at=now, lead_count=request.lead_count,
                leads_generated=delivered, credits_used=cost, status="completed", origin=origin,
                params=request.as_dict(), output=output,
            ))
            session.flush()
            if lead_rows:
                session.execute(sa.insert(Lead.__table__), lead_rows)
            session.execute(sa.insert(UserLead.__table__), unlock_rows)
            unlock_counts.added(session, [row["id"] for row in lead_rows])  # the user's own copies: one holder
            if held_rows:
                session.execute(sa.insert(HeldProperty.__table__), list(held_rows.values()))
            if cost:
                balance = ledger.apply_credits(session, user_id, -cost, "bulk_scrape", reference_id=str(scrape_id))
            else:
                balance = ledger.balance(session, user_id)
            result = ScrapeResult(scrape_id=scrape_id, created_at=now, lead_count=request.lead_count,
                                  leads_generated=delivered, credits_used=cost, balance=balance, leads=output)
            if within is not None:
                result = replace(result, answer=within(session, result))
    except ledger.InsufficientCredits as exc:
        raise ScrapeInsufficientCredits(INSUFFICIENT_CREDITS_TITLE,
                                        scrape_rules.need_credits_message(exc.needed, exc.available)) from exc
    except IntegrityError as exc:
        # Only a delivery that slipped past the locked re-check lands here (the primary key of
        # held_properties): nothing was written or charged.
        log.warning("scrape for %s refused by held_properties: %s", user_id, exc)
        raise ScrapeError(SCRAPE_FAILED_TITLE, ALL_HELD_MEANWHILE) from exc
    return result
