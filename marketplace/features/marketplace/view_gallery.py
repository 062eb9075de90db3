"""/marketplace's View Images dialog (SPEC 2: the primary picture plus up to 3
more): one dialog for the whole page, opened by a card's View Images button
with that card's id (``MarketplaceState.open_gallery``) and filled from
``MarketplaceState.gallery``. Nothing of it is rendered while it is closed.

Element ids: ``lead-images-dialog-{id}`` (the open dialog's content, by the
card it shows).
"""

from __future__ import annotations

import reflex as rx
from reflex.vars.base import Var

from marketplace.platform.ui.gallery import dialog_header, photo, photo_frame
from marketplace.features.marketplace.state import MarketplaceState


def _focus_card_button(lead_id: Var) -> Var:
    """On close, focus goes back to the card's View Images button (a dialog without a
    Radix trigger would drop it on the page)."""
    return Var(
        _js_expr=("((e) => { e.preventDefault(); "
                  f"document.getElementById('lead-images-button-' + {lead_id})?.focus(); }})"),
        _var_data=lead_id._get_all_var_data(),
    )


def _thumbnail(picture) -> rx.Component:
    """A thumbnail is a button: a click (or Enter/Space) shows its picture large."""
    return rx.el.button(
        photo_frame(photo(picture.src, picture.alt), radius="var(--radius-3)"),
        type="button",
        on_click=MarketplaceState.show_large(picture.index),
        aria_label="Show large: " + picture.alt,
        id="lead-images-thumb-" + picture.index.to_string(),
        class_name="lv-thumb-button",
    )


def images_dialog() -> rx.Component:
    gallery = MarketplaceState.gallery
    return rx.dialog.root(
        rx.cond(
            gallery.id != "",
            rx.dialog.content(
                dialog_header(gallery.title, [gallery.description], "Close images", title_size="5"),
                photo_frame(
                    photo(gallery.primary.src, gallery.primary.alt, image_id="lead-images-large"),
                    width="100%",
                    max_height="60vh",
                    margin_top="1rem",
                ),
                rx.cond(
                    gallery.more.length() > 0,
                    rx.grid(
                        rx.foreach(gallery.more, _thumbnail),
                        columns="3",
                        spacing="3",
                        margin_top="0.75rem",
                    ),
                ),
                id=f"lead-images-dialog-{gallery.id}",
                custom_attrs={"onCloseAutoFocus": _focus_card_button(gallery.id)},
                max_width="min(720px, calc(100vw - 2rem))",
                size={"initial": "2", "sm": "3"},
            ),
        ),
        open=gallery.id != "",
        on_open_change=MarketplaceState.close_gallery,
    )
