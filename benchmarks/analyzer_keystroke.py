"""The Deal Analyzer in Chromium against the prod app: how long a keystroke takes to show its result.

    .venv/bin/python -m benchmarks.analyzer_keystroke [--runs 60] [--db sqlite|postgres]

Starts the app in prod mode like the browser tests do (built in a synced copy, ``--app-dir``, default
/tmp/lv-bench-app), stores one lead and a user who unlocked it, opens /property/{id} signed in, and
types into the Purchase price field: a real key press (Playwright's keyboard), alternately '5'
(200,000 -> 2,000,005) and Backspace, so every keystroke changes the Flip tab's profit. The clock starts
at the key's ``keydown`` and stops after the frame in which ``#analyzer-flip_profit`` shows the new
figure has been painted (the state event, the recompute in ``property.rules_deal.report``, the delta back, React's
render). Each keystroke also schedules the debounced save, as typing does. ``--pause`` milliseconds
separate keystrokes (default 150: a brisk typist; 0 types back to back).

Prints the median, p95 (nearest rank), min and max in milliseconds after 5 warm-up keystrokes. No
thresholds are asserted; the target (median under 100 ms) is read off the table.
"""

from __future__ import annotations

import argparse
import math
import statistics
import tempfile
import time
import uuid
from pathlib import Path


from benchmarks._db import postgres_database, sqlite_database
from benchmarks._live_app import signed_in_page, sync_app
from marketplace.platform.db import session_scope
from marketplace.features.accounts import service as accounts
from marketplace.platform import sessions as auth_sessions
from marketplace.features.scrape.service_seeding import insert_leads
from marketplace.features.unlock.service import unlock_lead
from marketplace.features.scrape.source_builtin import BuiltinSource
from marketplace.features.marketplace.rules_criteria import SearchCriteria

WARMUP = 5
ARM = """
() => {
  const target = document.getElementById('analyzer-flip_profit');
  const before = target.textContent;
  window.__keystroke = new Promise((resolve) => {
    let t0 = null;
    const box = document.getElementById('analyzer-purchase_price-input');
    box.addEventListener('keydown', () => { t0 = performance.now(); }, {once: true, capture: true});
    const obs = new MutationObserver(() => {
      if (t0 !== null && target.textContent !== before) {
        obs.disconnect();
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
      }
    });
    obs.observe(target, {childList: true, subtree: true, characterData: true});
  });
}
"""


def p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--pause", type=int, default=150, help="milliseconds between keystrokes")
    parser.add_argument("--app-dir", default="/tmp/lv-bench-app")
    args = parser.parse_args()

    database = sqlite_database if args.db == "sqlite" else postgres_database
    with database() as url, tempfile.TemporaryDirectory(prefix="lv-bench-data-") as data_dir:
        lead = BuiltinSource(seed=11).search(SearchCriteria(count=1))[0]
        lead.update(asking_price=200_000, arv=350_000, rehab_estimate=30_000, credit_cost=50, is_active=True)
        insert_leads([lead], url)
        with session_scope(url) as session:
            user = accounts.create_user(session, f"bench-{uuid.uuid4().hex[:8]}@example.com", "secret123",
                                        "Bench", "User", credits=1_000, confirmed=True)
            pair = auth_sessions.create_session(session, user.id)
        unlock_lead(user.id, lead["id"], database_url=url)
        app_dir = sync_app(Path(args.app_dir))
        print(f"starting the app in prod mode from {app_dir} (the first build takes a minute)...", flush=True)
        with signed_in_page(url, Path(data_dir), app_dir, pair) as (_, _, page):
            page.goto(f"/property/{lead['id']}")
            box = page.locator("#analyzer-purchase_price-input")
            box.wait_for(timeout=120_000)
            box.click()
            page.keyboard.press("End")
            samples: list[float] = []
            for i in range(WARMUP + args.runs):
                page.evaluate(ARM)
                page.keyboard.press("5" if i % 2 == 0 else "Backspace")
                elapsed = page.evaluate("window.__keystroke")
                if i >= WARMUP:
                    samples.append(elapsed)
                if args.pause:
                    time.sleep(args.pause / 1000)

    print()
    print(f"Deal Analyzer keystroke -> updated result, Chromium, prod app, {args.db}, {args.runs} keystrokes "
          f"(+{WARMUP} warm-up), {args.pause} ms apart, milliseconds")
    print("| operation                          |   n |   median |      p95 |      min |      max |")
    print("|------------------------------------|-----|----------|----------|----------|----------|")
    print(f"| {'keystroke -> profit repainted':<34} | {len(samples):>3} | {statistics.median(samples):>8.1f} "
          f"| {p95(samples):>8.1f} | {min(samples):>8.1f} | {max(samples):>8.1f} |")


if __name__ == "__main__":
    main()
