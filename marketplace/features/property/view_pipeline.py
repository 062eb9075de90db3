"""The property page's Pipeline card: stage, dead reason, next follow-up, offer, and the
notes with their times (the user's time zone); a form to change the first four and one to add a note.

Element ids: ``property-pipeline`` (the card), ``property-pipeline-stage`` (the current stage),
``property-pipeline-follow-up``, ``property-pipeline-offer``, ``property-pipeline-dead-reason``, the form's
``pipeline-stage-input``, ``pipeline-reason-input``, ``pipeline-follow-up-input``, ``pipeline-offer-input``,
``pipeline-save``; ``pipeline-note-input``, ``pipeline-add-note``, ``property-pipeline-notes``,
``pipeline-note-{id}``.
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import cards, styles
from marketplace.platform.limits import PIPELINE_NOTE_MAX_LENGTH, PIPELINE_REASON_MAX_LENGTH
from marketplace.features.property.rules_pipeline import STAGES
from marketplace.features.property.texts_pipeline import PIPELINE_NO_NOTES
from marketplace.features.property.state import PropertyState
from marketplace.features.property.state_pipeline import PropertyPipelineState

LABEL_STYLE = {"font_size": "var(--font-size-2)", "font_weight": "500"}


def _label(text: str, html_for: str) -> rx.Component:
    return rx.el.label(text, html_for=html_for, style=LABEL_STYLE)


def _fact(label: str, value, value_id: str, extra: rx.Component | None = None) -> rx.Component:
    return rx.vstack(
        rx.text(label, size="1", color_scheme="gray", weight="medium"),
        rx.hstack(rx.text(value, size="3", weight="bold", id=value_id, class_name="lv-break"),
                  extra if extra is not None else rx.fragment(), spacing="2", align="center", wrap="wrap"),
        spacing="1",
        min_width="0",
    )


def _due_badge() -> rx.Component:
    return rx.match(
        PropertyPipelineState.due,
        ("overdue", rx.badge("Overdue", color_scheme="red", variant="soft", size="1")),
        ("today", rx.badge("Due today", color_scheme="amber", variant="soft", size="1")),
        rx.fragment(),
    )


def _field(label: str, element_id: str, control: rx.Component) -> rx.Component:
    return rx.vstack(_label(label, element_id), control, spacing="1", width="100%", min_width="0")


def entry_form() -> rx.Component:
    return rx.form(
        rx.vstack(
            rx.grid(
                _field("Stage", "pipeline-stage-input", rx.el.select(
                    *[rx.el.option(label, value=key) for key, label in STAGES],
                    value=PropertyPipelineState.stage_input, on_change=PropertyPipelineState.set_stage_input, name="stage", id="pipeline-stage-input",
                    style=styles.NATIVE_SELECT)),
                _field("Next follow-up", "pipeline-follow-up-input", rx.input(
                    type="date", name="follow_up", id="pipeline-follow-up-input", default_value=PropertyPipelineState.follow_up_input,
                    key=PropertyState.loaded_for + PropertyPipelineState.follow_up_input, size="2", width="100%")),
                _field("Offer ($)", "pipeline-offer-input", rx.input(
                    name="offer", id="pipeline-offer-input", default_value=PropertyPipelineState.offer_input,
                    key=PropertyState.loaded_for + PropertyPipelineState.offer_input, placeholder="e.g. 180,000", input_mode="numeric",
                    auto_complete="off", size="2", width="100%")),
                columns=rx.breakpoints(initial="1", sm="3"),
                spacing="3",
                width="100%",
            ),
            rx.cond(
                PropertyPipelineState.stage_input == "dead",
                _field("Why is it dead?", "pipeline-reason-input", rx.input(
                    name="reason", id="pipeline-reason-input", default_value=PropertyPipelineState.reason_input,
                    max_length=PIPELINE_REASON_MAX_LENGTH, required=True, size="2", width="100%",
                    auto_complete="off")),
            ),
            rx.hstack(
                rx.button(rx.cond(PropertyPipelineState.saving, "Saving...", "Save"), type="submit", loading=PropertyPipelineState.saving, size="2",
                          id="pipeline-save"),
                rx.text("A closed or dead lead keeps no follow-up date.", size="1", color_scheme="gray"),
                spacing="3",
                align="center",
                wrap="wrap",
            ),
            spacing="3",
            width="100%",
        ),
        on_submit=PropertyPipelineState.save,
        reset_on_submit=False,
        width="100%",
    )


def note_item(note) -> rx.Component:
    return rx.el.li(
        rx.text(note.when, size="1", color_scheme="gray", as_="div"),
        rx.text(note.body, size="2", white_space="pre-wrap", class_name="lv-break"),
        id="pipeline-note-" + note.id,
        style={"padding": "0.5rem 0", "border_bottom": styles.ROW_BORDER},
    )


def notes_section() -> rx.Component:
    return rx.vstack(
        rx.heading("Notes", as_="h3", size="3", weight="bold"),
        rx.form(
            rx.vstack(
                _label("Add a note", "pipeline-note-input"),
                rx.text_area(name="note", id="pipeline-note-input", value=PropertyPipelineState.note_input, on_change=PropertyPipelineState.set_note_input,
                             max_length=PIPELINE_NOTE_MAX_LENGTH, rows="3", width="100%",
                             placeholder="Called the owner, left a message..."),
                rx.button(rx.cond(PropertyPipelineState.note_saving, "Adding...", "Add note"), type="submit", loading=PropertyPipelineState.note_saving,
                          size="2", variant="soft", id="pipeline-add-note"),
                spacing="2",
                width="100%",
            ),
            on_submit=PropertyPipelineState.add_note,
            reset_on_submit=False,
            width="100%",
        ),
        rx.cond(
            PropertyPipelineState.notes.length() > 0,
            rx.el.ul(rx.foreach(PropertyPipelineState.notes, note_item), id="property-pipeline-notes",
                     style={"list_style": "none", "margin": "0", "padding": "0", "width": "100%"}),
            rx.text(PIPELINE_NO_NOTES, size="2", color_scheme="gray", id="property-pipeline-notes-empty"),
        ),
        rx.cond(PropertyPipelineState.notes_more != "", rx.text(PropertyPipelineState.notes_more, size="1", color_scheme="gray")),
        spacing="2",
        width="100%",
    )


def pipeline_card() -> rx.Component:
    return rx.cond(
        PropertyPipelineState.pl_shown,
        cards.section_card(
            "kanban",
            "Pipeline",
            rx.hstack(rx.text(PropertyPipelineState.updated), rx.link("Open the board", href=routes.pipeline_url(), underline="always"),
                      spacing="2", wrap="wrap"),
            rx.grid(
                _fact("Stage", PropertyPipelineState.stage_label, "property-pipeline-stage"),
                _fact("Next follow-up", PropertyPipelineState.follow_up_label, "property-pipeline-follow-up", _due_badge()),
                _fact("Offer", PropertyPipelineState.offer_label, "property-pipeline-offer"),
                columns=rx.breakpoints(initial="1", sm="3"),
                spacing="3",
                width="100%",
            ),
            rx.cond(PropertyPipelineState.dead_reason != "", rx.text("Dead: ", PropertyPipelineState.dead_reason, size="2", id="property-pipeline-dead-reason",
                                                 class_name="lv-break")),
            entry_form(),
            rx.separator(size="4"),
            notes_section(),
            heading_as="h2",
            tile_size="36px",
            card_id="property-pipeline",
        ),
    )
