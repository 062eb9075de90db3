"""The Reflex app: theme, pages, API and lifespan tasks."""

import reflex as rx

import marketplace.pages  # noqa: F401  (registers every page)
from marketplace.api.app import create_api
from marketplace.jobs.scheduler import refresh_scheduler_lifespan

app = rx.App(
    theme=rx.theme(appearance="light", accent_color="indigo", gray_color="slate", radius="large", scaling="100%"),
    api_transformer=create_api(),
    stylesheets=["/styles.css"],
)
app.register_lifespan_task(refresh_scheduler_lifespan)
