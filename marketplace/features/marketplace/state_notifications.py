"""The header's Notifications bell: the unread count (a cheap read on every page
load and with the session keep-alive) and, when the popover opens, the latest
notifications. Only signed-in users have one; every handler re-checks the
session on the server and runs the service off the event loop."""

from __future__ import annotations

import dataclasses
import logging
from datetime import datetime, timezone

import reflex as rx

from marketplace.platform import routes
from marketplace.features.property import rules_pipeline as pipeline_rules
from marketplace.platform.times import format_date, format_datetime, zone
from marketplace.features.property import FOLLOW_UP_BODY, FOLLOW_UP_OVERDUE, FOLLOW_UP_TODAY
from marketplace.platform.offloop import run_blocking
from marketplace.features.marketplace import service_notifications as service
from marketplace.features.property import service_pipeline as pipeline_service
from marketplace.platform.ui.state_auth import AuthState

log = logging.getLogger("marketplace.notifications")

LIST_LIMIT = 20


@dataclasses.dataclass
class NotificationRow:
    """One notification as the popover shows it."""

    id: str = ""
    title: str = ""
    body: str = ""
    when: str = ""  # 'Mar 4, 2026, 8:01 AM PST', in the browser's zone
    url: str = ""
    unread: bool = False


def notification_row(view: service.NotificationView, zone_name: str) -> NotificationRow:
    return NotificationRow(id=str(view.id), title=view.title, body=view.body,
                           when=format_datetime(view.created_at, zone_name), url=view.url, unread=not view.read)


def follow_up_row(due: pipeline_service.DueFollowUp, zone_name: str) -> NotificationRow:
    """A pipeline follow-up due today or overdue: computed, not stored; it goes when the date
    moves or the lead is closed or dead."""
    return NotificationRow(
        id=str(due.lead_id),
        title=FOLLOW_UP_OVERDUE if due.status == "overdue" else FOLLOW_UP_TODAY,
        body=FOLLOW_UP_BODY.format(address=due.address, stage=pipeline_rules.stage_label(due.stage),
                                   date=format_date(due.follow_up, zone_name)),
        when="", url=routes.property_url(str(due.lead_id)), unread=due.status == "overdue",
    )


def _notification_id(value: object) -> int | None:
    if isinstance(value, str) and value.isdigit() and len(value) <= 12:
        return int(value) or None
    return None


class NotificationsState(AuthState):
    unread: int = 0
    items: list[NotificationRow] = []
    due: int = 0  # pipeline follow-ups due today or overdue, in the user's time zone
    follow_ups: list[NotificationRow] = []
    list_open: bool = False
    list_loading: bool = False
    list_failed: bool = False
    _followed: int = 0  # backend only: the notification open_item left to mark read

    @rx.var
    def badge_count(self) -> int:
        return self.unread + self.due

    @rx.var
    def unread_badge(self) -> str:
        total = self.unread + self.due
        return "99+" if total > 99 else str(total)

    @rx.var
    def bell_label(self) -> str:
        """The button's name; it contains the badge's number (the visible text), as the accessibility rules ask."""
        due = f"{self.due:,} follow-up{'' if self.due == 1 else 's'} due"
        if self.unread and self.due:
            return f"Notifications, {self.unread + self.due:,} new: {self.unread:,} unread, {due}"
        if self.due:
            return f"Notifications, {due}"
        return f"Notifications, {self.unread:,} unread" if self.unread else "Notifications"

    def _clear(self) -> None:
        self.unread = 0
        self.items = []
        self.due = 0
        self.follow_ups = []
        self.list_open = False
        self._followed = 0

    async def _count(self, user_id, with_follow_ups: bool = False) -> None:
        try:
            self.unread = await run_blocking(service.unread_count, user_id)
        except Exception:  # noqa: BLE001 - the bell keeps its last count; the next page load retries
            log.exception("unread count failed for %s", user_id)
        today = pipeline_rules.user_today(datetime.now(timezone.utc), zone(self._zone()))
        try:
            self.due, due = await run_blocking(pipeline_service.due_follow_ups, user_id, today,
                                               LIST_LIMIT if with_follow_ups else 0)
        except Exception:  # noqa: BLE001 - as above: the last count stays, the next page load retries
            log.exception("follow-up count failed for %s", user_id)
            return
        if with_follow_ups:
            self.follow_ups = [follow_up_row(row, self._zone()) for row in due]

    @rx.event
    async def refresh_count(self, _value: str = ""):
        """Every page load (after the session check and the page's own load) and the keep-alive
        tick: a notification followed from the list is marked read (``open_item``), then the count."""
        user_id = await self._current_user_id()
        if user_id is None:
            self._clear()
            return
        await self._page_opened(user_id)

    async def _page_opened(self, user_id) -> None:
        """A page opened for ``user_id`` (resolved by the caller): the popover closed, the followed
        notification marked read, the count."""
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
        self.list_loading = not self.items and not self.follow_ups
        self.list_failed = False
        yield
        try:
            views = await run_blocking(service.list_notifications, user_id, LIST_LIMIT)
        except Exception:  # noqa: BLE001 - said in the popover
            log.exception("notifications list failed for %s", user_id)
            self.list_loading = False
            self.list_failed = True
            return
        zone_name = self._zone()
        self.items = [notification_row(view, zone_name) for view in views[:LIST_LIMIT]]
        self.list_loading = False
        await self._count(user_id, with_follow_ups=True)

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
    def open_follow_up(self, _lead_id: str = ""):
        """A follow-up's link was followed (it navigates by itself): the popover closes."""
        self.list_open = False

    @rx.event
    def open_item(self, notification_id: str):
        """A notification's link was followed (the link itself navigates). Nothing here waits on
        the database: the page it opens loads first (the mark-read and count before it
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
