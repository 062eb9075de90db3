"""Site footer and the brand mark the header shares: LeadVault mark and word
mark, link columns, copyright and the legal note (SPEC 1, 2)."""

from __future__ import annotations

from datetime import date

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import kit as ui
from marketplace.platform.ui.demo_data import claim_text

FOOTER_COLUMNS = [
    ("Product", [("Marketplace", routes.MARKETPLACE), ("Pricing", routes.PRICING)]),
    ("Company", [("About", routes.ABOUT), ("Contact", routes.CONTACT)]),
    ("Legal", [
        ("Privacy Policy", routes.LEGAL_PRIVACY),
        ("Terms of Service", routes.LEGAL_TERMS),
        ("Investment Disclaimer", routes.LEGAL_DISCLAIMER),
    ]),
]
LEGAL_NOTE = (
    "100% legal public-record data. LeadVault does not broker real-estate transactions "
    "and nothing on this site is investment advice."
)
LOGO_SRC = "/logo.svg"

def brand(collapse_text: bool = False) -> rx.Component:
    """The LeadVault mark and word mark, linking home.

    With ``collapse_text`` the word mark hides between 768px and 1024px,
    where the inline navigation needs the room.
    """
    return rx.link(
        rx.hstack(
            rx.image(src=LOGO_SRC, alt="", width="32px", height="32px", aria_hidden="true"),
            rx.text(
                routes.APP_NAME,
                size="5",
                weight="bold",
                class_name="lv-wordmark lv-hide-sm-only" if collapse_text else "lv-wordmark",
            ),
            spacing="2",
            align="center",
        ),
        href=routes.HOME,
        underline="none",
        aria_label=f"{routes.APP_NAME} home",
        high_contrast=True,
        flex_shrink="0",
    )


def footer_column(title: str, links: list[tuple[str, str]]) -> rx.Component:
    """One titled list of footer links."""
    return rx.vstack(
        rx.text(title, size="2", weight="bold", high_contrast=True, as_="p"),
        rx.el.ul(
            *[rx.el.li(rx.link(label, href=href, size="2", color_scheme="gray", class_name="lv-footer-link"))
              for label, href in links],
            class_name="lv-plain-list",
        ),
        spacing="3",
        min_width="140px",
    )


def footer() -> rx.Component:
    """Site footer: brand blurb, link columns and the legal note."""
    return rx.el.footer(
        ui.container(
            rx.flex(
                rx.vstack(
                    brand(),
                    rx.text(
                        "Curated off-market property leads with ROI analysis, refreshed daily at 8:00 AM PST.",
                        size="2",
                        color_scheme="gray",
                        max_width="22rem",
                    ),
                    spacing="3",
                ),
                rx.el.nav(
                    rx.flex(*[footer_column(t, links) for t, links in FOOTER_COLUMNS],
                            spacing={"initial": "6", "md": "9"}, wrap="wrap"),
                    aria_label="Footer",
                ),
                direction={"initial": "column", "md": "row"},
                justify="between",
                spacing="7",
            ),
            rx.separator(size="4", margin_y="2rem"),
            rx.flex(
                rx.text(f"© {date.today().year} {routes.APP_NAME}. All rights reserved.", size="1",
                        color_scheme="gray"),
                rx.hstack(
                    rx.icon("shield_check", size=14, color="var(--grass-10)", aria_hidden="true", flex_shrink="0"),
                    claim_text(LEGAL_NOTE, size="1", color_scheme="gray", id="footer-legal-note"),
                    spacing="2",
                    align="center",
                ),
                direction={"initial": "column-reverse", "md": "row"},
                justify="between",
                spacing="3",
            ),
            padding_y="3rem",
        ),
        class_name="lv-footer",
    )
