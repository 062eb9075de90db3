"""The property page's 'Public record' card and the basis lines under its values.

Shown only for a lead made from public records (``PropertyState.pr_shown``), which the page loads only
for a user who unlocked it: every current signal with its dataset, record key, as-of date, retrieval time
and a link to the record on the public portal; the history (closed, held or stale signals) with their event
dates; the owner of record, the mailing address and the absentee / out-of-state flags; the motivation
score with its reasons; the parcel facts. Element ids: ``property-public-record``, ``record-signal`` rows
(``record-link`` links),
``record-closed``, ``record-owner``, ``record-mailing``, ``record-flags``, ``record-motivation``,
``record-reasons``, ``record-facts``, ``record-sales`` (``record-sale`` rows: the parcel's recorded
sales), ``record-comps`` (``record-comp`` rows: comparable recorded sales of the market, each with its
basis), ``record-datasets`` (every dataset that mentions the parcel: a
``record-dataset`` row each, ``record-dataset-link`` links), ``property-roi-basis``, ``property-confidence-basis``.
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import cards
from marketplace.features.property.state import PropertyState


def _chip(label, color: str) -> rx.Component:
    return rx.badge(label, color_scheme=color, variant="soft", radius="full", size="2")


def _row(label: str, value, value_id: str) -> rx.Component:
    return rx.hstack(
        rx.text(label, size="2", color_scheme="gray", flex_shrink="0"),
        rx.spacer(),
        rx.text(value, size="2", weight="medium", align="right", id=value_id),
        width="100%",
        spacing="3",
    )


def _signal(signal) -> rx.Component:
    return rx.vstack(
        rx.hstack(_chip(signal["label"], "tomato"), rx.text(signal["source"], size="1", color_scheme="gray"),
                  spacing="2", align="center", wrap="wrap"),
        rx.text("Record ", rx.el.strong(signal["record"]), " · as of ", signal["as_of"], " · retrieved ",
                signal["retrieved"], size="1", as_="p"),
        rx.cond(signal["listed"] != "", rx.text(signal["listed"], size="1", color_scheme="gray", as_="p",
                                                class_name="record-listed")),
        rx.cond(
            signal["url"] != "",
            rx.link("View the public record", rx.icon("arrow_up_right", size=12, aria_hidden="true"),
                    rx.el.span(" (opens in a new tab)", class_name="lv-sr-only"),
                    href=signal["url"], is_external=True, size="1", class_name="record-link",
                    style={"display": "inline-flex", "align_items": "center", "gap": "4px"}),
            rx.text("The portal has no page for this record", size="1", color_scheme="gray"),
        ),
        spacing="1",
        width="100%",
        padding_y="0.5rem",
        border_bottom="1px solid var(--gray-a4)",
        class_name="record-signal",
    )


def _mention(row) -> rx.Component:
    """One record of a dataset that mentions the parcel; the dataset's title heads its first record."""
    return rx.el.li(
        rx.cond(row["title"] != "", rx.vstack(
            rx.text(row["title"], size="2", weight="medium", as_="p"),
            rx.text(row["publisher"], size="1", color_scheme="gray", as_="p"),
            spacing="0", padding_top="0.5rem", width="100%")),
        rx.hstack(
            rx.text(row["what"], size="1", weight="medium", as_="span"),
            rx.cond(row["record"] != "", rx.text(row["record"], size="1", as_="span")),
            rx.cond(row["date"] != "", rx.text(row["date"], size="1", color_scheme="gray", as_="span")),
            rx.cond(row["url"] != "", rx.link(
                row["link"], rx.icon("arrow_up_right", size=12, aria_hidden="true"),
                rx.el.span(" (opens in a new tab)", class_name="lv-sr-only"),
                href=row["url"], is_external=True, size="1", class_name="record-dataset-link",
                style={"display": "inline-flex", "align_items": "center", "gap": "4px"})),
            wrap="wrap", align="center", padding_left="0.75rem", width="100%",
            style={"column_gap": "var(--space-2)", "row_gap": "2px"},
        ),
        class_name="record-dataset",
        style={"list_style": "none", "width": "100%", "overflow_wrap": "anywhere", "padding_bottom": "0.4rem"},
    )


def _datasets() -> rx.Component:
    return rx.cond(PropertyState.pr_datasets.length() > 0, rx.vstack(
        rx.text("Datasets that mention this parcel", size="2", weight="medium", id="record-datasets-heading"),
        rx.el.ul(rx.foreach(PropertyState.pr_datasets, _mention), id="record-datasets", aria_labelledby="record-datasets-heading",
                 style={"margin": "0", "padding": "0", "width": "100%"}),
        spacing="1", width="100%"))


def _bullets(items, list_id: str) -> rx.Component:
    return rx.el.ul(rx.foreach(items, lambda item: rx.el.li(rx.text(item, size="1"))), id=list_id,
                    style={"margin": "0", "padding_left": "1.1rem"})


def _sale(sale, row_class: str) -> rx.Component:
    """One recorded sale: '$45,000 · Apr 7, 2017 · Warranty', the note when not arm's length, its basis."""
    address = rx.text(sale["address"], size="2", weight="medium") if row_class == "record-comp" else rx.fragment()
    return rx.vstack(
        address,
        rx.text(rx.el.strong(sale["price"]), " · ", sale["date"],
                rx.cond(sale["deed"] != "", rx.fragment(" · ", sale["deed"])), size="2", as_="p"),
        rx.cond(sale["note"] != "", rx.text(sale["note"], size="1", color_scheme="amber")),
        rx.text(sale["basis"], size="1", color_scheme="gray"),
        spacing="0", width="100%", padding_y="0.35rem", border_bottom="1px solid var(--gray-a4)",
        class_name=row_class,
    )


def _sales(title: str, items, row_class: str, list_id: str) -> rx.Component:
    return rx.cond(items.length() > 0, rx.vstack(
        rx.text(title, size="2", weight="medium"),
        rx.vstack(rx.foreach(items, lambda sale: _sale(sale, row_class)), spacing="0", width="100%", id=list_id),
        spacing="1", width="100%"))


def record_card() -> rx.Component:
    return rx.cond(PropertyState.pr_shown, cards.section_card(
        "landmark",
        "Public record",
        None,
        rx.vstack(rx.foreach(PropertyState.pr_signals, _signal), spacing="0", width="100%", id="record-signals"),
        rx.cond(PropertyState.pr_closed.length() > 0, rx.vstack(
            rx.text("History", size="2", weight="medium"),
            _bullets(PropertyState.pr_closed, "record-closed"), spacing="1", width="100%")),
        _datasets(),
        rx.vstack(
            _row("Owner of record", PropertyState.pr_owner["name"], "record-owner"),
            _row("Mailing address", PropertyState.pr_owner["mailing"], "record-mailing"),
            rx.hstack(rx.foreach(PropertyState.pr_flags, lambda flag: _chip(flag, "blue")), spacing="2", wrap="wrap",
                      id="record-flags"),
            rx.foreach(PropertyState.pr_facts, lambda fact: _row(fact["label"], fact["value"], "record-fact")),
            spacing="2",
            width="100%",
            id="record-facts",
        ),
        _sales("Recorded sales of this parcel", PropertyState.pr_sales, "record-sale", "record-sales"),
        _sales("Comparable recorded sales", PropertyState.pr_comps, "record-comp", "record-comps"),
        rx.vstack(
            _row("Motivation score", PropertyState.pr_motivation, "record-motivation"),
            _bullets(PropertyState.pr_reasons, "record-reasons"),
            spacing="1",
            width="100%",
        ),
        heading_as="h2",
        tile_size="36px",
        card_id="property-public-record",
    ))


def roi_basis() -> rx.Component:
    """What the ROI is computed against (a public record has no asking price), when the lead says."""
    return rx.cond(PropertyState.hints["roi_basis"] != "",
                   rx.text(PropertyState.hints["roi_label"], ": ", PropertyState.hints["roi_basis"], size="1", color_scheme="gray",
                           id="property-roi-basis"))


def confidence_basis() -> rx.Component:
    """The deductions that make the confidence score (public-record leads)."""
    return rx.cond(PropertyState.pr_confidence_reasons.length() > 0, _bullets(PropertyState.pr_confidence_reasons,
                                                                  "property-confidence-basis"))
