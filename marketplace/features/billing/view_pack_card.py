"""Credit pack cards, rendered from ``billing.rules_packs.PACKS`` only (SPEC 9).

* ``pack_card`` - the /pricing card: name, 'Most Popular' badge, price,
  credits, price per credit, description, features and a link to
  /purchase-credits?pack=<id>.
* ``pack_option`` - the compact, selectable variant on /purchase-credits
  (a Radix radio card inside ``rx.radio_cards.root``).

Element ids: ``pack-card-<id>``, ``pack-price-<id>``, ``pack-per-credit-<id>``,
``pack-credits-<id>``, ``pack-cta-<id>``, ``pack-option-<id>``, ``pack-breakdown-<id>`` and
``pack-option-breakdown-<id>`` (the pack bonus, ``billing.rules_packs.breakdown_text``, on packs with one).
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import kit as ui
from marketplace.features.billing.rules_packs import CreditPack, bonus_credits, breakdown_text

POPULAR_LABEL = "Most Popular"
PACK_ICONS = {"starter": "rocket", "pro": "trending_up", "enterprise": "building_2"}


def price_text(pack: CreditPack) -> str:
    return f"${pack.price:,}"


def per_credit_text(pack: CreditPack) -> str:
    return f"${pack.price_per_credit:.2f}"


def credits_text(pack: CreditPack) -> str:
    return f"{pack.credits:,} credits"


def purchase_href(pack: CreditPack) -> str:
    return f"{routes.PURCHASE_CREDITS}?pack={pack.id}"


def breakdown_line(pack: CreditPack, element_id: str, size: str = "2", say_none: bool = False) -> rx.Component:
    """'1,250 + 250 bonus (20%)' with a gift icon; for a pack without a bonus nothing, or
    with ``say_none`` 'No bonus credits' (the pricing cards keep their rows aligned)."""
    if not bonus_credits(pack):
        return rx.text("No bonus credits", size=size, color_scheme="gray") if say_none else rx.fragment()
    return rx.hstack(
        rx.icon("gift", size=14, color="var(--grass-11)", aria_hidden="true", flex_shrink="0"),
        rx.text(breakdown_text(pack), size=size, color="var(--grass-11)", weight="medium", id=element_id),
        spacing="1",
        align="center",
    )


def popular_badge(size: str = "2", **props) -> rx.Component:
    return rx.badge(
        rx.icon("star", size=12, aria_hidden="true"),
        POPULAR_LABEL,
        color_scheme="indigo",
        variant="solid",
        radius="full",
        size=size,
        **props,
    )


def _feature(text: str) -> rx.Component:
    return rx.el.li(
        rx.hstack(
            rx.icon("circle_check", size=18, color="var(--grass-10)", flex_shrink="0", aria_hidden="true",
                    margin_top="2px"),
            rx.text(text, size="2", high_contrast=True),
            spacing="2",
            align="start",
        ),
    )


def pack_card(pack: CreditPack) -> rx.Component:
    """One bundle card of /pricing; the popular pack is raised and outlined."""
    return rx.card(
        rx.vstack(
            rx.hstack(
                rx.hstack(
                    ui.icon_tile(PACK_ICONS.get(pack.id, "coins"), "indigo" if pack.popular else "gray", "40px"),
                    rx.heading(pack.name, as_="h3", size="5", weight="bold"),
                    spacing="3",
                    align="center",
                ),
                popular_badge(id=f"pack-popular-{pack.id}") if pack.popular else rx.fragment(),
                justify="between",
                align="center",
                width="100%",
                min_height="44px",
            ),
            rx.text(pack.description, size="2", color_scheme="gray",
                    min_height=ui.responsive(None, md="calc(2 * var(--line-height-2))")),
            rx.vstack(
                rx.hstack(
                    rx.text(price_text(pack), size="9", weight="bold", id=f"pack-price-{pack.id}",
                            class_name="lv-stat-value" if pack.popular else None, letter_spacing="-0.03em",
                            line_height="1"),
                    rx.text("one-time", size="2", color_scheme="gray"),
                    spacing="2",
                    align="end",
                ),
                rx.hstack(
                    rx.badge(rx.icon("coins", size=12, aria_hidden="true"), credits_text(pack), size="2",
                             variant="soft", color_scheme="indigo" if pack.popular else "gray", radius="full",
                             id=f"pack-credits-{pack.id}"),
                    rx.text(
                        rx.el.span(per_credit_text(pack), id=f"pack-per-credit-{pack.id}"), " per credit",
                        size="2", color_scheme="gray",
                    ),
                    spacing="3",
                    align="center",
                    wrap="wrap",
                ),
                breakdown_line(pack, f"pack-breakdown-{pack.id}", say_none=True),
                spacing="3",
                padding_y="0.25rem",
            ),
            rx.separator(size="4"),
            rx.el.ul(*[_feature(feature) for feature in pack.features], class_name="lv-plain-list",
                     aria_label=f"{pack.name} features"),
            rx.spacer(),
            ui.button_link(
                f"Get {pack.name}", purchase_href(pack), icon="arrow_right", size="3",
                variant="solid" if pack.popular else "outline", width="100%", id=f"pack-cta-{pack.id}",
            ),
            spacing="4",
            height="100%",
        ),
        size="4",
        id=f"pack-card-{pack.id}",
        class_name="lv-card lv-card-hover",
        height="100%",
        style={
            "outline": "2px solid var(--accent-8)",
            "outline_offset": "-1px",
            "box_shadow": "0 18px 48px -20px rgba(62, 99, 221, 0.45)",
        } if pack.popular else {},
    )


def pack_option(pack: CreditPack) -> rx.Component:
    """One selectable pack on /purchase-credits (inside ``rx.radio_cards.root``)."""
    return rx.radio_cards.item(
        rx.hstack(
            ui.icon_tile(PACK_ICONS.get(pack.id, "coins"), "indigo", "40px"),
            rx.vstack(
                rx.hstack(
                    rx.text(pack.name, size="4", weight="bold"),
                    popular_badge(size="1") if pack.popular else rx.fragment(),
                    spacing="2",
                    align="center",
                    wrap="wrap",
                ),
                rx.flex(
                    rx.text(credits_text(pack), size="2", weight="medium", high_contrast=True),
                    rx.text(f"{per_credit_text(pack)} per credit", size="2", color_scheme="gray"),
                    wrap="wrap",
                    column_gap="0.75rem",
                    row_gap="0",
                ),
                breakdown_line(pack, f"pack-option-breakdown-{pack.id}", size="1"),
                spacing="1",
                align="start",
                min_width="0",
            ),
            rx.spacer(),
            rx.text(price_text(pack), size="6", weight="bold", flex_shrink="0", letter_spacing="-0.02em"),
            spacing="3",
            align="center",
            width="100%",
        ),
        value=pack.id,
        id=f"pack-option-{pack.id}",
        width="100%",
        padding=ui.responsive("0.85rem 1rem", sm="1rem 1.25rem"),
    )
