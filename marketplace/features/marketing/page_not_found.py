"""The custom 404 page (Reflex's reserved route "404"); its body is
``marketing.view_not_found.not_found_view``."""

import reflex as rx

from marketplace.platform.ui.layout import page
from marketplace.features.marketing.view_not_found import NOT_FOUND_ROUTE, not_found_view


@page(route=NOT_FOUND_ROUTE, title="Page Not Found")
def not_found() -> rx.Component:
    """Shown for any path that matches no page."""
    return not_found_view()
