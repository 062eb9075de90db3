"""The webhook API's database side (SPEC 3, 6, 7, 8): who is calling, the
request log, and the key's management for the UI.

Keys are stored as SHA-256 (``services.webhook_keys``); the check compares
hashes in constant time, and runs the same work for an unknown user as for a
known one, so timing does not tell which ids exist beyond what 404 says.
"""

from __future__ import annotations

import hmac
import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import select

from marketplace.db import read_scope, session_scope
from marketplace.messages import INVALID_AUTH_KEY, USER_NOT_FOUND
from marketplace.models import Profile, SuperAdmin, WebhookRequest
from marketplace.services import webhook_keys
from marketplace.services.auth_sessions import hash_token

LOG_LIMIT = 50
_BODY_LOG_LIMIT = 16 * 1024  # characters of a body kept in the log
_DUMMY_HASH = hash_token("no-such-key")


@dataclass(frozen=True)
class Caller:
    user_id: uuid.UUID
    is_super_admin: bool


class CallerError(Exception):
    """A refused webhook API call: the HTTP ``status`` and the JSON body's ``error``.
    Not a ``core.errors.UserError``: an API caller gets a status code, not a toast."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def parse_user_id(raw: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(raw))
    except ValueError:
        return None


def authenticate(user_id: uuid.UUID | None, key: str | None) -> Caller:
    """The caller for ``user_id`` holding ``key``; ``CallerError`` 404 or 401 otherwise."""
    stored = None
    found = False
    admin = False
    if user_id is not None:
        with read_scope() as session:
            profile = session.get(Profile, user_id)
            if profile is not None:
                found = True
                stored = profile.webhook_auth_key
                admin = session.get(SuperAdmin, user_id) is not None
    presented = hash_token(key) if key else _DUMMY_HASH
    matches = hmac.compare_digest(stored or _DUMMY_HASH, presented) and bool(stored) and bool(key)
    if not found:
        raise CallerError(404, USER_NOT_FOUND)
    if not matches:
        raise CallerError(401, INVALID_AUTH_KEY)
    return Caller(user_id=user_id, is_super_admin=admin)


def _trim(body: Any) -> Any:
    """A JSON-safe body for the log, at most ``_BODY_LOG_LIMIT`` characters."""
    if body is None:
        return None
    try:
        text = json.dumps(body, default=str)
    except (TypeError, ValueError):
        return {"unreadable": True}
    if len(text) <= _BODY_LOG_LIMIT:
        return body if isinstance(body, dict) else {"value": body}
    return {"truncated": text[:_BODY_LOG_LIMIT]}


def log_request(*, user_id: uuid.UUID | None, method: str, endpoint: str, status: int, ip_address: str,
                request_body: Any, response_body: dict | None, bulk_scrape_id: uuid.UUID | None = None) -> None:
    """One row per request, failed ones included. A user id that is not a user is logged without it."""
    with session_scope() as session:
        known = user_id is not None and session.get(Profile, user_id) is not None
        session.add(WebhookRequest(
            user_id=user_id if known else None,
            method=method[:8],
            endpoint=endpoint[:255],
            response_status=status,
            ip_address=(ip_address or "")[:64],
            bulk_scrape_id=bulk_scrape_id,
            request_body=_trim(request_body),
            response_body=_trim(response_body),
        ))


@dataclass(frozen=True)
class LoggedRequest:
    id: uuid.UUID
    created_at: datetime
    method: str
    endpoint: str
    response_status: int
    ip_address: str
    bulk_scrape_id: uuid.UUID | None
    request_body: Any
    response_body: Any


def recent_requests(user_id: uuid.UUID, limit: int = LOG_LIMIT, endpoint_part: str | None = None) -> list[LoggedRequest]:
    """The user's requests, newest first, at most 50 (SPEC 9)."""
    with read_scope() as session:
        query = select(WebhookRequest).where(WebhookRequest.user_id == user_id)
        if endpoint_part:
            query = query.where(WebhookRequest.endpoint.contains(endpoint_part))
        rows = session.exec(query.order_by(WebhookRequest.created_at.desc()).limit(min(limit, LOG_LIMIT))).all()
        return [LoggedRequest(r.id, r.created_at, r.method, r.endpoint, r.response_status, r.ip_address,
                              r.bulk_scrape_id, r.request_body, r.response_body) for r in rows]


@dataclass(frozen=True)
class KeyState:
    has_key: bool
    hint: str


def key_state(user_id: uuid.UUID) -> KeyState:
    with read_scope() as session:
        profile = session.get(Profile, user_id)
        if profile is None or not profile.webhook_auth_key:
            return KeyState(False, "")
        return KeyState(True, profile.webhook_auth_key_hint or "")


def regenerate_key(user_id: uuid.UUID) -> str:
    """SPEC ``regenerate_webhook_auth_key``: a new key, shown once; the old one stops working."""
    with session_scope() as session:
        return webhook_keys.rotate_key(session, user_id)
