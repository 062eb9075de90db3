"""The developer explorer's manual scrape (dev-manual-scrape, SPEC 7): the same generation and lead source
as a bulk scrape (``scrape.service``), but the leads join the marketplace inventory instead of a user's
holdings: active, flagged New, never a copy of any lead already in the table (checked again inside the
transaction), facets rebuilt in the same transaction, no charge."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from sqlmodel import select

from marketplace.features.scrape import rules as scrape_rules
from marketplace.platform.pricing import credit_cost_for_confidence
from marketplace.platform.db import session_scope
from marketplace.platform.texts import NOTHING_NEW, SCRAPE_FAILED_TITLE, USER_NOT_FOUND
from marketplace.platform.models import BulkScrape, Lead, Profile, utcnow
from marketplace.platform import ledger
from marketplace.features.marketplace import rebuild_facets
from marketplace.features.scrape import (
    Progress,
    ScrapeError,
    ScrapeResult,
    ScrapeUserNotFound,
    generate_or_fail,
    output_row,
)
from marketplace.features.scrape import LeadSource


def _in_inventory(session, _user_id, candidates: list[dict]) -> tuple[set[str], set[tuple[str, str]]]:
    """Listing ids and (address, ZIP) keys among ``candidates`` that any stored lead already has."""
    listing_ids = {c["external_id"] for c in candidates if c.get("external_id")}
    zips = {c.get("zip_code") for c in candidates if c.get("zip_code")}
    held_ids: set[str] = set()
    if listing_ids:
        rows = session.exec(
            select(Lead.external_id, Lead.source_listing_id)
            .where(sa.or_(Lead.external_id.in_(listing_ids), Lead.source_listing_id.in_(listing_ids)))
        ).all()
        for external_id, listing_id in rows:
            held_ids.update(x for x in (external_id, listing_id) if x)
    held_addresses: set[tuple[str, str]] = set()
    if zips:
        rows = session.exec(select(Lead.address, Lead.zip_code).where(Lead.zip_code.in_(zips))).all()
        held_addresses = {scrape_rules.address_key(a, z) for a, z in rows}
    return held_ids, held_addresses


def run_inventory_scrape(admin_id: uuid.UUID, request, *, source: LeadSource | None = None,
                         progress: Progress | None = None) -> ScrapeResult:
    """dev-manual-scrape (SPEC 7): generate ``request`` (``explorer.rules_scrape.DevScrapeRequest``) through the
    lead source and add the leads to the marketplace inventory. Charges nothing. Raises ``ScrapeError``."""
    problems = request.problems()
    if problems:
        raise ScrapeError(SCRAPE_FAILED_TITLE, " ".join(problems))
    leads = generate_or_fail(admin_id, request, source, progress, held=_in_inventory,
                              nothing="nothing was added")
    return store_inventory(admin_id, request, leads)


def store_inventory(admin_id: uuid.UUID, request, leads: list[dict], *, origin: str = "explorer") -> ScrapeResult:
    """One transaction: the leads (active, New, credit cost by confidence tier), re-checked against the
    table so no lead is stored twice, the admin's bulk_scrapes row (0 credits) and the facets."""
    now = utcnow()
    scrape_id = uuid.uuid4()
    with session_scope() as session:
        if session.get(Profile, admin_id) is None:
            raise ScrapeUserNotFound(SCRAPE_FAILED_TITLE, USER_NOT_FOUND)
        held_ids, held_addresses = _in_inventory(session, admin_id, leads)  # a refresh may have run meanwhile
        lead_rows, output = [], []
        for lead in leads:
            listing = lead.get("external_id")
            key = scrape_rules.address_key(lead.get("address"), lead.get("zip_code"))
            if key in held_addresses or (listing and listing in held_ids):
                continue
            held_addresses.add(key)
            lead_id = uuid.uuid4()
            lead = {**lead, "is_new": True, "credit_cost": credit_cost_for_confidence(lead.get("confidence_score"))}
            lead_rows.append({
                **{k: v for k, v in lead.items() if k in Lead.__table__.columns and k != "id"},
                "id": lead_id,
                "scrape_id": None,
                "is_active": True,
                "created_at": now,
                "unlock_count": 0,  # a new lead: nobody holds it (never a source row's count)
            })
            output.append({**output_row(lead_id, lead, now), "credit_cost": lead["credit_cost"]})
        if not lead_rows:
            raise ScrapeError(SCRAPE_FAILED_TITLE, NOTHING_NEW)
        session.add(BulkScrape(
            id=scrape_id, user_id=admin_id, created_at=now, lead_count=request.lead_count,
            leads_generated=len(lead_rows), credits_used=0, status="completed", origin=origin,
            params=request.as_dict(), output=output,
        ))
        session.flush()
        session.execute(sa.insert(Lead.__table__), lead_rows)
        rebuild_facets(session.connection())
        balance = ledger.balance(session, admin_id)
    return ScrapeResult(scrape_id=scrape_id, created_at=now, lead_count=request.lead_count,
                        leads_generated=len(lead_rows), credits_used=0, balance=balance, leads=output)
