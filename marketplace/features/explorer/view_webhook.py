"""The super admin's webhook on /explorerdev (SPEC 2, 4, 8, 9): the bulk scraper's
webhook pieces (``scrape.view_webhook``) bound to ``ExplorerWebhookState`` and
the super-admin endpoint. Element ids are the bulk scraper's (``webhook-key``,
``webhook-generate``, ``webhook-log`` ...) plus ``explorer-webhook``."""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import cards
from marketplace.features.explorer.state_webhook import ExplorerWebhookState as W
from marketplace.features.scrape import example_block, key_block, log_block


def explorer_webhook() -> rx.Component:
    return rx.card(
        rx.vstack(
            cards.card_header(
                "webhook", "Super admin webhook",
                "Your own key for the super-admin endpoint (webhook-bulk-scrape-sp): scrapes run "
                            "through it charge nothing. The log lists this endpoint's requests only.",
                "violet", heading_as="h2", tile_size="36px",
            ),
            key_block(W),
            rx.separator(size="4"),
            example_block(W, docs=False),
            rx.separator(size="4"),
            log_block(W),
            spacing="4",
            width="100%",
        ),
        on_mount=W.load_webhook,
        width="100%",
        id="explorer-webhook",
    )
