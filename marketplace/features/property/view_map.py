"""/property/{id}: the small map of an unlocked lead, at its own
coordinates (or its ZIP code's centre when it has none), not clickable.

Element ids: ``property-location`` (the card), ``property-map`` (``data-count``:
1 with a position, 0 without).
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import cards
from marketplace.features.marketplace import lead_map
from marketplace.platform.texts import PROPERTY_MAP_MARKER, PROPERTY_MAP_NONE
from marketplace.features.property.state import PropertyState

D = PropertyState.details


def location_card() -> rx.Component:
    has_point = PropertyState.map_point["ids"].length() > 0
    return cards.section_card(
        "map_pin",
        "Location",
        None,
        rx.cond(
            has_point,
            rx.el.div(
                lead_map(PropertyState.map_point, fit_key=D["address"], single=True, open_label=PROPERTY_MAP_MARKER,
                         class_name="lv-map lv-map-small"),
                role="group",
                width="100%",
                aria_label=rx.Var.create("Map: ") + D["address"] + ", " + D["place"],
                custom_attrs={"id": "property-map"},
                data_count=PropertyState.map_point["ids"].length(),
            ),
            rx.text(PROPERTY_MAP_NONE, size="2", color_scheme="gray", id="property-map-none"),
        ),
        heading_as="h2",
        tile_size="36px",
        card_id="property-location",
    )
