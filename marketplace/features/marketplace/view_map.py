"""The marketplace's Grid | Map switch and the Map view.

The map (``marketplace.view_lead_map``) shows every lead matching the filters,
clustered with a count per cluster; a marker opens the lead's card
(``marketplace.view_lead_card``, the grid's card with its action) in a panel over
the map (under it on phones). Under the map: how many leads it shows, how many
have no known location, and that locked leads sit at their ZIP code's centre.

Element ids: ``view-switch`` (items ``view-grid`` / ``view-map``),
``marketplace-map`` (``data-count``: markers; ``data-key``: the filter query
the points are for), ``map-loading``, ``map-caption``, ``map-card-panel``,
``map-card-close`` and the card's own ids.
"""

from __future__ import annotations

import reflex as rx

from marketplace.features.marketplace.view_lead_card import lead_card
from marketplace.features.marketplace.view_lead_map import lead_map
from marketplace.platform.texts import MAP_LOCKED_MARKER, MAP_LOCKED_NOTE, MAP_OPEN_MARKER
from marketplace.features.marketplace.state import MarketplaceState
from marketplace.features.marketplace.state_map import MarketplaceMapState as M


def view_switch() -> rx.Component:
    """Grid | Map: a radio group (Radix segmented control) named 'Results view'."""
    return rx.segmented_control.root(
        rx.segmented_control.item(rx.hstack(rx.icon("layout_grid", size=14, aria_hidden="true"), "Grid",
                                            spacing="1", align="center"), value="grid", id="view-grid"),
        rx.segmented_control.item(rx.hstack(rx.icon("map", size=14, aria_hidden="true"), "Map",
                                            spacing="1", align="center"), value="map", id="view-map"),
        value=MarketplaceState.view,
        on_change=MarketplaceState.set_view,
        id="view-switch",
        aria_label="Results view",
        size={"initial": "1", "sm": "2"},
    )


def _card_panel() -> rx.Component:
    card = M.map_card
    return rx.cond(
        M.map_selected != "",
        rx.el.div(
            rx.hstack(
                rx.text("Selected lead", size="2", weight="bold", as_="span"),
                rx.icon_button(rx.icon("x", size=16, aria_hidden="true"), on_click=M.close_map_card,
                               variant="soft", color_scheme="gray", size="1", aria_label="Close lead card",
                               id="map-card-close", cursor="pointer"),
                justify="between",
                align="center",
                width="100%",
                padding_bottom="0.5rem",
            ),
            rx.cond(card.id != "", lead_card(card, busy=MarketplaceState.unlocking_id == card.id, eager=True)),
            id="map-card-panel",
            class_name="lv-map-panel",
            role="region",
            aria_label="Selected lead",
        ),
    )


def map_view() -> rx.Component:
    return rx.vstack(
        rx.cond(
            M.map_loaded,
            rx.el.div(
                lead_map(
                    M.map_points,
                    fit_key=M.map_key,
                    selected=M.map_selected,
                    on_select=M.open_map_lead,
                    locked_label=MAP_LOCKED_MARKER,
                    open_label=MAP_OPEN_MARKER,
                    class_name="lv-map",
                    custom_attrs={"id": "marketplace-map"},
                ),
                _card_panel(),
                class_name="lv-map-wrap",
                role="region",
                aria_label="Map of matching leads",
                data_count=M.map_points["ids"].length(),
                data_key=M.map_key,
            ),
            rx.hstack(rx.spinner(size="3"), rx.text("Loading the map...", size="3", weight="medium"),
                      spacing="3", align="center", id="map-loading", role="status", min_height="420px"),
        ),
        rx.vstack(
            rx.text(M.map_caption, size="2", weight="medium", id="map-caption"),
            rx.hstack(
                rx.el.span(class_name="lv-map-key lv-map-key-locked", aria_hidden="true"),
                rx.text(MAP_LOCKED_NOTE, size="1", color_scheme="gray"),
                spacing="2",
                align="center",
            ),
            spacing="1",
        ),
        spacing="3",
        width="100%",
    )
