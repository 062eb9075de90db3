"""Shared presentational building blocks for the marketing pages.

Everything visual that appears more than once lives here: the page container,
section wrappers and headings, icon tiles, feature / stat / step cards,
testimonial cards, call-to-action bands and the page hero. The spacing scale
is Radix's (``"1"`` = 4px ... ``"9"`` = 64px); colours come from the theme's
accent (indigo) and gray (slate) scales through CSS variables, so the whole
site follows ``rx.theme`` in ``marketplace/marketplace.py``.
"""

from __future__ import annotations

import reflex as rx

# Radix Themes breakpoints. Radix props (size, columns, direction, ...) take
# {"initial": ..., "sm": ...} dicts natively; plain CSS props go through
# ``responsive()``, which emits min-width media queries at these same widths.
BREAKPOINTS = {"initial": "0px", "xs": "520px", "sm": "768px", "md": "1024px", "lg": "1280px"}


def slug(text: str) -> str:
    """An option's text as part of an element id: 'Make Me Move' -> 'Make-Me-Move'."""
    return text.replace(" ", "-")


def responsive(initial=None, xs=None, sm=None, md=None, lg=None) -> dict:
    """A CSS value per Radix breakpoint (mobile first), for plain style props."""
    values = {"initial": initial, "xs": xs, "sm": sm, "md": md, "lg": lg}
    return rx.breakpoints(custom={BREAKPOINTS[name]: value for name, value in values.items() if value is not None})


def static_icon(name: str, **props) -> rx.Component:
    """A lucide icon whose name is known when the page is compiled (a Python string).

    An icon named by a state var compiles to lucide's ``DynamicIcon``, which ships a map of
    every lucide icon (~2,000) to every page: show a state-dependent icon with ``rx.cond`` or
    ``rx.match`` over static ones. ``rx.icon`` gets a string literal everywhere else
    (tests/platform/test_page_weight.py checks the source); helpers that take an icon name pass it here.
    """
    if not isinstance(name, str):
        raise TypeError(f"icon name must be a str known at compile time, got {type(name).__name__} "
                        "(use rx.cond / rx.match over static icons)")
    return rx.icon(name, **props)


# Maximum content width and responsive side padding shared by every section.
CONTENT_MAX_WIDTH = "1200px"
PAGE_PADDING_X = responsive("1rem", sm="1.5rem", md="2rem")
# Vertical rhythm of page sections (phone / tablet / desktop).
SECTION_PADDING_Y = responsive("3.5rem", sm="4.5rem", md="5.5rem")

# Responsive column counts for card grids (Radix props).
GRID_2 = {"initial": "1", "sm": "2"}
GRID_3 = {"initial": "1", "sm": "2", "md": "3"}
GRID_4 = {"initial": "2", "md": "4"}
GRID_GAP = {"initial": "3", "sm": "5"}


def container(*children: rx.Component, **props) -> rx.Component:
    """Centre ``children`` in the site-wide content column."""
    return rx.box(
        *children,
        max_width=CONTENT_MAX_WIDTH,
        margin_x="auto",
        padding_x=PAGE_PADDING_X,
        width="100%",
        **props,
    )


def section(*children: rx.Component, muted: bool = False, section_id: str | None = None, **props) -> rx.Component:
    """A full-width page band with the standard vertical rhythm.

    ``muted`` gives the band the soft gray background used to alternate bands;
    ``padding_y`` / ``padding_top`` / ``padding_bottom`` override the rhythm.
    """
    if section_id is not None:
        props["id"] = section_id
    extra_class = props.pop("class_name", "")
    padding_y = props.pop("padding_y", SECTION_PADDING_Y)
    props.setdefault("padding_top", padding_y)
    props.setdefault("padding_bottom", padding_y)
    return rx.el.section(
        container(*children),
        class_name=" ".join(filter(None, ["lv-section", "lv-section-muted" if muted else "", extra_class])),
        width="100%",
        **props,
    )


def eyebrow(text: str, icon: str | None = None) -> rx.Component:
    """The small pill above a heading (e.g. "How It Works")."""
    return rx.badge(
        *([static_icon(icon, size=14, aria_hidden="true")] if icon else []),
        text,
        size="2",
        variant="soft",
        radius="full",
        class_name="lv-eyebrow",
    )


def section_heading(title: str, subtitle: str | None = None, label: str | None = None) -> rx.Component:
    """Centred eyebrow label, section title (an h2) and an optional lead paragraph."""
    return rx.vstack(
        *([eyebrow(label)] if label else []),
        rx.heading(title, as_="h2", size={"initial": "7", "md": "8"}, weight="bold", class_name="lv-balance"),
        *([rx.text(subtitle, size={"initial": "3", "md": "4"}, color_scheme="gray", max_width="42rem",
                   class_name="lv-balance")] if subtitle else []),
        spacing="3",
        align="center",
        text_align="center",
        width="100%",
        margin_bottom=responsive("2rem", md="3rem"),
    )


def icon_tile(icon: str, color: str = "indigo", size: str = "44px", icon_size: int = 22,
              background: str | None = None, foreground: str | None = None, **props) -> rx.Component:
    """A rounded, softly tinted square holding a line icon, in the Radix colour ``color``
    (or explicit ``background`` / ``foreground``); ``props`` override its shape."""
    style = {"width": size, "height": size, "min_width": size, "border_radius": "var(--radius-4)",
             "background": background or f"var(--{color}-3)", "color": foreground or f"var(--{color}-11)",
             "flex_shrink": "0"}
    return rx.center(static_icon(icon, size=icon_size, aria_hidden="true"), **{**style, **props})


def feature_card(icon: str, title: str, text: str, color: str = "indigo",
                 note: rx.Component | None = None) -> rx.Component:
    """Icon, short title and one or two sentences, in a bordered card (``note``: a span after the text,
    e.g. the demo install's note beside a claim about public records).

    On phones the icon sits beside the text to keep the card list short.
    """
    return rx.card(
        rx.flex(
            icon_tile(icon, color),
            rx.vstack(
                rx.heading(title, as_="h3", size="4", weight="bold"),
                rx.text(text, *([note] if note is not None else []), size="3", color_scheme="gray"),
                spacing="2",
            ),
            direction={"initial": "row", "sm": "column"},
            spacing={"initial": "4", "sm": "3"},
        ),
        size={"initial": "2", "sm": "3"},
        class_name="lv-card lv-card-hover",
        height="100%",
    )


def stat_tile(value: str, label: str, icon: str | None = None) -> rx.Component:
    """A big number with its label (trust statistics, about-page tiles)."""
    return rx.card(
        rx.vstack(
            *([icon_tile(icon)] if icon else []),
            rx.text(value, size={"initial": "6", "sm": "7", "md": "8"}, weight="bold", class_name="lv-stat-value"),
            rx.text(label, size="3", weight="medium", high_contrast=True),
            spacing="1",
            align="center",
            text_align="center",
        ),
        size={"initial": "2", "sm": "3"},
        class_name="lv-card",
        height="100%",
    )


def step_card(number: int, icon: str, title: str, text: str) -> rx.Component:
    """One numbered step of a process (How It Works)."""
    return rx.vstack(
        rx.hstack(
            rx.center(
                rx.text(str(number), size="3", weight="bold"),
                width="36px",
                height="36px",
                border_radius="9999px",
                background="var(--accent-9)",
                color="var(--accent-contrast)",
                aria_hidden="true",
            ),
            icon_tile(icon),
            spacing="3",
            align="center",
        ),
        rx.heading(f"{number}. {title}", as_="h3", size="5", weight="bold"),
        rx.text(text, size="3", color_scheme="gray"),
        spacing="3",
        class_name="lv-step",
        height="100%",
    )


def testimonial_card(quote: str, name: str, role: str, image: str) -> rx.Component:
    """A customer quote with photo, name and role."""
    return rx.card(
        rx.vstack(
            rx.hstack(
                *[rx.icon("star", size=16, fill="var(--amber-9)", color="var(--amber-9)", aria_hidden="true")
                  for _ in range(5)],
                spacing="1",
                aria_label="Rated 5 out of 5",
                role="img",
            ),
            rx.el.blockquote(
                rx.text(f"“{quote}”", size="3", high_contrast=True, as_="p"),
                margin="0",
            ),
            rx.spacer(),
            rx.hstack(
                rx.image(src=image, alt=f"Photo of {name}", width="48px", height="48px",
                         border_radius="9999px"),
                rx.vstack(
                    rx.text(name, size="3", weight="bold"),
                    rx.text(role, size="2", color_scheme="gray"),
                    spacing="0",
                ),
                spacing="3",
                align="center",
            ),
            spacing="4",
            height="100%",
        ),
        size="3",
        class_name="lv-card",
        height="100%",
    )


def button_link(label, href, icon: str | None = None, variant: str = "solid", size: str = "3",
                icon_first: bool = False, icon_size: int = 18, link_props: dict | None = None,
                **props) -> rx.Component:
    """A button that navigates: one ``<a>`` (client-side routed) styled as a button.

    It keeps its colour scheme: the ``lv-button-link`` class restores the
    button's text colour over the link's (see assets/styles.css), and a
    ``color_scheme`` goes on the link too (merged through the button's Slot, the
    link's own accent would otherwise win). The icon follows the label, or leads
    with ``icon_first``; ``link_props`` go on the link (``is_external``, ``target``).
    """
    props["class_name"] = " ".join(filter(None, ["lv-button-link", props.get("class_name")]))
    icons = [static_icon(icon, size=icon_size, aria_hidden="true")] if icon else []
    children = [*icons, label] if icon_first else [label, *icons]
    link_props = dict(link_props or {})
    if props.get("color_scheme") is not None:
        link_props.setdefault("color_scheme", props["color_scheme"])
    return rx.button(
        # _hover={} drops rx.link's default hover colour, which would fight the button's.
        rx.link(*children, href=href, underline="none", _hover={}, **link_props),
        as_child=True,
        variant=variant,
        size=size,
        **props,
    )


def cta_band(title: str, text: str, actions: list[rx.Component], icon: str | None = None) -> rx.Component:
    """A high-contrast call-to-action panel (indigo gradient) with buttons."""
    return rx.box(
        rx.flex(
            rx.vstack(
                *([rx.center(static_icon(icon, size=22, aria_hidden="true"), class_name="lv-cta-icon")] if icon else []),
                rx.heading(title, as_="h2", size={"initial": "6", "md": "7"}, weight="bold", class_name="lv-balance"),
                rx.text(text, size={"initial": "3", "md": "4"}, class_name="lv-cta-text"),
                spacing="3",
                max_width="40rem",
            ),
            rx.flex(*actions, spacing="3", wrap="wrap", flex_shrink="0"),
            direction={"initial": "column", "md": "row"},
            align={"initial": "start", "md": "center"},
            justify="between",
            spacing="5",
        ),
        class_name="lv-cta",
        padding=responsive("2rem 1.5rem", md="3rem"),
        border_radius="var(--radius-6)",
    )


def page_hero(title: str, subtitle: str, label: str | None = None, icon: str | None = None,
              note: rx.Component | None = None) -> rx.Component:
    """The compact hero at the top of secondary pages (About, Legal, Contact); ``note`` below the subtitle."""
    return rx.el.section(
        container(
            rx.vstack(
                *([eyebrow(label, icon)] if label else []),
                rx.heading(title, as_="h1", size={"initial": "8", "md": "9"}, weight="bold", class_name="lv-balance"),
                rx.text(subtitle, size={"initial": "4", "md": "5"}, color_scheme="gray", max_width="44rem",
                        class_name="lv-balance"),
                *([note] if note is not None else []),
                spacing="4",
                align="center",
                text_align="center",
            ),
        ),
        class_name="lv-hero-bg",
        padding_top=responsive("3.5rem", md="5rem"),
        padding_bottom=responsive("3rem", md="4rem"),
    )


def check_item(text: str, note: rx.Component | None = None) -> rx.Component:
    """A line with a check mark (short benefit lists); ``note``: a span after the text."""
    return rx.hstack(
        rx.icon("circle_check", size=18, color="var(--accent-10)", flex_shrink="0", aria_hidden="true",
                margin_top="2px"),
        rx.text(text, *([note] if note is not None else []), size="3"),
        spacing="2",
        align="start",
    )


def provenance_badge(text, **props) -> rx.Component:
    """Where a lead's data comes from ('Demo data (generated)', platform.leads.provenance_line), in a list
    or table row; nothing when the lead says nothing. A public record's long line wraps."""
    return rx.cond(
        text != "",
        rx.badge(rx.icon("flask_conical", size=12, flex_shrink="0", aria_hidden="true"), text,
                 color_scheme="amber", variant="soft", radius="full", size="1", high_contrast=True,
                 style={"white_space": "normal", "height": "auto", "max_width": "100%"}, **props),
    )



# A button whose label may be long ("Find owner contact for 2 credits"): it wraps instead of overflowing.
WRAP_BUTTON = {"white_space": "normal", "height": "auto", "min_height": "var(--space-7)", "padding_y": "0.5rem",
               "text_align": "left"}


def confirm_callout(title: str, text, balance, *, confirm_label, on_confirm, on_cancel, cancel_label: str,
                    prefix: str, balance_id: str, text_id: str | None = None) -> rx.Component:
    """The "are you sure?" step before a paid action: its title, what it does, the balance before and after,
    and the confirm and cancel buttons (ids ``{prefix}-confirm``, ``{prefix}-go``, ``{prefix}-cancel``)."""
    return rx.callout.root(
        rx.vstack(
            rx.text(title, weight="bold", size="2"),
            rx.text(text, size="2", id=text_id) if text_id else rx.text(text, size="2"),
            rx.text(balance, size="2", weight="medium", id=balance_id),
            rx.flex(
                rx.button(confirm_label, on_click=on_confirm, size="2", id=f"{prefix}-go", style=WRAP_BUTTON),
                rx.button(cancel_label, on_click=on_cancel, size="2", variant="soft", color_scheme="gray",
                          id=f"{prefix}-cancel"),
                spacing="2",
                wrap="wrap",
            ),
            spacing="2",
            width="100%",
        ),
        color_scheme="indigo",
        variant="surface",
        width="100%",
        id=f"{prefix}-confirm",
        role="group",
        aria_label=title,
    )
