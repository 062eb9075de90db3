"""The app's cards: the plain card, the section card with an icon header, the
stat card, the empty state and the icon tile they share. Used by the
dashboard, property, explorer and settings screens (the marketing pages use
the larger pieces in ``ui.py``)."""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import styles, kit as ui


def card(*children: rx.Component, style: dict | None = None, **props) -> rx.Component:
    """A raised card in the app's look (shadow, padding by breakpoint, full width)."""
    props.setdefault("size", styles.CARD_SIZE)
    props.setdefault("width", "100%")
    return rx.card(*children, style={**styles.CARD_SHADOW, **(style or {})}, **props)


def card_header(icon: str, title: str, subtitle=None, color: str = "indigo", heading_as: str = "h3",
                tile_size: str = "40px", heading_size: str = "4") -> rx.Component:
    """Icon tile, title and an optional line of explanation."""
    heading = rx.heading(title, as_=heading_as, size=heading_size, weight="bold")
    return rx.hstack(
        ui.icon_tile(icon, color, tile_size, icon_size=20),
        rx.vstack(heading, rx.text(subtitle, size="2", color_scheme="gray"), spacing="1", min_width="0")
        if subtitle is not None else heading,
        spacing="3",
        align="start" if subtitle is not None else "center",
        width="100%",
    )


def section_card(icon: str, title: str, subtitle, *body: rx.Component, color: str = "indigo",
                 card_id: str | None = None, heading_as: str = "h3", tile_size: str = "40px",
                 style: dict | None = None, **props) -> rx.Component:
    """A card with an icon header (``card_header``; ``subtitle`` may be None) above its body."""
    return card(
        rx.vstack(
            card_header(icon, title, subtitle, color, heading_as, tile_size),
            *body,
            spacing="4",
            width="100%",
        ),
        id=card_id,
        style=style,
        **props,
    )


def stat_card(label: str, value, icon: str, color: str, stat_id: str, hint: str) -> rx.Component:
    """A number with its label and a hint; the icon tile shows from ``sm``."""
    return rx.card(
        rx.hstack(
            rx.vstack(
                rx.text(label, size="2", color_scheme="gray", weight="medium"),
                rx.text(value, size=rx.breakpoints(initial="6", sm="7"), weight="bold", id=stat_id,
                        style=styles.NUMBER_STYLE),
                rx.text(hint, size="1", color_scheme="gray"),
                spacing="1",
                min_width="0",
            ),
            rx.spacer(),
            ui.icon_tile(icon, color, "40px", icon_size=20, display=rx.breakpoints(initial="none", sm="flex")),
            align="start",
            width="100%",
        ),
        size=styles.CARD_SIZE,
        style=styles.CARD_SHADOW,
    )


def stat_grid(*cards: rx.Component, **props) -> rx.Component:
    """Stat cards two a row, four from ``lg``."""
    return rx.grid(*cards, columns=styles.STAT_COLUMNS, spacing=styles.STAT_GAP, width="100%", **props)


def row_list(*children: rx.Component, **props) -> rx.Component:
    """A bordered list of rows (phone cards in place of a table, devices): each row draws its
    own bottom border; the last one's is dropped."""
    return rx.box(
        *children,
        width="100%",
        border="1px solid var(--gray-a5)",
        border_radius="var(--radius-4)",
        background="var(--color-panel-solid)",
        overflow="hidden",
        style={"& > *:last-child": {"border_bottom": "none"}},
        **props,
    )


def empty_state(icon: str, title: str, body: str, action: rx.Component | None, state_id: str,
                title_as: str | None = None, padding_y: str = "3rem") -> rx.Component:
    """A dashed panel: icon, title (a heading with ``title_as``), a sentence and an optional action."""
    heading = (rx.heading(title, as_=title_as, size="5", weight="bold", text_align="center") if title_as
               else rx.text(title, size="4", weight="bold", align="center"))
    return rx.center(
        rx.vstack(
            ui.icon_tile(icon, "gray", "52px", icon_size=24, border_radius="14px"),
            heading,
            rx.text(body, size="2", color_scheme="gray", align="center", max_width="26rem"),
            action if action is not None else rx.fragment(),
            align="center",
            spacing="3",
        ),
        id=state_id,
        padding_y=padding_y,
        padding_x="1rem",
        width="100%",
        border=styles.DASHED_BORDER,
        border_radius=styles.RADIUS_LARGE,
        background="var(--color-panel-translucent)",
    )


def app_page(*children: rx.Component, background: str = styles.APP_PAGE_BACKGROUND, **props) -> rx.Component:
    """The backdrop and padding of the signed-in app pages around their content column."""
    return rx.box(
        ui.container(*children, padding_y=styles.APP_PAGE_PADDING_Y),
        background=background,
        min_height=styles.APP_PAGE_MIN_HEIGHT,
        **props,
    )
