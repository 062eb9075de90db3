"""Bulk scrape and webhook API speed.

    .venv/bin/python -m benchmarks.scrape                    # PostgreSQL (BENCH_POSTGRES_URL's server)
    .venv/bin/python -m benchmarks.scrape --db sqlite
    .venv/bin/python -m benchmarks.scrape --db sqlite --only-api --rev main   # the API of another commit

Part 1, the scrape service end to end (``scrape.service.run_scrape``: balance
check, generation with the built-in source, duplicate check, then the one
transaction that stores the scrape row, the leads, the unlock records and the
ledger spend): 1, 100 and 1,000 leads, ``--runs`` times each, with the time of
generation and of the store step apart.

Part 2, the webhook API under load, on the served app: Reflex's backend as
``reflex run --env prod`` serves it (granian, ``marketplace.marketplace:app``,
one worker, every middleware), driven by ``wrk`` (Debian's package) with
``--concurrency`` connections, ``--rounds`` rounds of ``--seconds`` per case
taking turns (medians shown, so a change in the shared machine's load hits
every case alike): Reflex's own ``/ping``
(the reference), a 401 (a wrong key, each request from another address), a
429 (one address over the rate limit) and an accepted 1-lead scrape (a valid
key, each request from another address). Requests per second, p50, p95 and
the share of ``/ping``'s requests per second, with the load average before
each case (the machine is shared). Prints tables; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
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
from marketplace.platform.config import reload_settings
from marketplace.features.scrape import rules
from marketplace.platform.db import session_scope
from marketplace.features.accounts import service as accounts
from marketplace.features.scrape import service as scrapes, service_webhooks as webhooks
from marketplace.features.scrape.source_builtin import BuiltinSource


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


WRK_SCRIPT = """
local key = os.getenv("LV_KEY")
local spread = os.getenv("LV_SPREAD") == "1"
local counter = 0
wrk.method = os.getenv("LV_METHOD") or "GET"
if key then
  wrk.body = '{"leadCount": 1, "location": "TX"}'
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["x-webhook-auth"] = key
end
wrk.headers["x-forwarded-for"] = "198.18.255.1"
function setup(thread) thread:set("tid", tostring(math.random(0, 255))) end
request = function()
  if spread then  -- one address per request: the rate limit stays out of the way
    counter = counter + 1
    wrk.headers["x-forwarded-for"] = string.format("10.%s.%d.%d", tid or "0", math.floor(counter / 256) % 256,
                                                   counter % 256)
  end
  return wrk.format()
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %f %f %f %d %d %d\\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, summary.requests, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
"""


def export_rev(rev: str, target: Path) -> Path:
    """The project as it was at ``rev`` (tracked files only)."""
    from benchmarks.event_loop import export_rev as export

    return export(rev, target)


def wrk(url: str, seconds: int, concurrency: int, env: dict) -> dict:
    """One wrk run: req/s, p50 and p95 (ms), requests, non-2xx answers, socket errors."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_SCRIPT)
    try:
        out = subprocess.run(["wrk", "-t2", f"-c{concurrency}", f"-d{seconds}s", "-s", script.name, url],
                             env={**os.environ, **env}, capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(script.name)
    found = re.search(r"RESULT (\S+) (\S+) (\S+) (\d+) (\d+) (\d+)", out)
    if found is None:
        raise RuntimeError(f"wrk printed no result:\n{out}")
    rps, p50, p95, total, non2xx, errors = found.groups()
    return {"rps": float(rps), "p50": float(p50), "p95": float(p95), "requests": int(total),
            "non2xx": int(non2xx), "errors": int(errors)}


def bench_api(url: str, seconds: int, concurrency: int, rev: str | None, rounds: int = 3) -> list[tuple]:
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is needed for the API part: apt-get install wrk")
    os.environ["DATABASE_URL"] = url
    reload_settings()
    with session_scope() as s:
        user = accounts.create_user(s, f"api-{uuid.uuid4().hex[:8]}@example.com", "secret123", "Api", "User",
                                    credits=100_000_000, confirmed=True)
    key = webhooks.regenerate_key(user.id)
    root = Path(__file__).parent.parent
    tree = export_rev(rev, Path(tempfile.mkdtemp(prefix="lv-bench-rev-"))) if rev else root
    port = free_port()
    venv_bin = str(Path(sys.executable).parent)
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "bench", "TRUSTED_PROXY_HOPS": "1",
           "REFLEX_ENV_MODE": "prod", "LEAD_REFRESH_SCHEDULER": "off", "PYTHONPATH": str(tree),
           "PATH": f"{venv_bin}:{os.environ.get('PATH', '')}"}
    env.pop("REDIS_URL", None)
    log = tempfile.NamedTemporaryFile(prefix="lv-bench-api-", suffix=".log", delete=False)
    proc = subprocess.Popen(
        [sys.executable, "-m", "granian", "--interface", "asgi", "--factory", "--host", "127.0.0.1", "--port",
         str(port), "--workers", "1", "marketplace.marketplace:app"],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=tree,
    )
    base = f"http://127.0.0.1:{port}"
    path = f"{base}/functions/v1/webhook-bulk-scrape/{user.id}"
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"the app did not start; see {log.name}")
            time.sleep(0.5)
        cases = [
            ("GET /ping (Reflex)", base + "/ping", {}),
            ("401 wrong key", path, {"LV_METHOD": "POST", "LV_KEY": "lvwh_wrong", "LV_SPREAD": "1"}),
            ("429 over the limit", path, {"LV_METHOD": "POST", "LV_KEY": key, "LV_SPREAD": "0"}),
            ("200 scrape of 1 lead", path, {"LV_METHOD": "POST", "LV_KEY": key, "LV_SPREAD": "1"}),
        ]
        wrk(base + "/ping", 2, concurrency, {})  # warm-up
        runs: dict[str, list[dict]] = {name: [] for name, _, _ in cases}
        loads: dict[str, list[float]] = {name: [] for name, _, _ in cases}
        for _ in range(rounds):  # the cases take turns, so a change in the machine's load hits them all
            for name, target, case_env in cases:
                loads[name].append(os.getloadavg()[0])
                runs[name].append(wrk(target, seconds, concurrency, case_env))
        rows = []
        for name, _, _ in cases:
            median = {k: statistics.median(r[k] for r in runs[name]) for k in ("rps", "p50", "p95")}
            median.update({k: sum(r[k] for r in runs[name]) for k in ("requests", "non2xx", "errors")})
            rows.append((name, statistics.median(loads[name]), median))
        return rows
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass  # it exited on its own (see the log); a --rev older than the database's schema does
        proc.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=5, help="wrk's duration per API case and round")
    parser.add_argument("--rounds", type=int, default=3, help="API rounds (the cases take turns); medians shown")
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--only-api", action="store_true", help="skip the scrape service part")
    parser.add_argument("--rev", help="serve the API of this commit (git archive) instead of the working tree")
    args = parser.parse_args()
    database = postgres_database if args.db == "postgres" else sqlite_database
    with database() as url:
        service = [] if args.only_api else bench_service(url, args.runs)
        api = bench_api(url, args.seconds, args.concurrency, args.rev, args.rounds)
    if service:
        print()
        print(f"Scrape service end to end on {args.db} (median of {args.runs}; generate + store in one transaction), "
              "ms")
        print("| leads | generate p50 | total p50 | total p95 |")
        print("|------:|-------------:|----------:|----------:|")
        for count, gen, total, p95 in service:
            print(f"| {count:>5,} | {gen:>12.1f} | {total:>9.1f} | {p95:>9.1f} |")
    print()
    print(f"Webhook API on {args.db}{' at ' + args.rev if args.rev else ''}: the served app (granian, 1 worker), "
          f"wrk, {args.concurrency} connections, {args.rounds} rounds of {args.seconds} s per case taking turns "
          "(median of the rounds), ms")
    print("| case                  |   req/s | of /ping |   p50 |   p95 | requests | non-2xx | errors | load (median) |")
    print("|-----------------------|--------:|---------:|------:|------:|---------:|--------:|-------:|--------------:|")
    ping = api[0][2]["rps"]
    for name, load, r in api:
        print(f"| {name:<21} | {r['rps']:>7.0f} | {100 * r['rps'] / ping:>7.0f}% | {r['p50']:>5.1f} | {r['p95']:>5.1f} "
              f"| {r['requests']:>8} | {r['non2xx']:>7} | {r['errors']:>6} | {load:>13.2f} |")


if __name__ == "__main__":
    main()
