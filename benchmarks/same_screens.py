"""Nothing a user sees changed: every page at 1280 and 375 px on two revisions, compared pixel for pixel.

    .venv/bin/python -m benchmarks.same_screens --rev f206c2c     # that commit ("before") against the working tree

For a change that must not show (a move, a refactor). Starts both apps in prod mode on ONE SQLite database
(seeded leads, a member with an unlocked lead, a super admin; built like ``benchmarks.slow_clicks``), so both
show the same data at the same moment. Each page is opened in each app in turn, at each width, as a visitor
and signed in; its whole-page screenshot is taken once two shots in a row are the same (the page has settled:
no fixed wait). Prints a table: page, width, the share of pixels that differ, and the sizes; saves every pair
and a difference image under ``--out`` for the ones that differ. Nothing is asserted: a page that differs is
looked at (its difference image says where).
"""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path

from PIL import Image, ImageChops
from playwright.sync_api import sync_playwright

from benchmarks._live_app import CHROMIUM, CHROMIUM_ARGS, live_app, session_script, sync_app
from benchmarks.event_loop import export_rev
from benchmarks.slow_clicks import seeded_world
from marketplace.platform.db import session_scope
from marketplace.platform.models import SuperAdmin

WIDTHS = (1280, 375)
HEIGHT = 900
PUBLIC = ("/", "/marketplace", "/pricing", "/about", "/contact", "/legal/terms", "/auth", "/auth/reset")
MEMBER = ("/dashboard", "/dashboard?tab=unlocked", "/dashboard?tab=settings", "/marketplace", "/purchase-credits",
          "/bulkscraper", "/property/{lead}")
ADMIN = ("/explorerdev",)
SETTLED_TRIES = 40


def settled_shot(page, path: Path) -> bytes:
    """The page's whole screenshot once two in a row are the same (fonts, images, lazy sections done)."""
    page.wait_for_load_state("networkidle")
    last = page.screenshot(full_page=True, animations="disabled", caret="hide")
    for _ in range(SETTLED_TRIES):
        now = page.screenshot(full_page=True, animations="disabled", caret="hide")
        if now == last:
            break
        last = now
    path.write_bytes(last)
    return last


def compare(before: Path, after: Path, diff: Path) -> tuple[float, str]:
    """The share of pixels that differ, and the two sizes; a difference image when any do."""
    a, b = Image.open(before).convert("RGB"), Image.open(after).convert("RGB")
    sizes = f"{a.width}x{a.height}" + ("" if a.size == b.size else f" / {b.width}x{b.height}")
    width, height = max(a.width, b.width), max(a.height, b.height)
    canvas_a, canvas_b = Image.new("RGB", (width, height)), Image.new("RGB", (width, height))
    canvas_a.paste(a)
    canvas_b.paste(b)
    delta = ImageChops.difference(canvas_a, canvas_b).convert("L").point(lambda v: 255 if v else 0)
    changed = sum(delta.histogram()[255:])
    if changed:
        delta.save(diff)
    return changed / (width * height), sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rev", required=True, help="the revision before the change")
    parser.add_argument("--leads", type=int, default=300)
    parser.add_argument("--out", default="test-artifacts/same-screens")
    parser.add_argument("--app-dir", default="/tmp/lv-bench-screens")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    rows = []
    with seeded_world(args.leads) as (url, data_dir, world, stack):
        member = world.user(credits=5_000)
        lead = world.unlocked_lead(member.id)
        admin = world.user(credits=0)
        with session_scope(url) as session:
            session.add(SuperAdmin(user_id=admin.id))
        before_dir = export_rev(args.rev, Path(args.app_dir + "-rev"))
        print(f"building and starting the app ({args.rev})...", flush=True)
        apps = [("before", stack.enter_context(live_app(url, Path(data_dir), before_dir,
                                                        Path(data_dir) / "app-rev.log")))]
        print("building and starting the app (working tree)...", flush=True)
        apps.append(("after", stack.enter_context(live_app(url, Path(data_dir), sync_app(Path(args.app_dir)),
                                                           Path(data_dir) / "app.log"))))
        pw = stack.enter_context(sync_playwright())
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        visits = [("visitor", None, p) for p in PUBLIC] + [("member", member.id, p.format(lead=lead)) for p in MEMBER]
        visits += [("admin", admin.id, p) for p in ADMIN]
        for who, user_id, path in visits:
            for width in WIDTHS:
                name = f"{who}{path.replace('/', '_').replace('?', '_').replace('=', '-')}-{width}"
                shots = {}
                for label, base in apps:
                    ctx = browser.new_context(base_url=base, viewport={"width": width, "height": HEIGHT},
                                              reduced_motion="reduce")
                    if user_id is not None:
                        ctx.add_init_script(session_script(world.session(user_id)))
                    page = ctx.new_page()
                    page.set_default_timeout(60000)
                    page.goto(path)
                    shots[label] = out / f"{name}-{label}.png"
                    settled_shot(page, shots[label])
                    ctx.close()
                share, sizes = compare(shots["before"], shots["after"], out / f"{name}-diff.png")
                rows.append((who, path, width, share, sizes))
                print(f"  {who:<8} {path:<28} {width:>5}px  {share:8.4%}  {sizes}", flush=True)
        with contextlib.suppress(Exception):
            browser.close()

    print()
    print(f"Screens of {args.rev} (before) and the working tree (after), one database; pixels that differ")
    print("| who      | page                         | width | differ   | size (before / after) |")
    print("|----------|------------------------------|-------|----------|-----------------------|")
    for who, path, width, share, sizes in rows:
        print(f"| {who:<8} | {path:<28} | {width:>5} | {share:8.4%} | {sizes:<21} |")
    print(f"\nPairs and difference images: {out}/")


if __name__ == "__main__":
    main()
