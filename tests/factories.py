"""Test data, one way for every test: users (with profile, credits, admin right,
confirmation), leads (unsaved rows with realistic defaults, or stored) and
credit purchases. Database tests, browser tests (against the live server's
database) and unit tests share these."""

from __future__ import annotations

import uuid
from typing import Any

from marketplace.platform.db import session_scope
from marketplace.platform.models import CreditPurchase, Lead, User
from marketplace.features.accounts import service as accounts

PASSWORD = "secret123"


def unique_email(prefix: str = "user") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}@example.com"


def make_user(database_url: str | None = None, *, email: str | None = None, password: str = PASSWORD,
              first_name: str = "Test", last_name: str = "User", credits: int = 0, admin: bool = False,
              confirmed: bool = True, **kw: Any) -> User:
    """A stored user with a profile; opening ``credits`` go through the ledger."""
    with session_scope(database_url) as session:
        return accounts.create_user(session, email or unique_email(), password, first_name, last_name,
                                    credits=credits, admin=admin, confirmed=confirmed, **kw)


LEAD_DEFAULTS: dict[str, Any] = dict(
    address="12 Oak St", city="Austin", state="TX", zip_code="78701", lead_type="Probate",
    source="County Probate Records", asking_price=200_000, zestimate=260_000, arv=350_000, rehab_estimate=30_000,
    roi=18.4, beds=3, baths=2.0, square_footage=1850, confidence_score=92, credit_cost=120, is_active=True,
    image_urls=[], primary_image_url=None, images_fetch_status="success", raw_data={},
)


def lead(**fields: Any) -> Lead:
    """An unsaved lead row: ``LEAD_DEFAULTS`` with ``fields`` on top (a new id each time)."""
    return Lead(**{"id": uuid.uuid4(), **LEAD_DEFAULTS, **fields})


def add_lead(database_url: str | None = None, **fields: Any) -> uuid.UUID:
    """A stored lead; returns its id."""
    row = lead(**fields)
    with session_scope(database_url) as session:
        session.add(row)
    return row.id


def make_purchase(user_id: uuid.UUID, database_url: str | None = None, *, bundle: str = "starter",
                  credits: int = 500, amount_cents: int = 10_000, status: str = "pending",
                  provider: str = "test") -> uuid.UUID:
    """A stored credit purchase (pending unless told); returns its id."""
    row = CreditPurchase(user_id=user_id, bundle=bundle, credits=credits, amount_cents=amount_cents,
                         provider=provider, provider_session_id=f"cs_test_{uuid.uuid4().hex}", status=status)
    with session_scope(database_url) as session:
        session.add(row)
    return row.id


def make_refresh_run(key: str, database_url: str | None = None) -> int:
    """A completed daily lead-refresh run (what a saved-search notification belongs to); its id."""
    from datetime import date

    from marketplace.platform.models import LeadRefreshRun

    with session_scope(database_url) as s:
        run = LeadRefreshRun(run_key=key, run_date=date(2026, 11, 21), status="completed")
        s.add(run)
        s.flush()
        return run.id


def records_refreshed_today(database_url: str | None = None) -> None:
    """Today's records refresh on record as done, so a worker started after 8:00 Pacific queues no catch-up
    pull of its own beside the job a test runs (the catch-up itself is tested in test_records_worker.py)."""
    from marketplace.features.records.jobs import records_run_key
    from marketplace.features.records.jobs_worker import records_due
    from marketplace.platform.models import LeadRefreshRun, utcnow

    now = utcnow()
    with session_scope(database_url) as s:
        s.add(LeadRefreshRun(run_key=records_run_key(now), run_date=now.date(), status="ok", finished_at=now))
    assert not records_due(database_url=database_url)
