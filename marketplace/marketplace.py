"""The Reflex app: pages, API and lifespan tasks (the theme is set in rxconfig.py)."""

import reflex as rx

import marketplace.pages  # noqa: F401  (registers every page)
from marketplace.api.app import create_api
from marketplace.jobs.scheduler import refresh_scheduler_lifespan

app = rx.App(
    api_transformer=create_api(),
    stylesheets=["/styles.css"],
    head_components=[rx.el.link(rel="icon", type="image/svg+xml", href="/logo.svg")],
)
app.register_lifespan_task(refresh_scheduler_lifespan)
