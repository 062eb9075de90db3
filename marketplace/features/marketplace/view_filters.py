"""Marketplace filter bar: lead type, ROI, size, tag, location and price filters in popovers, sort,
results per page, the result count and Clear All Filters, then the chips of the active
filters; on phones a Filters button opening a bottom sheet (SPEC 2, 5). Element ids: see features/marketplace/page.py."""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import kit as ui
from marketplace.platform.ui import styles
from marketplace.features.marketplace import rules as marketplace_rules
from marketplace.platform.texts import LEADS_LOADING
from marketplace.features.unlock import HELD_GROUP_LABEL, SPOTS_GROUP_LABEL
from marketplace.features.marketplace.state import MarketplaceState
from marketplace.features.marketplace.view_location import (
    bar_popover,
    filter_chips,
    location_popover,
    price_popover,
    sheet_fieldsets,
)
from marketplace.features.marketplace.view_save_search import save_search_control

# The controls of the filters with options (marketplace.rules.FILTERS, whose row gives the
# options and the key of the ids): (Filters field, label, short label for the bar, icon).
FILTER_CONTROLS = (
    ("lead_types", "Lead Type", "Lead Type", "house"),
    ("roi_ranges", "ROI", "ROI", "trending_up"),
    ("sizes", "Property Size", "Size", "ruler"),
    ("tags", "Tags", "Tags", "tag"),
    # How many investors hold the lead (unlock.rules_holders): the least-held leads.
    ("held", HELD_GROUP_LABEL, HELD_GROUP_LABEL, "users"),
    # The cap on holders (LEAD_MAX_HOLDERS, unlock.rules_holders): hide sold-out leads.
    ("spots", SPOTS_GROUP_LABEL, SPOTS_GROUP_LABEL, "ticket"),
)
FILTER_GROUPS = tuple((field, label, short, icon, marketplace_rules.FILTER_BY_FIELD[field].options)
                      for field, label, short, icon in FILTER_CONTROLS)



def control_id(prefix: str, group: str, value: str) -> str:
    """'filter-type-Tax-Delinquent': ids without spaces, so CSS selectors work."""
    return f"{prefix}-{marketplace_rules.FILTER_BY_FIELD[group].key}-{value.replace(' ', '-')}"


def _checked(group: str, value: str) -> rx.Var:
    return MarketplaceState.chosen[group].contains(value)


def filter_checkbox(group: str, value: str, label: str, prefix: str) -> rx.Component:
    disabled = (~MarketplaceState.is_authenticated) if (group == "tags" and value == "unlocked") else False
    return rx.checkbox(
        label,
        checked=_checked(group, value),
        on_change=lambda _checked: MarketplaceState.toggle_filter(group, value),
        id=control_id(prefix, group, value),
        disabled=disabled,
        size="2",
        title="Sign in to filter your unlocked leads" if (group == "tags" and value == "unlocked") else None,
    )


def filter_options(group: str, options, prefix: str, columns: str = "1") -> rx.Component:
    return rx.grid(*[filter_checkbox(group, value, label, prefix) for value, label in options], columns=columns,
                   spacing="3")


def filter_popover(group: str, label: str, short: str, icon: str, options) -> rx.Component:
    return bar_popover(marketplace_rules.FILTER_BY_FIELD[group].key, label, short, icon, MarketplaceState.chosen[group].length(),
                       filter_options(group, options, "filter"))


def sort_select() -> rx.Component:
    # Native selects: Radix's Select registers each option with its root as it mounts, which made the
    # page render twice over while a phone's main thread was still hydrating it (issue 41).
    return rx.el.select(
        *[rx.el.option(label, value=value) for value, label in marketplace_rules.SORTS],
        value=MarketplaceState.sort,
        on_change=MarketplaceState.set_sort,
        id="sort-select",
        aria_label="Sort leads",
        style={**styles.NATIVE_SELECT, "width": "auto", "min_width": "150px"},
    )


def page_size_select() -> rx.Component:
    return rx.hstack(
        # rx.text(as_="label") drops html_for: a plain <label> names the select and opens it when clicked.
        rx.el.label("Per page", html_for="page-size-select",
                    style={"font_size": "var(--font-size-2)", "color": "var(--gray-11)", "white_space": "nowrap"}),
        rx.el.select(
            *[rx.el.option(str(n), value=str(n)) for n in marketplace_rules.PAGE_SIZES],
            value=MarketplaceState.page_size_value,
            on_change=MarketplaceState.set_page_size,
            id="page-size-select",
            style={**styles.NATIVE_SELECT, "width": "auto"},
        ),
        spacing="2",
        align="center",
    )


def result_count() -> rx.Component:
    return rx.hstack(
        rx.text(MarketplaceState.result_count_label, size="2", weight="bold", id="result-count", white_space="nowrap",
                class_name="lv-mkt-count"),
        rx.cond(
            MarketplaceState.loading & MarketplaceState.loaded,
            rx.hstack(rx.spinner(size="1"), rx.text(LEADS_LOADING, size="1", color_scheme="gray"),
                      spacing="1", align="center", class_name="lv-mkt-busy"),
        ),
        spacing="2",
        align="center",
        aria_live="polite",
    )


def clear_button(button_id: str, **props) -> rx.Component:
    return rx.button(
        rx.icon("x", size=14, aria_hidden="true"),
        "Clear All Filters",
        on_click=MarketplaceState.clear_filters,
        disabled=MarketplaceState.active_filter_count == 0,
        variant="ghost",
        color_scheme="gray",
        size="2",
        id=button_id,
        cursor="pointer",
        **props,
    )


def mobile_sheet() -> rx.Component:
    """Below 768px: the filters in a bottom sheet behind a "Filters" button."""
    return rx.drawer.root(
        rx.drawer.trigger(
            rx.button(
                rx.icon("sliders_horizontal", size=16, aria_hidden="true"),
                "Filters",
                rx.cond(MarketplaceState.active_filter_count > 0,
                        rx.badge(MarketplaceState.active_filter_count, variant="solid", radius="full", size="1")),
                variant="surface",
                size="2",
                id="mobile-filters-button",
                aria_label="Open filters",
            ),
        ),
        rx.drawer.overlay(z_index="60"),
        rx.drawer.portal(
            rx.drawer.content(
                rx.vstack(
                    rx.box(width="40px", height="4px", border_radius="9999px", background="var(--gray-6)",
                           align_self="center", aria_hidden="true"),
                    rx.hstack(
                        rx.drawer.title(rx.heading("Filters", size="5", as_="h2"), margin="0"),
                        rx.drawer.close(
                            rx.icon_button(rx.icon("x", size=20, aria_hidden="true"), variant="ghost",
                                           color_scheme="gray", size="3", aria_label="Close filters"),
                        ),
                        justify="between",
                        align="center",
                        width="100%",
                    ),
                    rx.drawer.description("Filter, sort and page the leads", class_name="lv-sr-only"),
                    rx.box(
                        rx.vstack(
                            *[rx.el.fieldset(
                                rx.el.legend(rx.text(label, size="2", weight="bold"), margin_bottom="0.6rem"),
                                filter_options(group, options, "sheet-filter",
                                               columns="1" if group == "sizes" else "2"),
                                border="none",
                                padding="0",
                                margin="0",
                            ) for group, label, _short, _icon, options in FILTER_GROUPS],
                            *sheet_fieldsets(),  # Location and Asking price (features/marketplace/view_location.py)
                            rx.el.fieldset(
                                rx.el.legend(rx.text("Sort by", size="2", weight="bold"), margin_bottom="0.6rem"),
                                rx.radio_group.root(
                                    rx.vstack(*[rx.radio_group.item(label, value=value) for value, label in marketplace_rules.SORTS],
                                              spacing="3"),
                                    value=MarketplaceState.sort,
                                    on_change=MarketplaceState.set_sort,
                                    name="sheet-sort",
                                    id="sheet-sort",
                                ),
                                border="none",
                                padding="0",
                                margin="0",
                            ),
                            rx.cond(
                                MarketplaceState.view != "map",
                                rx.el.fieldset(
                                    rx.el.legend(rx.text("Results per page", size="2", weight="bold"),
                                                 margin_bottom="0.6rem"),
                                    rx.segmented_control.root(
                                        *[rx.segmented_control.item(str(n), value=str(n)) for n in marketplace_rules.PAGE_SIZES],
                                        value=MarketplaceState.page_size_value,
                                        on_change=MarketplaceState.set_page_size,
                                        id="sheet-page-size",
                                        aria_label="Results per page",
                                    ),
                                    border="none",
                                    padding="0",
                                    margin="0",
                                ),
                            ),
                            spacing="5",
                            width="100%",
                        ),
                        overflow_y="auto",
                        flex="1",
                        min_height="0",
                        width="100%",
                        padding_bottom="0.5rem",
                    ),
                    rx.hstack(
                        clear_button("sheet-clear-filters"),
                        rx.spacer(),
                        rx.drawer.close(
                            rx.button(f"Show {MarketplaceState.result_count_label}", size="3", id="sheet-show-results"),
                        ),
                        width="100%",
                        align="center",
                        padding_top="0.75rem",
                        border_top="1px solid var(--gray-a4)",
                    ),
                    spacing="4",
                    width="100%",
                    max_height="calc(88dvh - 2.25rem)",
                ),
                class_name="lv-mkt-sheet",
                id="filter-sheet",
                top="auto",
                bottom="0",
                left="0",
                right="0",
                width="100%",
                height="auto",
                max_height="88vh",
                padding="1rem 1.25rem 1.25rem",
                border_top_left_radius="var(--radius-5)",
                border_top_right_radius="var(--radius-5)",
                z_index="61",
            ),
        ),
        direction="bottom",
    )


def filter_bar() -> rx.Component:
    """Filter groups (from 768px) or the Filters button (phones), then the count,
    sort and page size; one result count for both layouts."""
    return rx.box(
        ui.container(
            rx.flex(
                rx.flex(
                    *[filter_popover(*spec) for spec in FILTER_GROUPS],
                    location_popover(),
                    price_popover(),
                    clear_button("clear-filters"),
                    spacing="2",
                    wrap="wrap",
                    align="center",
                    class_name="lv-hide-below-sm",
                ),
                rx.box(mobile_sheet(), class_name="lv-hide-from-sm"),
                save_search_control(),  # features/marketplace/view_save_search.py
                rx.spacer(),
                rx.flex(
                    result_count(),
                    # The map shows every matching lead (the sort picks them when capped): no page size.
                    rx.flex(sort_select(), rx.cond(MarketplaceState.view != "map", page_size_select()), spacing="3",
                            align="center", wrap="wrap",
                            class_name="lv-hide-below-sm"),
                    spacing="3",
                    align="center",
                    wrap="wrap",
                ),
                spacing="3",
                align="center",
                wrap="wrap",
                width="100%",
                padding_y=ui.responsive("0.5rem", sm="0.75rem"),
            ),
            filter_chips(),
        ),
        class_name="lv-mkt-bar",
        id="filter-bar",
        role="search",
        aria_label="Filter leads",
    )
