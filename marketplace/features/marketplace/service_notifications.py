"""In-app notifications: one per user per lead refresh whose new leads
matched the user's saved searches (written by ``marketplace.service_alerts``), read here
for the header's bell and its list. Each function opens its own scope."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

from marketplace.platform import texts as messages, routes
from marketplace.features.marketplace import rules_saved_searches as search_rules
from marketplace.platform.errors import UserError
from marketplace.platform.db import read_scope, session_scope
from marketplace.platform.models import Notification, utcnow

notifications_t = Notification.__table__
MAX_LIST = 100


@dataclass(frozen=True)
class NotificationView:
    id: int
    title: str
    body: str
    created_at: datetime
    read: bool
    url: str


def view(row) -> NotificationView:
    """Title, body and link from a stored notification: one search opens the marketplace
    with its filters, several the dashboard's Saved Searches tab; a refund (``unlock.service_refunds``) says
    what came back and why ('120 credits back: the vacancy notice at ...') and opens the dashboard's
    Unlocked Leads tab, where the lead reads Closed."""
    if getattr(row, "kind", "alert") == "refund":
        stored = row.matches or {}
        return NotificationView(id=row.id, title=str(stored.get("line", "")), body=str(stored.get("note", "")),
                                created_at=row.created_at, read=row.read_at is not None,
                                url=routes.dashboard_tab_url("unlocked"))
    searches = list((row.matches or {}).get("searches") or [])
    url = routes.marketplace_url(searches[0].get("query", "")) if len(searches) == 1 else routes.saved_searches_url()
    return NotificationView(
        id=row.id,
        title=search_rules.alert_title(row.lead_count),
        body=search_rules.alert_body([(s.get("name", ""), int(s.get("count", 0))) for s in searches]),
        created_at=row.created_at,
        read=row.read_at is not None,
        url=url,
    )


def unread_count(user_id: uuid.UUID) -> int:
    with read_scope() as session:
        return session.connection().execute(
            sa.select(sa.func.count()).select_from(notifications_t)
            .where(notifications_t.c.user_id == user_id, notifications_t.c.read_at.is_(None))
        ).scalar_one()


def list_notifications(user_id: uuid.UUID, limit: int = 20) -> list[NotificationView]:
    """The newest ``limit`` (1-100) notifications, newest first."""
    limit = limit if isinstance(limit, int) and not isinstance(limit, bool) else 20
    with read_scope() as session:
        rows = session.connection().execute(
            sa.select(notifications_t).where(notifications_t.c.user_id == user_id)
            .order_by(notifications_t.c.created_at.desc(), notifications_t.c.id.desc())
            .limit(min(max(limit, 1), MAX_LIST))
        ).all()
    return [view(row) for row in rows]


def mark_all_read(user_id: uuid.UUID) -> int:
    """Mark every unread notification read; returns how many were unread."""
    with session_scope() as session:
        return session.connection().execute(
            sa.update(notifications_t)
            .where(notifications_t.c.user_id == user_id, notifications_t.c.read_at.is_(None))
            .values(read_at=utcnow())
        ).rowcount


def mark_read(user_id: uuid.UUID, notification_id: int) -> None:
    """Mark one of the user's notifications read (already read: nothing changes)."""
    if isinstance(notification_id, bool) or not isinstance(notification_id, int) or not 0 < notification_id < 2**63:
        raise UserError(*messages.NOTIFICATION_NOT_FOUND)
    with session_scope() as session:
        conn = session.connection()
        owned = conn.execute(sa.select(notifications_t.c.read_at).where(
            notifications_t.c.id == notification_id, notifications_t.c.user_id == user_id)).first()
        if owned is None:
            raise UserError(*messages.NOTIFICATION_NOT_FOUND)
        if owned.read_at is None:
            conn.execute(sa.update(notifications_t).where(notifications_t.c.id == notification_id)
                         .values(read_at=utcnow()))
