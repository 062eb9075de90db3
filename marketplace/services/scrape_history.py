"""Stored bulk scrapes, read back for their owner: one scrape with its output (the CSV download of a
stored scrape) and the newest one from the /bulkscraper page (shown again after a reload)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import select

from marketplace.core import scrape as rules
from marketplace.db import read_scope
from marketplace.models import BulkScrape


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
        return rules.delivered_shortfall(self.lead_count, self.leads_generated)


def _stored(row: BulkScrape) -> StoredScrape:
    return StoredScrape(row.id, row.created_at, row.lead_count, row.leads_generated, row.credits_used,
                        list(row.output or []))


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
        return _stored(row)


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
