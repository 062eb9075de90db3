"""Which leads are invented, and whether this install runs on them.

The built-in generator's leads are demo data (``platform.leads.is_generated``: ``raw_data.generated`` is true, or
the generator's old ``condition_score`` key without a ``provider``). The rules built on it:

- in production (``Settings.is_production``) a generated lead is never listed on the marketplace, never
  unlocked and never scraped (``listed_condition``, ``unlock.service``, ``scrape.service``);
- the real inventory (``has_real_inventory``: active leads made from public records or BatchData lists,
  ``leads.property_id`` set) is what the bulk scraper and the webhook draw from whenever there is any;
- a demo install (``demo_install``: not production, and the marketplace lists generated leads or a scrape
  would generate them: no real source configured and no real inventory) says so on every page (the
  layout's demo-data banner) and beside every claim about public records. It is asked on every page
  load, so the answer is cached for ``DEMO_CHECK_SECONDS`` per process. ``demo_by_configuration`` is the
  same answer from the settings alone (no database): the pages are prerendered with it, so a demo install
  paints its banner at once and a real-only install never paints one.
"""

from __future__ import annotations

import threading
import time

import sqlalchemy as sa

from marketplace.platform.config import get_settings, lead_settings
from marketplace.platform.leads import GENERATED_KEY
from marketplace.platform.db import autocommit
from marketplace.platform.models import Lead

leads_t = Lead.__table__
DEMO_CHECK_SECONDS = 5.0


def generated_condition(table=leads_t):
    """``platform.leads.is_generated`` in SQL over ``table`` (never NULL: true or false)."""
    raw = table.c.raw_data
    flagged = sa.func.coalesce(raw[GENERATED_KEY].as_boolean(), sa.false())
    legacy = sa.and_(raw["condition_score"].as_string().is_not(None), raw["provider"].as_string().is_(None))
    return sa.and_(table.c.property_id.is_(None), sa.or_(flagged == sa.true(), legacy))


def listed_condition(table=leads_t):
    """What the marketplace lists: active leads, and in production never a generated one."""
    active = table.c.is_active == sa.true()
    if get_settings().is_production:
        return sa.and_(active, sa.not_(generated_condition(table)))
    return active


def _exists(*where, database_url: str | None = None) -> bool:
    statement = sa.select(sa.literal(1)).select_from(leads_t).where(*where).limit(1)
    with autocommit(database_url) as conn:
        return conn.execute(statement).first() is not None


def has_real_inventory(database_url: str | None = None) -> bool:
    """Whether any active lead was made from public records or a BatchData list (a read)."""
    return _exists(leads_t.c.is_active == sa.true(), leads_t.c.property_id.is_not(None), database_url=database_url)


def has_generated_leads(database_url: str | None = None) -> bool:
    """Whether any active lead is generated demo data (a read)."""
    return _exists(leads_t.c.is_active == sa.true(), generated_condition(), database_url=database_url)


_cache_lock = threading.Lock()
_cache: dict[str, tuple[float, bool]] = {}


def demo_by_configuration() -> bool:
    """The demo-install answer from the settings alone: not production and no real lead source
    configured (what the prerendered pages show until the page load's check answers)."""
    return not get_settings().is_production and not lead_settings().records_configured


def _serves_demo_data(database_url: str | None) -> bool:
    if has_generated_leads(database_url):
        return True
    return not lead_settings().records_configured and not has_real_inventory(database_url)


def demo_install(database_url: str | None = None, now: float | None = None) -> bool:
    """Whether this install serves generated demo data (module docstring), cached a few seconds per
    database. A read when the cache is stale: call it off the event loop. Production is never a demo
    install (it neither lists nor sells generated leads)."""
    if get_settings().is_production:
        return False
    key = database_url or get_settings().database_url
    now = time.monotonic() if now is None else now
    with _cache_lock:
        cached = _cache.get(key)
    if cached is not None and now - cached[0] < DEMO_CHECK_SECONDS:
        return cached[1]
    answer = _serves_demo_data(database_url)
    with _cache_lock:
        _cache[key] = (now, answer)
    return answer


def forget_demo_check() -> None:
    """Drop the cached answer (tests; a seed or purge that must show at once)."""
    with _cache_lock:
        _cache.clear()
