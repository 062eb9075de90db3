"""Property page gallery: the primary picture, up to three thumbnails (the last
with "+N more"), the All photos / All illustrations dialog, and the placeholder
by image status (SPEC 2, 4, 9). Built from platform/ui/gallery.py.

The wording comes from ``property.rules.picture_texts``: pictures from a
listing source are "photos"; a generated lead has none, and its one drawing is
shown labelled "Illustration, not a photo of this property". Each
button's accessible name contains its visible text ("+3 more, View all ...")."""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import gallery as gallery_kit
from marketplace.platform.ui import kit as ui
from marketplace.platform.texts import ILLUSTRATION_NOTE
from marketplace.platform.web.image_hosts import PROPERTY_PICTURE
from marketplace.features.property.state import PropertyState

GALLERY_HEIGHT = "440px"
ILLUSTRATION_MAX_WIDTH = "587px"  # 440 px high at the drawings' 4:3
D = PropertyState.details


def picture(url: rx.Var, alt, small: bool = False) -> rx.Component:
    return gallery_kit.reported_photo(url, alt, PropertyState.broken_images.contains(url),
                                      PropertyState.image_failed(url), small, "property-image-fallback")


TILE_STYLE = {
    "position": "relative",
    "overflow": "hidden",
    "padding": "0",
    "border": "none",
    "cursor": "zoom-in",
    "background": gallery_kit.FRAME_BACKGROUND,
    "border_radius": "var(--radius-4)",
    "width": "100%",
    "height": "100%",
    "display": "block",
}


NOTE_STYLE = {"position": "absolute", "left": "12px", "bottom": "12px", "padding": "4px 10px",
              "border_radius": "var(--radius-3)", "background": "var(--color-panel-solid)",
              "box_shadow": "inset 0 0 0 1px var(--gray-a6)", "color": "var(--gray-12)",
              "max_width": "calc(100% - 24px)", "text_align": "left"}


def shell_picture() -> rx.Component:
    """The page's picture before its data, in the prerendered shell: the lead's own drawing
    (``marketplace.api_first_picture``: the address the page has tells which), where and as large as the
    gallery then shows it, so that a phone paints it with the page's HTML instead of after its scripts
    and data (issue 41). A lead with photos, or any other, gets the neutral drawing: the note is true.
    On a phone it is a pixel or two taller than the gallery's tile: the browser snaps each picture's
    box to device pixels by where it sits, and a shell picture a fraction of a pixel smaller would
    make the gallery's the page's largest paint again, after the scripts and data."""
    return rx.box(
        rx.el.img(src=PROPERTY_PICTURE, alt="", loading="eager", decoding="async", style=gallery_kit.PHOTO_STYLE,
                  custom_attrs={"id": "property-shell-picture", "fetchPriority": "high"}),
        rx.text(ILLUSTRATION_NOTE, size="2", weight="medium", style=NOTE_STYLE),
        style={**TILE_STYLE, "cursor": "default", "max_width": ILLUSTRATION_MAX_WIDTH,
               "aspect_ratio": ui.responsive("16 / 10.1", sm="auto"), "height": ui.responsive("auto", sm=GALLERY_HEIGHT)},
    )


def picture_note() -> rx.Component:
    """Over a generated lead's drawing: 'Illustration, not a photo of this property'."""
    return rx.cond(
        D["picture_note"] != "",
        rx.text(D["picture_note"], size="2", weight="medium", id="property-picture-note", style=NOTE_STYLE),
    )


def primary_tile() -> rx.Component:
    return rx.dialog.trigger(
        rx.el.button(
            # A drawing's note is the tile's visible text: the picture itself is then decorative (alt ""),
            # and the button's name contains the note (what a sighted user reads is what is announced).
            picture(PropertyState.images[0], rx.cond(D["picture_note"] != "", "", D["picture_alt"] + " 1")),
            picture_note(),
            type="button",
            aria_label=rx.cond(D["picture_note"] != "", D["view_all"] + ": " + D["picture_note"], D["view_all"]),
            id="property-image-primary",
            style={
                **TILE_STYLE,
                "grid_column": ui.responsive("1 / -1", sm="1"),
                "grid_row": ui.responsive("auto", sm="1 / -1"),
                "aspect_ratio": ui.responsive("16 / 10", sm="auto"),
            },
        )
    )


def thumb_tile(url: rx.Var, index: rx.Var) -> rx.Component:
    is_last = (index == 2) & (PropertyState.more_count > 0)
    return rx.dialog.trigger(
        rx.el.button(
            picture(url, D["picture_alt"], small=True),
            rx.cond(
                is_last,
                gallery_kit.more_overlay(PropertyState.more_count, "property-more-overlay"),
            ),
            type="button",
            aria_label=rx.cond(is_last, f"+{PropertyState.more_count} more, {D['view_all']}", D["view_one"]),
            class_name="property-thumb",
            style={**TILE_STYLE, "aspect_ratio": ui.responsive("4 / 3", sm="auto")},
        )
    )


def gallery_dialog() -> rx.Component:
    return rx.dialog.content(
        gallery_kit.dialog_header(D["gallery_title"], [D["gallery_count"]], "Close",
                                  margin_bottom="1rem"),
        rx.grid(
            rx.foreach(
                PropertyState.images,
                lambda url: gallery_kit.photo_frame(picture(url, D["picture_alt"]), class_name="property-dialog-image"),
            ),
            columns=rx.breakpoints(initial="1", sm="2"),
            spacing="3",
            width="100%",
        ),
        max_width="min(960px, 94vw)",
        id="property-gallery-dialog",
    )


def image_placeholder() -> rx.Component:
    return rx.center(
        rx.vstack(
            rx.center(
                rx.match(D["image_status"],
                         ("Images are being verified", rx.icon("hourglass", size=26, aria_hidden="true")),
                         ("Images could not be loaded", rx.icon("image_off", size=26, aria_hidden="true")),
                         rx.icon("image", size=26, aria_hidden="true")),
                width="56px",
                height="56px",
                border_radius="var(--radius-5)",
                background="var(--accent-3)",
                color="var(--accent-11)",
            ),
            rx.text(D["image_status"], size="4", weight="bold", id="property-image-status", align="center"),
            rx.text(D["pictures_later"], size="2", color_scheme="gray", align="center",
                    id="property-pictures-later"),
            align="center",
            spacing="3",
        ),
        height=rx.breakpoints(initial="220px", sm="300px"),
        width="100%",
        border="1px dashed var(--gray-6)",
        border_radius="var(--radius-5)",
        background="radial-gradient(30rem 14rem at 50% 0%, var(--accent-a3), transparent 70%), var(--gray-2)",
        padding="1rem",
    )


def gallery() -> rx.Component:
    return rx.cond(
        PropertyState.images.length() > 0,
        rx.dialog.root(
            rx.box(
                primary_tile(),
                rx.foreach(PropertyState.thumbnails, thumb_tile),
                id="property-images",
                style={
                    "display": "grid",
                    "gap": "8px",
                    "grid_template_columns": ui.responsive(PropertyState.phone_columns, sm=PropertyState.desktop_columns),
                    "grid_template_rows": ui.responsive("auto", sm=PropertyState.desktop_rows),
                    "height": ui.responsive("auto", sm=GALLERY_HEIGHT),
                    "width": "100%",
                    # One illustration (4:3) is shown whole, not blown up across the page.
                    "max_width": rx.cond(D["picture_note"] != "", ILLUSTRATION_MAX_WIDTH, "none"),
                },
            ),
            gallery_dialog(),
        ),
        image_placeholder(),
    )
