"""Stored bulk scrapes, read back for their owner: one scrape with its output (the CSV download of a
stored scrape; every row with its provenance) and the newest one from the /bulkscraper page (shown again
after a reload)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import select

from marketplace.features.scrape import rules as scrape_rules
from marketplace.platform.leads import export_provenance
from marketplace.platform.db import read_scope
from marketplace.platform.models import BulkScrape, Lead


@dataclass(frozen=True)
class StoredScrape:
    id: uuid.UUID
    created_at: datetime
    lead_count: int
    leads_generated: int
    credits_used: int
    output: list[dict]

    @property
    def shortfall(self) -> str:
        return scrape_rules.delivered_shortfall(self.lead_count, self.leads_generated)


def _stored(row: BulkScrape, session=None) -> StoredScrape:
    output = list(row.output or [])
    if session is not None:
        output = _with_provenance(session, output)
    return StoredScrape(row.id, row.created_at, row.lead_count, row.leads_generated, row.credits_used, output)


def _with_provenance(session, output: list[dict]) -> list[dict]:
    """Rows stored before scrapes recorded their provenance get it from their lead (each row's ``id``):
    every exported row says where it comes from."""
    missing = {}
    for row in output:
        if isinstance(row, dict) and not row.get("provenance"):
            try:
                missing[uuid.UUID(str(row.get("id")))] = None
            except ValueError:
                continue
    if not missing:
        return output
    found = {lead_id: export_provenance(raw, source) for lead_id, raw, source in session.exec(
        select(Lead.id, Lead.raw_data, Lead.source).where(Lead.id.in_(list(missing)))).all()}

    def filled(row):
        if not isinstance(row, dict) or row.get("provenance"):
            return row
        try:
            line = found.get(uuid.UUID(str(row.get("id"))))
        except ValueError:
            line = None
        return {**row, "provenance": line} if line else row

    return [filled(row) for row in output]


def stored_scrape(user_id: uuid.UUID, scrape_id: str) -> StoredScrape | None:
    """One of the user's scrapes with its output (None for anyone else's or a bad id)."""
    try:
        sid = uuid.UUID(str(scrape_id))
    except ValueError:
        return None
    with read_scope() as session:
        row = session.get(BulkScrape, sid)
        if row is None or row.user_id != user_id:
            return None
        return _stored(row, session)


def last_scrape(user_id: uuid.UUID, origin: str = "ui") -> StoredScrape | None:
    """The user's newest scrape run from ``origin`` (the /bulkscraper page by default) with its
    output: the page shows its results again after a reload. None when there is none."""
    with read_scope() as session:
        row = session.exec(
            select(BulkScrape)
            .where(BulkScrape.user_id == user_id, BulkScrape.origin == origin)
            .order_by(BulkScrape.created_at.desc(), BulkScrape.id.desc())
            .limit(1)
        ).first()
        return None if row is None else _stored(row)
