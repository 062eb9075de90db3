"""Reflex configuration. DATABASE_URL and REDIS_URL are read here (Reflex only
reads REFLEX_-prefixed variables itself)."""

import os

import reflex as rx

from marketplace.config import get_settings

_settings = get_settings()

config = rx.Config(
    app_name="marketplace",
    # Our own engine and Alembic history manage the database; Reflex's model
    # layer stays off so it never inspects or migrates our schema.
    db_url=None,
    redis_url=_settings.redis_url,
    telemetry_enabled=False,
    show_built_with_reflex=False,
    # The one theme of the product: light, indigo accent, slate grays, large radius.
    plugins=[
        rx.plugins.RadixThemesPlugin(
            theme=rx.theme(appearance="light", accent_color="indigo", gray_color="slate", radius="large", scaling="100%")
        ),
        rx.plugins.SitemapPlugin(),
    ],
    frontend_port=int(os.environ.get("PORT", "3000")),
    backend_port=int(os.environ.get("PORT", "3000")),
)
