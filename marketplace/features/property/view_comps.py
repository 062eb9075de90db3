"""/property/{id}: the Comparable Sales card: the step the selection used, the ARV of the
pinned sales with its low-high and basis, a table of one page of sales (stacked rows below 640 px) with
pin/unpin buttons, outliers hidden behind "Show N outliers", the sales on a small map, and where the
sales come from.

Element ids: ``property-comps`` (the card), ``comps-note``, ``comps-arv``, ``comps-arv-range``,
``comps-arv-basis``, ``comps-pinned-count``, ``comps-table`` (rows ``comps-row`` with ``data-id``,
``data-pinned``, ``data-outlier``), ``comps-pin`` (each row's button), ``comps-outliers-toggle``,
``comps-map`` (``data-count``: markers), ``comps-basis``, ``comps-error``, ``comps-empty``, ``comps-pager``.
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import cards, styles
from marketplace.features.marketplace import lead_map
from marketplace.features.property import texts_comps as text
from marketplace.features.property.state_comps import PropertyCompsState

COLUMNS = (("Address", "address"), ("Sale date", "date"), ("Price", "price"), ("$/sqft", "per_sqft"),
           ("Beds / baths / sqft", "facts"), ("Distance", "distance"))
STACKED = {
    "width": "100%",
    "border_collapse": "collapse",
    "font_size": "var(--font-size-2)",
    "& th": {"text_align": "left", "font_weight": "500", "color": "var(--gray-11)", "padding": "0.5rem",
             "border_bottom": styles.ROW_BORDER, "white_space": "nowrap"},
    "& td": {"padding": "0.55rem 0.5rem", "border_bottom": styles.ROW_BORDER, "vertical_align": "middle"},
    "& tr[data-outlier='1'] td": {"background": "var(--amber-a2)"},
    "@media (max-width: 640px)": {
        "& thead": {"display": "none"},
        "& tr": {"display": "block", "border_bottom": styles.ROW_BORDER, "padding": "0.5rem 0"},
        "& td": {"display": "flex", "justify_content": "space-between", "gap": "1rem", "border_bottom": "none",
                 "padding": "0.2rem 0", "text_align": "right"},
        "& td::before": {"content": "attr(data-label)", "color": "var(--gray-11)", "text_align": "left"},
    },
}


def _cell(label: str, value, **props) -> rx.Component:
    return rx.el.td(value, data_label=label, **props)


def _row(row: rx.Var) -> rx.Component:
    pinned = row["pinned"] == "1"
    return rx.el.tr(
        _cell("Address", rx.vstack(
            rx.text(row["address"], weight="medium"),
            rx.hstack(rx.text(row["place"], size="1", color_scheme="gray"),
                      rx.cond(row["outlier"] == "1",
                              rx.badge("Outlier", color_scheme="amber", variant="soft", title=text.OUTLIER_NOTE)),
                      spacing="2", align="center"),
            spacing="0", align="start")),
        *[_cell(label, row[key]) for label, key in COLUMNS[1:]],
        _cell("Pin", rx.button(
            rx.cond(pinned, rx.icon("pin_off", size=14, aria_hidden="true"),
                    rx.icon("pin", size=14, aria_hidden="true")),
            rx.cond(pinned, "Unpin", "Pin"),
            size="1", variant=rx.cond(pinned, "solid", "outline"),
            aria_label=rx.cond(pinned, row["unpin_label"], row["pin_label"]),
            aria_pressed=rx.cond(pinned, "true", "false"),
            on_click=PropertyCompsState.toggle_pin(row["id"]), disabled=PropertyCompsState.comps_busy,
            custom_attrs={"id": "comps-pin"}, class_name="comps-pin")),
        class_name="comps-row", data_id=row["id"], data_pinned=row["pinned"], data_outlier=row["outlier"],
    )


def _table() -> rx.Component:
    return rx.box(
        rx.el.table(
            rx.el.thead(rx.el.tr(*[rx.el.th(label, scope="col") for label, _ in COLUMNS],
                                 rx.el.th(rx.el.span("Pin", class_name="lv-sr-only"), scope="col"))),
            rx.el.tbody(rx.foreach(PropertyCompsState.comps_rows, _row)),
            style=STACKED, id="comps-table",
        ),
        width="100%", overflow_x="auto",
    )


def _arv() -> rx.Component:
    return rx.vstack(
        rx.text("ARV from pinned comps", size="2", color_scheme="gray", weight="medium"),
        rx.text(PropertyCompsState.comps_arv, size=rx.breakpoints(initial="6", sm="7"), weight="bold", id="comps-arv",
                style=styles.NUMBER_STYLE),
        rx.cond(PropertyCompsState.comps_arv_range != "",
                rx.text("Low-high: ", PropertyCompsState.comps_arv_range, size="2", id="comps-arv-range")),
        rx.text(PropertyCompsState.comps_arv_basis, size="1", color_scheme="gray", id="comps-arv-basis"),
        rx.cond(PropertyCompsState.comps_arv_range != "", rx.text(text.ARV_RANGE, size="1", color_scheme="gray")),
        rx.text(PropertyCompsState.comps_pinned, " pinned", size="1", color_scheme="gray", id="comps-pinned-count"),
        spacing="1", padding="0.9rem 1rem", border_radius="var(--radius-4)", width="100%",
        background="var(--color-panel-solid)", border="1px solid var(--gray-a5)",
    )


def _map() -> rx.Component:
    return rx.cond(
        PropertyCompsState.comps_points["ids"].length() > 1,
        rx.el.div(
            lead_map(PropertyCompsState.comps_points, fit_key=PropertyCompsState.comps_page_label + PropertyCompsState.comps_count.to_string(), single=True,
                     open_label="This property", locked_label="Comparable sale", class_name="lv-map lv-map-small"),
            role="group", width="100%", aria_label="Map of this property and the comparable sales in the table",
            custom_attrs={"id": "comps-map"}, data_count=PropertyCompsState.comps_points["ids"].length(),
        ),
    )


def _pager() -> rx.Component:
    return rx.cond(
        PropertyCompsState.comps_pages > 1,
        rx.hstack(
            rx.button("Previous", size="1", variant="soft", on_click=PropertyCompsState.comps_go(-1), disabled=PropertyCompsState.comps_page == 0),
            rx.text(PropertyCompsState.comps_page_label, size="1", color_scheme="gray"),
            rx.button("Next", size="1", variant="soft", on_click=PropertyCompsState.comps_go(1),
                      disabled=PropertyCompsState.comps_page + 1 >= PropertyCompsState.comps_pages),
            spacing="3", align="center", id="comps-pager",
        ),
    )


def _body() -> rx.Component:
    return rx.vstack(
        rx.cond(PropertyCompsState.comps_note != "", rx.callout.root(rx.callout.icon(rx.icon("radar")), rx.callout.text(
            PropertyCompsState.comps_note, id="comps-note"), color_scheme="gray", variant="surface", width="100%")),
        rx.text(text.CRITERIA, size="1", color_scheme="gray"),
        rx.cond(PropertyCompsState.comps_error != "", rx.text(PropertyCompsState.comps_error, size="2", color_scheme="red", id="comps-error")),
        _arv(),
        rx.cond(PropertyCompsState.comps_count > 0, _table(),
                rx.cond(PropertyCompsState.comps_error == "", rx.text(text.NO_SALES, size="2", color_scheme="gray", id="comps-empty"))),
        rx.hstack(
            _pager(),
            rx.spacer(),
            rx.cond(PropertyCompsState.comps_outliers > 0, rx.button(PropertyCompsState.comps_outlier_toggle, size="1", variant="ghost",
                                                    on_click=PropertyCompsState.toggle_outliers, id="comps-outliers-toggle")),
            width="100%", align="center", wrap="wrap",
        ),
        _map(),
        rx.text(PropertyCompsState.comps_basis, size="1", color_scheme="gray", id="comps-basis"),
        spacing="3", width="100%",
    )


def comps_card() -> rx.Component:
    return cards.section_card(
        "scale",
        text.TITLE,
        None,
        rx.cond(PropertyCompsState.comps_status == "shown", _body(),
                rx.text("Loading comparable sales...", size="2", color_scheme="gray", id="comps-loading")),
        heading_as="h2",
        tile_size="36px",
        card_id="property-comps",
    )
