"""Operator work on public-record datasets: import a downloaded file, refresh the live datasets,
list every dataset with its last run. The readers are ``marketplace.features.records.source_opendata``; the storing is
``records.service.ingest``.

- ``import_file(dataset_id, path, partial=False)``: a CSV export or the portal's API JSON, through the same
  mapping as the live API. Full by default: records absent from the file close; ``partial`` never closes.
- ``refresh_public_records(today)``: every dataset named in ``OPEN_DATA_DATASETS`` (empty by default) whose
  protocol is a live API, fetched whole and ingested (full), each record stamped with its row's portal update
  time (Socrata ``:updated_at``, an ArcGIS edit date) where the portal gives one. Run by ``python -m marketplace
  refresh-records`` (a worker process runs it daily in a later step; never the web server).
  With ``BATCHDATA_API_KEY``, ``BATCHDATA_LISTS`` and ``BATCHDATA_LOCATION`` set, each BatchData quick list
  is then ingested as its own dataset run (``batchdata-<list>``).
- ``source_rows(today)``: the ``python -m marketplace sources`` table; ``last_runs()`` the latest run of
  every dataset.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any, Callable, Iterable

import sqlalchemy as sa

from marketplace.features.records import service_titles as record_titles
from marketplace.platform.config import lead_settings
from marketplace.platform.db import read_scope
from marketplace.platform.models import utcnow
from marketplace.features.records import service as public_records

log = logging.getLogger("marketplace.public_records")


class UnknownDataset(LookupError):
    """No dataset file has this id; the message lists the known ids."""


datasets = record_titles.dataset_files
titles = record_titles.titles


def find_dataset(dataset_id: str, known: dict[str, Any] | None = None) -> Any:
    known = datasets() if known is None else known
    if dataset_id not in known:
        raise UnknownDataset(f"unknown dataset {dataset_id!r}; known datasets: {', '.join(sorted(known))}")
    return known[dataset_id]


class AsOfRequired(ValueError):
    """A status list's file whose day is unknown: the import asks for ``--as-of`` (never today by default)."""


def import_file(dataset_id: str, path: str | Path, *, partial: bool = False, today: date | None = None,
                retrieved_at: datetime | None = None, database_url: str | None = None,
                allow_drop: bool = False, as_of: date | None = None) -> public_records.RunSummary:
    """Ingest one downloaded file (raises ``UnknownDataset``, ``FileNotFoundError``, the readers'
    ``DatasetError``). ``allow_drop``: a full file far below the dataset's open records closes the rest.
    ``as_of``: the day the export was taken (``--as-of``); a status list's file without it is as of the day
    its dataset's ``file_name_date`` reads from the name, else refused (``AsOfRequired``), and an older
    list than the newest one loaded changes nothing (``public_records.OlderSnapshot``)."""
    from marketplace.features.records import source_opendata as opendata

    known = datasets()
    dataset = find_dataset(dataset_id, known)
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}")
    retrieved_at = retrieved_at or utcnow()
    today = today or retrieved_at.date()
    if as_of is not None and as_of > today:
        raise ValueError(f"--as-of {as_of.isoformat()} is after today: a list cannot be taken in the future")
    day = opendata.snapshot_day(dataset, path, as_of)
    if dataset.status_list and dataset.snapshot_dated and day is None:
        raise AsOfRequired(f"{dataset.id} is an open list and the name {path.name} gives no date: pass --as-of "
                           f"YYYY-MM-DD, the day the export was taken")
    read = opendata.read_ahead(opendata.read_file(dataset, path, as_of=day, today=today))  # its own process
    return public_records.ingest(dataset, read, mode="file",
                                 retrieved_at=retrieved_at, full=not partial, today=today,
                                 titles=record_titles.dataset_titles(known.values()), database_url=database_url,
                                 allow_drop=allow_drop, snapshot=day if dataset.status_list else None)


def live(dataset: Any) -> bool:
    """Whether the dataset has a live API to fetch (not only a download)."""
    return getattr(dataset, "protocol", "file") != "file" and bool(getattr(dataset, "endpoint", ""))


def _lazy(make: Callable[[], Any]) -> Any:
    """The items of ``make()``, called only when the first is asked for: a reader that fails at once
    fails inside the ingestion, which records the failed run."""
    yield from make()


def refresh_public_records(today: date | None = None, *, client: Any = None, only: Iterable[str] | None = None,
                           database_url: str | None = None) -> list[dict]:
    """Fetch and ingest every enabled live dataset (one failure never stops the others), then
    ``public_records.rescore_leads`` (held sales closed, every public-record lead recomputed for the day).
    Returns one summary dict per dataset named in ``OPEN_DATA_DATASETS`` (status ok, failed or skipped),
    then {"rescore": {...}}. ``only``: these configured dataset ids alone (the explorer's "Run now")."""
    from marketplace.features.records import source_opendata as opendata

    known = datasets()
    titles = record_titles.dataset_titles(known.values())
    results = []
    wanted = set(only) if only is not None else None
    for dataset_id in lead_settings().open_data_datasets:
        if wanted is not None and dataset_id not in wanted:
            continue
        dataset = known.get(dataset_id)
        if dataset is None or not live(dataset):
            reason = "unknown dataset" if dataset is None else "published only as a download"
            results.append({"dataset_id": dataset_id, "status": "skipped", "reason": reason})
            continue
        retrieved_at = utcnow()
        day = today or retrieved_at.date()
        try:
            # a whole read, each record stamped with its row's portal update time where the portal gives one
            # (the lag the Sources panel shows; the next interval pull's watermark)
            field = opendata.update_field(dataset, client=client)
            updates = opendata.Updates(field) if field else None
            records = _lazy(lambda dataset=dataset, day=day, updates=updates: opendata.fetch(
                dataset, client=client, today=day, updates=updates))
            summary = public_records.ingest(dataset, records, mode="api",
                                            retrieved_at=retrieved_at, full=True, today=day, titles=titles,
                                            database_url=database_url)
        except Exception as exc:  # noqa: BLE001 - recorded on the run; the next dataset still runs
            log.warning("records refresh of %s failed: %s", dataset_id, exc)
            results.append({"dataset_id": dataset_id, "status": "failed", "error": str(exc)})
            continue
        results.append(summary.as_dict())
    results.extend(_refresh_batchdata(today, database_url, wanted))
    day = today or utcnow().date()
    results.append({"rescore": public_records.rescore_leads(day, titles=titles, database_url=database_url)})
    return results


def batchdata_datasets() -> list[Any]:
    """The BatchData quick lists named in ``BATCHDATA_LISTS``, each as a dataset (id ``batchdata-<list>``);
    raises ``CriteriaError`` on an unknown list."""
    from types import SimpleNamespace

    from marketplace.features.scrape import _quick_lists
    from marketplace.features.scrape import BATCHDATA

    return [SimpleNamespace(id=q.dataset_id, title=f"{BATCHDATA} {q.label} list", publisher=BATCHDATA, protocol="api",
                            quick_list=q.name, max_age_days=None, constants={})
            for q in _quick_lists(lead_settings().batchdata_lists)]


def _refresh_batchdata(today: date | None, database_url: str | None, wanted: set[str] | None = None) -> list[dict]:
    """Each configured BatchData quick list fetched and ingested as its own dataset run (full: a property
    that left the list closes its signal). Nothing when BatchData is not configured."""
    settings = lead_settings()
    if not settings.batchdata_configured:
        return []
    from marketplace.features.scrape import fetch_batchdata

    try:
        lists = batchdata_datasets()
    except Exception as exc:  # noqa: BLE001 - a bad BATCHDATA_LISTS is reported, the open data still ran
        return [{"dataset_id": "batchdata", "status": "failed", "error": str(exc)}]
    titles_all = record_titles.dataset_titles([*datasets().values(), *lists])
    results = []
    for dataset in lists:
        if wanted is not None and dataset.id not in wanted:
            continue
        retrieved_at = utcnow()
        day = today or retrieved_at.date()
        try:
            records = _lazy(lambda dataset=dataset, day=day: fetch_batchdata(
                [dataset.quick_list], location=settings.batchdata_location, today=day))
            summary = public_records.ingest(dataset, records, mode="api", retrieved_at=retrieved_at, full=True,
                                            today=day, titles=titles_all, database_url=database_url)
        except Exception as exc:  # noqa: BLE001 - recorded on the run; the next list still runs
            log.warning("records refresh of %s failed: %s", dataset.id, exc)
            results.append({"dataset_id": dataset.id, "status": "failed", "error": str(exc)})
            continue
        results.append(summary.as_dict())
    return results


@dataclass(frozen=True)
class RunRow:
    id: int
    dataset_id: str
    mode: str
    status: str
    started_at: datetime
    finished_at: datetime | None
    rows_read: int
    added: int
    updated: int
    unchanged: int
    closed: int
    archived: int
    rejected: int
    newest_as_of: date | None
    warning: str | None
    error: str | None


def last_runs(database_url: str | None = None) -> dict[str, RunRow]:
    """The latest run of every dataset that ran, by dataset id."""
    latest = (sa.select(public_records.runs_t.c.dataset_id, sa.func.max(public_records.runs_t.c.id).label("id"))
              .group_by(public_records.runs_t.c.dataset_id).subquery())
    with read_scope(database_url) as session:
        rows = session.connection().execute(sa.select(public_records.runs_t).join(latest, latest.c.id == public_records.runs_t.c.id)).all()
    return {r.dataset_id: RunRow(**{name: getattr(r, name) for name in RunRow.__dataclass_fields__}) for r in rows}


@dataclass(frozen=True)
class SourceRow:
    """One line of ``python -m marketplace sources``."""

    dataset_id: str
    protocol: str
    last_run: str           # '2026-11-25 12:00 file ok' / 'never'
    read: int | None
    added: int | None
    updated: int | None
    closed: int | None
    archived: int | None
    rejected: int | None
    newest: str             # the newest record's date, '-' when none
    freshness: str          # 'fresh' / 'stale: newest record ... (max N)' / 'no run'
    warning: str | None


def source_rows(today: date | None = None, database_url: str | None = None) -> list[SourceRow]:
    from marketplace.features.records import source_opendata as opendata

    today = today or utcnow().date()
    runs = last_runs(database_url)
    rows = []
    for dataset_id, dataset in sorted(datasets().items()):
        run = runs.get(dataset_id)
        if run is None:
            rows.append(SourceRow(dataset_id, dataset.protocol, "never", None, None, None, None, None, None, "-",
                                  "no run", None))
            continue
        fresh = opendata.freshness(dataset, run.newest_as_of, today)
        rows.append(SourceRow(
            dataset_id, dataset.protocol, f"{run.started_at:%Y-%m-%d %H:%M} {run.mode} {run.status}",
            run.rows_read, run.added, run.updated, run.closed, run.archived, run.rejected,
            run.newest_as_of.isoformat() if run.newest_as_of else "-",
            "fresh" if fresh.ok else f"stale: {fresh.message}", run.warning or run.error))
    return rows
