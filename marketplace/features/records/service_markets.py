"""The markets (``marketplace/features/records/markets``) as the records in the database cover them: what each holds, its
live leads, its newest record and last run, and the cities its leads are in. Read in ONE query.

A dataset is *imported* when an ``ok`` run of it stored records (added, updated or unchanged rows); a market
is *covered* when one of its roll, sales or lists datasets is imported (a market with nothing imported is
not offered by the Location filter). A live lead belongs to the market of the list dataset of one of its
open signals (leads are made from lists); the newest record is the latest ``newest_as_of`` of the market's
imported datasets' ok runs, the last run the latest start of any of its runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa

from marketplace.features.records import rules_market_coverage as market_coverage
from marketplace.platform.db import read_scope
from marketplace.platform.models import DatasetRun, Lead, PropertySignal
from marketplace.features.records.service_titles import TitleLookup
from marketplace.features.records.service_titles import titles as dataset_file_titles
from marketplace.features.records.source_opendata.markets import Market, markets as shipped_markets

leads_t = Lead.__table__
signals_t = PropertySignal.__table__
runs_t = DatasetRun.__table__


@dataclass(frozen=True)
class MarketSummary:
    id: str
    name: str                       # 'Cook County, IL'
    state: str
    holds: str                      # the imported datasets by role, in words (records.rules_market_coverage)
    completeness: tuple[tuple[str, str], ...]  # (('Roll', 'imported'), ('Sales', 'missing'), ...)
    leads: int                      # live (active) leads
    newest: date | None             # the newest record of its imported datasets
    last_run: datetime | None       # the latest run of any of its datasets
    cities: tuple[str, ...]         # the cities its live leads are in, most leads first
    imported: tuple[str, ...]       # its imported dataset ids, in the market file's order
    own: tuple[str, ...] = ()       # its roll, sales and lists dataset ids (not the shared price index)

    @property
    def covered(self) -> bool:
        return bool(self.imported)


def _day(value: Any) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, str) and value:
        return date.fromisoformat(value[:10])
    return value if isinstance(value, date) else None


def _instant(value: Any) -> datetime | None:
    if isinstance(value, str) and value:
        return datetime.fromisoformat(value)
    return value if isinstance(value, datetime) else None


def _query(known: dict[str, Market]) -> sa.Select:
    """Two aggregates in one statement: per dataset, its ok runs (stored rows, newest record, last run);
    per market and city, its live leads."""
    owner = {d: m.id for m in known.values() for d in (*m.roll, *m.sales, *m.lists)}
    stored = runs_t.c.added + runs_t.c.updated + runs_t.c.unchanged
    ok = runs_t.c.status == "ok"
    runs = (sa.select(sa.literal("run").label("part"), runs_t.c.dataset_id.label("key"),
                      sa.cast(sa.null(), sa.String).label("city"),
                      sa.func.sum(sa.case((ok, stored), else_=0)).label("n"),
                      sa.func.max(sa.case((ok, runs_t.c.newest_as_of), else_=None)).label("newest"),
                      sa.func.max(runs_t.c.started_at).label("last_run"))
            .where(runs_t.c.dataset_id.in_(sorted(owner)))
            .group_by(runs_t.c.dataset_id))
    market = sa.case(*[(signals_t.c.dataset_id.in_(sorted(d for d, m in owner.items() if m == market_id)),
                        market_id) for market_id in sorted(set(owner.values()))], else_=None)
    leads = (sa.select(sa.literal("leads").label("part"), market.label("key"), leads_t.c.city.label("city"),
                       sa.func.count(sa.distinct(leads_t.c.id)).label("n"),
                       sa.cast(sa.null(), sa.Date).label("newest"),
                       sa.cast(sa.null(), runs_t.c.started_at.type).label("last_run"))
             .select_from(leads_t.join(signals_t, signals_t.c.property_id == leads_t.c.property_id))
             .where(leads_t.c.is_active == sa.true(), signals_t.c.status == "open",
                    signals_t.c.dataset_id.in_(sorted(owner)))
             .group_by(market, leads_t.c.city))
    return sa.union_all(runs, leads)


def market_summaries(database_url: str | None = None, titles: TitleLookup | None = None,
                     covered_only: bool = True) -> list[MarketSummary]:
    """Every market (only the covered ones unless ``covered_only`` is False), by name (module docstring)."""
    known = shipped_markets()
    if not known:
        return []
    with read_scope(database_url) as session:
        rows = session.connection().execute(_query(known)).all()
    title_of = titles or dataset_file_titles()
    per_dataset: dict[str, Any] = {}
    cities: dict[str, dict[str, int]] = {}
    for row in rows:
        if row.part == "run":
            per_dataset[row.key] = row
        elif row.key is not None:
            cities.setdefault(row.key, {})
            city = (row.city or "").strip()
            cities[row.key][city] = cities[row.key].get(city, 0) + int(row.n or 0)
    out = []
    for market in known.values():
        own = (*market.roll, *market.sales, *market.lists)
        imported = tuple(d for d in own if d in per_dataset and int(per_dataset[d].n or 0) > 0)
        if covered_only and not imported:
            continue
        newest = max((d for d in (_day(per_dataset[i].newest) for i in imported) if d), default=None)
        last_run = max((t for t in (_instant(per_dataset[i].last_run) for i in own if i in per_dataset) if t),
                       default=None)
        roles = {"roll": market.roll, "sales": market.sales, "lists": market.lists}
        by_city = cities.get(market.id, {})
        out.append(MarketSummary(
            id=market.id, name=market.name, state=market.state,
            holds=market_coverage.holds_text(roles, imported, lambda d: title_of(d)[0]),
            completeness=tuple(market_coverage.completeness(roles, imported)),
            leads=sum(by_city.values()), newest=newest, last_run=last_run,
            cities=tuple(c for c, _ in sorted(by_city.items(), key=lambda kv: (-kv[1], kv[0])) if c),
            imported=imported, own=tuple(own)))
    out.sort(key=lambda m: m.name.lower())
    return out


def market_summary(market_id: str, database_url: str | None = None) -> MarketSummary | None:
    """One covered market's summary (None for an unknown or uncovered market)."""
    return next((m for m in market_summaries(database_url) if m.id == market_id), None)
