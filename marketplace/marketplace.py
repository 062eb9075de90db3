"""The Reflex app: pages, API and lifespan tasks (the theme is set in rxconfig.py)."""

import reflex as rx

from marketplace.config import exit_unless_ready

# APP_ENV=production without Stripe, SECRET_KEY or SITE_URL: one line, exit 1.
exit_unless_ready()

from marketplace.migrations import exit_unless_migrated  # noqa: E402

# A database that was never migrated (or is behind): one line, exit 1.
exit_unless_migrated()

import marketplace.pages  # noqa: E402,F401  (declares every page)
from marketplace.api.app import create_api  # noqa: E402
from marketplace.api.security import HardenedApp  # noqa: E402
from marketplace.components.layout import add_pages  # noqa: E402
from marketplace.jobs.scheduler import refresh_scheduler_lifespan  # noqa: E402
from marketplace.services import scrape_pool  # noqa: E402
from marketplace.states.auth import TIME_ZONE_SCRIPT  # noqa: E402

# HardenedApp: rx.App behind body limits, CORS/origin checks, security headers and 404s.
app = HardenedApp(
    api_transformer=create_api(),
    stylesheets=["/styles.css", "/lead_card.css"],
    head_components=[
        rx.el.link(rel="icon", type="image/svg+xml", href="/logo.svg"),
        rx.el.script(TIME_ZONE_SCRIPT),  # the browser's zone, before the first event (states.auth)
    ],
)
add_pages(app)  # each page once (not rx.page: every compile re-applies those)
app.register_lifespan_task(refresh_scheduler_lifespan)
app.register_lifespan_task(scrape_pool.lifespan)  # this process's scrape workers (services.scrape_pool)
