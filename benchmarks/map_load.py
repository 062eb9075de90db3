"""The marketplace map with many leads: the query, the payload, the time
to the first clusters and how smoothly the map pans and zooms.

    .venv/bin/python -m benchmarks.map_load                     # 10,000 leads, SQLite, 3 runs
    .venv/bin/python -m benchmarks.map_load --leads 20000 --db postgres
    .venv/bin/python -m benchmarks.map_load --shots docs/        # also screenshots (1280 and 375 px)

Seeds ``--leads`` built-in leads, then:

* ``marketplace.service_map.map_points`` in this process for the default filters (a
  visitor, and a user with 50 unlocks): median time of 5, points, payload
  bytes as JSON and gzip-compressed;
* starts the app in prod mode (``--app-dir``, a synced copy) and, ``--runs``
  times in a fresh browser context, opens ``/marketplace?view=map``: time from
  navigation start to the first cluster visible, to every marker clustered
  (the map's ``data-count`` equals the clusters' counts plus single markers),
  and the websocket bytes received (the largest frame is the point array);
* pans and zooms with the mouse (drags, wheel in and out) and records every
  animation frame meanwhile: frames, median and 95th percentile frame time,
  frames over 50 ms, the longest.

Chromium runs headless with --disable-gpu on a shared 2-core machine: figures
are noisy; the load average is printed with each. No thresholds asserted.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks._live_app import CHROMIUM, CHROMIUM_ARGS, live_app, session_script, sync_app
from marketplace.platform.config import reload_settings

CLUSTER = "#marketplace-map .lv-map-cluster"
PROBE = """
(() => {
  const check = () => {
    if (window.__firstClusterAt === undefined && document.querySelector(%s)) window.__firstClusterAt = performance.now();
  };
  new MutationObserver(check).observe(document, {childList: true, subtree: true});
})();
""" % json.dumps(CLUSTER)
SETTLED = """
() => {
  const wrap = document.querySelector('[data-count]:has(#marketplace-map)');
  if (!wrap) return false;
  const want = Number(wrap.dataset.count);
  let shown = document.querySelectorAll('#marketplace-map .lv-map-pin').length;
  for (const el of document.querySelectorAll('#marketplace-map .lv-map-cluster span:first-child'))
    shown += Number(el.textContent.replace(/,/g, ''));
  return want > 0 && shown === want;
}
"""
FRAMES_START = "() => { window.__frames = []; const tick = (t) => { window.__frames.push(t);" \
               " if (window.__recording) requestAnimationFrame(tick); }; window.__recording = true;" \
               " requestAnimationFrame(tick); }"
FRAMES_STOP = "() => { window.__recording = false; const f = window.__frames;" \
              " return f.slice(1).map((t, i) => t - f[i]); }"


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f}/{five:.2f}"


def service_figures(url: str) -> list[str]:
    from marketplace.features.marketplace import rules
    from marketplace.features.marketplace import service_map as map_service
    from marketplace.features.unlock.service import unlock_lead
    from tests.factories import make_user

    user = make_user(url, credits=100_000)
    first = map_service.map_points(rules.Filters(), None, url)
    for token in first.ids[:50]:
        from marketplace.features.marketplace.rules_map import lead_id_from_token
        unlock_lead(user.id, lead_id_from_token(token), database_url=url)
    lines = [f"{'who':<10} {'points':>7} {'median ms':>10} {'JSON bytes':>11} {'gzip bytes':>11}"]
    for who, user_id in (("visitor", None), ("user", user.id)):
        times = []
        for _ in range(5):
            started = time.perf_counter()
            points = map_service.map_points(rules.Filters(), user_id, url)
            times.append((time.perf_counter() - started) * 1000)
        raw = json.dumps(points.payload, separators=(",", ":")).encode()
        lines.append(f"{who:<10} {len(points.ids):>7,} {statistics.median(times):>10.1f} {len(raw):>11,} "
                     f"{len(gzip.compress(raw)):>11,}")
    return lines


def browser_figures(base_url: str, runs: int, shots: Path | None, database_url: str) -> list[str]:
    from playwright.sync_api import sync_playwright

    rows = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for run in range(runs):
            context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900})
            page = context.new_page()
            page.add_init_script(PROBE)
            received = []
            page.on("websocket", lambda ws: ws.on("framereceived", lambda p: received.append(len(p))))
            page.goto("/marketplace?view=map")
            page.wait_for_function("() => window.__firstClusterAt !== undefined", timeout=120_000)
            first = page.evaluate("window.__firstClusterAt")
            page.wait_for_function(SETTLED, timeout=120_000)
            settled = page.evaluate("performance.now()")
            count = page.get_attribute("[data-count]:has(#marketplace-map)", "data-count")
            box = page.locator("#marketplace-map").bounding_box()
            cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            page.evaluate(FRAMES_START)
            for _ in range(3):  # zoom in and out around the centre, and drag the map about
                for delta in (-300, -300, 300, 300):
                    page.mouse.move(cx, cy)
                    page.mouse.wheel(0, delta)
                    page.wait_for_timeout(350)
                page.mouse.move(cx, cy)
                page.mouse.down()
                for step in range(1, 16):
                    page.mouse.move(cx + step * 20, cy + step * 8)
                page.mouse.up()
                page.wait_for_timeout(200)
            frames = page.evaluate(FRAMES_STOP)
            frames.sort()
            rows.append(dict(first=first, settled=settled, count=int(count or 0), ws=sum(received),
                             largest=max(received or [0]), frames=len(frames),
                             median=statistics.median(frames), p95=frames[int(len(frames) * 0.95) - 1],
                             long=sum(1 for f in frames if f > 50), worst=frames[-1], load=load()))
            context.close()
        if shots:
            try:
                take_shots(browser, base_url, shots, database_url)
            except Exception as exc:  # noqa: BLE001 - the figures above still count
                print(f"screenshots failed: {exc}", flush=True)
        browser.close()
    lines = [f"{'run':>3} {'markers':>8} {'1st cluster ms':>15} {'all clustered ms':>17} {'ws bytes':>10} "
             f"{'largest frame':>14} {'frames':>7} {'median ms':>10} {'p95 ms':>7} {'>50ms':>6} {'worst ms':>9}  load"]
    for i, r in enumerate(rows, 1):
        lines.append(f"{i:>3} {r['count']:>8,} {r['first']:>15.0f} {r['settled']:>17.0f} {r['ws']:>10,} "
                     f"{r['largest']:>14,} {r['frames']:>7} {r['median']:>10.1f} {r['p95']:>7.1f} {r['long']:>6} "
                     f"{r['worst']:>9.0f}  {r['load']}")
    return lines


VISIBLE_CENTRE = """
(selector) => {
  const map = document.querySelector('#marketplace-map').getBoundingClientRect();
  for (const el of document.querySelectorAll(selector)) {
    const b = el.getBoundingClientRect();
    if (b.left > map.left + 40 && b.right < map.right - (window.innerWidth > 640 ? 380 : 40) && b.top > map.top + 40 && b.bottom < map.bottom - 40)
      return [b.left + b.width / 2, b.top + b.height / 2];
  }
  return null;
}
"""


def click_inside_map(tab, selector: str) -> bool:
    """Click the first ``selector`` well inside the map (not under the card panel)."""
    tab.locator("#marketplace-map").scroll_into_view_if_needed()
    spot = tab.evaluate(VISIBLE_CENTRE, selector)
    if spot:
        tab.mouse.click(*spot)
    return bool(spot)


def take_shots(browser, base_url: str, out: Path, database_url: str) -> None:
    """The map at 1280 and 375 px, an open marker card, the property page's small map."""
    from marketplace.features.marketplace.rules_map import lead_id_from_token
    from marketplace.platform import sessions as auth_sessions
    from marketplace.platform.db import session_scope
    from marketplace.features.unlock.service import unlock_lead
    from tests.factories import make_user

    out.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto("/marketplace?view=map")
    page.wait_for_function(SETTLED, timeout=120_000)
    page.evaluate("window.scrollTo(0, document.querySelector('#view-switch').getBoundingClientRect().top"
                  " + window.scrollY - 190)")
    page.wait_for_timeout(800)
    page.screenshot(path=str(out / "map-1280.png"))
    context.close()
    user = make_user(database_url, credits=5000)
    with session_scope(database_url) as session:
        pair = auth_sessions.create_session(session, user.id)
    for width in (1280, 375):
        context = browser.new_context(base_url=base_url, viewport={"width": width, "height": 900 if width > 400 else 812})
        context.add_init_script(session_script(pair))
        tab = context.new_page()
        tab.goto("/marketplace?view=map")
        tab.wait_for_function(SETTLED, timeout=120_000)
        if width == 375:
            tab.locator("#marketplace-map").scroll_into_view_if_needed()
            tab.wait_for_timeout(800)
            tab.screenshot(path=str(out / "map-375.png"), full_page=False)
        for _ in range(14):
            if click_inside_map(tab, "#marketplace-map .lv-map-pin"):
                break
            if not click_inside_map(tab, "#marketplace-map .lv-map-cluster"):
                tab.locator("#marketplace-map .lv-map-cluster").first.dispatch_event("click")
            tab.wait_for_timeout(900)
        else:
            tab.locator("#marketplace-map .lv-map-pin").first.dispatch_event("click")
        tab.locator("#map-card-panel [id^='lead-action-']").wait_for()
        tab.wait_for_timeout(800)
        if width == 1280:
            tab.screenshot(path=str(out / "map-card-1280.png"))
        else:
            tab.locator("#map-card-panel").scroll_into_view_if_needed()
            tab.screenshot(path=str(out / "map-card-375.png"))
        token = tab.get_attribute("#marketplace-map .lv-map-pin-selected", "data-lead")
        lead_id = lead_id_from_token(token) if token else None
        if lead_id:
            try:
                unlock_lead(user.id, lead_id, database_url=database_url)
            except Exception:  # noqa: BLE001 - already unlocked in the other width
                pass
            tab.goto(f"/property/{lead_id}")
            tab.locator("#property-map .lv-map-pin").wait_for(timeout=60_000)
            tab.wait_for_timeout(800)
            tab.locator("#property-location").scroll_into_view_if_needed()
            tab.screenshot(path=str(out / f"property-map-{width}.png"))
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--leads", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--app-dir", default="/tmp/lv-bench-app")
    parser.add_argument("--shots", help="also save screenshots here")
    args = parser.parse_args()

    from benchmarks._db import postgres_database, sqlite_database
    from marketplace.features.scrape.service_seeding import seed_leads

    database = sqlite_database if args.db == "sqlite" else postgres_database
    with database() as url, tempfile.TemporaryDirectory(prefix="lv-bench-data-") as data_dir:
        os.environ["DATABASE_URL"] = url
        reload_settings()
        started = time.perf_counter()
        seed_leads(args.leads, seed=7, progress=False, database_url=url)
        print(f"seeded {args.leads:,} leads on {args.db} in {time.perf_counter() - started:.1f}s", flush=True)
        report = [f"map_points, default filters ({load()})", *service_figures(url), ""]
        app_dir = sync_app(Path(args.app_dir))
        print(f"starting the app in prod mode from {app_dir}...", flush=True)
        with live_app(url, Path(data_dir), app_dir, Path(data_dir) / "app.log") as base_url:
            report += [f"/marketplace?view=map in Chromium, {args.runs} runs (1280x900, headless, --disable-gpu)",
                       *browser_figures(base_url, args.runs, Path(args.shots) if args.shots else None, url)]
        print()
        print("\n".join(report))


if __name__ == "__main__":
    main()
