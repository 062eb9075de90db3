"""The header's Notifications bell: the unread count (a cheap read on every page
load and with the session keep-alive) and, when the popover opens, the latest
notifications. Only signed-in users have one; every handler re-checks the
session on the server and runs the service off the event loop."""

from __future__ import annotations

import dataclasses
import logging

import reflex as rx

from marketplace.core.times import format_datetime
from marketplace.offloop import run_blocking
from marketplace.services import notifications as service
from marketplace.states.auth import AuthState

log = logging.getLogger("marketplace.notifications")

LIST_LIMIT = 20


@dataclasses.dataclass
class NotificationRow:
    """One notification as the popover shows it."""

    id: str = ""
    title: str = ""
    body: str = ""
    when: str = ""  # 'Mar 4, 2026 8:01 AM PST', in the browser's zone
    url: str = ""
    unread: bool = False


def notification_row(view: service.NotificationView, zone_name: str) -> NotificationRow:
    return NotificationRow(id=str(view.id), title=view.title, body=view.body,
                           when=format_datetime(view.created_at, zone_name), url=view.url, unread=not view.read)


def _notification_id(value: object) -> int | None:
    if isinstance(value, str) and value.isdigit() and len(value) <= 12:
        return int(value) or None
    return None


class NotificationsState(AuthState):
    unread: int = 0
    items: list[NotificationRow] = []
    list_open: bool = False
    list_loading: bool = False
    list_failed: bool = False
    _followed: int = 0  # backend only: the notification open_item left to mark read

    @rx.var
    def unread_badge(self) -> str:
        return "99+" if self.unread > 99 else str(self.unread)

    @rx.var
    def bell_label(self) -> str:
        return f"Notifications, {self.unread:,} unread" if self.unread else "Notifications"

    def _clear(self) -> None:
        self.unread = 0
        self.items = []
        self.list_open = False
        self._followed = 0

    async def _count(self, user_id) -> None:
        try:
            self.unread = await run_blocking(service.unread_count, user_id)
        except Exception:  # noqa: BLE001 - the bell keeps its last count; the next page load retries
            log.exception("unread count failed for %s", user_id)

    @rx.event
    async def refresh_count(self, _value: str = ""):
        """Every page load (after the session check and the page's own load) and the keep-alive
        tick: a notification followed from the list is marked read (``open_item``), then the count."""
        user_id = await self._current_user_id()
        if user_id is None:
            self._clear()
            return
        self.list_open = False  # a new page starts with the popover closed
        await self._mark_followed(user_id)
        await self._count(user_id)

    async def _mark_followed(self, user_id) -> None:
        """The bookkeeping ``open_item`` left for after the page it opened: mark that
        notification read (the service checks it is this user's)."""
        number, self._followed = self._followed, 0
        if not number:
            return
        try:
            await run_blocking(service.mark_read, user_id, number)
        except Exception:  # noqa: BLE001 - only the emphasis stays
            log.exception("mark read failed for %s", user_id)
            self.items = [dataclasses.replace(r, unread=True) if r.id == str(number) else r for r in self.items]

    @rx.event
    async def set_list_open(self, is_open: bool):
        """Open: the latest notifications (and a fresh count); close: just close."""
        if not isinstance(is_open, bool):
            return
        if not is_open:
            self.list_open = False
            return
        user_id = await self._current_user_id()
        if user_id is None:
            self._clear()
            return
        self.list_open = True
        self.list_loading = not self.items
        self.list_failed = False
        yield
        try:
            views = await run_blocking(service.list_notifications, user_id, LIST_LIMIT)
        except Exception:  # noqa: BLE001 - said in the popover
            log.exception("notifications list failed for %s", user_id)
            self.list_loading = False
            self.list_failed = True
            return
        zone = self._zone()
        self.items = [notification_row(view, zone) for view in views[:LIST_LIMIT]]
        self.list_loading = False
        await self._count(user_id)

    @rx.event
    async def mark_all_read(self):
        user_id = await self._current_user_id()
        if user_id is None:
            self._clear()
            return
        try:
            await run_blocking(service.mark_all_read, user_id)
        except Exception:  # noqa: BLE001 - the bell says so in its popover (list_failed), never a toast
            log.exception("mark all read failed for %s", user_id)
            self.list_failed = True
            return
        self.items = [dataclasses.replace(row, unread=False) for row in self.items]
        self.unread = 0

    @rx.event
    def open_item(self, notification_id: str):
        """A notification's link was followed (the link itself navigates). Nothing here waits on
        the database: the page it opens loads first (issue 24 #17: the mark-read and count before it
        were part of a 2.6 s click), and that page load's ``refresh_count`` marks it read with the
        session checked. Only a notification of this user's list counts."""
        number = _notification_id(notification_id)
        row = next((r for r in self.items if r.id == notification_id), None)
        self.list_open = False
        if number is None or row is None or not row.unread:
            return
        self._followed = number
        self.items = [dataclasses.replace(r, unread=False) if r.id == row.id else r for r in self.items]
        self.unread = max(self.unread - 1, 0)
