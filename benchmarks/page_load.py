"""Page load on a phone: Lighthouse's mobile preset against the prod app, and the
cold first load of /marketplace in Chromium.

    .venv/bin/python -m benchmarks.page_load                   # 3 runs a page, SQLite, 500 leads
    .venv/bin/python -m benchmarks.page_load --runs 5 --pages / /marketplace
    .venv/bin/python -m benchmarks.page_load --url http://127.0.0.1:8000   # an app already running

Starts the app in prod mode like the browser tests do (built in a synced copy,
``--app-dir``, default /tmp/lv-bench-app) with seeded leads, then:

* runs Lighthouse (the npm package pinned in ``benchmarks/lighthouse/``,
  installed on first use with the venv's npm into ``~/.cache/leadvault-lighthouse``,
  outside the project so that app copies stay small) with its default mobile
  preset (simulated slow 4G, 4x CPU slowdown) on Debian's Chromium, ``--runs``
  times a page, and prints page, performance (median, min-max), LCP, TBT, CLS
  (medians), SEO, accessibility and best practices, then the largest savings
  Lighthouse names for each page;
* loads /marketplace ``--runs`` times in a fresh browser context (empty cache,
  no throttling) and times navigation start -> first lead card visible, with the
  bytes transferred and the requests made by then.

Figures are noisy on a shared 2-core machine: the load average is printed with
each measurement. No thresholds are asserted here.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks._live_app import CHROMIUM, CHROMIUM_ARGS, live_app, sync_app

LIGHTHOUSE_PROJECT = Path(__file__).resolve().parent / "lighthouse"
LIGHTHOUSE_CHROME_FLAGS = "--headless --no-sandbox --disable-gpu"
DEFAULT_PAGES = ("/", "/marketplace", "/pricing", "/auth")
CATEGORIES = ("performance", "seo", "accessibility", "best-practices")
FIRST_CARD = "#lead-grid [id^='lead-card-']"

# Records when the first element matching the selector (``%`` a JSON string) is visible, checked on every DOM
# change and frame: ``window.__shownAt``.
VISIBLE_PROBE = """
(() => {
  const selector = %s;
  const seen = () => {
    const el = document.querySelector(selector);
    if (!el) return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  const check = () => {
    if (window.__shownAt === undefined && seen()) window.__shownAt = performance.now();
  };
  new MutationObserver(check).observe(document, {childList: true, subtree: true, attributes: true});
  const frame = () => { check(); if (window.__shownAt === undefined) requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
})();
"""
FIRST_CARD_PROBE = VISIBLE_PROBE % json.dumps(FIRST_CARD)

# What the page had fetched when the card showed: count and bytes on the wire.
TRANSFERRED = """
() => {
  const at = window.__shownAt;
  const nav = performance.getEntriesByType('navigation')[0];
  const loaded = performance.getEntriesByType('resource').filter((r) => r.startTime <= at);
  return {requests: 1 + loaded.length,
          bytes: (nav ? nav.transferSize : 0) + loaded.reduce((sum, r) => sum + (r.transferSize || 0), 0)};
}
"""


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f}/{five:.2f}"


def npm_executable() -> str:
    venv_npm = Path(sys.executable).parent / "npm"
    return str(venv_npm) if venv_npm.exists() else "npm"


def lighthouse_bin() -> Path:
    """The pinned Lighthouse, installed with ``npm ci`` on first use (a cache per package and lock file).

    ``overrides`` in package.json pins two packages that Lighthouse's trace engine asks for as
    "latest": without it ``npm ci`` refuses the lock file once either publishes a new version."""
    lock = b"".join((LIGHTHOUSE_PROJECT / name).read_bytes() for name in ("package.json", "package-lock.json"))
    home = Path(os.environ.get("LIGHTHOUSE_HOME", Path.home() / ".cache" / "leadvault-lighthouse"))
    target = home / hashlib.sha256(lock).hexdigest()[:12]
    binary = target / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        target.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copy(LIGHTHOUSE_PROJECT / name, target / name)
        print(f"installing Lighthouse into {target} ...", flush=True)
        subprocess.run([npm_executable(), "ci", "--no-audit", "--no-fund"], cwd=target, check=True,
                       env={**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}",
                            "NPM_CONFIG_REGISTRY": "https://registry.npmjs.org"})
    return binary


def run_lighthouse(binary: Path, url: str, out_dir: Path, name: str) -> dict:
    report = out_dir / f"{name}.json"
    env = {**os.environ, "CHROME_PATH": CHROMIUM,
           "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"}
    subprocess.run(
        [str(binary), url, "--quiet", "--output=json", f"--output-path={report}",
         f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={LIGHTHOUSE_CHROME_FLAGS}",
         "--max-wait-for-load=60000"],
        check=True, env=env, timeout=300,
    )
    return json.loads(report.read_text())


def summarize(report: dict) -> dict:
    audits = report["audits"]
    scores = {name: round(100 * (report["categories"][name]["score"] or 0)) for name in CATEGORIES}
    opportunities = sorted(
        ((audit["details"].get("overallSavingsMs") or 0, audit["title"], audit.get("displayValue", ""))
         for audit in audits.values()
         if (audit.get("details") or {}).get("type") == "opportunity" and (audit["score"] or 0) < 0.9),
        reverse=True,
    )
    failing = [audit["id"] for key in ("seo", "accessibility", "best-practices")
               for ref in report["categories"][key]["auditRefs"]
               if ref["weight"] > 0 and (audit := audits[ref["id"]])["score"] is not None and audit["score"] < 1]
    return {
        **scores,
        "lcp": audits["largest-contentful-paint"]["numericValue"],
        "tbt": audits["total-blocking-time"]["numericValue"],
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "opportunities": [f"{title} ({shown or f'{ms:.0f} ms'})" for ms, title, shown in opportunities[:4]],
        "failing": failing,
    }


def lighthouse_table(base_url: str, pages: list[str], runs: int, out_dir: Path) -> list[str]:
    binary = lighthouse_bin()
    lines = ["| page | performance median (min-max) | LCP | TBT | CLS | SEO | accessibility | best practices | load |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    notes = []
    for path in pages:
        results = []
        started_load = load()
        for i in range(runs):
            name = (path.strip("/") or "home").replace("/", "_") + f"-{i}"
            results.append(summarize(run_lighthouse(binary, base_url + path, out_dir, name)))
            print(f"  {path} run {i + 1}: performance {results[-1]['performance']}, "
                  f"LCP {results[-1]['lcp'] / 1000:.1f} s, TBT {results[-1]['tbt']:.0f} ms ({load()})", flush=True)
        perf = [r["performance"] for r in results]
        med = lambda key: statistics.median(r[key] for r in results)  # noqa: E731
        lines.append(
            f"| {path} | {statistics.median(perf):.0f} ({min(perf)}-{max(perf)}) | {med('lcp') / 1000:.1f} s "
            f"| {med('tbt'):,.0f} ms | {med('cls'):.3f} | {med('seo'):.0f} | {med('accessibility'):.0f} "
            f"| {med('best-practices'):.0f} | {started_load} |"
        )
        last = results[-1]
        notes.append(f"{path}: " + ("; ".join(last["opportunities"]) or "no opportunity flagged")
                     + (f"; failing audits: {', '.join(sorted(set(last['failing'])))}" if last["failing"] else ""))
    return lines + ["", "Largest savings Lighthouse names (last run):", *[f"- {note}" for note in notes]]


def cold_marketplace(base_url: str, runs: int) -> list[str]:
    from playwright.sync_api import sync_playwright

    samples = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for _ in range(runs):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                context.add_init_script(FIRST_CARD_PROBE)
                page = context.new_page()
                page.goto(base_url + "/marketplace", wait_until="commit")
                page.wait_for_function("window.__shownAt !== undefined", timeout=60_000, polling=50)
                shown = page.evaluate("window.__shownAt")
                fetched = page.evaluate(TRANSFERRED)
                samples.append((shown, fetched["bytes"], fetched["requests"], load()))
                context.close()
        finally:
            with contextlib.suppress(Exception):
                browser.close()
    times = [s[0] for s in samples]
    lines = [f"Cold first load of /marketplace (fresh context, no throttling), {runs} runs:",
             "| run | first card visible | transferred | requests | load |", "| --- | --- | --- | --- | --- |"]
    lines += [f"| {i + 1} | {ms:,.0f} ms | {size / 1024:,.0f} KiB | {count} | {when} |"
              for i, (ms, size, count, when) in enumerate(samples)]
    lines.append(f"| median | {statistics.median(times):,.0f} ms (min {min(times):,.0f}, max {max(times):,.0f}) "
                 f"| {statistics.median(s[1] for s in samples) / 1024:,.0f} KiB "
                 f"| {statistics.median(s[2] for s in samples):.0f} | |")
    return lines


def measure(base_url: str, args) -> None:
    out_dir = Path(tempfile.mkdtemp(prefix="lv-lighthouse-"))
    report = []
    if not args.skip_lighthouse:
        print(f"Lighthouse (mobile preset) on {base_url}, {args.runs} runs a page ({load()}) ...", flush=True)
        report += lighthouse_table(base_url, args.pages, args.runs, out_dir) + [""]
    if not args.skip_cold:
        report += cold_marketplace(base_url, args.runs)
    print()
    print("\n".join(report))
    print(f"\nLighthouse reports: {out_dir}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pages", nargs="+", default=list(DEFAULT_PAGES))
    parser.add_argument("--leads", type=int, default=500)
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--app-dir", default="/tmp/lv-bench-app")
    parser.add_argument("--url", help="measure an app already running here instead of starting one")
    parser.add_argument("--skip-lighthouse", action="store_true")
    parser.add_argument("--skip-cold", action="store_true")
    args = parser.parse_args()
    if args.url:
        measure(args.url.rstrip("/"), args)
        return

    from benchmarks._db import postgres_database, sqlite_database
    from marketplace.features.scrape.service_seeding import seed_leads

    database = sqlite_database if args.db == "sqlite" else postgres_database
    with database() as url, tempfile.TemporaryDirectory(prefix="lv-bench-data-") as data_dir:
        started = time.perf_counter()
        seed_leads(args.leads, seed=7, progress=False, database_url=url)
        print(f"seeded {args.leads:,} leads on {args.db} in {time.perf_counter() - started:.1f}s", flush=True)
        app_dir = sync_app(Path(args.app_dir))
        print(f"starting the app in prod mode from {app_dir} (the first build takes a minute)...", flush=True)
        with live_app(url, Path(data_dir), app_dir, Path(data_dir) / "app.log") as base_url:
            measure(base_url, args)


if __name__ == "__main__":
    main()
