"""The marketplace lead card (SPEC 2), in the look of the home page's sample card.

``lead_card(card)`` renders one ``CardView`` (see ``states/marketplace.py``):
picture with a placeholder (no pictures, or a picture that fails to load),
New / High ROI / Sample badges, the credit cost badge, a View Images dialog
(primary picture plus up to 3 more), the masked or full address, city/state/
zip, lead type, beds/baths/sqft, ROI, asking price, market value, ARV, rehab
estimate, the confidence bar and the card action.

Element ids (used by the tests): ``lead-card-{id}``, ``lead-address-{id}``,
``lead-action-{id}``, ``lead-image-{id}``, ``lead-images-button-{id}``,
``lead-images-dialog-{id}``.
"""

from __future__ import annotations

import reflex as rx

from marketplace.components import styles, ui
from marketplace.components.gallery import FRAME_BACKGROUND, dialog_header, photo, photo_frame
from marketplace.states.marketplace import CardView, MarketplaceState

IMAGE_HEIGHT = "176px"

def _badge(text, color: str, icon: str | None = None, **props) -> rx.Component:
    return rx.badge(
        *([rx.icon(icon, size=12, aria_hidden="true")] if icon else []),
        text,
        color_scheme=color,
        variant="solid",
        radius="full",
        **props,
    )


def images_dialog(card) -> rx.Component:
    """'View Images': the primary picture plus up to 3 more."""
    return rx.dialog.root(
        rx.dialog.trigger(
            rx.button(
                rx.icon("images", size=14, aria_hidden="true"),
                rx.cond(card.image_count > 0, f"View Images ({card.image_count})", "No Images"),
                variant="surface",
                color_scheme="gray",
                high_contrast=True,
                size="1",
                radius="full",
                disabled=card.image_count == 0,
                id=f"lead-images-button-{card.id}",
                aria_label=rx.cond(card.image_count > 0, f"View images of {card.address}", "No images available"),
                cursor="pointer",
            ),
        ),
        rx.dialog.content(
            dialog_header(card.address, [f"{card.city_line} · {card.image_count} photos"], "Close images",
                          title_size="5"),
            photo_frame(
                photo(card.primary_image, f"Photo 1 of {card.address}"),
                width="100%",
                max_height="60vh",
                margin_top="1rem",
            ),
            rx.cond(
                card.image_count > 1,
                rx.grid(
                    rx.foreach(
                        card.images[1:],
                        lambda src, i: photo_frame(photo(src, f"Photo {i + 2} of {card.address}"),
                                                   radius="var(--radius-3)"),
                    ),
                    columns="3",
                    spacing="3",
                    margin_top="0.75rem",
                ),
            ),
            id=f"lead-images-dialog-{card.id}",
            max_width="min(720px, calc(100vw - 2rem))",
            size={"initial": "2", "sm": "3"},
        ),
    )


def _media(card) -> rx.Component:
    return rx.box(
        photo(card.primary_image, rx.cond(card.image_count > 0, f"Photo of {card.address}", ""),
              image_id=f"lead-image-{card.id}"),
        rx.hstack(
            rx.cond(card.is_sample, _badge("Sample", "amber", "flask_conical")),
            rx.cond(card.is_new, _badge("New", "indigo")),
            rx.cond(card.is_high_roi, _badge("High ROI", "grass", "trending_up")),
            spacing="2",
            position="absolute",
            top="12px",
            left="12px",
            wrap="wrap",
            max_width="calc(100% - 120px)",
        ),
        rx.badge(
            rx.icon("coins", size=12, aria_hidden="true"),
            f"{card.credit_cost} credits",
            position="absolute",
            top="12px",
            right="12px",
            variant="surface",
            radius="full",
            color_scheme="gray",
            high_contrast=True,
            title="Credits to unlock this lead",
        ),
        rx.box(images_dialog(card), position="absolute", bottom="10px", right="10px"),
        position="relative",
        height=IMAGE_HEIGHT,
        width="100%",
        overflow="hidden",
        border_radius="var(--radius-4)",
        background=FRAME_BACKGROUND,
        flex_shrink="0",
    )


def _fact(icon: str, text) -> rx.Component:
    return rx.hstack(
        rx.icon(icon, size=14, aria_hidden="true"),
        rx.text(text, size="2", white_space="nowrap"),
        spacing="1",
        align="center",
        color="var(--gray-11)",
    )


def _metric(label: str, value, metric_id=None) -> rx.Component:
    return rx.vstack(
        rx.text(label, size="1", color_scheme="gray"),
        rx.text(value, size="2", weight="bold", color="var(--gray-12)", id=metric_id, white_space="nowrap"),
        spacing="0",
        min_width="0",
    )


def _roi_color(card) -> rx.Var:
    # A Radix colour prop (a data attribute), not a style: no CSS-in-JS work per render.
    return rx.match(card.roi_tone, ("positive", "grass"), ("negative", "red"), "gray")


def _financials(card) -> rx.Component:
    return rx.vstack(
        rx.hstack(
            rx.text("Est. ROI", size="2", color_scheme="gray"),
            rx.text(card.roi, size="5", weight="bold", color_scheme=_roi_color(card), id=f"lead-roi-{card.id}",
                    style=styles.NUMBER_STYLE),
            justify="between",
            align="baseline",
            width="100%",
        ),
        rx.grid(
            _metric("Asking", card.asking, f"lead-asking-{card.id}"),
            _metric("Market Value", card.market, f"lead-market-{card.id}"),
            _metric("ARV", card.arv, f"lead-arv-{card.id}"),
            _metric("Rehab", card.rehab, f"lead-rehab-{card.id}"),
            columns="2",
            spacing="3",
            width="100%",
        ),
        spacing="2",
        width="100%",
        padding="0.75rem",
        border_radius="var(--radius-3)",
        background="var(--gray-2)",
        border="1px solid var(--gray-a3)",
    )


def _confidence(card) -> rx.Component:
    return rx.vstack(
        rx.hstack(
            rx.text("Confidence", size="1", color_scheme="gray"),
            rx.text(f"{card.confidence}/100", size="1", weight="bold", id=f"lead-confidence-{card.id}"),
            justify="between",
            width="100%",
        ),
        rx.progress(
            value=card.confidence,
            max=100,
            size="2",
            color_scheme=rx.cond(card.confidence >= 80, "grass", rx.cond(card.confidence >= 60, "amber", "orange")),
            aria_label=f"Confidence {card.confidence} out of 100",
        ),
        spacing="1",
        width="100%",
    )


def _link_action(card, label, icon: str, color: str, variant: str) -> rx.Component:
    return ui.button_link(label, card.action_href, icon=icon, icon_first=True, icon_size=16, variant=variant,
                          size="3", color_scheme=color, width="100%", id=f"lead-action-{card.id}",
                          data_action=card.action_kind)


def card_action(card, busy) -> rx.Component:
    """Login / View Details / Insufficient Credits - Buy More / Unlock for N credits."""
    return rx.match(
        card.action_kind,
        ("view", _link_action(card, card.action_label, "eye", "grass", "solid")),
        ("insufficient", _link_action(card, card.action_label, "coins", "orange", "soft")),
        ("unlock", rx.button(
            rx.cond(busy, rx.spinner(size="2"), rx.icon("lock_open", size=16, aria_hidden="true")),
            rx.cond(busy, "Unlocking...", card.action_label),
            on_click=MarketplaceState.unlock(card.id),
            disabled=busy,
            id=f"lead-action-{card.id}",
            size="3",
            width="100%",
            data_action="unlock",
            aria_busy=busy,
            cursor="pointer",
        )),
        ("sample", rx.button(
            rx.icon("flask_conical", size=16, aria_hidden="true"),
            card.action_label,
            disabled=True,
            id=f"lead-action-{card.id}",
            size="3",
            width="100%",
            variant="soft",
            color_scheme="gray",
            data_action="sample",
            title="Sample leads illustrate the marketplace and cannot be unlocked",
        )),
        _link_action(card, card.action_label, "log_in", "indigo", "soft"),
    )


@rx.memo
def lead_card(card: rx.Var[CardView], busy: rx.Var[bool]) -> rx.Component:
    """One lead of the grid; ``busy`` while its unlock runs ('Unlocking...').

    A memoized React component: a card re-renders only when its own data or
    busy flag changes (the client keeps unchanged cards of a new delta), so an
    unlock repaints one card, not the whole grid.
    """
    return rx.card(
        rx.vstack(
            _media(card),
            rx.hstack(
                rx.vstack(
                    rx.hstack(
                        rx.cond(
                            card.unlocked,
                            rx.icon("lock_open", size=14, color="var(--grass-10)", aria_label="Unlocked"),
                            rx.icon("lock", size=14, color="var(--gray-9)", aria_label="Address locked"),
                        ),
                        rx.text(card.address, size="4", weight="bold", id=f"lead-address-{card.id}",
                                class_name="lv-truncate", title=card.address, min_width="0", flex="1"),
                        spacing="2",
                        align="center",
                        min_width="0",
                        width="100%",
                    ),
                    rx.text(card.city_line, size="2", color_scheme="gray", id=f"lead-city-{card.id}"),
                    spacing="0",
                    min_width="0",
                    flex="1",
                ),
                rx.badge(card.lead_type, variant="soft", radius="full", flex_shrink="0",
                         id=f"lead-type-{card.id}"),
                justify="between",
                align="start",
                width="100%",
                spacing="2",
            ),
            rx.hstack(
                _fact("bed_double", card.beds),
                _fact("bath", card.baths),
                _fact("ruler", card.sqft),
                spacing="4",
                wrap="wrap",
                id=f"lead-facts-{card.id}",
            ),
            _financials(card),
            _confidence(card),
            rx.spacer(),
            card_action(card, busy),
            spacing="3",
            height="100%",
        ),
        size="2",
        id=f"lead-card-{card.id}",
        class_name="lv-card lv-card-hover",
        height="100%",
        data_unlocked=rx.cond(card.unlocked, "true", "false"),
        data_sample=rx.cond(card.is_sample, "true", "false"),
        role="article",
        aria_label=f"{card.lead_type} lead in {card.city_line}",
    )
