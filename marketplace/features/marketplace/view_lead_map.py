"""The map: Leaflet 1.9 through react-leaflet 5, with
leaflet.markercluster, wrapped as a Reflex component.

The React side is ``assets/lead_map.jsx`` (with ``assets/lead_map.css`` and
Leaflet's own CSS): it takes the compact point payload of
``marketplace.rules_map`` and makes the markers and clusters itself, so every lead is
a plain Leaflet marker, clustered in chunks, not a component tree of its own.
It is a client-only component loaded on demand (``NoSSRComponent``: a dynamic
import of ``assets/lead_map_deferred.jsx``), so pages and views without a map do not download Leaflet,
and a page whose map is below the fold loads Leaflet only once the map comes within a screen of the
viewport (a box of the map's size stands in for it until then).

Tiles come from ``MAP_TILE_URL`` with ``MAP_TILE_ATTRIBUTION`` (config.py,
OpenStreetMap's by default); without tiles (``off``, or no network) the map
shows its markers and clusters on a plain background.
"""

from __future__ import annotations

import reflex as rx
from reflex.event import passthrough_event_spec
from reflex.vars.base import Var

from marketplace.platform.config import get_settings

# Pinned: the build installs exactly these (reflex.lock/ records them).
LEAFLET_PACKAGES = ["leaflet@1.9.4", "leaflet.markercluster@1.5.3"]


class LeadMap(rx.NoSSRComponent):
    library = "$/public/lead_map_deferred.jsx"
    tag = "LeadMap"
    lib_dependencies: list[str] = ["react-leaflet@5.0.0", *LEAFLET_PACKAGES]

    points: Var[dict]
    fit_key: Var[str]  # the map fits its leads when this changes (the filter query), not on every update
    selected: Var[str]  # the token of the lead whose card is open
    single: Var[bool]  # one lead, not clickable (the property page)
    tile_url: Var[str]
    attribution: Var[str]
    locked_label: Var[str]
    open_label: Var[str]

    on_select: rx.EventHandler[passthrough_event_spec(str)]


def lead_map(points, **props) -> rx.Component:
    """A map of ``points`` (a ``marketplace.rules_map`` payload var) with the configured tiles."""
    settings = get_settings()
    return LeadMap.create(points=points, tile_url=settings.map_tile_url,
                          attribution=settings.map_tile_attribution, **props)
