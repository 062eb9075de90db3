"""Property page sections: the header (address, badges, ROI), the Financial
Analysis, Property Details, Lead Information and External Links cards, and
the whole unlocked view (SPEC 2, 9). Element ids: see features/property/page.py."""

from __future__ import annotations

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import cards, styles, kit as ui
from marketplace.platform.ui.demo_data import claim_text
from marketplace.features.unlock import HELD_BASIS
from marketplace.features.property.state import PropertyState
from marketplace.features.property.view_analyzer import analyzer_card
from marketplace.features.property.view_comps import comps_card
from marketplace.features.property.view_gallery import gallery
from marketplace.features.property.view_map import location_card
from marketplace.platform.ui.deferred import deferred
from marketplace.features.property.view_pipeline import pipeline_card
from marketplace.features.property.view_owner_contact import owner_contact_card
from marketplace.features.property.view_record import confidence_basis, record_card, roi_basis

NO_LAST_BORDER = {"& > .lv-info-row:last-child": {"border_bottom": "none"}}
D = PropertyState.details
H = PropertyState.hints


def info_row(label: str, value: rx.Component | rx.Var | str, value_id: str | None = None) -> rx.Component:
    """A label on the left, its value on the right, one line of a definition list."""
    content = value if isinstance(value, rx.Component) else rx.text(value, size="2", weight="medium", id=value_id,
                                                                       align="right")
    return rx.hstack(
        rx.text(label, size="2", color_scheme="gray", flex_shrink="0"),
        rx.spacer(),
        content,
        align="center",
        spacing="3",
        width="100%",
        padding_y="0.6rem",
        border_bottom=styles.ROW_BORDER,
        class_name="lv-info-row",
    )


def fact_pill(icon: str, label: str, value: rx.Var, value_id: str) -> rx.Component:
    return rx.vstack(
        rx.hstack(ui.static_icon(icon, size=16, aria_hidden="true"), rx.text(label, size="1", weight="medium"),
                  spacing="2", align="center", color="var(--gray-11)"),
        rx.text(value, size="5", weight="bold", id=value_id),
        spacing="1",
        padding="0.75rem 1rem",
        border_radius="var(--radius-4)",
        background="var(--gray-a2)",
        border="1px solid var(--gray-a4)",
        width="100%",
    )


def money_tile(label: str, value: rx.Var, value_id: str, hint) -> rx.Component:
    return rx.vstack(
        rx.text(label, size="2", color_scheme="gray", weight="medium"),
        rx.text(value, size=rx.breakpoints(initial="5", sm="6"), weight="bold", id=value_id,
                style=styles.NUMBER_STYLE),
        rx.text(hint, size="1", color_scheme="gray", id=f"{value_id}-basis"),
        spacing="1",
        padding="0.9rem 1rem",
        border_radius="var(--radius-4)",
        background="var(--color-panel-solid)",
        border="1px solid var(--gray-a5)",
        width="100%",
    )


def external_link(label, href, icon: str, link_id: str, primary: bool = False) -> rx.Component:
    """A new-tab link styled as a full-width button."""
    return ui.button_link(
        rx.fragment(
            rx.text(label, as_="span"),
            rx.spacer(),
            rx.icon("arrow_up_right", size=16, aria_hidden="true"),
            rx.el.span("(opens in a new tab)", class_name="lv-sr-only"),
        ),
        href,
        icon=icon,
        icon_first=True,
        icon_size=16,
        variant="solid" if primary else "soft",
        size="3",
        color_scheme=None if primary else "gray",
        width="100%",
        justify_content="start",
        id=link_id,
        link_props={"target": "_blank", "rel": "noopener noreferrer", "width": "100%"},
    )


def property_header() -> rx.Component:
    return rx.vstack(
        rx.hstack(
            rx.link(
                rx.hstack(rx.icon("arrow_left", size=16, aria_hidden="true"), rx.text("Back to Marketplace"),
                          spacing="1", align="center"),
                href=routes.MARKETPLACE, size="2", weight="medium", underline="none", color_scheme="gray",
            ),
            rx.text("·", color_scheme="gray", aria_hidden="true"),
            rx.link("My Dashboard", href=routes.DASHBOARD, size="2", weight="medium", underline="none",
                    color_scheme="gray"),
            spacing="2",
            align="center",
        ),
        rx.flex(
            rx.vstack(
                rx.hstack(
                    rx.badge(D["lead_type"], variant="soft", radius="full", size="2", id="property-lead-type-badge"),
                    rx.badge(rx.icon("lock_open", size=12), "Unlocked", color_scheme="grass", variant="soft",
                             radius="full", size="2"),
                    rx.cond(
                        PropertyState.archived,
                        rx.badge(rx.icon("archive", size=12), "Archived", color_scheme="gray", variant="surface",
                                 radius="full", size="2", id="property-archived"),
                    ),
                    # Where the data comes from: 'Demo data (generated)' (marketplace.rules_leads.provenance_line).
                    rx.cond(
                        D["provenance"] != "",
                        rx.badge(rx.icon("flask_conical", size=12, flex_shrink="0"), D["provenance"],
                                 color_scheme="amber", variant="soft", radius="full", size="2",
                                 id="property-provenance",
                                 # A public record's line is long: it wraps on a phone.
                                 style={"white_space": "normal", "height": "auto", "max_width": "100%"}),
                    ),
                    # How many investors hold this lead, the viewer included; never who (unlock.rules_holders).
                    rx.badge(rx.icon("users", size=12, flex_shrink="0"), D["held_by"], color_scheme="gray",
                             variant="surface", radius="full", size="2", id="property-held", title=HELD_BASIS,
                             style={"white_space": "normal", "height": "auto", "max_width": "100%"}),
                    # The cap (LEAD_MAX_HOLDERS): '3 of 5 spots left', 'Sold out', 'Exclusive'.
                    rx.cond(D["spots"] != "", rx.badge(rx.icon("ticket", size=12, flex_shrink="0"), D["spots"],
                                                       color_scheme="gray", variant="surface", radius="full", size="2",
                                                       id="property-spots")),
                    spacing="2",
                    wrap="wrap",
                ),
                rx.heading(D["address"], as_="h1", size=rx.breakpoints(initial="7", md="8"), weight="bold",
                           id="property-address", class_name="lv-balance", style={"letter_spacing": "-0.03em"}),
                rx.hstack(
                    rx.icon("map_pin", size=16, color="var(--accent-10)", aria_hidden="true", flex_shrink="0"),
                    rx.text(D["place"], size="4", color_scheme="gray", id="property-place"),
                    spacing="2",
                    align="center",
                ),
                spacing="2",
                min_width="0",
            ),
            rx.flex(
                rx.text(H["roi_label"], size="2", color_scheme="gray", weight="medium"),
                rx.badge(
                    D["roi"],
                    id="property-roi",
                    size="3",
                    radius="full",
                    color_scheme=rx.cond(PropertyState.roi_high, "grass", "gray"),
                    variant=rx.cond(PropertyState.roi_high, "solid", "soft"),
                    high_contrast=~PropertyState.roi_high,
                    style={"font_size": "var(--font-size-5)", "padding": "0.45rem 1rem", "font_weight": "700"},
                ),
                rx.text(D["roi_mark"], size="1", color_scheme="gray", id="property-roi-mark"),
                direction=rx.breakpoints(initial="row", sm="column"),
                spacing=rx.breakpoints(initial="3", sm="1"),
                align=rx.breakpoints(initial="center", sm="end"),
                flex_shrink="0",
            ),
            direction=rx.breakpoints(initial="column", sm="row"),
            justify="between",
            align=rx.breakpoints(initial="start", sm="end"),
            spacing="4",
            width="100%",
        ),
        spacing="4",
        width="100%",
    )


def details_card() -> rx.Component:
    return cards.section_card(
        "house",
        "Property Details",
        None,
        rx.grid(
            fact_pill("bed_double", "Beds", D["beds"], "property-beds"),
            fact_pill("bath", "Baths", D["baths"], "property-baths"),
            fact_pill("ruler", "Sq Ft", D["sqft"], "property-sqft"),
            columns="3",
            spacing=rx.breakpoints(initial="2", sm="3"),
            width="100%",
        ),
        rx.vstack(
            info_row("Street address", D["address"], "property-street"),
            info_row("City, State, ZIP", D["place"], "property-city-state-zip"),
            rx.foreach(PropertyState.record, lambda row: info_row(row["label"], row["value"])),
            spacing="0",
            width="100%",
            style=NO_LAST_BORDER,
        ),
        heading_as="h2",
        tile_size="36px",
        card_id="property-details",
    )


def profit_panel() -> rx.Component:
    return rx.hstack(
        rx.center(
            rx.cond(PropertyState.profit_kind == "loss", rx.icon("trending_down", size=22, aria_hidden="true"),
                    rx.icon("trending_up", size=22, aria_hidden="true")),
            width="44px",
            height="44px",
            border_radius="var(--radius-4)",
            flex_shrink="0",
            background=rx.match(PropertyState.profit_kind, ("profit", "var(--grass-4)"), ("loss", "var(--red-4)"),
                                "var(--gray-4)"),
            color=rx.match(PropertyState.profit_kind, ("profit", "var(--grass-11)"), ("loss", "var(--red-11)"),
                           "var(--gray-11)"),
        ),
        rx.vstack(
            rx.text(
                rx.el.span(D["profit_label"], style={"display": "block", "font_size": "var(--font-size-2)",
                                                     "font_weight": "500", "color": "var(--gray-11)"}),
                " ",
                rx.el.span(D["profit_value"], style={"display": "block", "font_size": "var(--font-size-7)",
                                                     "font_weight": "700", "letter_spacing": "-0.03em",
                                                     "line_height": "1.15"}),
                id="property-profit",
                as_="div",
                color=rx.match(PropertyState.profit_kind, ("profit", "var(--grass-11)"), ("loss", "var(--red-11)"),
                               "var(--gray-12)"),
            ),
            rx.text(D["arv_term"], " minus asking price minus rehab estimate", size="1", color_scheme="gray",
                    id="property-profit-basis"),
            spacing="1",
        ),
        spacing="4",
        align="center",
        width="100%",
        padding="1rem 1.25rem",
        border_radius="var(--radius-4)",
        background=rx.match(PropertyState.profit_kind, ("profit", "var(--grass-a2)"), ("loss", "var(--red-a2)"),
                            "var(--gray-a2)"),
        border=rx.match(PropertyState.profit_kind, ("profit", "1px solid var(--grass-a6)"),
                        ("loss", "1px solid var(--red-a6)"), "1px solid var(--gray-a5)"),
        data_kind=PropertyState.profit_kind,
        id="property-profit-panel",
    )


def financial_card() -> rx.Component:
    return cards.section_card(
        "calculator",
        "Financial Analysis",
        None,
        rx.grid(
            money_tile("Asking Price", D["asking"], "property-asking", H["asking_basis"]),
            money_tile("Market Value", D["market_value"], "property-market-value", H["market_value_basis"]),
            money_tile(D["arv_term"], D["arv"], "property-arv", H["arv_basis"]),
            money_tile("Rehab Estimate", D["rehab"], "property-rehab", H["rehab_basis"]),
            columns="2",
            spacing=rx.breakpoints(initial="2", sm="3"),
            width="100%",
        ),
        rx.cond(D["arv_note"] != "", rx.callout(D["arv_note"], icon="triangle_alert", color_scheme="amber",
                                                size="1", id="property-arv-note", width="100%")),
        profit_panel(),
        roi_basis(),
        heading_as="h2",
        tile_size="36px",
        card_id="property-financials",
    )


def dated_row(key: str, basis: str, value_id: str, basis_id: str) -> rx.Component:
    """A dated fact over where it comes from: 'Sale date: Dec 12, 2026 (in 17 days)' over 'Sheriff sale date
    from <dataset>, retrieved <date>'; 'Vacant since Mar 4, 2009 (17 years)' over 'Notice date from Vacant
    Building Notices'."""
    return rx.vstack(
        rx.text(D[key], size="2", weight="bold", id=value_id),
        rx.text(D[basis], size="1", color_scheme="gray", id=basis_id),
        spacing="1",
        width="100%",
        padding_y="0.6rem",
        border_bottom=styles.ROW_BORDER,
    )


def lead_info_card() -> rx.Component:
    return cards.section_card(
        "file_text",
        "Lead Information",
        None,
        rx.vstack(
            info_row("Lead type", D["lead_type"], "property-lead-type"),
            info_row("Source", D["source"], "property-source"),
            rx.cond(D["sale_date"] != "",
                    dated_row("sale_date", "sale_source", "property-sale-date", "property-sale-source")),
            rx.cond(D["open_since"] != "", dated_row("open_since", "open_since_basis", "property-open-since",
                                                              "property-open-since-basis")),
            rx.vstack(
                rx.hstack(
                    rx.text("Confidence", size="2", color_scheme="gray"),
                    rx.spacer(),
                    rx.text(D["confidence_text"], size="2", weight="bold", id="property-confidence"),
                    width="100%",
                    align="center",
                ),
                rx.progress(value=PropertyState.confidence, max=100, size="2",
                            color_scheme=rx.match(D["confidence_color"], ("grass", "grass"), ("amber", "amber"),
                                                  "tomato"),
                            aria_label="Confidence score", id="property-confidence-bar"),
                confidence_basis(),
                spacing="2",
                width="100%",
                padding_y="0.6rem",
                border_bottom=styles.ROW_BORDER,
            ),
            info_row("Unlocked at", D["unlocked_at"], "property-unlocked-at"),
            info_row("Credits paid", D["credits_paid"], "property-credits-paid"),
            info_row("Purchase type", D["purchase_type"], "property-purchase-type"),
            spacing="0",
            width="100%",
            style=NO_LAST_BORDER,
        ),
        heading_as="h2",
        tile_size="36px",
        card_id="property-lead-info",
    )


def links_card() -> rx.Component:
    return cards.section_card(
        "external_link",
        "External Links",
        None,
        rx.vstack(
            external_link(D["listing_label"], D["listing_url"], "house", "link-listing", primary=True),
            external_link("Open in Google Maps", D["maps_url"], "map", "link-maps"),
            external_link("Search the Web", D["web_url"], "globe", "link-web"),
            spacing="2",
            width="100%",
        ),
        rx.text("Links open on third-party sites in a new tab.", size="1", color_scheme="gray"),
        heading_as="h2",
        tile_size="36px",
        card_id="property-links",
    )


def property_content() -> rx.Component:
    return rx.vstack(
        property_header(),
        rx.cond(
            PropertyState.archived,
            rx.callout.root(
                rx.callout.icon(rx.icon("archive")),
                rx.callout.text("This lead has been archived from the marketplace. You keep full access because "
                                "you unlocked it."),
                color_scheme="gray",
                variant="surface",
                width="100%",
            ),
        ),
        rx.cond(
            D["scrape_note"] != "",
            rx.callout.root(
                rx.callout.icon(rx.icon("layers_3")),
                rx.callout.text(D["scrape_note"]),
                color_scheme="gray",
                variant="surface",
                width="100%",
                id="property-scrape-note",
            ),
        ),
        gallery(),
        # After the header and the pictures (a phone's first screen), each section renders in a task of its
        # own, in page order (issue 41).
        deferred(rx.grid(
            rx.vstack(financial_card(), record_card(), details_card(), spacing="5", width="100%", min_width="0"),
            rx.vstack(lead_info_card(), links_card(), location_card(), spacing="5", width="100%", min_width="0"),
            columns=rx.breakpoints(initial="1", md="3fr 2fr"),
            spacing="5",
            width="100%",
            align_items="start",
        )),
        deferred(comps_card()),
        deferred(analyzer_card()),
        deferred(owner_contact_card()),
        deferred(pipeline_card()),
        # Last, after the sections above it: rendered before them, it would jump down as each one arrived.
        deferred(rx.hstack(
            rx.icon("info", size=14, color="var(--gray-10)", flex_shrink="0", margin_top="2px", aria_hidden="true"),
            claim_text("Figures are estimates derived from public records, not investment advice. Verify them "
                       "independently before making an offer.", size="1", color_scheme="gray",
                       id="property-figures-note"),
            spacing="2",
            align="start",
        )),
        spacing="6",
        width="100%",
        id="property-content",
    )
