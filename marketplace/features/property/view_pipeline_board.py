"""Dashboard tab Pipeline: filters, the CSV export and a board with a column per stage.

A card moves by drag and drop (HTML5: the card is ``draggable``, puts its lead id in the drag data, and the
column's ``onDrop`` sends ``PipelineState.drop_card(lead id, column stage)``) or, from the keyboard and on
phones, by its "Move to" select. Moving to Dead opens a dialog that asks for the reason.

Element ids: ``pipeline`` (the tab's content), ``pipeline-summary``, ``pipeline-export``,
``pipeline-filter-type``, ``pipeline-filter-state``, ``pipeline-filter-follow-up``, ``pipeline-city``,
``pipeline-search``, ``pipeline-search-submit``, ``pipeline-clear``, ``pipeline-board``,
``pipeline-column-{stage}`` (``data-stage``) with ``pipeline-count-{stage}`` and
``pipeline-more-{stage}``, ``pipeline-card-{lead id}`` (``data-lead-id``, ``data-stage``) with
``pipeline-move-{lead id}``; the dialog ``pipeline-dead-dialog`` (``pipeline-dead-reason``,
``pipeline-dead-submit``); ``pipeline-error``.
"""

from __future__ import annotations

import reflex as rx
from reflex.vars.base import Var
from reflex.vars.object import ObjectVar

from marketplace.platform.ui import cards, styles
from marketplace.features.marketplace import STATE_OPTIONS
from marketplace.platform.leads import LEAD_TYPES
from marketplace.platform.limits import PIPELINE_REASON_MAX_LENGTH, PIPELINE_SEARCH_MAX_LENGTH
from marketplace.features.property.rules_pipeline import FOLLOW_UP_FILTERS, STAGES
from marketplace.features.property.texts_pipeline import (
    PIPELINE_CSV_HINT,
    PIPELINE_DEAD_DIALOG_TEXT,
    PIPELINE_DEAD_DIALOG_TITLE,
    PIPELINE_EMPTY_COLUMN,
)
from marketplace.features.property.state_pipeline_board import PipelineState as P

LABEL_STYLE = {"font_size": "var(--font-size-1)", "font_weight": "500", "color": "var(--gray-11)"}

# The card puts its lead id in the drag data; a column marks itself while a card is over it.
_DRAG_START = Var(_js_expr=(
    "((e) => { e.dataTransfer.setData('text/plain', e.currentTarget.dataset.leadId);"
    " e.dataTransfer.effectAllowed = 'move'; })"))
_DRAG_OVER = Var(_js_expr="((e) => { e.preventDefault(); e.dataTransfer.dropEffect = 'move';"
                          " e.currentTarget.dataset.over = '1'; })")
_DRAG_LEAVE = Var(_js_expr="((e) => { if (!e.currentTarget.contains(e.relatedTarget))"
                           " delete e.currentTarget.dataset.over; })")
_DROP_CAPTURE = Var(_js_expr="((e) => { delete e.currentTarget.dataset.over; })")


def _drop_spec(e: ObjectVar) -> tuple[Var[str], Var[str]]:
    """What a drop sends: the dragged card's lead id and the column's stage."""
    return (Var(_js_expr=f"{e}.dataTransfer.getData('text/plain')", _var_type=str),
            Var(_js_expr=f"{e}.currentTarget.dataset.stage", _var_type=str))


class DropColumn(rx.el.Section):
    """A board column that takes dropped cards."""

    on_drop: rx.EventHandler[_drop_spec]


def _label(text: str, html_for: str) -> rx.Component:
    return rx.el.label(text, html_for=html_for, style=LABEL_STYLE)


def _select(label: str, element_id: str, value, name: str, options: list[tuple[str, str]]) -> rx.Component:
    return rx.vstack(
        _label(label, element_id),
        rx.el.select(
            *[rx.el.option(text, value=key) for key, text in options],
            value=value,
            on_change=lambda v: P.set_filter(name, v),
            id=element_id,
            style=styles.NATIVE_SELECT,
        ),
        spacing="1",
        width="100%",
        min_width="0",
    )


def filters_bar() -> rx.Component:
    return rx.vstack(
        rx.grid(
            _select("Lead type", "pipeline-filter-type", P.filter_type, "type",
                    [("", "All lead types"), *[(t, t) for t in LEAD_TYPES]]),
            _select("State", "pipeline-filter-state", P.filter_state, "state",
                    [("", "All states"), *STATE_OPTIONS]),
            _select("Follow-up", "pipeline-filter-follow-up", P.filter_follow_up, "follow_up",
                    list(FOLLOW_UP_FILTERS)),
            columns=rx.breakpoints(initial="1", sm="3"),
            spacing="3",
            width="100%",
        ),
        rx.form(
            rx.flex(
                rx.vstack(_label("City", "pipeline-city"),
                          rx.input(name="city", id="pipeline-city", default_value=P.filter_city, max_length=100,
                                   placeholder="Any city", size="2", width="100%", auto_complete="off"),
                          spacing="1", width="100%", min_width="0"),
                rx.vstack(_label("Address", "pipeline-search"),
                          rx.input(name="q", id="pipeline-search", default_value=P.filter_q,
                                   max_length=PIPELINE_SEARCH_MAX_LENGTH, placeholder="Search addresses", size="2",
                                   width="100%", auto_complete="off", type="search"),
                          spacing="1", width="100%", min_width="0"),
                rx.hstack(
                    rx.button(rx.icon("search", size=14, aria_hidden="true"), "Search", type="submit", size="2",
                              id="pipeline-search-submit"),
                    rx.cond(P.filters_active,
                            rx.button("Clear filters", type="button", variant="soft", color_scheme="gray", size="2",
                                      on_click=P.clear_filters, id="pipeline-clear")),
                    spacing="2",
                    align="end",
                ),
                direction=rx.breakpoints(initial="column", sm="row"),
                spacing="3",
                align=rx.breakpoints(initial="stretch", sm="end"),
                width="100%",
            ),
            on_submit=P.search,
            reset_on_submit=False,
            width="100%",
        ),
        spacing="3",
        width="100%",
    )


def _due_badge(card) -> rx.Component:
    return rx.match(
        card.due,
        ("overdue", rx.badge("Overdue", color_scheme="red", variant="soft", size="1")),
        ("today", rx.badge("Due today", color_scheme="amber", variant="soft", size="1")),
        rx.fragment(),
    )


def board_card(card) -> rx.Component:
    move_id = "pipeline-move-" + card.lead_id
    return rx.box(
        rx.vstack(
            rx.link(card.address, href=card.href, weight="bold", size="2", class_name="lv-break",
                    color="var(--gray-12)"),
            rx.text(card.place, size="1", color_scheme="gray", class_name="lv-break"),
            rx.flex(
                rx.badge(card.lead_type, variant="surface", color_scheme="gray", size="1"),
                _due_badge(card),
                spacing="1",
                wrap="wrap",
            ),
            rx.cond(card.follow_up != "", rx.text(card.follow_up, size="1", color="var(--gray-11)")),
            rx.cond(card.offer != "", rx.text(card.offer, size="1", weight="medium")),
            rx.cond(card.dead_reason != "", rx.text("Reason: ", card.dead_reason, size="1", color="var(--gray-11)",
                                                    class_name="lv-break")),
            rx.el.select(
                *[rx.el.option(label, value=key) for key, label in STAGES],
                value=card.stage,
                on_change=lambda stage: P.move(card.lead_id, stage),
                id=move_id,
                aria_label="Move " + card.address + " to stage",
                title="Move to",
                disabled=P.moving,
                style={**styles.NATIVE_SELECT, "height": "var(--space-5)", "font_size": "var(--font-size-1)"},
            ),
            spacing="1",
            width="100%",
        ),
        id="pipeline-card-" + card.lead_id,
        draggable=True,
        data_lead_id=card.lead_id,
        data_stage=card.stage,
        custom_attrs={"onDragStart": _DRAG_START},
        class_name="lv-pipeline-card",
        padding="0.6rem 0.7rem",
        border=styles.PANEL_BORDER,
        border_radius="var(--radius-3)",
        background="var(--color-panel-solid)",
        cursor="grab",
        width="100%",
    )


def board_column(column) -> rx.Component:
    heading_id = "pipeline-heading-" + column.stage
    return DropColumn.create(
        rx.hstack(
            rx.heading(column.label, as_="h3", size="2", weight="bold", id=heading_id),
            rx.badge(column.count_label, variant="soft", radius="full", size="1",
                     id="pipeline-count-" + column.stage, aria_label=column.count_label + " leads"),
            justify="between",
            align="center",
            width="100%",
        ),
        rx.cond(
            column.cards.length() > 0,
            rx.vstack(rx.foreach(column.cards, board_card), spacing="2", width="100%"),
            rx.text(PIPELINE_EMPTY_COLUMN, size="1", color_scheme="gray", padding_y="0.75rem"),
        ),
        rx.cond(
            column.has_more,
            rx.button("Show more", on_click=P.show_more(column.stage), variant="ghost", size="1", width="100%",
                      id="pipeline-more-" + column.stage, aria_label="Show more in " + column.label),
        ),
        on_drop=P.drop_card.prevent_default,
        custom_attrs={"onDragOver": _DRAG_OVER, "onDragLeave": _DRAG_LEAVE, "onDropCapture": _DROP_CAPTURE},
        data_stage=column.stage,
        id="pipeline-column-" + column.stage,
        aria_labelledby=heading_id,
        class_name="lv-pipeline-column",
    )


def dead_dialog() -> rx.Component:
    return rx.dialog.root(
        rx.dialog.content(
            rx.dialog.title(PIPELINE_DEAD_DIALOG_TITLE),
            rx.dialog.description(PIPELINE_DEAD_DIALOG_TEXT, size="2", color_scheme="gray"),
            rx.form(
                rx.vstack(
                    rx.text(P.dead_address, size="2", weight="medium", class_name="lv-break"),
                    rx.el.label("Reason", html_for="pipeline-dead-reason", style=LABEL_STYLE),
                    rx.input(name="reason", id="pipeline-dead-reason", max_length=PIPELINE_REASON_MAX_LENGTH,
                             required=True, auto_focus=True, width="100%", auto_complete="off"),
                    rx.hstack(
                        rx.dialog.close(rx.button("Cancel", type="button", variant="soft", color_scheme="gray")),
                        rx.button(rx.cond(P.dead_saving, "Moving...", "Move to Dead"), type="submit",
                                  color_scheme="red", loading=P.dead_saving, id="pipeline-dead-submit"),
                        justify="end",
                        spacing="3",
                        width="100%",
                    ),
                    spacing="3",
                    width="100%",
                ),
                on_submit=P.confirm_dead,
                reset_on_submit=True,
                padding_top="0.75rem",
            ),
            max_width="min(440px, calc(100vw - 2rem))",
            id="pipeline-dead-dialog",
        ),
        open=P.dead_open,
        on_open_change=P.set_dead_open,
    )


def pipeline_tab() -> rx.Component:
    return rx.vstack(
        rx.heading("Pipeline", as_="h2", class_name="lv-sr-only"),
        rx.flex(
            rx.vstack(
                rx.text(P.summary, size="2", weight="medium", id="pipeline-summary"),
                rx.text("Drag a card to another column, or use its Move to menu.", size="1", color_scheme="gray"),
                spacing="0",
                min_width="0",
            ),
            rx.button(rx.icon("download", size=15, aria_hidden="true"), "Export CSV", on_click=P.export_csv,
                      variant="outline", size="2", id="pipeline-export", title=PIPELINE_CSV_HINT),
            direction=rx.breakpoints(initial="column", sm="row"),
            justify="between",
            align=rx.breakpoints(initial="start", sm="center"),
            spacing="3",
            width="100%",
        ),
        cards.card(filters_bar()),
        rx.cond(
            P.load_failed,
            rx.callout.root(
                rx.callout.icon(rx.icon("triangle-alert")),
                rx.callout.text("Failed to load your pipeline. ",
                                rx.link("Try again", href="#", on_click=P.load.prevent_default, underline="always")),
                color_scheme="red", variant="surface", width="100%", id="pipeline-error",
            ),
            rx.box(
                rx.foreach(P.columns, board_column),
                id="pipeline-board",
                class_name="lv-pipeline-board",
                data_loading=rx.cond(P.loading, "true", "false"),
                aria_busy=rx.cond(P.loading, "true", "false"),
            ),
        ),
        dead_dialog(),
        spacing="4",
        width="100%",
        id="pipeline",
    )
