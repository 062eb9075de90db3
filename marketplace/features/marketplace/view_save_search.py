"""Marketplace "Save search": the filter bar's button and its dialog (name, prefilled
from the filters' summary, then Save). Visitors get a "Sign in to save" link to
/auth instead. Element ids: ``save-search-button`` (``save-search-signin`` for
visitors), ``save-search-dialog``, ``save-search-summary``, ``save-search-name``,
``save-search-save``, ``save-search-cancel``."""

from __future__ import annotations

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import kit as ui
from marketplace.platform.limits import SAVED_SEARCH_NAME_MAX_LENGTH as NAME_MAX_LENGTH
from marketplace.features.marketplace.state import MarketplaceState
from marketplace.features.marketplace.state_saved_searches import SaveSearchState

# Phones: the buttons show their icon only (the bar keeps Filters and the count on one row);
# their accessible name stays the label.
_LABEL_CLASS = "lv-hide-below-sm"
LABEL_STYLE = {"font_size": "var(--font-size-2)", "font_weight": "500"}


def save_dialog() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title("Save this search", margin="0"),
            rx.dialog.description(
                "We check every new lead against it after each daily refresh and tell you (in the app and by "
                "e-mail) when one matches. You can turn either off in your dashboard.",
                size="2", color_scheme="gray", margin_top="0.35rem",
            ),
            rx.form(
                rx.vstack(
                    rx.vstack(
                        rx.text("Filters", size="2", weight="medium"),
                        rx.text(SaveSearchState.save_summary, size="2", color_scheme="gray", id="save-search-summary",
                                class_name="lv-break"),
                        spacing="1",
                        width="100%",
                        padding="0.6rem 0.75rem",
                        border_radius="var(--radius-3)",
                        background="var(--gray-a2)",
                        border="1px solid var(--gray-a5)",
                    ),
                    rx.vstack(
                        rx.el.label("Name", html_for="save-search-name", style=LABEL_STYLE),
                        rx.input(id="save-search-name", name="name", value=SaveSearchState.save_name, on_change=SaveSearchState.set_save_name,
                                 max_length=NAME_MAX_LENGTH, auto_complete="off", auto_focus=True, size="3",
                                 width="100%", disabled=SaveSearchState.saving),
                        spacing="1",
                        width="100%",
                    ),
                    rx.flex(
                        rx.dialog.close(rx.button("Cancel", type="button", variant="soft", color_scheme="gray",
                                                  size="3", disabled=SaveSearchState.saving, id="save-search-cancel")),
                        rx.button(rx.cond(SaveSearchState.saving, rx.spinner(size="2"), rx.icon("bookmark_plus", size=16)),
                                  rx.cond(SaveSearchState.saving, "Saving...", "Save"), type="submit", size="3",
                                  disabled=SaveSearchState.save_disabled, id="save-search-save"),
                        spacing="3",
                        justify="end",
                        width="100%",
                    ),
                    spacing="4",
                    width="100%",
                ),
                on_submit=SaveSearchState.save,
                reset_on_submit=False,
                width="100%",
                margin_top="1.25rem",
            ),
            max_width="30rem",
            id="save-search-dialog",
        ),
        open=SaveSearchState.save_open,
        on_open_change=SaveSearchState.set_save_open,
    )


def save_search_control() -> rx.Component:
    """Signed in: Save search (with its dialog). Visitors: a link to sign in. Nothing while
    the session is being resolved (no button that changes under the cursor)."""
    return rx.box(rx.cond(
        MarketplaceState.auth_loading,
        rx.fragment(),
        rx.cond(
            MarketplaceState.is_authenticated,
            rx.fragment(
                rx.button(
                    rx.icon("bookmark_plus", size=15, aria_hidden="true"),
                    rx.text("Save search", as_="span", class_name=_LABEL_CLASS),
                    on_click=SaveSearchState.open_save(MarketplaceState.shown_query),
                    variant="soft",
                    size="2",
                    id="save-search-button",
                    aria_label="Save search",
                    title="Save search",
                    cursor="pointer",
                ),
                save_dialog(),
            ),
            ui.button_link(rx.text("Sign in to save", as_="span", class_name=_LABEL_CLASS), routes.AUTH,
                           icon="bookmark", icon_first=True, icon_size=15, variant="soft", size="2",
                           id="save-search-signin", aria_label="Sign in to save this search",
                           title="Sign in to save this search and get alerts when new leads match"),
        ),
    ), class_name="lv-save-slot")  # its width is kept while the session resolves: the bar never reflows
