"""Pages at the framework's floor: each page's total blocking time (TBT) and Lighthouse performance score on
a phone, interleaved with a blank Reflex app of the pinned version served the same way.

    .venv/bin/python -m benchmarks.page_blocking                  # 3 rounds, SQLite, 500 leads
    .venv/bin/python -m benchmarks.page_blocking --runs 5 --pages / /pricing
    .venv/bin/python -m benchmarks.page_blocking --skip-cold

The floor is ``reflex init --template blank`` (built once in ``--blank-dir``, default /tmp/lv-bench-blank,
with the venv's Reflex and Node, as the Makefile's environment has them) run with ``reflex run --env prod``
beside this app (prod mode, a synced copy in ``--app-dir``, SQLite with ``--leads`` seeded leads, a signed-in
investor holding one unlocked lead).

Method: Lighthouse 12 (``benchmarks/lighthouse/``, installed on first use as ``benchmarks.page_load`` does)
through its Node API (``benchmarks/lighthouse/signed_in.mjs``: puppeteer-core launches Debian's Chromium
headless; Lighthouse's own defaults, i.e. the mobile preset: simulated slow 4G and 4x CPU slowdown, storage
reset before each run). Signed-in pages (/dashboard, /property/{id}) get a fresh server session per run whose
tokens are written into localStorage before the page's first script, as the browser tests' ``start_session``
does; public pages get none. Every page, the blank one included, goes through the same script.

Each round runs the blank page, then every page once; after ``--runs`` rounds it prints each page's median
TBT and performance beside the blank page's median, the difference and the ratio, and the median main-thread
work with its largest parts. Then ``--runs`` rounds (fresh browser context, no throttling) of: the blank page's
load (navigation start -> load event end), /marketplace's first lead card visible, and an unlocked property's
address visible, signed in; each as a ratio to the blank page's load.

Figures are noisy on a shared 2-core machine: the load average is printed with each.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from benchmarks._live_app import CHROMIUM, CHROMIUM_ARGS, REFLEX_ENV, live_app, reflex_server, sync_app
from benchmarks._live_app import session_storage as live_session_storage
from benchmarks.page_load import FIRST_CARD, LIGHTHOUSE_PROJECT, VISIBLE_PROBE, lighthouse_bin, load

DEFAULT_PAGES = ("/", "/marketplace", "/pricing", "/auth", "/dashboard", "/property/{id}")
SIGNED_IN = ("/dashboard", "/property/")
PROPERTY_SHOWN = "#property-address"
BLANK = "blank"

LOAD_EVENT_END = "() => { const nav = performance.getEntriesByType('navigation')[0]; return nav && nav.loadEventEnd; }"


# ---------------------------------------------------------------------------------------------- apps

def blank_app(target: Path) -> Path:
    """A blank Reflex app of the installed (pinned) version in ``target``, made once."""
    if not (target / "rxconfig.py").exists():
        target.mkdir(parents=True, exist_ok=True)
        venv_bin = str(Path(sys.executable).parent)
        subprocess.run([sys.executable, "-m", "reflex", "init", "--template", "blank", "--name", BLANK],
                       cwd=target, check=True, env={**os.environ, **REFLEX_ENV, "PATH": f"{venv_bin}:{os.environ.get('PATH', '')}"})
    return target


def signed_in_investor(url: str) -> tuple[uuid.UUID, str]:
    """A confirmed investor with one unlocked lead: (user id, lead id)."""
    from sqlmodel import select

    from marketplace.features.accounts import service as accounts
    from marketplace.features.unlock.service import unlock_lead
    from marketplace.platform.db import session_scope
    from marketplace.platform.models import Lead

    with session_scope(url) as session:
        user = accounts.create_user(session, f"bench-{uuid.uuid4().hex[:8]}@example.com", "secret123",
                                    "Bench", "Investor", credits=1_000, confirmed=True)
        lead_id = session.exec(select(Lead.id).where(Lead.is_active).order_by(Lead.id).limit(1)).one()
    unlock_lead(user.id, lead_id, database_url=url)
    return user.id, str(lead_id)


def session_storage(url: str, user_id: uuid.UUID) -> dict:
    """localStorage entries of a fresh server session for ``user_id`` (as the app stores them)."""
    from marketplace.platform import sessions as auth_sessions
    from marketplace.platform.db import session_scope

    with session_scope(url) as session:
        pair = auth_sessions.create_session(session, user_id)
    return live_session_storage(pair)


# ----------------------------------------------------------------------------------------- lighthouse

def lighthouse_script() -> Path:
    """signed_in.mjs beside the installed Lighthouse (Node resolves its imports from there)."""
    target = lighthouse_bin().parents[2] / "signed_in.mjs"
    shutil.copy(LIGHTHOUSE_PROJECT / "signed_in.mjs", target)
    return target


def run_lighthouse(script: Path, url: str, report: Path, storage: dict) -> dict:
    env = {**os.environ, "CHROME_PATH": CHROMIUM, "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"}
    subprocess.run([str(Path(sys.executable).parent / "node"), str(script), url, str(report), json.dumps(storage)],
                   check=True, env=env, timeout=300, cwd=script.parent)
    audits = json.loads(report.read_text())
    breakdown = audits["audits"]["mainthread-work-breakdown"]["details"]["items"]
    return {
        "performance": round(100 * (audits["categories"]["performance"]["score"] or 0)),
        "tbt": audits["audits"]["total-blocking-time"]["numericValue"],
        "main": audits["audits"]["mainthread-work-breakdown"]["numericValue"],
        "parts": {item["groupLabel"]: item["duration"] for item in breakdown},
    }


def lighthouse_rounds(pages: list[str], runs: int, blank_url: str, app_url: str, database_url: str | None,
                      user_id: uuid.UUID | None, out_dir: Path) -> dict[str, list[dict]]:
    script = lighthouse_script()
    results: dict[str, list[dict]] = {BLANK: [], **{page: [] for page in pages}}
    for i in range(runs):
        for name in (BLANK, *pages):
            url = blank_url + "/" if name == BLANK else app_url + name
            storage = session_storage(database_url, user_id) if name.startswith(SIGNED_IN) else {}
            report = out_dir / f"{(name.strip('/') or 'home').replace('/', '_')}-{i}.json"
            results[name].append(run_lighthouse(script, url, report, storage))
            last = results[name][-1]
            print(f"  round {i + 1} {name}: TBT {last['tbt']:,.0f} ms, performance {last['performance']}, "
                  f"main thread {last['main'] / 1000:.1f} s ({load()})", flush=True)
    return results


def lighthouse_table(results: dict[str, list[dict]], label: dict[str, str]) -> list[str]:
    med = lambda name, key: statistics.median(r[key] for r in results[name])  # noqa: E731
    blank_tbt, blank_perf = med(BLANK, "tbt"), med(BLANK, "performance")
    lines = ["| page | TBT median (min-max) | blank TBT | difference | ratio | performance (min-max) | blank "
             "| difference | main thread | largest parts |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, runs in results.items():
        tbts = [r["tbt"] for r in runs]
        perfs = [r["performance"] for r in runs]
        tbt, perf = statistics.median(tbts), statistics.median(perfs)
        parts: dict[str, list[float]] = {}
        for r in runs:
            for part, ms in r["parts"].items():
                parts.setdefault(part, []).append(ms)
        largest = sorted(((statistics.median(v), k) for k, v in parts.items()), reverse=True)[:3]
        ratio = f"{tbt / blank_tbt:.1f}x" if blank_tbt >= 1 else "-"
        lines.append(
            f"| {label.get(name, name)} | {tbt:,.0f} ms ({min(tbts):,.0f}-{max(tbts):,.0f}) | {blank_tbt:,.0f} ms "
            f"| {tbt - blank_tbt:+,.0f} ms | {ratio} | {perf:.0f} ({min(perfs)}-{max(perfs)}) | {blank_perf:.0f} "
            f"| {perf - blank_perf:+.0f} | {med(name, 'main') / 1000:.1f} s "
            f"| {', '.join(f'{k} {ms / 1000:.1f} s' for ms, k in largest)} |")
    return lines


# -------------------------------------------------------------------------------------------- cold loads

def cold_loads(blank_url: str, app_url: str, property_path: str | None, database_url: str | None,
               user_id: uuid.UUID | None, runs: int) -> list[str]:
    from playwright.sync_api import sync_playwright

    samples: dict[str, list[float]] = {"blank page loaded": [], "/marketplace first card": [],
                                       "property page open": []}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for _ in range(runs):
                for name in samples:
                    if name == "property page open" and not property_path:
                        continue
                    context = browser.new_context(viewport={"width": 1280, "height": 900})
                    page = context.new_page()
                    if name == "blank page loaded":
                        page.goto(blank_url + "/", wait_until="commit")
                        page.wait_for_function(LOAD_EVENT_END, timeout=60_000, polling=50)
                        samples[name].append(page.evaluate(LOAD_EVENT_END))
                    else:
                        selector = FIRST_CARD if name.startswith("/marketplace") else PROPERTY_SHOWN
                        context.add_init_script(VISIBLE_PROBE % json.dumps(selector))
                        if name == "property page open":
                            storage = session_storage(database_url, user_id)
                            context.add_init_script("".join(f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});"
                                                            for k, v in storage.items()))
                        page.goto(app_url + (property_path if name == "property page open" else "/marketplace"),
                                  wait_until="commit")
                        page.wait_for_function("window.__shownAt !== undefined", timeout=60_000, polling=50)
                        samples[name].append(page.evaluate("window.__shownAt"))
                    context.close()
        finally:
            with contextlib.suppress(Exception):
                browser.close()
    blank = statistics.median(samples["blank page loaded"])
    lines = [f"Cold loads (fresh context, no throttling, 1280x900), {runs} rounds interleaved ({load()}):",
             "| what | median (min-max) | ratio to the blank page's load |", "| --- | --- | --- |"]
    for name, times in samples.items():
        if times:
            lines.append(f"| {name} | {statistics.median(times):,.0f} ms ({min(times):,.0f}-{max(times):,.0f}) "
                         f"| {statistics.median(times) / blank:.1f}x |")
    return lines


# ------------------------------------------------------------------------------------------------- main

def measure(args, blank_url: str, app_url: str, database_url: str, user_id: uuid.UUID, lead_id: str) -> None:
    pages = [page.replace("{id}", lead_id) for page in args.pages]
    label = {page.replace("{id}", lead_id): page for page in args.pages}
    label[BLANK] = "blank Reflex app /"
    out_dir = Path(tempfile.mkdtemp(prefix="lv-blocking-"))
    report: list[str] = []
    if not args.skip_lighthouse:
        print(f"Lighthouse (mobile preset), {args.runs} rounds of the blank page and {len(pages)} pages "
              f"({load()}) ...", flush=True)
        started = load()
        results = lighthouse_rounds(pages, args.runs, blank_url, app_url, database_url, user_id, out_dir)
        report += [f"Total blocking time and performance, Lighthouse mobile preset, medians of {args.runs} "
                   f"interleaved rounds (started at {started}, ended at {load()}):",
                   *lighthouse_table(results, label), ""]
    if not args.skip_cold:
        property_path = next((page for page in pages if page.startswith("/property/")), None)
        report += cold_loads(blank_url, app_url, property_path, database_url, user_id, args.runs)
    print()
    print("\n".join(report))
    print(f"\nLighthouse reports: {out_dir}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pages", nargs="+", default=list(DEFAULT_PAGES),
                        help="{id} stands for the investor's unlocked lead")
    parser.add_argument("--leads", type=int, default=500)
    parser.add_argument("--app-dir", default="/tmp/lv-bench-app")
    parser.add_argument("--blank-dir", default="/tmp/lv-bench-blank")
    parser.add_argument("--skip-lighthouse", action="store_true")
    parser.add_argument("--skip-cold", action="store_true")
    args = parser.parse_args()

    from benchmarks._db import sqlite_database
    from marketplace.features.scrape.service_seeding import seed_leads

    with sqlite_database() as url, tempfile.TemporaryDirectory(prefix="lv-bench-data-") as data_dir:
        started = time.perf_counter()
        seed_leads(args.leads, seed=7, progress=False, database_url=url)
        user_id, lead_id = signed_in_investor(url)
        print(f"seeded {args.leads:,} leads and an investor with one unlocked lead in "
              f"{time.perf_counter() - started:.1f}s", flush=True)
        blank_dir = blank_app(Path(args.blank_dir))
        app_dir = sync_app(Path(args.app_dir))
        print(f"starting the blank app from {blank_dir} and the app from {app_dir} in prod mode "
              "(first builds take minutes)...", flush=True)
        with reflex_server(blank_dir, Path(data_dir) / "blank.log") as blank_url, \
                live_app(url, Path(data_dir), app_dir, Path(data_dir) / "app.log") as app_url:
            measure(args, blank_url, app_url, url, user_id, lead_id)


if __name__ == "__main__":
    main()
