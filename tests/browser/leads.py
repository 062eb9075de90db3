"""Lead fixtures for browser tests: built-in leads with chosen fields, unlocked
through the real service, and a signed-in tab without the /auth round trip."""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from itertools import count

from playwright.sync_api import Page
from sqlmodel import select

from marketplace.features.marketplace.rules_criteria import SearchCriteria
from marketplace.features.marketplace.rules_sale_dates import DATED_DEMO_TYPES
from marketplace.platform.db import session_scope
from marketplace.platform.models import UserLead
from marketplace.platform import sessions as auth_sessions
from marketplace.features.scrape.service_seeding import insert_leads
from marketplace.features.unlock.service import unlock_lead
from marketplace.features.scrape.source_builtin import BuiltinSource

_seeds = count(1000)


def own_images(key: str, n: int) -> list[str]:
    """URLs of the app's own house renderings (an allowed image host)."""
    return [f"/api/images/house/{key}/{i}.svg" for i in range(n)]


def make_lead(**overrides) -> dict:
    """One built-in lead (``BuiltinSource(seed=N)``) with a unique address, then ``overrides``."""
    row = BuiltinSource(seed=next(_seeds)).search(SearchCriteria(count=1))[0]
    tag = uuid.uuid4().hex[:6].upper()
    row.update(address=f"{row['address'].split(' ', 1)[0]} Test {tag} Ln", external_id=f"test:{uuid.uuid4()}")
    row.update(overrides)
    if "lead_type" in overrides and "sale_date" not in overrides and row["lead_type"] not in DATED_DEMO_TYPES:
        row["sale_date"] = None  # as the generator makes such a lead: only auction-like types carry a date
    if "image_urls" in overrides and "primary_image_url" not in overrides:
        row["primary_image_url"] = overrides["image_urls"][0] if overrides["image_urls"] else None
    return row


def store(live_server, *rows: dict) -> None:
    insert_leads(list(rows), live_server.database_url)


def unlock(live_server, user: dict, row: dict, unlocked_at: datetime | None = None) -> None:
    """Unlock through the real service (credits, cost, purchase type), optionally
    pinning the unlock time for exact assertions."""
    user_id = uuid.UUID(user["id"])
    unlock_lead(user_id, row["id"], database_url=live_server.database_url)
    if unlocked_at is None:
        return
    with session_scope(live_server.database_url) as session:
        record = session.exec(
            select(UserLead).where(UserLead.user_id == user_id, UserLead.lead_id == row["id"])
        ).one()
        record.unlocked_at = unlocked_at
        session.add(record)


def signed_in(page: Page, live_server, user: dict) -> None:
    """Give this browser tab a fresh session of ``user`` (localStorage, as /auth would).

    The tokens are written once per tab, before the app's scripts run."""
    with session_scope(live_server.database_url) as session:
        pair = auth_sessions.create_session(session, uuid.UUID(user["id"]))
    tokens = {
        "lv_access_token": pair.access_token,
        "lv_refresh_token": pair.refresh_token,
        "lv_access_expires_at": pair.access_expires_at.isoformat(),
    }
    page.add_init_script(
        "if (!sessionStorage.getItem('lv_test_seeded')) {"
        f" const t = {json.dumps(tokens)};"
        " for (const k in t) localStorage.setItem(k, t[k]);"
        " sessionStorage.setItem('lv_test_seeded', '1'); }"
    )
