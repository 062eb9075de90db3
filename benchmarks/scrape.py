"""Bulk scrape and webhook API speed.

    .venv/bin/python -m benchmarks.scrape                    # PostgreSQL (BENCH_POSTGRES_URL's server)
    .venv/bin/python -m benchmarks.scrape --db sqlite

Part 1, the scrape service end to end (``services.scrapes.run_scrape``: balance
check, generation with the built-in source, duplicate check, then the one
transaction that stores the scrape row, the leads, the unlock records and the
ledger spend): 1, 100 and 1,000 leads, ``--runs`` times each, with the time of
generation and of the store step apart.

Part 2, the webhook API under concurrent load, served by granian (one worker)
on loopback with the FastAPI app alone, driven by an asyncio load generator
(httpx, ``--concurrency`` connections): requests per second and p50/p95 for a
401 (wrong key), a 429 (over the rate limit) and an accepted 1-lead scrape.
Prints tables; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx

from benchmarks._db import postgres_database, sqlite_database
from benchmarks._live_app import free_port
from marketplace.config import reload_settings
from marketplace.core import scrape as rules
from marketplace.db import session_scope
from marketplace.services import accounts, scrapes, webhooks
from marketplace.sources.builtin import BuiltinSource


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))]


def bench_service(url: str, runs: int) -> list[tuple]:
    os.environ["DATABASE_URL"] = url
    reload_settings()
    with session_scope() as s:
        user = accounts.create_user(s, f"bench-{uuid.uuid4().hex[:8]}@example.com", "secret123", "Bench", "User",
                                    credits=100_000_000, confirmed=True)
    BuiltinSource(seed=1).search(rules.ScrapeRequest(lead_count=200).criteria())  # warm-up: ZIP tables, caches
    rows = []
    for count in (1, 100, 1000):
        totals, gens = [], []
        for i in range(runs):
            request = rules.ScrapeRequest(lead_count=count)
            source = BuiltinSource(seed=1000 * count + i)
            t0 = time.perf_counter()
            leads = scrapes.generate(user.id, request, source)
            t1 = time.perf_counter()
            scrapes.store(user.id, request, leads, origin="bench", charge=True)
            t2 = time.perf_counter()
            gens.append((t1 - t0) * 1000)
            totals.append((t2 - t0) * 1000)
        rows.append((count, statistics.median(gens), statistics.median(totals), pct(totals, 0.95)))
    return rows


async def load(base: str, path: str, make_request, total: int, concurrency: int) -> tuple[float, list[float], dict]:
    latencies: list[float] = []
    codes: dict[int, int] = {}
    queue = iter(range(total))

    async def worker(client: httpx.AsyncClient):
        for _ in queue:
            t0 = time.perf_counter()
            res = await make_request(client)
            latencies.append((time.perf_counter() - t0) * 1000)
            codes[res.status_code] = codes.get(res.status_code, 0) + 1

    started = time.perf_counter()
    limits = httpx.Limits(max_connections=concurrency)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
        await asyncio.gather(*(worker(client) for _ in range(concurrency)))
    return total / (time.perf_counter() - started), latencies, codes


def bench_api(url: str, requests: int, concurrency: int) -> list[tuple]:
    os.environ["DATABASE_URL"] = url
    reload_settings()
    with session_scope() as s:
        user = accounts.create_user(s, f"api-{uuid.uuid4().hex[:8]}@example.com", "secret123", "Api", "User",
                                    credits=100_000_000, confirmed=True)
    key = webhooks.regenerate_key(user.id)
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "bench", "TRUSTED_PROXY_HOPS": "1"}
    env.pop("REDIS_URL", None)
    log = tempfile.NamedTemporaryFile(prefix="lv-bench-api-", suffix=".log", delete=False)
    proc = subprocess.Popen(
        [sys.executable, "-m", "granian", "--interface", "asgi", "--factory", "--host", "127.0.0.1", "--port",
         str(port), "--workers", "1", "marketplace.api.app:create_api"],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=Path(__file__).parent.parent,
    )
    base = f"http://127.0.0.1:{port}"
    path = f"/functions/v1/webhook-bulk-scrape/{user.id}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"API did not start; see {log.name}")
            time.sleep(0.3)
        counter = iter(range(10**9))

        def ip() -> str:  # one address per request: the rate limit stays out of the way
            n = next(counter)
            return f"127.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}"

        cases = {
            "401 wrong key": lambda c: c.post(path, json={"leadCount": 1, "location": "TX"},
                                              headers={"x-webhook-auth": "lvwh_wrong", "x-forwarded-for": ip()}),
            "429 over the limit": lambda c: c.post(path, json={"leadCount": 1, "location": "TX"},
                                                   headers={"x-webhook-auth": key, "x-forwarded-for": "127.255.0.1"}),
            "200 scrape of 1 lead": lambda c: c.post(path, json={"leadCount": 1, "location": "TX"},
                                                     headers={"x-webhook-auth": key, "x-forwarded-for": ip()}),
        }
        rows = []
        for name, make in cases.items():
            rps, lat, codes = asyncio.run(load(base, path, make, requests, concurrency))
            rows.append((name, rps, statistics.median(lat), pct(lat, 0.95), codes))
        return rows
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()
    database = postgres_database if args.db == "postgres" else sqlite_database
    with database() as url:
        service = bench_service(url, args.runs)
        api = bench_api(url, args.requests, args.concurrency)
    print()
    print(f"Scrape service end to end on {args.db} (median of {args.runs}; generate + store in one transaction), ms")
    print("| leads | generate p50 | total p50 | total p95 |")
    print("|------:|-------------:|----------:|----------:|")
    for count, gen, total, p95 in service:
        print(f"| {count:>5,} | {gen:>12.1f} | {total:>9.1f} | {p95:>9.1f} |")
    print()
    print(f"Webhook API on {args.db}, granian 1 worker, {args.requests} requests, {args.concurrency} concurrent, ms")
    print("| case                  |   req/s |   p50 |   p95 | status codes |")
    print("|-----------------------|--------:|------:|------:|--------------|")
    for name, rps, p50, p95, codes in api:
        print(f"| {name:<21} | {rps:>7.0f} | {p50:>5.1f} | {p95:>5.1f} | {codes} |")


if __name__ == "__main__":
    main()
