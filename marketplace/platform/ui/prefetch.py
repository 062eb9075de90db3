"""Load a page's code before the user goes there: React Router's ``<Link
prefetch="render">`` puts the route's modules in ``<link rel="modulepreload">`` tags while it is
rendered, so a later redirect or click to that page does not wait for its code. The link itself
is hidden from everyone (no text, not focusable, not in the accessibility tree)."""

from __future__ import annotations

import reflex as rx
from reflex_components_core.react_router.dom import ReactRouterLink


def prefetch_route(path: str) -> rx.Component:
    return ReactRouterLink.create(to=path, custom_attrs={"prefetch": "render"}, tab_index=-1,
                                  aria_hidden="true", style={"display": "none"})
