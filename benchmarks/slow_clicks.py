"""Five clicks that took over a second: click -> the user sees the result.

    .venv/bin/python -m benchmarks.slow_clicks                 # the working tree, 15 runs each
    .venv/bin/python -m benchmarks.slow_clicks --rev 393cf8b   # that commit too ("before"), turn about

Starts the app in prod mode on SQLite (built in ``--app-dir`` from the working
tree; with ``--rev`` a second app from ``git archive REV`` on the same database,
like ``benchmarks.event_loop``), seeds leads and users, and drives Chromium. With
two apps every run alternates between them, so that both meet the same load on a
shared machine. Each journey's clock starts at the click and
stops when the user sees its result:

* ``confirmation link -> dashboard``: a fresh browser opens a new account's
  confirmation link (/auth/callback?token=...); stops when the dashboard's
  stat cards show the account's numbers (``#stat-credits``).
* ``notification -> filtered marketplace``: the bell's list is open; a click
  on an unread notification (one saved search) until the marketplace grid
  shows that search's filter, loaded (``#lead-grid[data-query]``).
* ``Generate webhook key``: /bulkscraper's Webhook section; a click on
  Generate (Regenerate's confirm after the first) until the new key is shown.
* ``first checkout tab``: a fresh browser context on /purchase-credits; a
  click on Purchase until the demo checkout's new tab shows its Pay button.
* ``Next page, 100 per page``: /marketplace?per_page=100, a click on Next page
  until the grid shows the next page's cards (painted, as in
  ``benchmarks.browser_marketplace``).
* ``property page open``: /property/{id} of a lead the member unlocked, opened
  (a new document) until every section shows: the analyzer, the comps' ARV,
  the owner contact and the pipeline cards (``DESK_IDS``).

Every clock stops inside the page, after the frame that shows the result has
been painted: in-page journeys with ``performance.now()``, those that load a
new document (the link, the new tab) with ``Date.now()`` from the click (or the
``goto``) to a mark the page itself records (``SHOWN``; Playwright's polling
would add up to half a second).
Prints median and p95 (nearest rank) in milliseconds and the machine's load
average before and after (the machine is shared: figures are noisy).
Nothing is asserted; the goal (median under 500 ms) is read off the table.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import tempfile
import time
import uuid
from datetime import date
from pathlib import Path

import sqlalchemy as sa
from playwright.sync_api import sync_playwright

from benchmarks._db import sqlite_database
from benchmarks._live_app import CHROMIUM, CHROMIUM_ARGS, live_app, session_script, sync_app
from benchmarks.browser_marketplace import CLICK_TO_GRID, p95, wait_idle
from benchmarks.event_loop import export_rev
from marketplace.platform.config import reload_settings
from marketplace.features.marketplace import rules
from marketplace.platform.db import session_scope
from marketplace.platform.models import Lead, LeadRefreshRun, Notification, SavedSearch, UserLead
from marketplace.features.accounts import service_mail as account_mail, service as accounts
from marketplace.platform import sessions as auth_sessions
from marketplace.features.accounts.service_passwords import hash_password
from marketplace.features.scrape.service_seeding import seed_leads

SECRET = "benchmark-secret"  # the app's SECRET_KEY in benchmarks._live_app: confirmation links are signed with it
PASSWORD = "secret123"
WARMUP = 2
NOTIFICATION_QUERY = rules.Filters(lead_types=("Probate",)).to_query()

# Click ``selector`` and wait until ``#webhook-key-new`` shows a key other than the one before.
CLICK_TO_KEY = """
async (selector) => {
  const shown = () => document.getElementById('webhook-key-new')?.textContent || '';
  const before = shown();
  const t0 = performance.now();
  document.querySelector(selector).click();
  await new Promise((resolve) => {
    const done = () => shown().startsWith('lvwh_') && shown() !== before;
    if (done()) return resolve();
    const obs = new MutationObserver(() => { if (done()) { obs.disconnect(); resolve(); } });
    obs.observe(document.body, {childList: true, subtree: true, characterData: true});
  });
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  return performance.now() - t0;
}
"""


# Installed in every document: the time (epoch ms) after the frame in which an element of
# ``SHOWN_IDS`` was first rendered.
SHOWN_IDS = ("stat-credits", "demo-checkout-pay")
SHOWN = """
(() => {
  window.__lvShown = {};
  const check = () => {
    for (const id of %s) {
      if (id in window.__lvShown) continue;
      const el = document.getElementById(id);
      if (el && el.getClientRects().length) {
        window.__lvShown[id] = 0;
        requestAnimationFrame(() => setTimeout(() => { window.__lvShown[id] = Date.now(); }, 0));
      }
    }
  };
  new MutationObserver(check).observe(document, {childList: true, subtree: true});
})();
""" % json.dumps(list(SHOWN_IDS))

# Click a notification; wait for the marketplace grid (client-side navigation: same document)
# to show ``query``, loaded, and one painted frame.
CLICK_TO_MARKETPLACE = """
async ([selector, query]) => {
  const done = () => { const g = document.getElementById('lead-grid');
    return g && g.getAttribute('data-query') === query && g.getAttribute('data-loading') === 'false'; };
  const t0 = performance.now();
  document.querySelector(selector).click();
  await new Promise((resolve) => {
    if (done()) return resolve();
    const obs = new MutationObserver(() => { if (done()) { obs.disconnect(); resolve(); } });
    obs.observe(document.body, {childList: true, subtree: true, attributes: true});
  });
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  return performance.now() - t0;
}
"""


# Installed in the property journey's documents: the time (epoch ms) after the frame in which every
# section of the property page was rendered.
DESK_IDS = ("property-analyzer", "comps-arv", "owner-contact", "property-pipeline")
DESK_SHOWN = """
(() => {
  window.__lvShown = window.__lvShown || {};
  const shown = (id) => { const el = document.getElementById(id); return el && el.getClientRects().length; };
  const check = () => { if ('desk' in window.__lvShown || !%s.every(shown)) return; window.__lvShown.desk = 0;
    requestAnimationFrame(() => setTimeout(() => { window.__lvShown.desk = Date.now(); }, 0)); };
  new MutationObserver(check).observe(document, {childList: true, subtree: true});
})();
""" % json.dumps(list(DESK_IDS))


def shown_at(page, element_id: str) -> float:
    """Epoch ms after the frame that first rendered ``element_id`` (waits for it)."""
    page.wait_for_function(f"() => (window.__lvShown || {{}})[{element_id!r}] > 0", timeout=60000, polling=50)
    return page.evaluate(f"window.__lvShown[{element_id!r}]")


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


@contextlib.contextmanager
def seeded_world(leads: int):
    """A SQLite database seeded with ``leads`` generated leads (seed 13), a data folder and an exit stack for
    the apps and the browser, with the process's settings pointed at the database: ``(url, data_dir,
    world, stack)``."""
    os.environ["SECRET_KEY"] = SECRET
    with sqlite_database() as url, tempfile.TemporaryDirectory(prefix="lv-bench-data-") as data_dir, \
            contextlib.ExitStack() as stack:
        os.environ["DATABASE_URL"] = url
        reload_settings()
        seed_leads(leads, seed=13, progress=False, database_url=url)
        yield url, data_dir, World(url), stack


class World:
    """The database the app runs on: users made here, sessions, notifications."""

    def __init__(self, url: str):
        self.url = url
        self.password_hash = hash_password(PASSWORD)  # one Argon2 hash for every account made here

    def user(self, credits: int = 0, confirmed: bool = True):
        with session_scope(self.url) as session:
            return accounts.create_user(session, f"slow-{uuid.uuid4().hex[:10]}@example.com", PASSWORD, "Bench",
                                        "User", credits=credits, confirmed=confirmed,
                                        password_hash=self.password_hash)

    def session(self, user_id):
        with session_scope(self.url) as session:
            return auth_sessions.create_session(session, user_id)

    def confirmation_path(self) -> str:
        user = self.user(confirmed=False)
        return f"/auth/callback?token={account_mail.make_confirmation_token(user.id, user.password_hash)}"

    def notifications(self, user_id, count: int) -> None:
        """``count`` alerts of one saved search (Probate), as a lead refresh writes them."""
        with session_scope(self.url) as session:
            search = SavedSearch(user_id=user_id, name="Probate leads", name_key="probate leads",
                                 query=NOTIFICATION_QUERY)
            session.add(search)
            session.flush()
            for n in range(count):
                run = LeadRefreshRun(run_key=f"slow-{uuid.uuid4().hex[:12]}", run_date=date(2026, 11, 1),
                                     status="completed")
                session.add(run)
                session.flush()
                session.add(Notification(user_id=user_id, refresh_run_id=run.id, lead_count=3 + n, matches={
                    "searches": [{"id": search.id, "name": search.name, "query": search.query, "count": 3 + n}],
                    "lead_ids": []}))

    def unlocked_lead(self, user_id) -> str:
        """A seeded (generated) lead, unlocked by ``user_id``: its comps come from the built-in provider."""
        with session_scope(self.url) as session:
            lead_id = session.exec(sa.select(Lead.id).where(Lead.is_active.is_(True)).order_by(Lead.id)).first()[0]
            session.add(UserLead(user_id=user_id, lead_id=lead_id, credit_cost=0, purchase_type="credits"))
        return str(lead_id)

    def mark_unread(self, user_id) -> None:
        with session_scope(self.url) as session:
            session.connection().execute(sa.update(Notification.__table__)
                                         .where(Notification.__table__.c.user_id == user_id).values(read_at=None))


# Each journey is an endless generator of samples (ms) on one app, so that two apps (``--rev`` before,
# the working tree after) can be measured turn about, under the same load.


def confirmation_samples(browser, base_url: str, world: World):
    while True:
        path = world.confirmation_path()
        ctx = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900})
        ctx.add_init_script(SHOWN)
        page = ctx.new_page()
        page.goto("/about")  # the browser has the site's scripts, as after signing up on it
        page.wait_for_load_state("networkidle")
        t0 = time.time() * 1000
        page.goto(path, wait_until="commit")
        elapsed = shown_at(page, "stat-credits") - t0
        ctx.close()
        yield elapsed


def notification_samples(page, world: World, user_id):
    while True:
        world.mark_unread(user_id)
        page.goto("/pricing")
        page.locator("#notifications-button").wait_for()
        page.wait_for_function("() => document.getElementById('notifications-count')")
        page.locator("#notifications-button").click()
        page.locator("#notifications-list [data-unread='true']").first.wait_for()
        page.wait_for_timeout(300)  # the user reads the list
        item_id = page.locator("#notifications-list [data-unread='true']").first.get_attribute("id")
        yield page.evaluate(CLICK_TO_MARKETPLACE, [f"#{item_id}", NOTIFICATION_QUERY])


def webhook_key_samples(page):
    page.goto("/bulkscraper")
    page.locator("#webhook-toggle").click()
    page.locator("#webhook-generate").wait_for()
    page.wait_for_timeout(500)
    while True:
        if "Regenerate" not in page.locator("#webhook-generate").inner_text():
            selector = "#webhook-generate"  # no key yet: Generate at once
        else:
            page.locator("#webhook-generate").click()  # Regenerate: asks first
            page.locator("#webhook-regenerate-confirm").wait_for()
            selector = "#webhook-regenerate-confirm"
        elapsed = page.evaluate(CLICK_TO_KEY, selector)
        page.wait_for_timeout(300)
        yield elapsed


def checkout_samples(browser, base_url: str, world: World, user_id):
    while True:
        ctx = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900})
        ctx.add_init_script(session_script(world.session(user_id)))
        ctx.add_init_script(SHOWN)
        page = ctx.new_page()
        page.goto("/purchase-credits?pack=starter")
        page.locator("#purchase-button:not([disabled])").wait_for()
        page.wait_for_load_state("networkidle")
        with ctx.expect_page() as new_page:
            t0 = page.evaluate("() => { const t = Date.now(); document.getElementById('purchase-button').click();"
                               " return t; }")
        elapsed = shown_at(new_page.value, "demo-checkout-pay") - t0
        ctx.close()
        yield elapsed


def next_page_samples(page):
    page.goto("/marketplace?per_page=100")
    wait_idle(page, "per_page=100")
    n = 2
    while True:
        query = rules.Filters(page=n, page_size=100).to_query()
        page.wait_for_timeout(300)
        yield page.evaluate(CLICK_TO_GRID, ["[aria-label='Next page']", query])
        n += 1


def property_samples(browser, base_url: str, world: World, user_id, lead_id: str):
    ctx = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900})
    ctx.add_init_script(session_script(world.session(user_id)))
    ctx.add_init_script(DESK_SHOWN)
    page = ctx.new_page()
    page.set_default_timeout(60000)
    while True:
        page.goto("/about")  # from another page of the site, its scripts cached
        page.wait_for_load_state("networkidle")
        t0 = time.time() * 1000
        page.goto(f"/property/{lead_id}", wait_until="commit")
        yield shown_at(page, "desk") - t0


def row(name: str, samples: list[float]) -> str:
    return (f"| {name:<38} | {len(samples):>3} | {statistics.median(samples):>8.1f} | {p95(samples):>8.1f} "
            f"| {min(samples):>8.1f} | {max(samples):>8.1f} |")


JOURNEYS = ("confirm", "notification", "webhook", "checkout", "next", "property")


NAMES = {
    "confirm": "confirmation link -> dashboard",
    "notification": "notification -> filtered marketplace",
    "webhook": "Generate webhook key -> key shown",
    "checkout": "Purchase -> first checkout tab ready",
    "next": "Next page, 100 per page -> cards",
    "property": "property page open -> every section",
}


def journeys(browser, base_url: str, world: World, member_id, lead_id: str) -> dict:
    """Each journey's sample generator on the app at ``base_url`` (a signed-in tab of its own)."""
    ctx = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900})
    ctx.add_init_script(session_script(world.session(member_id)))
    page = ctx.new_page()
    page.set_default_timeout(60000)
    page.goto("/dashboard")
    page.locator("#stat-credits").wait_for()
    return {
        "confirm": lambda: confirmation_samples(browser, base_url, world),
        "notification": lambda: notification_samples(page, world, member_id),
        "webhook": lambda: webhook_key_samples(page),
        "checkout": lambda: checkout_samples(browser, base_url, world, member_id),
        "next": lambda: next_page_samples(page),
        "property": lambda: property_samples(browser, base_url, world, member_id, lead_id),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rev", help="also run this git revision (before) and measure the two turn about")
    parser.add_argument("--leads", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--only", nargs="*", choices=JOURNEYS, default=list(JOURNEYS))
    parser.add_argument("--app-dir", default="/tmp/lv-bench-slowclicks")
    args = parser.parse_args()

    with seeded_world(args.leads) as (url, data_dir, world, stack):
        member = world.user(credits=1_000_000)
        world.notifications(member.id, 5)
        lead_id = world.unlocked_lead(member.id)
        apps = []  # (label, base url); the two share the database
        if args.rev:
            before_dir = export_rev(args.rev, Path(args.app_dir + "-rev"))
            print(f"building and starting the app ({args.rev}) from {before_dir}...", flush=True)
            apps.append((args.rev, stack.enter_context(
                live_app(url, Path(data_dir), before_dir, Path(data_dir) / "app-rev.log"))))
        app_dir = sync_app(Path(args.app_dir))
        print(f"building and starting the app (working tree) from {app_dir}...", flush=True)
        apps.append(("working tree", stack.enter_context(
            live_app(url, Path(data_dir), app_dir, Path(data_dir) / "app.log"))))
        pw = stack.enter_context(sync_playwright())
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        load_before = load_average()
        per_app = [journeys(browser, base, world, member.id, lead_id) for _, base in apps]
        results = {(label, name): [] for label, _ in apps for name in args.only}
        for name in args.only:
            gens = [make[name]() for make in per_app]
            for i in range(WARMUP + args.runs):
                for (label, _), gen in zip(apps, gens):  # turn about: both under the same load
                    sample = next(gen)
                    if i >= WARMUP:
                        results[(label, name)].append(sample)
        load_after = load_average()
        with contextlib.suppress(Exception):
            browser.close()

    print()
    print(f"Slow clicks, prod app, SQLite, {args.leads:,} leads, {args.runs} runs each "
          f"(+{WARMUP} warm-up){', the apps turn about' if len(apps) > 1 else ''}, milliseconds; "
          f"load average (1/5/15 min) {load_before} before, {load_after} after")
    print("| app          | journey                                |   n |   median |      p95 |      min |      max |")
    print("|--------------|----------------------------------------|-----|----------|----------|----------|----------|")
    for name in args.only:
        for label, _ in apps:
            print(f"| {label:<12} " + row(NAMES[name], results[(label, name)]))


if __name__ == "__main__":
    main()
