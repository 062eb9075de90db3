"""Loading leads in bulk and the first-run demo data."""

from __future__ import annotations

import json
import os
import secrets
import sys
import time
import uuid

from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import sqlalchemy as sa
from sqlmodel import func, select

from marketplace.features.marketplace import SearchCriteria
from marketplace.platform.db import autocommit, get_engine, session_scope
from marketplace.platform.models import Lead, User, utcnow
from marketplace.features.accounts import service as accounts
from marketplace.features.marketplace import rebuild_facets_now
from marketplace.features.scrape.source_builtin import BuiltinSource
from marketplace.features.property import with_headlines

BATCH = 5000
DEMO_INVESTOR = "investor@leadvault.app"
DEMO_ADMIN = "admin@leadvault.app"


class ProductionRefused(RuntimeError):
    """Demo data asked for under ``APP_ENV=production``: nothing is created."""


def refuse_in_production(what: str) -> None:
    """Production never gets demo accounts or generated leads: ``ProductionRefused`` (one line) there.
    A super admin in production is made only by the operator (``create-user --admin``, ``make-admin``)."""
    from marketplace.platform.config import get_settings

    if get_settings().is_production:
        raise ProductionRefused(f"APP_ENV=production: {what} refused, nothing created (demo data is never "
                                "loaded in production; make the operator's account with create-user --admin)")


def _progress(done: int, total: int, started: float) -> None:
    width = 30
    filled = int(width * done / total)
    rate = done / max(time.monotonic() - started, 1e-6)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done:,}/{total:,} leads  {rate:,.0f}/s")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


LEAD_COLUMNS = [c.name for c in Lead.__table__.columns]
_JSON_COLUMNS = {"image_urls", "raw_data"}


def insert_leads(rows: list[dict], database_url: str | None = None, rebuild: bool = True) -> int:
    """Insert normalized lead records in one transaction: COPY on PostgreSQL,
    a batched multi-row INSERT elsewhere. ``rebuild`` recounts the marketplace
    facets afterwards (bulk loaders do that once at the end instead)."""
    if not rows:
        return 0
    engine = get_engine(database_url)
    if engine.dialect.name == "postgresql":
        _copy_leads(engine, rows)
    else:
        with engine.begin() as conn:
            conn.execute(sa.insert(Lead.__table__), rows)
    if rebuild:
        rebuild_facets_now(database_url)
    return len(rows)


def _copy_leads(engine, rows: list[dict]) -> None:
    defaults = {c.name: c.default.arg for c in Lead.__table__.columns if c.default is not None and not callable(c.default.arg)}
    raw = engine.raw_connection()
    try:
        with raw.cursor() as cur:
            with cur.copy(f"COPY leads ({', '.join(LEAD_COLUMNS)}) FROM STDIN") as copy:
                for row in rows:
                    values = []
                    for name in LEAD_COLUMNS:
                        value = row.get(name, defaults.get(name))
                        if name in _JSON_COLUMNS:
                            value = json.dumps(value if value is not None else ([] if name == "image_urls" else {}))
                        elif value is None and name == "id":
                            value = uuid.uuid4()
                        elif value is None and name == "created_at":
                            value = utcnow()
                        values.append(value)
                    copy.write_row(values)
        raw.commit()
    except BaseException:
        raw.rollback()
        raise
    finally:
        raw.close()


def _generate_batch(args: tuple[int | None, int, int]) -> list[dict]:
    seed, index, count = args
    batch_seed = None if seed is None else seed * 1_000_003 + index
    # The headline ROI rests on the comps ARV where there are enough comps (marketplace.rules_headline), computed here
    # in the worker process, once per lead.
    return with_headlines(BuiltinSource(seed=batch_seed).search(SearchCriteria(count=count)))


def seed_leads(count: int, seed: int | None = None, progress: bool = True, database_url: str | None = None) -> int:
    """Generate ``count`` leads with the built-in source and store them in batches.

    Batches are generated in worker processes (one per core) while the main
    process writes the previous batch, so generation and COPY overlap. The
    result depends only on ``seed``.
    """
    refuse_in_production("seed-leads")
    jobs = [(seed, i, min(BATCH, count - start)) for i, start in enumerate(range(0, count, BATCH))]
    started = time.monotonic()
    done = 0
    if len(jobs) <= 2:
        batches = map(_generate_batch, jobs)
        pool = None
    else:
        pool = ProcessPoolExecutor(max_workers=max(1, (os.cpu_count() or 2)), mp_context=get_context("fork"))
        batches = pool.map(_generate_batch, jobs, chunksize=1)
    try:
        for rows in batches:
            done += insert_leads(rows, database_url, rebuild=False)
            if progress:
                _progress(done, count, started)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    rebuild_facets_now(database_url)
    engine = get_engine(database_url)
    if engine.dialect.name == "postgresql":
        # Fresh statistics and visibility map: the planner and index-only scans need them.
        with autocommit(database_url) as conn:
            conn.exec_driver_sql("VACUUM (ANALYZE) leads")
    return done


def seed_demo(lead_count: int = 3000) -> None:
    """On an empty database: demo accounts (credentials printed once) and leads; never in production
    (``ProductionRefused``)."""
    refuse_in_production("seed-demo")
    with session_scope() as session:
        has_users = session.exec(select(func.count()).select_from(User)).one() > 0
        has_leads = session.exec(select(func.count()).select_from(Lead)).one() > 0
        if not has_users:
            investor_pw = secrets.token_urlsafe(9)
            admin_pw = secrets.token_urlsafe(9)
            accounts.create_user(session, DEMO_INVESTOR, investor_pw, "Dana", "Investor", credits=500, confirmed=True)
            accounts.create_user(session, DEMO_ADMIN, admin_pw, "Alex", "Admin", credits=1000, confirmed=True, admin=True)
            print("\n" + "=" * 64)
            print(" Demo accounts (shown only this once):")
            print(f"   investor     {DEMO_INVESTOR:<28} password: {investor_pw}")
            print(f"   super admin  {DEMO_ADMIN:<28} password: {admin_pw}")
            print("=" * 64 + "\n", flush=True)
    if not has_leads:
        print(f"Loading {lead_count:,} demo leads...", flush=True)
        seed_leads(lead_count, seed=20261121)
