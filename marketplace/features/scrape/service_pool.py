"""Bulk scrapes in worker processes.

A 1,000-lead scrape is about 0.3 s of pure Python (generation, the duplicate checks, building and
inserting the rows). On the server's thread pool that work holds the GIL against the event loop, so
three at once pushed a bystander's click p95 to 1.9 s. Here ``run_scrape`` runs the whole of
``scrape.service.run_scrape`` (generation and its one transaction) in a process of a
``ProcessPoolExecutor`` (spawn context): the worker imports the services only (never Reflex or the
app's state), opens its own engine from the same ``DATABASE_URL`` (SQLite serializes writers with
``BEGIN IMMEDIATE`` and a busy timeout across processes as across threads; PostgreSQL locks the
profile row), and takes and returns plain values: the user id, the request, a picklable ``within``
(``functools.partial`` of a module-level function), the ``ScrapeResult``. A refusal comes back as
its class name, title and message and is raised again here; any other failure is logged in the
worker and raised here as ``ScrapeCrashed``.

The pool is per server process: ``lifespan`` (a Reflex lifespan task, run by every backend worker)
starts it with ``SCRAPE_PROCESSES`` processes (2; 0 keeps scrapes on the thread pool), warms them
(imports, ZIP tables) in the background and shuts it down with the app. Without a running pool
(tests, scripts, ``SCRAPE_PROCESSES=0``) ``run_scrape`` uses ``offloop.run_blocking`` as before. A
scrape of fewer than ``POOL_MIN_LEADS`` leads, and one with a progress callback (the /bulkscraper
page), stay on the thread pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import uuid
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from marketplace.platform.config import lead_settings, reload_settings
from marketplace.features.scrape import rules as scrape_rules
from marketplace.platform.offloop import run_blocking
from marketplace.features.scrape import service as scrapes

log = logging.getLogger("marketplace.scrape_pool")

_pool: ProcessPoolExecutor | None = None
# Scrapes of fewer leads stay on the thread pool: a few milliseconds of GIL cost less than the trip to a
# process, and a burst of small calls is not queued behind ``SCRAPE_PROCESSES`` workers.
POOL_MIN_LEADS = 100


class ScrapeCrashed(RuntimeError):
    """The scrape failed in its worker process for a reason that is not a refusal (logged there)."""


# --------------------------------------------------------------------------- in the worker


def _init_worker(environ: dict[str, str]) -> None:
    os.environ.update(environ)
    reload_settings()


def _warm() -> int:
    from marketplace.features.scrape.source_builtin import BuiltinSource

    BuiltinSource(seed=0).search(scrape_rules.ScrapeRequest(lead_count=50).criteria())
    return os.getpid()


def _run_in_worker(user_id: uuid.UUID, request: scrape_rules.ScrapeRequest, kwargs: dict) -> tuple[str, object]:
    try:
        return "ok", scrapes.run_scrape(user_id, request, **kwargs)
    except scrapes.ScrapeError as exc:
        return "refused", (type(exc).__name__, exc.title, exc.message)
    except Exception as exc:  # noqa: BLE001 - an arbitrary exception may not survive pickling
        log.exception("scrape for %s failed in worker %s", user_id, os.getpid())
        return "crashed", f"{type(exc).__name__}: {exc}"


# --------------------------------------------------------------------------- in the server


def _raise_refusal(name: str, title: str, message: str):
    kind = getattr(scrapes, name, None)
    if not (isinstance(kind, type) and issubclass(kind, scrapes.ScrapeError)):
        kind = scrapes.ScrapeError
    raise kind(title, message)


async def run_scrape(user_id: uuid.UUID, request: scrape_rules.ScrapeRequest, **kwargs) -> scrapes.ScrapeResult:
    """``scrape.service.run_scrape`` in a worker process when the pool runs, else on the thread pool."""
    pool = _pool
    if (pool is None or request.lead_count < POOL_MIN_LEADS or kwargs.get("progress") is not None
            or kwargs.get("source") is not None):
        return await run_blocking(scrapes.run_scrape, user_id, request, **kwargs)
    loop = asyncio.get_running_loop()
    try:
        outcome, value = await loop.run_in_executor(pool, _run_in_worker, user_id, request, kwargs)
    except BrokenProcessPool as exc:  # a worker died (killed, out of memory): a fresh pool for the next
        _replace_broken(pool)
        raise ScrapeCrashed("the scrape's worker process died") from exc
    if outcome == "ok":
        return value
    if outcome == "refused":
        _raise_refusal(*value)
    raise ScrapeCrashed(value)


def _new_pool(processes: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=processes, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_init_worker, initargs=(dict(os.environ),))


def _replace_broken(pool: ProcessPoolExecutor) -> None:
    global _pool
    if _pool is pool:
        _pool = _new_pool(pool._max_workers)
        pool.shutdown(wait=False, cancel_futures=True)


def start(processes: int) -> ProcessPoolExecutor | None:
    """Start this process's pool (``processes`` > 0), or None."""
    global _pool
    if processes <= 0:
        return None
    if _pool is None:
        _pool = _new_pool(processes)
    return _pool


async def warm(pool: ProcessPoolExecutor, processes: int) -> None:
    """Start every worker and load what a scrape needs, so the first scrapes do not wait for it."""
    loop = asyncio.get_running_loop()
    try:
        await asyncio.gather(*(loop.run_in_executor(pool, _warm) for _ in range(processes)))
    except BrokenProcessPool:  # stopped while warming (the server shutting down): nothing to report
        log.warning("scrape workers stopped before they were warm")
    except Exception:  # noqa: BLE001 - a cold pool still works
        log.exception("could not warm the scrape workers")


def stop() -> None:
    """Shut this process's pool down (waits for running scrapes; queued ones are cancelled)."""
    global _pool
    pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


@contextlib.asynccontextmanager
async def lifespan():
    """Reflex lifespan task: this server process's scrape workers, stopped with it."""
    processes = lead_settings().scrape_processes
    try:
        pool = start(processes)
    except Exception:  # noqa: BLE001 - the site must come up even without worker processes
        log.exception("could not start the scrape workers; scrapes run on threads")
        pool = None
    warming = asyncio.get_running_loop().create_task(warm(pool, processes)) if pool is not None else None
    try:
        yield
    finally:
        if warming is not None:
            warming.cancel()
        await asyncio.get_running_loop().run_in_executor(None, stop)
