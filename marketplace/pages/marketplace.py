"""/marketplace: browse, filter and unlock leads (SPEC 2, 4, 5, 8, 9).

Layout, top to bottom: the page header (title, refresh countdown, Available
Credits with Buy More Credits, the public-data disclaimer, the low-credit
banner), the sticky filter bar (lead type, ROI, size and tag filters in
popovers, sort, results per page, the result count and Clear All Filters; on
phones a "Filters" button opening a bottom sheet instead), the card grid (1
column on phones, 2 on tablets, 3 from 1024px) and the
pagination.

Element ids used by the tests: ``refresh-countdown``, ``available-credits``,
``buy-more-credits``, ``marketplace-disclaimer``, ``low-credit-banner``,
``filter-bar``, ``filter-group-{group}``, ``filter-{group}-{value}`` (the
sheet uses ``sheet-filter-...``), ``sort-select``, ``page-size-select``,
``result-count``, ``clear-filters``, ``mobile-filters-button``,
``filter-sheet``, ``lead-grid``, ``marketplace-loading``, ``empty-results``,
``sample-notice``, ``pagination``, ``lead-card-{id}`` and the card ids in
``components/lead_card.py``.
"""

from __future__ import annotations

import reflex as rx

from marketplace import routes
from marketplace.components import ui
from marketplace.components.layout import page
from marketplace.components.lead_card import lead_card
from marketplace.core import marketplace as rules
from marketplace.states.marketplace import MarketplaceState as S

COUNTDOWN_INTERVAL_MS = 60_000
DISCLAIMER = (
    "Leads are derived from public records and provided for information only. Nothing on this page is a "
    "solicitation, an offer to buy or sell property, or investment advice. Verify every detail independently."
)
GROUP_IDS = {"lead_types": "type", "roi_ranges": "roi", "sizes": "size", "tags": "tag"}
# (state var, label, short label for the bar, icon, options)
FILTER_GROUPS = (
    ("lead_types", "Lead Type", "Lead Type", "house", tuple((v, v) for v in rules.LEAD_TYPE_OPTIONS)),
    ("roi_ranges", "ROI", "ROI", "trending_up", rules.ROI_BANDS),
    ("sizes", "Property Size", "Size", "ruler", rules.SIZE_BANDS),
    ("tags", "Tags", "Tags", "tag", rules.TAGS),
)
GRID_COLUMNS = {"initial": "1", "sm": "2", "md": "3"}
BAR_TOP = "var(--lv-header-height, 64px)"

# Page-scoped CSS: the sticky bar, the delayed loading hints, the grid dimming.
PAGE_CSS = """
.lv-mkt-bar {
  position: sticky;
  top: var(--lv-header-height, 64px);
  z-index: 30;
  background: color-mix(in srgb, var(--color-background) 88%, transparent);
  backdrop-filter: saturate(180%) blur(12px);
  -webkit-backdrop-filter: saturate(180%) blur(12px);
  border-bottom: 1px solid var(--gray-a4);
}
@keyframes lv-fade-in { from { opacity: 0; } to { opacity: 1; } }
.lv-mkt-busy { animation: lv-fade-in 0.2s ease 0.2s both; }
.lv-mkt-grid[data-loading="true"] { opacity: 0.55; transition: opacity 0.2s ease 0.2s; pointer-events: none; }
/* Cards off screen skip style, layout and paint until they scroll near. */
.lv-mkt-grid > * { content-visibility: auto; contain-intrinsic-size: auto 560px; }
.lv-mkt-page-btn { min-width: 36px; font-variant-numeric: tabular-nums; }
@media (max-width: 767.98px) {
  .lv-mkt-page-btn { min-width: 30px; }
  .lv-mkt-pages { order: -1; flex-basis: 100%; margin-bottom: 0.5rem; }
}
.lv-mkt-countdown { font-variant-numeric: tabular-nums; }
.lv-mkt-header {
  background:
    radial-gradient(50rem 20rem at 90% -20%, var(--accent-a4), transparent 70%),
    linear-gradient(180deg, var(--accent-a2), transparent 85%);
  border-bottom: 1px solid var(--gray-a3);
}
.lv-mkt-sheet { background: var(--color-panel-solid); box-shadow: var(--shadow-6); outline: none; }
"""


# ---------------------------------------------------------------------- header


def countdown_pill() -> rx.Component:
    return rx.badge(
        rx.icon("clock", size=14, aria_hidden="true"),
        rx.cond(S.countdown != "", rx.text(S.countdown, as_="span", id="refresh-countdown"),
                rx.text("Next refresh in: …", as_="span")),
        size="2",
        variant="soft",
        radius="full",
        class_name="lv-eyebrow lv-mkt-countdown",
        title="Leads refresh daily at 8:00 AM Pacific time",
    )


def credits_panel() -> rx.Component:
    """Signed in: Available Credits and Buy More Credits. Visitors: a sign-in prompt."""
    return rx.cond(
        S.is_authenticated,
        rx.card(
            rx.hstack(
                rx.box(ui.icon_tile("coins", "amber"), class_name="lv-hide-below-sm"),
                rx.vstack(
                    rx.text("Available Credits", size="2", color_scheme="gray", weight="medium"),
                    rx.text(S.credits_label, size="6", weight="bold", id="available-credits",
                            style={"letter_spacing": "-0.02em", "line_height": "1.1"}),
                    spacing="0",
                ),
                rx.spacer(),
                ui.button_link("Buy More Credits", routes.PURCHASE_CREDITS, icon="plus", size="2",
                               id="buy-more-credits"),
                spacing="3",
                align="center",
                width="100%",
            ),
            size="2",
            class_name="lv-card",
            width=ui.responsive("100%", md="auto"),
            min_width=ui.responsive("0", md="360px"),
            id="credits-panel",
        ),
        rx.cond(
            ~S.auth_loading,
            rx.card(
                rx.hstack(
                    ui.icon_tile("lock_keyhole"),
                    rx.vstack(
                        rx.text("Addresses are masked", size="2", weight="bold"),
                        rx.text("Sign in to unlock leads with credits.", size="2", color_scheme="gray"),
                        spacing="0",
                    ),
                    rx.spacer(),
                    ui.button_link("Login", routes.AUTH, icon="log_in", size="2", id="marketplace-login"),
                    spacing="3",
                    align="center",
                    width="100%",
                ),
                size="2",
                class_name="lv-card",
                width=ui.responsive("100%", md="auto"),
                min_width=ui.responsive("0", md="360px"),
            ),
        ),
    )


def low_credit_banner() -> rx.Component:
    return rx.cond(
        S.low_credits,
        rx.callout.root(
            rx.callout.icon(rx.icon("triangle_alert", size=18)),
            rx.flex(
                rx.callout.text(
                    rx.text.strong("You're running low on credits. "),
                    f"You have {S.credits_label} credits left; most leads cost 30 to 150 credits to unlock.",
                ),
                ui.button_link("Buy Credits", routes.PURCHASE_CREDITS, size="1", color_scheme="amber",
                               id="low-credit-buy", flex_shrink="0"),
                direction={"initial": "column", "sm": "row"},
                justify="between",
                align={"initial": "start", "sm": "center"},
                spacing="3",
                width="100%",
            ),
            color_scheme="amber",
            variant="surface",
            id="low-credit-banner",
            role="status",
            width="100%",
        ),
    )


def page_header() -> rx.Component:
    return rx.el.section(
        ui.container(
            rx.flex(
                rx.vstack(
                    countdown_pill(),
                    rx.heading("Lead Marketplace", as_="h1", size={"initial": "7", "md": "8"}, weight="bold",
                               class_name="lv-balance"),
                    rx.text(
                        "Off-market probate, pre-foreclosure, auction and distressed leads with the ROI math done. "
                        "Addresses stay masked until you unlock a lead.",
                        size={"initial": "3", "md": "4"}, color_scheme="gray", max_width="40rem",
                    ),
                    spacing="3",
                    min_width="0",
                ),
                credits_panel(),
                direction={"initial": "column", "md": "row"},
                justify="between",
                align={"initial": "stretch", "md": "end"},
                spacing="5",
            ),
            rx.hstack(
                rx.icon("shield_check", size=14, color="var(--gray-9)", flex_shrink="0", aria_hidden="true",
                        margin_top="3px"),
                rx.text(DISCLAIMER, size="1", color_scheme="gray", id="marketplace-disclaimer"),
                spacing="2",
                align="start",
                margin_top="1.25rem",
            ),
            rx.box(low_credit_banner(), margin_top="1rem", width="100%"),
        ),
        class_name="lv-mkt-header",
        padding_top=ui.responsive("2rem", md="3rem"),
        padding_bottom=ui.responsive("1.5rem", md="2rem"),
    )


# ------------------------------------------------------------------- filters


def control_id(prefix: str, group: str, value: str) -> str:
    """'filter-type-Tax-Delinquent': ids without spaces, so CSS selectors work."""
    return f"{prefix}-{GROUP_IDS[group]}-{value.replace(' ', '-')}"


def _checked(group: str, value: str) -> rx.Var:
    return getattr(S, group).contains(value)


def filter_checkbox(group: str, value: str, label: str, prefix: str) -> rx.Component:
    disabled = (~S.is_authenticated) if (group == "tags" and value == "unlocked") else False
    return rx.checkbox(
        label,
        checked=_checked(group, value),
        on_change=lambda _checked: S.toggle_filter(group, value),
        id=control_id(prefix, group, value),
        disabled=disabled,
        size="2",
        title="Sign in to filter your unlocked leads" if (group == "tags" and value == "unlocked") else None,
    )


def filter_options(group: str, options, prefix: str, columns: str = "1") -> rx.Component:
    return rx.grid(*[filter_checkbox(group, value, label, prefix) for value, label in options], columns=columns,
                   spacing="3")


def filter_popover(group: str, label: str, short: str, icon: str, options) -> rx.Component:
    count = getattr(S, group).length()
    return rx.popover.root(
        rx.popover.trigger(
            rx.button(
                rx.icon(icon, size=14, aria_hidden="true"),
                short,
                rx.cond(count > 0, rx.badge(count, variant="solid", radius="full", size="1")),
                rx.icon("chevron_down", size=14, aria_hidden="true"),
                variant=rx.cond(count > 0, "soft", "surface"),
                color_scheme=rx.cond(count > 0, "indigo", "gray"),
                size="2",
                id=f"filter-group-{GROUP_IDS[group]}",
                aria_label=f"{label} filters",
                cursor="pointer",
            ),
        ),
        rx.popover.content(
            rx.vstack(
                rx.text(label, size="1", weight="bold", color_scheme="gray", class_name="lv-eyebrow",
                        text_transform="uppercase"),
                filter_options(group, options, "filter"),
                spacing="3",
            ),
            align="start",
            min_width="220px",
            aria_label=f"{label} filters",
        ),
    )


def sort_select() -> rx.Component:
    return rx.select.root(
        rx.select.trigger(id="sort-select", aria_label="Sort leads", variant="surface", min_width="150px"),
        rx.select.content(*[rx.select.item(label, value=value) for value, label in rules.SORTS], position="popper"),
        value=S.sort,
        on_change=S.set_sort,
        size="2",
    )


def page_size_select() -> rx.Component:
    return rx.hstack(
        rx.text("Per page", size="2", color_scheme="gray", as_="label", html_for="page-size-select",
                white_space="nowrap"),
        rx.select.root(
            rx.select.trigger(id="page-size-select", aria_label="Results per page", variant="surface"),
            rx.select.content(*[rx.select.item(str(n), value=str(n)) for n in rules.PAGE_SIZES],
                              position="popper"),
            value=S.page_size_value,
            on_change=S.set_page_size,
            size="2",
        ),
        spacing="2",
        align="center",
    )


def result_count() -> rx.Component:
    return rx.hstack(
        rx.text(S.result_count_label, size="2", weight="bold", id="result-count", white_space="nowrap"),
        rx.cond(
            S.loading & S.loaded,
            rx.hstack(rx.spinner(size="1"), rx.text("Loading fresh leads...", size="1", color_scheme="gray"),
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
        on_click=S.clear_filters,
        disabled=S.active_filter_count == 0,
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
                rx.cond(S.active_filter_count > 0,
                        rx.badge(S.active_filter_count, variant="solid", radius="full", size="1")),
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
                            rx.el.fieldset(
                                rx.el.legend(rx.text("Sort by", size="2", weight="bold"), margin_bottom="0.6rem"),
                                rx.radio_group.root(
                                    rx.vstack(*[rx.radio_group.item(label, value=value) for value, label in rules.SORTS],
                                              spacing="3"),
                                    value=S.sort,
                                    on_change=S.set_sort,
                                    name="sheet-sort",
                                    id="sheet-sort",
                                ),
                                border="none",
                                padding="0",
                                margin="0",
                            ),
                            rx.el.fieldset(
                                rx.el.legend(rx.text("Results per page", size="2", weight="bold"),
                                             margin_bottom="0.6rem"),
                                rx.segmented_control.root(
                                    *[rx.segmented_control.item(str(n), value=str(n)) for n in rules.PAGE_SIZES],
                                    value=S.page_size_value,
                                    on_change=S.set_page_size,
                                    id="sheet-page-size",
                                    aria_label="Results per page",
                                ),
                                border="none",
                                padding="0",
                                margin="0",
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
                            rx.button(f"Show {S.result_count_label}", size="3", id="sheet-show-results"),
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
                    clear_button("clear-filters"),
                    spacing="2",
                    wrap="wrap",
                    align="center",
                    class_name="lv-hide-below-sm",
                ),
                rx.box(mobile_sheet(), class_name="lv-hide-from-sm"),
                rx.spacer(),
                rx.flex(
                    result_count(),
                    rx.flex(sort_select(), page_size_select(), spacing="3", align="center", wrap="wrap",
                            class_name="lv-hide-below-sm"),
                    spacing="3",
                    align="center",
                    wrap="wrap",
                ),
                spacing="3",
                align="center",
                wrap="wrap",
                width="100%",
            ),
            padding_y="0.75rem",
        ),
        class_name="lv-mkt-bar",
        id="filter-bar",
        role="search",
        aria_label="Filter leads",
    )


# ------------------------------------------------------------------- results


def loading_block() -> rx.Component:
    skeleton_card = rx.card(
        rx.vstack(
            rx.skeleton(height="176px", width="100%"),
            rx.skeleton(height="20px", width="70%"),
            rx.skeleton(height="14px", width="45%"),
            rx.skeleton(height="96px", width="100%"),
            rx.skeleton(height="40px", width="100%"),
            spacing="3",
        ),
        size="2",
        class_name="lv-card",
    )
    return rx.vstack(
        rx.hstack(rx.spinner(size="3"), rx.text("Loading fresh leads...", size="3", weight="medium"),
                  spacing="3", align="center", id="marketplace-loading", role="status"),
        rx.grid(*[skeleton_card for _ in range(3)], columns=GRID_COLUMNS, spacing="5", width="100%",
                aria_hidden="true"),
        spacing="5",
        width="100%",
    )


def empty_results() -> rx.Component:
    return rx.center(
        rx.vstack(
            rx.center(rx.icon("search_x", size=26, aria_hidden="true"), width="56px", height="56px",
                      border_radius="14px", background="var(--gray-3)", color="var(--gray-11)"),
            rx.heading("No leads match your filters", as_="h2", size="5", weight="bold", text_align="center"),
            rx.text("Try removing a filter or widening the ROI and size ranges.", size="2", color_scheme="gray",
                    text_align="center", max_width="26rem"),
            rx.button(rx.icon("x", size=16, aria_hidden="true"), "Clear All Filters", on_click=S.clear_filters,
                      size="3", id="empty-clear-filters", cursor="pointer"),
            spacing="3",
            align="center",
        ),
        id="empty-results",
        padding_y="4rem",
        padding_x="1rem",
        width="100%",
        border="1px dashed var(--gray-6)",
        border_radius="var(--radius-5)",
        background="var(--color-panel-translucent)",
    )


def sample_notice() -> rx.Component:
    return rx.callout.root(
        rx.callout.icon(rx.cond(S.load_failed, rx.icon("cloud_off", size=18), rx.icon("flask_conical", size=18))),
        rx.flex(
            rx.callout.text(
                rx.cond(
                    S.load_failed,
                    rx.fragment(rx.text.strong("We couldn't load the marketplace right now. "),
                                "Meanwhile, here are two sample leads that show what every lead includes."),
                    rx.fragment(rx.text.strong("Sample leads. "),
                                "There are no live leads at the moment; fresh leads arrive every morning at "
                                "8:00 AM Pacific. These two samples show what every lead includes."),
                ),
            ),
            rx.cond(S.load_failed,
                    rx.button(rx.icon("rotate_cw", size=14, aria_hidden="true"), "Try Again", on_click=S.retry,
                              size="1", variant="soft", id="marketplace-retry", flex_shrink="0")),
            direction={"initial": "column", "sm": "row"},
            justify="between",
            align={"initial": "start", "sm": "center"},
            spacing="3",
            width="100%",
        ),
        color_scheme=rx.cond(S.load_failed, "red", "amber"),
        variant="surface",
        id="sample-notice",
        width="100%",
    )


def lead_grid() -> rx.Component:
    return rx.grid(
        rx.foreach(S.cards, lambda card: lead_card(card=card, busy=S.unlocking_id == card.id)),
        columns=GRID_COLUMNS,
        spacing="5",
        width="100%",
        id="lead-grid",
        class_name="lv-mkt-grid",
        data_query=S.shown_query,
        data_loading=rx.cond(S.loading, "true", "false"),
        aria_busy=S.loading,
    )


def page_button(number: rx.Var) -> rx.Component:
    current = number == S.page
    return rx.cond(
        number == 0,
        rx.text("…", size="2", color_scheme="gray", aria_hidden="true", padding_x="0.35rem"),
        rx.button(
            number,
            on_click=S.go_to_page(number),
            variant=rx.cond(current, "solid", "soft"),
            color_scheme=rx.cond(current, "indigo", "gray"),
            size={"initial": "1", "sm": "2"},
            aria_label=f"Page {number}",
            aria_current=rx.cond(current, "page", "false"),
            class_name="lv-mkt-page-btn",
            cursor="pointer",
        ),
    )


def pagination() -> rx.Component:
    """Previous, the page window, Next; on phones the numbers take the first row."""
    step = {"variant": "soft", "color_scheme": "gray", "size": "2", "cursor": "pointer"}
    return rx.cond(
        (S.pages > 1) & ~S.showing_samples,
        rx.el.nav(
            rx.flex(
                rx.button(rx.icon("chevron_left", size=16, aria_hidden="true"), "Previous",
                          on_click=S.go_to_page(S.page - 1), disabled=S.page <= 1, aria_label="Previous page",
                          **step),
                rx.flex(rx.foreach(S.page_window, page_button), spacing="1", align="center", justify="center",
                        id="pagination-pages", class_name="lv-mkt-pages"),
                rx.button("Next", rx.icon("chevron_right", size=16, aria_hidden="true"),
                          on_click=S.go_to_page(S.page + 1), disabled=S.page >= S.pages, aria_label="Next page",
                          **step),
                spacing="2",
                align="center",
                justify="center",
                wrap="wrap",
                width="100%",
            ),
            rx.text(S.range_label, size="1", color_scheme="gray", text_align="center", margin_top="0.75rem",
                    id="range-label", as_="p"),
            aria_label="Pagination",
            id="pagination",
            margin_top="2.5rem",
            width="100%",
        ),
    )


def results() -> rx.Component:
    return rx.el.section(
        ui.container(
            rx.cond(
                ~S.loaded,
                loading_block(),
                rx.vstack(
                    rx.cond(S.showing_samples, sample_notice()),
                    rx.cond(
                        (S.total == 0) & ~S.showing_samples,
                        empty_results(),
                        lead_grid(),
                    ),
                    pagination(),
                    spacing="5",
                    width="100%",
                ),
            ),
        ),
        id="lead-results",
        aria_label="Leads",
        padding_top=ui.responsive("1.5rem", md="2rem"),
        padding_bottom=ui.responsive("3.5rem", md="5rem"),
        style={"scroll_margin_top": "calc(var(--lv-header-height, 64px) + 72px)"},
    )


@page(route=routes.MARKETPLACE, title="Lead Marketplace", on_load=[S.load])
def marketplace() -> rx.Component:
    return rx.fragment(
        rx.el.style(PAGE_CSS),
        page_header(),
        filter_bar(),
        results(),
        # Hidden ticker: recomputes 'Next refresh in' every 60 seconds.
        rx.moment(interval=COUNTDOWN_INTERVAL_MS, on_change=S.tick, display="none", aria_hidden="true"),
    )
