"""/about : mission, four stat tiles, the founder story and values (SPEC section 2)."""

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import kit as ui
from marketplace.platform.ui.demo_data import claim_text, claims_public_records, demo_claim_note, demo_claim_suffix
from marketplace.platform.ui.layout import page

STATS = [
    ("2,500+", "Active Investors", "users"),
    ("$50M+", "Deals Sourced", "handshake"),
    ("50,000+", "Properties Analyzed", "chart_column"),
    ("22.4%", "Average ROI", "trending_up"),
]

ROI_FOOTNOTE = (
    "Average ROI is the mean estimated ROI across leads we have analyzed. Estimates are not a guarantee of "
    "future results and are not investment advice."
)

STORY = [
    "LeadVault started in 2019 at a kitchen table in Phoenix. Our founder had spent more than ten years flipping "
    "and renting houses, and every good deal had come from the same tedious routine: pulling probate filings, "
    "default notices and auction calendars from county websites, then running the numbers by hand before "
    "someone else got there first.",
    "The records were public, but turning them into decisions took days. So we built the tool we wanted for "
    "ourselves: a system that gathers public-record signals every night, estimates market value, after-repair "
    "value and rehab cost, and scores how much each lead can be trusted.",
    "Today thousands of investors start their morning with LeadVault's daily refresh. We are still investors "
    "building for investors, and we still hold ourselves to the rule we started with: show the numbers honestly "
    "and let you make the call.",
]

VALUES = [
    ("shield_check", "100% legal public-record data",
     "Every lead is built from lawfully available public records such as probate filings, default notices, "
     "auction calendars and tax rolls. Never from private or questionable sources."),
    ("handshake", "No brokering",
     "We are not a brokerage and take no commission. You deal directly with owners and keep the whole upside."),
    ("book_open", "No investment advice",
     "We provide data and estimates, not recommendations. Our ROI figures are a starting point for your own "
     "due diligence."),
    ("eye", "Radical transparency",
     "Confidence scores, clear credit prices and masked previews mean you always know what you are paying for."),
]


def mission() -> rx.Component:
    """The mission statement with its short promise list."""
    return ui.section(
        rx.grid(
            rx.vstack(
                ui.eyebrow("Our mission"),
                rx.heading("Level the playing field for independent investors", as_="h2",
                           size={"initial": "7", "md": "8"}, weight="bold", class_name="lv-balance"),
                spacing="3",
            ),
            rx.vstack(
                rx.text(
                    "Large funds have analysts and data teams. Independent investors have evenings and weekends. "
                    "Our mission is to give every investor the same early, well-analyzed view of off-market "
                    "opportunities, at a price that makes sense one lead at a time.",
                    size="4", color_scheme="gray",
                ),
                ui.check_item("Curated probate, pre-foreclosure, auction, tax delinquent, vacancy and "
                              "make-me-move leads"),
                ui.check_item("ROI analysis and a confidence score on every lead"),
                ui.check_item("Fresh leads every day at 8:00 AM PST"),
                spacing="3",
            ),
            columns={"initial": "1", "md": "2"},
            spacing={"initial": "5", "md": "9"},
        ),
    )


def stats() -> rx.Component:
    """Four stat tiles with the ROI footnote."""
    return ui.section(
        ui.section_heading("LeadVault by the numbers", label="Track record"),
        rx.grid(*[ui.stat_tile(value, label, icon) for value, label, icon in STATS], columns=ui.GRID_4,
                spacing=ui.GRID_GAP, id="about-stats"),
        rx.text(ROI_FOOTNOTE, size="1", color_scheme="gray", text_align="center", margin_top="1.5rem", as_="p"),
        muted=True,
    )


def story() -> rx.Component:
    """The founder story from 2019."""
    return ui.section(
        rx.grid(
            rx.vstack(
                ui.eyebrow("Our story"),
                rx.heading("Built by investors, since 2019", as_="h2", size={"initial": "7", "md": "8"},
                           weight="bold", class_name="lv-balance"),
                rx.box(
                    rx.hstack(
                        rx.text("2019", size="8", weight="bold", class_name="lv-stat-value"),
                        rx.vstack(
                            rx.text("Founded", size="2", weight="bold"),
                            rx.text("10+ years of investing experience behind it", size="2", color_scheme="gray"),
                            spacing="0",
                        ),
                        spacing="4",
                        align="center",
                    ),
                    padding="1.25rem",
                    border_radius="var(--radius-5)",
                    border="1px solid var(--gray-4)",
                    background="var(--color-panel-solid)",
                    margin_top="0.5rem",
                ),
                spacing="3",
            ),
            rx.vstack(*[claim_text(paragraph, size="3", as_="p") for paragraph in STORY], spacing="4",
                      class_name="lv-prose"),
            columns={"initial": "1", "md": "5fr 7fr"},
            spacing={"initial": "6", "md": "9"},
        ),
    )


def values() -> rx.Component:
    """What we stand for."""
    return ui.section(
        ui.section_heading("What we stand for", "The principles behind every lead we publish.", label="Our values"),
        rx.grid(*[ui.feature_card(icon, title, text,
                                  note=demo_claim_suffix() if claims_public_records(title + text) else None)
                  for icon, title, text in VALUES], columns=ui.GRID_2,
                spacing="5"),
        muted=True,
    )


def closing_cta() -> rx.Component:
    """Invitation to browse the marketplace or get in touch."""
    return ui.section(
        ui.cta_band(
            "See today's leads for yourself",
            "Browsing is free. Unlock only the properties that match your strategy.",
            [
                ui.button_link("Browse Marketplace", routes.MARKETPLACE, icon="arrow_right", size="3",
                               class_name="lv-btn-on-dark"),
                ui.button_link("Contact Us", routes.CONTACT, size="3", variant="outline",
                               class_name="lv-btn-outline-on-dark"),
            ],
        ),
    )


@page(route=routes.ABOUT, title="About Us")
def about() -> rx.Component:
    """The about page."""
    return rx.fragment(
        ui.page_hero(
            "We turn public records into investment-ready leads",
            "LeadVault helps real-estate investors find off-market opportunities early, with the analysis already "
            "done.",
            label="About LeadVault",
            icon="building_2",
            note=demo_claim_note("about-demo-note"),
        ),
        mission(),
        stats(),
        story(),
        values(),
        closing_cta(),
    )
