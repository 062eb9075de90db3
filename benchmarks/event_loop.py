"""Does one slow request freeze everybody? A bystander's latency under load.

    .venv/bin/python -m benchmarks.event_loop                 # the working tree
    .venv/bin/python -m benchmarks.event_loop --rev 0c7ebde   # an older commit, for "before"

Starts the app in prod mode on SQLite (built in ``--app-dir`` from the working
tree, or from ``git archive REV``), seeds leads and users, and measures two
bystanders while something heavy happens:

* a signed-in visitor on /marketplace clicking a lead-type filter in Chromium
  (click -> updated grid painted, ``performance.now()`` in the page);
* ``GET /api/health`` polled from another thread (request -> response).

Scenarios:

* ``idle``: nothing else happens (the reference).
* ``20 sign-ins``: 20 other browsers submit the sign-in form at the same moment
  (Argon2 + session writes), ``--rounds`` times; the bystanders are measured
  while they run.
* ``write lock 5 s``: another connection holds SQLite's write lock
  (``BEGIN IMMEDIATE``) for 5 seconds; the bystanders are measured meanwhile.
* ``3 scrapes x 1,000``: three users each start a 1,000-lead bulk scrape through
  the webhook API at the same moment; the bystanders are measured until all
  three have answered, ``--scrape-rounds`` (3) times back to back (skipped on
  revisions without the API). ``--only-scrapes``: idle and this case only.
  Target: the click's p95 under 300 ms.
* ``worker ingests N``: the records worker's work, a public-record ingestion of
  ``--ingest-records`` (20,000) records built from the real samples'
  shapes (``benchmarks.records_ingest --once``), runs in a process of its own
  against the same database, as ``python -m marketplace worker`` does; the
  bystanders are measured until it ends (at most ``--ingest-seconds``, 120).
* ``two workers ingest`` (``--two-workers``, PostgreSQL, no app): two
  ``python -m marketplace import-records`` processes ingest real-shaped files of
  ``--ingest-records`` rows each at once (Chicago's vacant-building violations
  and Philadelphia's tax delinquencies, repeated), as two workers pulling two
  datasets do, into a fresh database on the server of ``BENCH_POSTGRES_URL``
  with ``--leads`` leads; meanwhile a visitor's filter click is the service call
  the click makes (``marketplace.service.query_page``: a lead type on, then
  off), back to back, measured until both end (at most ``--ingest-seconds``).
  The same clicks with no import first (the floor). Target: p95 under
  300 ms.

Prints median and p95 (nearest rank) in milliseconds. Nothing is asserted:
targets are read off the table (p95 < 100 ms under sign-ins; unaffected by
the write lock).
"""

from __future__ import annotations

import argparse
import io
import os
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import uuid
from pathlib import Path

import httpx

from benchmarks._db import sqlite_database
from benchmarks._live_app import signed_in_page, sync_app
from benchmarks.browser_marketplace import CLICK_TO_GRID, FILTER_TYPES, p95, wait_idle
from benchmarks._sampler import Sampler
from marketplace.platform.config import PROJECT_ROOT, reload_settings
from marketplace.features.marketplace import rules
from marketplace.platform.db import session_scope
from marketplace.features.accounts import service as accounts
from marketplace.platform import sessions as auth_sessions
from marketplace.features.scrape import service_webhooks as webhooks
from marketplace.features.scrape.service_seeding import seed_leads

SIGN_INS = 20
PASSWORD = "secret123"


def export_rev(rev: str, target: Path) -> Path:
    """The project as it was at ``rev`` (tracked files only), in ``target``."""
    if target.exists():
        subprocess.run(["rm", "-rf", str(target)], check=True)
    target.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(PROJECT_ROOT), "archive", rev], check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(target, filter="data")
    return target


class HealthPoller(Sampler):
    """Polls /api/health back to back in a thread while ``running``."""

    def __init__(self, base_url: str):
        super().__init__()
        self.base_url = base_url

    def _run(self) -> None:
        with httpx.Client(base_url=self.base_url, timeout=30) as client:
            while not self._stop.is_set():
                t0 = time.perf_counter()
                client.get("/api/health").raise_for_status()
                self.samples.append((time.perf_counter() - t0) * 1000)
                time.sleep(0.05)


class Visitor:
    """The signed-in bystander on /marketplace, toggling one filter after another."""

    def __init__(self, page):
        self.page = page
        self.i = 0

    def click(self) -> float:
        lead_type = FILTER_TYPES[(self.i // 2) % len(FILTER_TYPES)]
        on = self.i % 2 == 0
        self.i += 1
        query = rules.Filters(lead_types=(lead_type,)).to_query() if on else ""
        return self.page.evaluate(CLICK_TO_GRID, [f"#filter-type-{lead_type.replace(' ', '-')}", query])

    def clicks_for(self, seconds: float) -> list[float]:
        samples = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            samples.append(self.click())
        return samples


def sign_in_burst(browser, base_url: str, emails: list[str], visitor: Visitor) -> list[float]:
    """Open /auth in one context per user, fill the forms, submit all at once,
    and measure the visitor until every sign-in has landed on /dashboard."""
    contexts, pages = [], []
    for email in emails:
        ctx = browser.new_context(base_url=base_url)
        pg = ctx.new_page()
        pg.goto("/auth")
        pg.locator("#signin-email").fill(email)
        pg.locator("#signin-password").fill(PASSWORD)
        contexts.append(ctx)
        pages.append(pg)
    for pg in pages:  # dispatch without waiting: all 20 land on the server together
        pg.evaluate("() => document.getElementById('signin-submit').click()")
    samples = visitor.clicks_for(0.3)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not all(pg.url.rstrip("/").endswith("/dashboard") for pg in pages):
        samples.append(visitor.click())
    for ctx in contexts:
        ctx.close()
    return samples


def scrape_burst(base_url: str, callers: list[tuple[str, str]], visitor: Visitor) -> list[float] | None:
    """Three 1,000-lead scrapes at once through the webhook API; the visitor meanwhile."""
    results: list[int] = []

    def call(user_id: str, key: str) -> None:
        res = httpx.post(f"{base_url}/functions/v1/webhook-bulk-scrape/{user_id}", timeout=300,
                         json={"leadCount": 1000, "location": "TX"}, headers={"x-webhook-auth": key})
        results.append(res.status_code)

    threads = [threading.Thread(target=call, args=caller) for caller in callers]
    for t in threads:
        t.start()
    samples = []
    while any(t.is_alive() for t in threads):
        samples.append(visitor.click())
    for t in threads:
        t.join()
    if set(results) != {200}:
        print(f"scrapes answered {results}: scenario skipped", flush=True)
        return None
    return samples


def worker_ingest(url: str, records: int, seconds: float, visitor: Visitor) -> list[float]:
    """The records worker's pull in its own process (never the web server's); the visitor meanwhile."""
    proc = subprocess.Popen([sys.executable, "-m", "benchmarks.records_ingest", "--database-url", url,
                             "--records", str(records), "--once"], cwd=PROJECT_ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    samples = []
    deadline = time.monotonic() + seconds
    while proc.poll() is None and time.monotonic() < deadline:
        samples.append(visitor.click())
    if proc.poll() is None:
        proc.terminate()
    out = proc.communicate(timeout=60)[0]
    print(out.strip().splitlines()[-1] if out.strip() else "worker ingest: no output", flush=True)
    return samples


def filter_clicks(url: str, user_id, seconds: float, running=None) -> list[float]:
    """The service call of a visitor's lead-type filter click (on, then off), back to back, for ``seconds``
    or while ``running()``."""
    from marketplace.features.marketplace.service import query_page

    samples, i = [], 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and (running is None or running()):
        lead_type = FILTER_TYPES[(i // 2) % len(FILTER_TYPES)]
        filters = rules.Filters(lead_types=(lead_type,)) if i % 2 == 0 else rules.Filters()
        i += 1
        t0 = time.perf_counter()
        query_page(filters, user_id, database_url=url)
        samples.append((time.perf_counter() - t0) * 1000)
    return samples


def two_workers(args) -> None:
    """The ``two workers ingest`` scenario (module docstring), on PostgreSQL."""
    from benchmarks._db import postgres_database
    from benchmarks._record_files import tax_file
    from benchmarks.records_ingest import FILE_DATASET, write_file

    with postgres_database() as url, tempfile.TemporaryDirectory(prefix="lv-bench-two-") as tmp:
        seed_leads(args.leads, seed=11, progress=False, database_url=url)
        with session_scope(url) as session:
            visitor = accounts.create_user(session, f"visitor-{uuid.uuid4().hex[:6]}@example.com", PASSWORD,
                                           "Visitor", "User", credits=1000, confirmed=True)
        chicago = Path(tmp) / "violations.csv"
        write_file(chicago, args.ingest_records)
        tax = tax_file(Path(tmp), args.ingest_records)
        filter_clicks(url, visitor.id, 1.0)  # warm-up
        loads = [os.getloadavg()[0]]
        idle = filter_clicks(url, visitor.id, 5.0)
        env = dict(os.environ, DATABASE_URL=url)
        workers = [subprocess.Popen([sys.executable, "-m", "marketplace", "import-records", dataset, "--file",
                                     str(path)], cwd=PROJECT_ROOT, env=env, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True)
                   for dataset, path in ((FILE_DATASET, chicago), ("phl-tax-delinquencies", tax))]
        t0 = time.monotonic()
        ingesting = filter_clicks(url, visitor.id, args.ingest_seconds,
                                  running=lambda: any(w.poll() is None for w in workers))
        seconds = time.monotonic() - t0
        loads.append(os.getloadavg()[0])
        for w in workers:
            if w.poll() is None:
                w.terminate()
            out = w.communicate(timeout=60)[0].strip().splitlines()
            print(out[0] if out else "a worker printed nothing", flush=True)
    print()
    print(f"A visitor's filter click (marketplace.service.query_page), PostgreSQL, {args.leads:,} leads, "
          f"milliseconds; two import-records of {args.ingest_records:,} rows each for {seconds:.0f} s; "
          f"load average (1 min) before and after: {', '.join(f'{x:.1f}' for x in loads)}")
    print("| scenario           | bystander                    |    n |   median |      p95 |      max |")
    print("|--------------------|------------------------------|------|----------|----------|----------|")
    print(row("idle", "filter click (service)", idle))
    print(row("two workers ingest", "filter click (service)", ingesting))


def hold_write_lock(db_path: str, seconds: float, ready: threading.Event) -> None:
    conn = sqlite3.connect(db_path, isolation_level=None, timeout=30)
    conn.execute("BEGIN IMMEDIATE")
    ready.set()
    time.sleep(seconds)
    conn.execute("ROLLBACK")
    conn.close()


def row(name: str, what: str, samples: list[float]) -> str:
    samples = samples or [float("nan")]
    ordered = sorted(samples)
    return (f"| {name:<18} | {what:<28} | {len(samples):>4} | {ordered[len(ordered) // 2]:>8.1f} "
            f"| {p95(samples):>8.1f} | {max(samples):>8.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rev", help="benchmark this git revision instead of the working tree")
    parser.add_argument("--leads", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5, help="sign-in bursts")
    parser.add_argument("--app-dir", default="/tmp/lv-bench-eventloop")
    parser.add_argument("--ingest-records", type=int, default=20_000, help="the worker scenario's records")
    parser.add_argument("--ingest-seconds", type=float, default=120.0)
    parser.add_argument("--only-worker", action="store_true", help="idle and the worker scenario only")
    parser.add_argument("--only-scrapes", action="store_true", help="idle and the three-scrape scenario only")
    parser.add_argument("--scrape-rounds", type=int, default=3, help="three-scrape bursts, back to back")
    parser.add_argument("--two-workers", action="store_true",
                        help="only the two-workers scenario, on PostgreSQL (no app, no browser)")
    args = parser.parse_args()
    if args.two_workers:
        two_workers(args)
        return

    with sqlite_database() as url, tempfile.TemporaryDirectory(prefix="lv-bench-data-") as data_dir:
        seed_leads(args.leads, seed=11, progress=False, database_url=url)
        emails = [f"signin-{i}-{uuid.uuid4().hex[:6]}@example.com" for i in range(SIGN_INS)]
        with session_scope(url) as session:
            for email in emails:
                accounts.create_user(session, email, PASSWORD, "Load", "User", confirmed=True)
            visitor_user = accounts.create_user(session, f"visitor-{uuid.uuid4().hex[:6]}@example.com", PASSWORD,
                                                "Visitor", "User", credits=1000, confirmed=True)
            pair = auth_sessions.create_session(session, visitor_user.id)
            scrapers = [accounts.create_user(session, f"scraper-{i}-{uuid.uuid4().hex[:6]}@example.com", PASSWORD,
                                             "Scrape", "User", credits=1_000_000, confirmed=True) for i in range(3)]
        callers = []
        for scraper in scrapers:
            os.environ["DATABASE_URL"] = url
            reload_settings()
            callers.append((str(scraper.id), webhooks.regenerate_key(scraper.id)))
        app_dir = export_rev(args.rev, Path(args.app_dir)) if args.rev else sync_app(Path(args.app_dir))
        label = args.rev or "working tree"
        print(f"building and starting the app ({label}) from {app_dir}...", flush=True)
        results = []
        loads = [os.getloadavg()[0]]
        with signed_in_page(url, Path(data_dir), app_dir, pair) as (base_url, browser, page):
            page.goto("/marketplace")
            wait_idle(page, "")
            page.locator("#available-credits").wait_for()
            page.locator("#filter-group-type").click()
            visitor = Visitor(page)
            visitor.clicks_for(1.0)  # warm-up

            with HealthPoller(base_url) as health:
                idle = visitor.clicks_for(4.0)
            results += [("idle", "visitor filter click -> grid", idle), ("idle", "GET /api/health", health.samples)]

            if not args.only_scrapes:
                with HealthPoller(base_url) as health:
                    ingesting = worker_ingest(url, args.ingest_records, args.ingest_seconds, visitor)
                results += [(f"worker ingests {args.ingest_records // 1000}k", "visitor filter click -> grid",
                             ingesting),
                            (f"worker ingests {args.ingest_records // 1000}k", "GET /api/health", health.samples)]

            if not args.only_worker and not args.only_scrapes:
                clicks: list[float] = []
                with HealthPoller(base_url) as health:
                    for _ in range(args.rounds):
                        clicks += sign_in_burst(browser, base_url, emails, visitor)
                results += [(f"{SIGN_INS} sign-ins", "visitor filter click -> grid", clicks),
                            (f"{SIGN_INS} sign-ins", "GET /api/health", health.samples)]

                db_path = url.split(":///", 1)[1]
                ready = threading.Event()
                locker = threading.Thread(target=hold_write_lock, args=(db_path, 5.0, ready))
                locker.start()
                ready.wait()
                with HealthPoller(base_url) as health:
                    locked = visitor.clicks_for(4.5)
                locker.join()
                results += [("write lock 5 s", "visitor filter click -> grid", locked),
                            ("write lock 5 s", "GET /api/health", health.samples)]

            if not args.only_worker:
                loads.append(os.getloadavg()[0])
                scraping: list[float] | None = []
                with HealthPoller(base_url) as health:
                    for _ in range(args.scrape_rounds):
                        burst = scrape_burst(base_url, callers, visitor)
                        if burst is None:
                            scraping = None
                            break
                        scraping += burst
                        visitor.clicks_for(0.5)  # the last answers' sockets settle; not counted
                if scraping is not None:
                    results += [("3 scrapes x 1,000", "visitor filter click -> grid", scraping),
                                ("3 scrapes x 1,000", "GET /api/health", health.samples)]
                loads.append(os.getloadavg()[0])

    print()
    print(f"Bystander latency, prod app on SQLite ({label}), {args.leads:,} leads, milliseconds; load average "
          f"(1 min) at start and around the scrapes: {', '.join(f'{x:.1f}' for x in loads)}")
    print("| scenario           | bystander                    |    n |   median |      p95 |      max |")
    print("|--------------------|------------------------------|------|----------|----------|----------|")
    for name, what, samples in results:
        print(row(name, what, samples))


if __name__ == "__main__":
    main()
