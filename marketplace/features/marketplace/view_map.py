"""The marketplace's Grid | Map switch and the Map view.

The map (``marketplace.view_lead_map``) shows every lead matching the filters,
clustered with a count per cluster; a marker opens the lead's card
(``marketplace.view_lead_card``, the grid's card with its action) in a panel over
the map (under it on phones). Under the map: how many leads it shows, how many
have no known location, and that locked leads sit at their ZIP code's centre.

Element ids: ``view-switch`` (buttons ``view-grid`` / ``view-map``, ``aria-pressed``),
``marketplace-map`` (``data-count``: markers; ``data-key``: the filter query
the points are for), ``map-loading``, ``map-caption``, ``map-card-panel``,
``map-card-close`` and the card's own ids.
"""

from __future__ import annotations

import reflex as rx

from marketplace.features.marketplace.view_lead_card import lead_card
from marketplace.features.marketplace.view_lead_map import lead_map
from marketplace.platform.texts import MAP_LOCKED_MARKER, MAP_LOCKED_NOTE, MAP_OPEN_MARKER
from marketplace.platform.ui import kit as ui
from marketplace.features.marketplace.state import MarketplaceState
from marketplace.features.marketplace.state_map import MarketplaceMapState as M


def _view_button(view: str, icon: str, label: str) -> rx.Component:
    chosen = MarketplaceState.view == view
    return rx.el.button(
        ui.static_icon(icon, size=14, aria_hidden="true"),
        label,
        type="button",
        id=f"view-{view}",
        aria_pressed=rx.cond(chosen, "true", "false"),
        data_state=rx.cond(chosen, "on", "off"),
        class_name="lv-seg-item",
        on_click=MarketplaceState.set_view(view),
    )


def view_switch() -> rx.Component:
    """Grid | Map: two toggle buttons in a group named 'Results view' (plain buttons: the segmented control's
    focus group set its state while the cards mounted, issue 41), the chosen one pressed."""
    return rx.el.div(
        _view_button("grid", "layout_grid", "Grid"),
        _view_button("map", "map", "Map"),
        role="group",
        id="view-switch",
        aria_label="Results view",
        class_name="lv-seg",
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
