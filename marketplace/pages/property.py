"""/property/{id}: the details of a lead the signed-in user has unlocked (SPEC 2, 4, 8, 9).

What is shown and when is decided by ``PropertyState`` (see its docstring):
a spinner while loading, the property once the server has checked the session
and the unlock record, otherwise 'Property Not Found' with the reason.

Element ids used by the tests: ``property-loading``, ``property-not-found``
(the title), ``property-not-found-message``, ``property-login``,
``property-back-marketplace``, ``property-load-error``, ``property-address``,
``property-place``, ``property-lead-type-badge``, ``property-archived``,
``property-images``, ``property-more-overlay``, ``property-image-status``,
``property-gallery-dialog``, ``property-beds``, ``property-baths``,
``property-sqft``, ``property-asking``, ``property-market-value``,
``property-arv``, ``property-rehab``, ``property-roi``, ``property-profit``,
``property-lead-type``, ``property-source``, ``property-confidence``,
``property-unlocked-at``, ``property-credits-paid``, ``property-purchase-type``,
``link-listing``, ``link-maps``, ``link-web``.
"""

from __future__ import annotations

import reflex as rx
from reflex_components_core.el.elements.media import Img

from marketplace import routes
from marketplace.components import ui
from marketplace.components.layout import page
from marketplace.states.auth import AuthState
from marketplace.states.property import LOAD_FAILED, NO_ACCESS, NOT_FOUND, NOT_FOUND_TITLE, SIGNED_OUT, PropertyState

NO_LAST_BORDER = {"& > .lv-info-row:last-child": {"border_bottom": "none"}}
CARD_SHADOW = {"box_shadow": "0 1px 2px rgba(16, 24, 40, 0.04), 0 8px 24px -12px rgba(30, 41, 99, 0.12)"}
GALLERY_HEIGHT = "440px"
D = PropertyState.details


class PropertyImage(Img):
    """An <img> that reports load errors, so a broken picture becomes a placeholder."""

    on_error: rx.EventHandler[rx.event.no_args_event_spec]


# --------------------------------------------------------------------------- small pieces


def section_card(title: str, icon: str, *children: rx.Component, card_id: str | None = None) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.hstack(
                ui.icon_tile(icon, size="36px"),
                rx.heading(title, as_="h2", size="4", weight="bold"),
                spacing="3",
                align="center",
            ),
            *children,
            spacing="4",
            width="100%",
        ),
        size=rx.breakpoints(initial="2", sm="3"),
        style=CARD_SHADOW,
        width="100%",
        id=card_id,
    )


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
        border_bottom="1px solid var(--gray-a4)",
        class_name="lv-info-row",
    )


def fact_pill(icon: str, label: str, value: rx.Var, value_id: str) -> rx.Component:
    return rx.vstack(
        rx.hstack(rx.icon(icon, size=16, aria_hidden="true"), rx.text(label, size="1", weight="medium"),
                  spacing="2", align="center", color="var(--gray-11)"),
        rx.text(value, size="5", weight="bold", id=value_id),
        spacing="1",
        padding="0.75rem 1rem",
        border_radius="var(--radius-4)",
        background="var(--gray-a2)",
        border="1px solid var(--gray-a4)",
        width="100%",
    )


def money_tile(label: str, value: rx.Var, value_id: str, hint: str) -> rx.Component:
    return rx.vstack(
        rx.text(label, size="2", color_scheme="gray", weight="medium"),
        rx.text(value, size=rx.breakpoints(initial="5", sm="6"), weight="bold", id=value_id,
                style={"letter_spacing": "-0.02em"}),
        rx.text(hint, size="1", color_scheme="gray"),
        spacing="1",
        padding="0.9rem 1rem",
        border_radius="var(--radius-4)",
        background="var(--color-panel-solid)",
        border="1px solid var(--gray-a5)",
        width="100%",
    )


def external_link(label, href, icon: str, link_id: str, primary: bool = False) -> rx.Component:
    """A new-tab link styled as a full-width button."""
    return rx.button(
        rx.link(
            rx.icon(icon, size=16, aria_hidden="true"),
            rx.text(label, as_="span"),
            rx.spacer(),
            rx.icon("arrow_up_right", size=16, aria_hidden="true"),
            rx.el.span("(opens in a new tab)", class_name="lv-sr-only"),
            href=href,
            target="_blank",
            rel="noopener noreferrer",
            underline="none",
            id=link_id,
            _hover={},
            width="100%",
        ),
        as_child=True,
        size="3",
        variant="solid" if primary else "soft",
        color_scheme=None if primary else "gray",
        class_name="lv-button-link",
        width="100%",
        justify_content="start",
    )


# --------------------------------------------------------------------------- gallery


def image_fallback(small: bool = False) -> rx.Component:
    return rx.center(
        rx.vstack(
            rx.icon("image_off", size=20 if small else 28, aria_hidden="true"),
            rx.text("Image unavailable", size="1" if small else "2"),
            align="center",
            spacing="1",
        ),
        width="100%",
        height="100%",
        min_height="80px",
        color="var(--gray-10)",
        background="linear-gradient(135deg, var(--gray-3), var(--gray-2))",
        class_name="property-image-fallback",
    )


def picture(url: rx.Var, alt, small: bool = False) -> rx.Component:
    return rx.cond(
        PropertyState.broken_images.contains(url),
        image_fallback(small),
        PropertyImage.create(
            src=url,
            alt=alt,
            on_error=PropertyState.image_failed(url),
            loading="eager",
            style={"width": "100%", "height": "100%", "object_fit": "cover", "display": "block"},
        ),
    )


TILE_STYLE = {
    "position": "relative",
    "overflow": "hidden",
    "padding": "0",
    "border": "none",
    "cursor": "zoom-in",
    "background": "var(--gray-3)",
    "border_radius": "var(--radius-4)",
    "width": "100%",
    "height": "100%",
    "display": "block",
}


def primary_tile() -> rx.Component:
    return rx.dialog.trigger(
        rx.el.button(
            picture(PropertyState.images[0], "Property photo 1"),
            type="button",
            aria_label="View all photos",
            id="property-image-primary",
            style={
                **TILE_STYLE,
                "grid_column": ui.responsive("1 / -1", sm="1"),
                "grid_row": ui.responsive("auto", sm="1 / -1"),
                "aspect_ratio": ui.responsive("16 / 10", sm="auto"),
            },
        )
    )


def thumb_tile(url: rx.Var, index: rx.Var) -> rx.Component:
    is_last = (index == 2) & (PropertyState.more_count > 0)
    return rx.dialog.trigger(
        rx.el.button(
            picture(url, "Property photo", small=True),
            rx.cond(
                is_last,
                rx.center(
                    rx.text("+", PropertyState.more_count, " more", size=rx.breakpoints(initial="3", sm="5"),
                            weight="bold"),
                    id="property-more-overlay",
                    position="absolute",
                    inset="0",
                    color="white",
                    background="rgba(15, 23, 42, 0.55)",
                    style={"backdrop_filter": "blur(1px)"},
                ),
            ),
            type="button",
            aria_label=rx.cond(is_last, "View all photos", "View photo"),
            class_name="property-thumb",
            style={**TILE_STYLE, "aspect_ratio": ui.responsive("4 / 3", sm="auto")},
        )
    )


def gallery_dialog() -> rx.Component:
    return rx.dialog.content(
        rx.hstack(
            rx.vstack(
                rx.dialog.title("All photos", margin="0"),
                rx.dialog.description(
                    PropertyState.images.length(), " photos of ", D["address"], size="2", color_scheme="gray",
                ),
                spacing="1",
            ),
            rx.spacer(),
            rx.dialog.close(
                rx.icon_button(rx.icon("x", size=18), variant="ghost", color_scheme="gray", aria_label="Close"),
            ),
            align="start",
            width="100%",
            margin_bottom="1rem",
        ),
        rx.grid(
            rx.foreach(
                PropertyState.images,
                lambda url: rx.box(
                    picture(url, "Property photo"),
                    aspect_ratio="4 / 3",
                    overflow="hidden",
                    border_radius="var(--radius-4)",
                    background="var(--gray-3)",
                    class_name="property-dialog-image",
                ),
            ),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="3",
            width="100%",
        ),
        max_width="min(960px, 94vw)",
        id="property-gallery-dialog",
    )


def image_placeholder() -> rx.Component:
    return rx.center(
        rx.vstack(
            rx.center(
                rx.icon(
                    rx.match(D["image_status"], ("Images are being verified", "hourglass"),
                             ("Images could not be loaded", "image_off"), "image"),
                    size=26,
                    aria_hidden="true",
                ),
                width="56px",
                height="56px",
                border_radius="var(--radius-5)",
                background="var(--accent-3)",
                color="var(--accent-11)",
            ),
            rx.text(D["image_status"], size="4", weight="bold", id="property-image-status", align="center"),
            rx.text("Photos appear here as soon as they are available.", size="2", color_scheme="gray",
                    align="center"),
            align="center",
            spacing="3",
        ),
        height=rx.breakpoints(initial="220px", sm="300px"),
        width="100%",
        border="1px dashed var(--gray-6)",
        border_radius="var(--radius-5)",
        background="radial-gradient(30rem 14rem at 50% 0%, var(--accent-a3), transparent 70%), var(--gray-2)",
        padding="1rem",
    )


def gallery() -> rx.Component:
    return rx.cond(
        PropertyState.images.length() > 0,
        rx.dialog.root(
            rx.box(
                primary_tile(),
                rx.foreach(PropertyState.thumbnails, thumb_tile),
                id="property-images",
                style={
                    "display": "grid",
                    "gap": "8px",
                    "grid_template_columns": ui.responsive(PropertyState.phone_columns, sm=PropertyState.desktop_columns),
                    "grid_template_rows": ui.responsive("auto", sm=PropertyState.desktop_rows),
                    "height": ui.responsive("auto", sm=GALLERY_HEIGHT),
                    "width": "100%",
                },
            ),
            gallery_dialog(),
        ),
        image_placeholder(),
    )


# --------------------------------------------------------------------------- sections


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
                rx.text("Est. ROI", size="2", color_scheme="gray", weight="medium"),
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
                rx.text(rx.cond(PropertyState.roi_high, "Above the 15% mark", "At or below 15%"), size="1",
                        color_scheme="gray"),
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
    return section_card(
        "Property Details",
        "house",
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
        card_id="property-details",
    )


def profit_panel() -> rx.Component:
    return rx.hstack(
        rx.center(
            rx.icon(rx.match(PropertyState.profit_kind, ("loss", "trending_down"), "trending_up"), size=22,
                    aria_hidden="true"),
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
            rx.text("ARV minus asking price minus rehab estimate", size="1", color_scheme="gray"),
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
    return section_card(
        "Financial Analysis",
        "calculator",
        rx.grid(
            money_tile("Asking Price", D["asking"], "property-asking", "What the seller asks"),
            money_tile("Market Value", D["market_value"], "property-market-value", "Estimate as it stands"),
            money_tile("ARV", D["arv"], "property-arv", "After-repair value"),
            money_tile("Rehab Estimate", D["rehab"], "property-rehab", "Estimated repair cost"),
            columns="2",
            spacing=rx.breakpoints(initial="2", sm="3"),
            width="100%",
        ),
        profit_panel(),
        card_id="property-financials",
    )


def lead_info_card() -> rx.Component:
    return section_card(
        "Lead Information",
        "file_text",
        rx.vstack(
            info_row("Lead type", D["lead_type"], "property-lead-type"),
            info_row("Source", D["source"], "property-source"),
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
                spacing="2",
                width="100%",
                padding_y="0.6rem",
                border_bottom="1px solid var(--gray-a4)",
            ),
            info_row("Unlocked at", D["unlocked_at"], "property-unlocked-at"),
            info_row("Credits paid", D["credits_paid"], "property-credits-paid"),
            info_row("Purchase type", D["purchase_type"], "property-purchase-type"),
            spacing="0",
            width="100%",
            style=NO_LAST_BORDER,
        ),
        card_id="property-lead-info",
    )


def links_card() -> rx.Component:
    return section_card(
        "External Links",
        "external_link",
        rx.vstack(
            external_link(D["listing_label"], D["listing_url"], "house", "link-listing", primary=True),
            external_link("Open in Google Maps", D["maps_url"], "map", "link-maps"),
            external_link("Search the Web", D["web_url"], "globe", "link-web"),
            spacing="2",
            width="100%",
        ),
        rx.text("Links open on third-party sites in a new tab.", size="1", color_scheme="gray"),
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
        gallery(),
        rx.grid(
            rx.vstack(financial_card(), details_card(), spacing="5", width="100%", min_width="0"),
            rx.vstack(lead_info_card(), links_card(), spacing="5", width="100%", min_width="0"),
            columns=rx.breakpoints(initial="1", md="3fr 2fr"),
            spacing="5",
            width="100%",
            align_items="start",
        ),
        rx.hstack(
            rx.icon("info", size=14, color="var(--gray-10)", flex_shrink="0", margin_top="2px", aria_hidden="true"),
            rx.text("Figures are estimates derived from public records, not investment advice. Verify them "
                    "independently before making an offer.", size="1", color_scheme="gray"),
            spacing="2",
            align="start",
        ),
        spacing="6",
        width="100%",
        id="property-content",
    )


# --------------------------------------------------------------------------- other states


def loading_view() -> rx.Component:
    return rx.center(
        rx.vstack(
            rx.spinner(size="3"),
            rx.text("Loading property details...", size="3", color_scheme="gray"),
            align="center",
            spacing="3",
        ),
        id="property-loading",
        role="status",
        aria_busy="true",
        min_height="50vh",
        width="100%",
    )


def not_found_view() -> rx.Component:
    message = rx.match(
        PropertyState.status,
        ("signed_out", SIGNED_OUT),
        ("denied", NO_ACCESS),
        NOT_FOUND,
    )
    hint = rx.match(
        PropertyState.status,
        ("signed_out", "Property details are only available to the investor who unlocked the lead."),
        ("denied", "Unlock this lead in the marketplace to see its full address, photos and ROI analysis."),
        "The link may be mistyped, or the lead may no longer exist.",
    )
    return rx.center(
        rx.vstack(
            rx.center(
                rx.match(
                    PropertyState.status,
                    ("signed_out", rx.icon("lock_keyhole", size=28, aria_hidden="true")),
                    ("denied", rx.icon("lock", size=28, aria_hidden="true")),
                    rx.icon("search_x", size=28, aria_hidden="true"),
                ),
                width="64px",
                height="64px",
                border_radius="var(--radius-5)",
                background="var(--accent-3)",
                color="var(--accent-11)",
                box_shadow="var(--shadow-2)",
            ),
            rx.heading(NOT_FOUND_TITLE, as_="h1", size=rx.breakpoints(initial="7", md="8"), weight="bold",
                       id="property-not-found"),
            rx.text(message, size="4", weight="medium", id="property-not-found-message"),
            rx.text(hint, size="3", color_scheme="gray", max_width="30rem"),
            rx.flex(
                rx.cond(
                    PropertyState.status == "signed_out",
                    ui.button_link("Login", routes.AUTH, icon="log_in", size="3", id="property-login"),
                ),
                ui.button_link("Back to Marketplace", routes.MARKETPLACE, size="3",
                               variant=rx.cond(PropertyState.status == "signed_out", "outline", "solid"),
                               id="property-back-marketplace"),
                spacing="3",
                wrap="wrap",
                justify="center",
                padding_top="0.5rem",
            ),
            spacing="3",
            align="center",
            text_align="center",
        ),
        min_height="50vh",
        width="100%",
        padding_y=ui.responsive("2rem", md="4rem"),
    )


def error_view() -> rx.Component:
    return rx.center(
        rx.vstack(
            rx.center(
                rx.icon("triangle_alert", size=28, aria_hidden="true"),
                width="64px", height="64px", border_radius="var(--radius-5)",
                background="var(--red-3)", color="var(--red-11)",
            ),
            rx.heading("Something went wrong", as_="h1", size="7", weight="bold"),
            rx.text(LOAD_FAILED, size="4", id="property-load-error"),
            rx.flex(
                rx.button(rx.icon("rotate_cw", size=16), "Try again", on_click=PropertyState.load, size="3",
                          id="property-retry"),
                ui.button_link("Back to Marketplace", routes.MARKETPLACE, size="3", variant="outline"),
                spacing="3",
                wrap="wrap",
                justify="center",
            ),
            spacing="3",
            align="center",
            text_align="center",
        ),
        min_height="50vh",
        width="100%",
    )


@page(route=routes.PROPERTY, title="Property Details", on_load=[PropertyState.load])
def property_page() -> rx.Component:
    shown = (PropertyState.status == "shown") & AuthState.is_authenticated & (
        PropertyState.loaded_for == AuthState.user_id)
    return rx.box(
        ui.container(
            rx.cond(
                shown,
                property_content(),
                rx.match(
                    PropertyState.status,
                    ("loading", loading_view()),
                    ("shown", loading_view()),
                    ("error", error_view()),
                    not_found_view(),
                ),
            ),
            padding_y=rx.breakpoints(initial="1.5rem", sm="2.5rem"),
        ),
        background="linear-gradient(180deg, var(--accent-2) 0%, var(--gray-1) 320px)",
        min_height="calc(100vh - 140px)",
    )
