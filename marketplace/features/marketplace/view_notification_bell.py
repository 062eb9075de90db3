"""The header's Notifications bell (signed-in users): a button labelled
"Notifications" (with ", N unread" when there are any) and a count badge,
opening a popover with the latest notifications and "Mark all as read".

Element ids: ``notifications-button``, ``notifications-count``,
``notifications-popover``, ``notifications-list``, ``notifications-empty``,
``notifications-mark-all``, ``notification-{id}``; pipeline follow-ups due today or overdue:
``follow-ups-list``, ``follow-up-{lead id}``.
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform.texts import NOTIFICATIONS_EMPTY, NOTIFICATIONS_LOAD_FAILED
from marketplace.platform.ui import popover
from marketplace.features.marketplace.state_notifications import NotificationsState as N


LIST_STYLE = {"list_style": "none", "margin": "0", "padding": "0", "display": "grid", "gap": "2px"}


def notification_item(row) -> rx.Component:
    return _item(row, follow_up=False)


def follow_up_item(row) -> rx.Component:
    return _item(row, follow_up=True)


def _item(row, follow_up: bool) -> rx.Component:
    return rx.el.li(
        rx.link(
            rx.hstack(
                rx.box(
                    width="8px", height="8px", border_radius="9999px", flex_shrink="0", margin_top="0.45rem",
                    background=rx.cond(row.unread, "var(--accent-9)", "transparent"),
                    aria_hidden="true",
                ),
                rx.vstack(
                    rx.text(row.title, size="2", weight=rx.cond(row.unread, "bold", "medium"), class_name="lv-break",
                            color="var(--gray-12)"),
                    rx.text(row.body, size="2", color="var(--gray-11)", class_name="lv-break"),
                    rx.cond(row.when != "", rx.text(rx.cond(row.unread, "Unread · ", ""), row.when, size="1",
                                                    color="var(--gray-11)")),
                    spacing="1",
                    min_width="0",
                ),
                spacing="2",
                align="start",
            ),
            href=row.url,
            on_click=N.open_follow_up(row.id) if follow_up else N.open_item(row.id),
            underline="none",
            _hover={},
            display="block",
            padding="0.6rem 0.75rem",
            border_radius="var(--radius-3)",
            background=rx.cond(row.unread, "var(--accent-a3)", "transparent"),
            class_name="lv-notification-link",
            id=("follow-up-" if follow_up else "notification-") + row.id,
            data_unread=rx.cond(row.unread, "true", "false"),
        ),
    )


def empty_state() -> rx.Component:
    return rx.vstack(
        rx.icon("bell_off", size=22, color="var(--gray-9)", aria_hidden="true"),
        rx.text(NOTIFICATIONS_EMPTY, size="2", weight="bold"),
        rx.text("Save a search on the marketplace: we tell you here when new leads match it.",
                size="2", color_scheme="gray", align="center"),
        align="center",
        spacing="1",
        padding="1.25rem 0.75rem",
        id="notifications-empty",
    )


def notification_list() -> rx.Component:
    return rx.cond(
        N.list_failed,
        rx.text(NOTIFICATIONS_LOAD_FAILED, size="2",
                color_scheme="red", role="alert", padding="0.75rem"),
        rx.cond(
            N.list_loading,
            rx.hstack(rx.spinner(size="2"), rx.text("Loading...", size="2"), spacing="2", padding="0.75rem",
                      role="status"),
            rx.fragment(
                rx.cond(
                    N.follow_ups.length() > 0,
                    rx.el.ul(rx.foreach(N.follow_ups, follow_up_item),
                             id="follow-ups-list", aria_label="Follow-ups due", style=LIST_STYLE),
                ),
                rx.cond(
                    N.items.length() > 0,
                    rx.el.ul(rx.foreach(N.items, notification_item), id="notifications-list", style=LIST_STYLE),
                    rx.cond(N.follow_ups.length() > 0, rx.fragment(), empty_state()),
                ),
            ),
        ),
    )


def notification_bell() -> rx.Component:
    """The bell and its panel (a browser popover, ``platform.ui.popover``): opening it loads the latest
    notifications (``set_list_open``); following one closes it."""
    return rx.fragment(
        rx.icon_button(
            rx.icon("bell", size=18, aria_hidden="true"),
            rx.cond(
                N.badge_count > 0,
                rx.el.span(N.unread_badge, id="notifications-count", aria_hidden="true",
                           class_name="lv-bell-count"),
            ),
            variant="ghost",
            color_scheme="gray",
            radius="full",
            size="2",
            aria_label=N.bell_label,
            title=N.bell_label,
            id="notifications-button",
            position="relative",
            overflow="visible",
            custom_attrs=popover.opens("notifications-popover"),
        ),
        popover.panel(
            "notifications-popover",
            "Notifications",
            rx.vstack(
                rx.hstack(
                    rx.heading("Notifications", as_="h2", size="3", weight="bold"),
                    rx.cond(
                        N.unread > 0,
                        rx.button("Mark all as read", on_click=N.mark_all_read, variant="ghost", size="1",
                                  id="notifications-mark-all"),
                    ),
                    justify="between",
                    align="center",
                    width="100%",
                    padding="0 0.25rem 0.5rem 0.75rem",
                    border_bottom="1px solid var(--gray-a4)",
                ),
                rx.box(notification_list(), max_height="min(26rem, 70vh)", overflow_y="auto", width="100%"),
                spacing="2",
                width="100%",
            ),
            width="380px",
            padding="0.5rem",
            open=N.list_open,
            on_open_change=N.set_list_open,
        ),
    )
