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

from marketplace.platform import routes
from marketplace.platform.ui import cards, status, kit as ui
from marketplace.platform.ui.layout import page
from marketplace.platform.ui.state_auth import AuthState
from marketplace.platform.texts import (
    PROPERTY_LOAD_FAILED as LOAD_FAILED,
    PROPERTY_NO_ACCESS as NO_ACCESS,
    PROPERTY_NOT_FOUND as NOT_FOUND,
    PROPERTY_NOT_FOUND_TITLE as NOT_FOUND_TITLE,
    PROPERTY_SIGNED_OUT as SIGNED_OUT,
)
from marketplace.features.property.state import PropertyState
# The page's sections: importing them registers them with PropertyState.load (``desk_section``).
from marketplace.features.property import (
    state_analyzer as property_analyzer,
    state_comps as property_comps,
    state_owner_contact as property_owner_contact,
    state_pipeline as property_pipeline,
)  # noqa: F401
from marketplace.features.property.view_sections import property_content
from marketplace.features.property.view_gallery import shell_picture


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
        ("denied", "Unlock it to see its full address, pictures and ROI analysis: its card opens on the "
                   "marketplace's map."),
        "The link may be mistyped, or the lead may no longer exist.",
    )
    icon = rx.match(
        PropertyState.status,
        ("signed_out", rx.icon("lock_keyhole", size=28, aria_hidden="true")),
        ("denied", rx.icon("lock", size=28, aria_hidden="true")),
        rx.icon("search_x", size=28, aria_hidden="true"),
    )
    return status.message_view(
        status.status_icon(icon, box_shadow="var(--shadow-2)"),
        rx.heading(NOT_FOUND_TITLE, as_="h1", size=rx.breakpoints(initial="7", md="8"), weight="bold",
                   id="property-not-found"),
        rx.text(message, size="4", weight="medium", id="property-not-found-message"),
        rx.text(hint, size="3", color_scheme="gray", max_width="30rem"),
        actions=[
            rx.cond(
                PropertyState.status == "signed_out",
                ui.button_link("Login", routes.AUTH, icon="log_in", size="3", id="property-login"),
            ),
            rx.cond(
                PropertyState.unlock_link != "",
                ui.button_link("Unlock this lead", PropertyState.unlock_link, icon="lock_open", size="3",
                               id="property-unlock-link"),
            ),
            ui.button_link("Back to Marketplace", routes.MARKETPLACE, size="3",
                           variant=rx.cond((PropertyState.status == "signed_out") | (PropertyState.unlock_link != ""),
                                           "outline", "solid"),
                           id="property-back-marketplace"),
        ],
        actions_props={"padding_top": "0.5rem"},
        padding_y=ui.responsive("2rem", md="4rem"),
    )


@page(route=routes.PROPERTY, title="Property Details",
      on_load=[PropertyState.load], opens_session=True)
def property_page() -> rx.Component:
    shown = (PropertyState.status == "shown") & AuthState.is_authenticated & (
        PropertyState.loaded_for == AuthState.user_id)
    # Before its data (and in the prerendered shell every /property/{id} is served): the header's
    # place, the lead's picture where the gallery shows it, and the loading line.
    loading = rx.vstack(
        *[rx.skeleton(height=height, width=width, max_width="100%")  # links, badges, address, city
          for height, width in (("20px", "16rem"), ("24px", "20rem"), ("36px", "24rem"), ("22px", "12rem"))],
        shell_picture(),
        rx.hstack(rx.spinner(size="2"), rx.text("Loading property details...", size="3", color_scheme="gray"),
                  align="center", spacing="2", id="property-loading", role="status", aria_busy="true"),
        spacing="4",
        width="100%",
    )
    return cards.app_page(
        rx.cond(
            shown,
            property_content(),
            rx.match(
                PropertyState.status,
                ("loading", loading),
                ("shown", loading),
                ("error", status.error_view(LOAD_FAILED, "property-load-error", PropertyState.load, "property-retry",
                                            "Back to Marketplace", routes.MARKETPLACE)),
                not_found_view(),
            ),
        ),
    )
