"""Pictures and galleries: the one implementation of a photo with a fallback,
the photo frame, the gallery dialog's header and the "+N more" overlay. The
marketplace lead card's View Images dialog and the property page's gallery
are built from these.

Two fallbacks, by where the list of broken pictures lives:

* ``photo``: the browser swaps a picture that fails for an inline placeholder
  (lead cards, where many cards are re-used page after page);
* ``reported_photo``: the <img> reports its error to the server (``on_error``)
  and the page renders ``fallback_tile`` instead (the property page, whose
  state keeps the broken URLs).
"""

from __future__ import annotations

from urllib.parse import quote

import reflex as rx
from reflex.vars.base import Var
from reflex_components_core.el.elements.media import Img

PHOTO_STYLE = {"width": "100%", "height": "100%", "object_fit": "cover", "display": "block"}
FRAME_BACKGROUND = "var(--gray-3)"

# Shown instead of a picture that is missing or fails to load.
_PLACEHOLDER_SVG = (
    "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 400 240'>"
    "<defs><linearGradient id='g' x1='0' y1='0' x2='0' y2='1'>"
    "<stop offset='0' stop-color='#eef1f8'/><stop offset='1' stop-color='#e2e7f1'/></linearGradient></defs>"
    "<rect width='400' height='240' fill='url(#g)'/>"
    "<g fill='none' stroke='#9aa4b8' stroke-width='6' stroke-linejoin='round' stroke-linecap='round'>"
    "<path d='M160 118 L200 84 L240 118'/><path d='M170 110 V150 H230 V110'/><path d='M192 150 V130 H208 V150'/>"
    "</g>"
    "<text x='200' y='186' text-anchor='middle' font-family='system-ui, sans-serif' font-size='16' "
    "fill='#7b859a'>Photo unavailable</text></svg>"
)
PLACEHOLDER_SRC = "data:image/svg+xml;utf8," + quote(_PLACEHOLDER_SVG)

# A picture that fails swaps itself for the placeholder (never the placeholder
# itself, so no loop). Cards are keyed by position, so an <img> is reused for
# the next page's lead: a real picture that loads clears the mark again.
_SWAP_ON_ERROR = Var(
    _js_expr=(
        "((e) => { const img = e.currentTarget; if (!img.src.startsWith('data:')) "
        f"{{ img.dataset.fallback = '1'; img.src = {PLACEHOLDER_SRC!r}; }} }})"
    )
)
_CLEAR_ON_LOAD = Var(
    _js_expr="((e) => { const img = e.currentTarget; if (!img.src.startsWith('data:')) delete img.dataset.fallback; })"
)


def photo(src, alt, image_id=None, **props) -> rx.Component:
    """An <img> that falls back to the placeholder (also when ``src`` is empty)."""
    return rx.el.img(
        src=rx.cond(src != "", src, PLACEHOLDER_SRC),
        alt=alt,
        id=image_id,
        loading="lazy",
        decoding="async",
        custom_attrs={"onError": _SWAP_ON_ERROR, "onLoad": _CLEAR_ON_LOAD},
        style=PHOTO_STYLE,
        **props,
    )


class ReportingImage(Img):
    """An <img> that reports load errors, so a broken picture becomes a placeholder."""

    on_error: rx.EventHandler[rx.event.no_args_event_spec]


def fallback_tile(small: bool = False, class_name: str | None = None) -> rx.Component:
    """'Image unavailable' in place of a picture that failed."""
    return rx.center(
        rx.vstack(
            rx.icon("image_off", size=20 if small else 28, aria_hidden="true"),
            rx.text("Image unavailable", size="1" if small else "2"),
            align="center",
            spacing="1",
        ),
        width="100%",
        height="100%",
        min_height="80px",
        color="var(--gray-10)",
        background="linear-gradient(135deg, var(--gray-3), var(--gray-2))",
        class_name=class_name,
    )


def reported_photo(url, alt, broken: rx.Var, on_error, small: bool = False,
                   fallback_class: str | None = None) -> rx.Component:
    """``url`` as an eager <img> reporting errors to ``on_error``; ``fallback_tile`` once ``broken``."""
    return rx.cond(
        broken,
        fallback_tile(small, fallback_class),
        ReportingImage.create(src=url, alt=alt, on_error=on_error, loading="eager", style=PHOTO_STYLE),
    )


def photo_frame(child: rx.Component, radius: str = "var(--radius-4)", **props) -> rx.Component:
    """A 4:3 frame that crops its picture (gallery grids)."""
    props.setdefault("aspect_ratio", "4 / 3")
    return rx.box(child, overflow="hidden", border_radius=radius, background=FRAME_BACKGROUND, **props)


def dialog_header(title, description, close_label: str, title_size: str | None = None, **props) -> rx.Component:
    """A gallery dialog's title, its line of description and the close button."""
    return rx.hstack(
        rx.vstack(
            rx.dialog.title(title, margin="0", **({"size": title_size} if title_size else {})),
            rx.dialog.description(*description, size="2", color_scheme="gray"),
            spacing="1",
        ),
        rx.dialog.close(
            rx.icon_button(rx.icon("x", size=18, aria_hidden="true"), variant="ghost", color_scheme="gray",
                           aria_label=close_label),
        ),
        justify="between",
        align="start",
        width="100%",
        **props,
    )


def more_overlay(count, element_id: str) -> rx.Component:
    """'+N more' over the last thumbnail."""
    return rx.center(
        rx.text("+", count, " more", size=rx.breakpoints(initial="3", sm="5"), weight="bold"),
        id=element_id,
        position="absolute",
        inset="0",
        color="white",
        background="rgba(15, 23, 42, 0.55)",
        style={"backdrop_filter": "blur(1px)"},
    )
