"""/ : the landing page."""

import reflex as rx

from marketplace import routes
from marketplace.components.layout import page


@page(route=routes.HOME, title="Off-Market Real Estate Leads")
def home() -> rx.Component:
    return rx.container(rx.heading("Find off-market deals before anyone else"), rx.link("Browse Marketplace", href=routes.MARKETPLACE))
