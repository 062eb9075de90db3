"""The webhook API's database side (SPEC 3, 6, 7, 8): who is calling, the
request log, refused-request counts, ``Idempotency-Key`` claims, and the key's
management for the UI.

Keys are stored as SHA-256 (``scrape.service_webhook_keys``); the check compares
hashes in constant time, and runs the same work for an unknown user as for a
known one, so timing does not tell which ids exist beyond what 404 says.

Only requests that passed the key check are logged in the user's
``webhook_requests`` (newest ``LOG_KEEP_ROWS`` per user, none older than
``LOG_MAX_AGE_DAYS``, bodies capped at ``LOG_BODY_CHARS``: ``scrape.rules_webhook``).
Refused requests (401, 404, 413, 429) are counted in memory per (minute, IP,
path, status) and written in batches (``RefusalCounter``): never one write per
refusal, never a body.
"""

from __future__ import annotations

import hmac
import json
import logging
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from marketplace.features.scrape import rules_webhook as contract
from marketplace.platform.db import read_scope, session_scope
from marketplace.platform.texts import INVALID_AUTH_KEY, USER_NOT_FOUND
from marketplace.platform.models import (
    BulkScrape,
    Profile,
    WebhookIdempotencyKey,
    WebhookRefusal,
    WebhookRequest,
    utcnow,
)
from marketplace.platform import process_identity
from marketplace.features.scrape import service_webhook_keys as webhook_keys
from marketplace.platform.admins import is_super_admin
from marketplace.platform.sessions import hash_token
from marketplace.features.scrape.service_known_refusals import known_refusals

log = logging.getLogger("marketplace.webhook")

LOG_LIMIT = contract.LOG_SHOWN
_DUMMY_HASH = hash_token("no-such-key")


@dataclass(frozen=True)
class Caller:
    user_id: uuid.UUID
    is_super_admin: bool


class CallerError(Exception):
    """A refused webhook API call; the JSON body's ``error`` is ``message``. Not a
    ``platform.errors.UserError``: an API caller gets a status code (``features/scrape/api_webhook.py``), not a toast."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class UnknownUser(CallerError):
    """The path names no user."""


class BadKey(CallerError):
    """The ``x-webhook-auth`` key is missing or not the user's."""


def parse_user_id(raw: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(str(raw))
    except ValueError:
        return None


def key_hash(key: str | None) -> str:
    """The presented key as it is stored and remembered (its SHA-256); a stand-in hash for no key, so
    a missing key costs the same work as a wrong one. Hashed once per call: the gate or the route."""
    return hash_token(key) if key else _DUMMY_HASH


def authenticate(user_id: uuid.UUID | None, key: str | None) -> Caller:
    """The caller for ``user_id`` holding ``key``; ``UnknownUser`` or ``BadKey`` otherwise."""
    return check_key(user_id, key_hash(key))


def check_key(user_id: uuid.UUID | None, presented: str) -> Caller:
    """``authenticate`` for a key already hashed (``key_hash``)."""
    stored = None
    found = False
    admin = False
    if user_id is not None:
        with read_scope() as session:
            profile = session.get(Profile, user_id)
            if profile is not None:
                found = True
                stored = profile.webhook_auth_key
                admin = is_super_admin(user_id, session)
    matches = hmac.compare_digest(stored or _DUMMY_HASH, presented) and bool(stored) and presented != _DUMMY_HASH
    if not found:
        known_refusals.remember(user_id, presented, 404)
        raise UnknownUser(USER_NOT_FOUND)
    if not matches:
        known_refusals.remember(user_id, presented, 401)
        raise BadKey(INVALID_AUTH_KEY)
    return Caller(user_id=user_id, is_super_admin=admin)


def known_refusal(user_id: uuid.UUID | None, presented: str) -> CallerError | None:
    """The refusal ``check_key`` gave this (user, hashed key) moments ago (``scrape.service_known_refusals``),
    without a database read; None when there is none to repeat (the database must be asked)."""
    status = 404 if user_id is None else known_refusals.status(user_id, presented)
    if status == 404:
        return UnknownUser(USER_NOT_FOUND)
    if status == 401:
        return BadKey(INVALID_AUTH_KEY)
    return None


# --------------------------------------------------------------------------- the request log


def _without_nul(value: Any) -> Any:
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, dict):
        return {_without_nul(str(k)): _without_nul(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_nul(v) for v in value]
    return value


def _trim(body: Any) -> Any:
    """A JSON-safe body for the log, at most ``LOG_BODY_CHARS`` characters, without NUL characters
    (PostgreSQL's JSON refuses them; a log row must never fail the scrape it is written with)."""
    if body is None:
        return None
    try:
        text = json.dumps(body, default=str, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return {"unreadable": True}
    if "\\u0000" in text:
        body = _without_nul(body)
        text = json.dumps(body, default=str)
    if len(text) <= contract.LOG_BODY_CHARS:
        return body if isinstance(body, dict) else {"value": body}
    return {"truncated": text[:contract.LOG_BODY_CHARS]}


def _prune(session: Session, user_id: uuid.UUID, now: datetime) -> None:
    """Keep the user's newest ``LOG_KEEP_ROWS`` rows, none older than ``LOG_MAX_AGE_DAYS`` (one
    index range read and one delete, in the insert's transaction)."""
    table = WebhookRequest.__table__
    oldest_kept = session.execute(
        sa.select(table.c.created_at).where(table.c.user_id == user_id)
        .order_by(table.c.created_at.desc()).offset(contract.LOG_KEEP_ROWS - 1).limit(1)
    ).scalar()
    too_old = table.c.created_at < now - timedelta(days=contract.LOG_MAX_AGE_DAYS)
    condition = too_old if oldest_kept is None else sa.or_(too_old, table.c.created_at < oldest_kept)
    session.execute(sa.delete(table).where(table.c.user_id == user_id, condition))


def record_request(session: Session, *, user_id: uuid.UUID, method: str, endpoint: str, status: int,
                   ip_address: str, request_body: Any, response_body: dict | None,
                   bulk_scrape_id: uuid.UUID | None = None) -> None:
    """One log row for a request that passed the key check, in the caller's transaction
    (an accepted scrape logs in its own), then the user's log is pruned."""
    now = utcnow()
    session.add(WebhookRequest(
        user_id=user_id,
        created_at=now,
        method=method[:8],
        endpoint=endpoint[:255],
        response_status=status,
        ip_address=(ip_address or "")[:64],
        bulk_scrape_id=bulk_scrape_id,
        request_body=_trim(request_body),
        response_body=_trim(response_body),
    ))
    session.flush()
    _prune(session, user_id, now)


def log_request(**entry) -> None:
    """``record_request`` in a transaction of its own (a refused or failed request of a key holder)."""
    with session_scope() as session:
        record_request(session, **entry)


# --------------------------------------------------------------------------- refused requests


class RefusalCounter:
    """Refused requests counted in memory per (minute, IP, path, status) and written in one batch
    (an upsert into ``webhook_refusals``) at most every ``REFUSAL_FLUSH_SECONDS`` by one flusher.
    At most ``REFUSAL_MAX_KEYS`` distinct keys wait between flushes; beyond that a refusal is
    counted under IP and path '*'."""

    def __init__(self, max_keys: int = contract.REFUSAL_MAX_KEYS):
        self.max_keys = max_keys
        self._lock = threading.Lock()
        self._counts: dict[tuple[datetime, str, str, int], int] = {}
        self._scheduled_at: float | None = None  # monotonic time a flush was asked for

    def count(self, ip_address: str, endpoint: str, status: int, now: datetime | None = None) -> bool:
        """Count one refusal. True when the caller must schedule a ``flush`` (none is pending)."""
        minute = (now or utcnow()).replace(second=0, microsecond=0)
        key = (minute, (ip_address or "")[:64], endpoint[:255], status)
        with self._lock:
            if key not in self._counts and len(self._counts) >= self.max_keys:
                key = (minute, "*", "*", status)
            self._counts[key] = self._counts.get(key, 0) + 1
            clock = time.monotonic()
            # A flush asked for long ago and never run (its task was cancelled) no longer counts.
            if self._scheduled_at is not None and clock - self._scheduled_at < 3 * contract.REFUSAL_FLUSH_SECONDS:
                return False
            self._scheduled_at = clock
            return True

    def pending(self) -> int:
        with self._lock:
            return sum(self._counts.values())

    def flush(self, now: datetime | None = None) -> int:
        """Write the counts (one transaction) and drop buckets older than ``REFUSAL_KEEP_DAYS``.
        Returns how many refusals were written. A failed write keeps the counts for the next one."""
        with self._lock:
            counts, self._counts = self._counts, {}
            self._scheduled_at = None
        if not counts:
            return 0
        rows = [{"minute": m, "ip_address": ip, "endpoint": path, "status": status, "count": n}
                for (m, ip, path, status), n in counts.items()]
        try:
            with session_scope() as session:
                table = WebhookRefusal.__table__
                if session.get_bind().dialect.name == "postgresql":
                    from sqlalchemy.dialects.postgresql import insert
                else:
                    from sqlalchemy.dialects.sqlite import insert
                stmt = insert(table)
                session.execute(stmt.on_conflict_do_update(
                    index_elements=[table.c.minute, table.c.ip_address, table.c.endpoint, table.c.status],
                    set_={"count": table.c.count + stmt.excluded.count},
                ), rows)
                cutoff = (now or utcnow()) - timedelta(days=contract.REFUSAL_KEEP_DAYS)
                session.execute(sa.delete(table).where(table.c.minute < cutoff))
        except Exception:  # noqa: BLE001 - counting must never fail a request; keep the counts
            log.exception("could not write webhook refusal counts")
            with self._lock:
                for key, n in counts.items():
                    if key in self._counts or len(self._counts) < self.max_keys:
                        self._counts[key] = self._counts.get(key, 0) + n
            return 0
        return sum(counts.values())


refusals = RefusalCounter()


# --------------------------------------------------------------------------- Idempotency-Key


@dataclass(frozen=True)
class Claim:
    """What an ``Idempotency-Key`` allows: 'run' (taken: ``claim_id``), 'replay' (``status`` and
    ``body`` of the first answer), 'busy' (a request with it is running) or 'mismatch' (used with
    another body)."""

    outcome: str
    claim_id: int | None = None
    status: int | None = None
    body: dict = field(default_factory=dict)


def claim_idempotency_key(user_id: uuid.UUID, key: str, fingerprint: str, now: datetime | None = None) -> Claim:
    """Take ``key`` for this request before the scrape runs, or say why not. An answered key older
    than ``IDEMPOTENCY_TTL_HOURS``, or an unanswered one whose server process is gone from this machine
    (``process_identity``) or older than ``IDEMPOTENCY_STALE_MINUTES`` (its worker died), is taken over.
    The UNIQUE (user_id, key) lets one of two concurrent requests take it; the other is told it is busy."""
    now = now or utcnow()
    try:
        with session_scope() as session:
            row = session.exec(select(WebhookIdempotencyKey).where(
                WebhookIdempotencyKey.user_id == user_id, WebhookIdempotencyKey.key == key).with_for_update()).first()
            if row is not None:
                expired = row.created_at < now - timedelta(hours=contract.IDEMPOTENCY_TTL_HOURS)
                # unanswered and its server process is gone (or, held elsewhere, 15 minutes old): free
                stale = row.status is None and (row.created_at < now - timedelta(
                    minutes=contract.IDEMPOTENCY_STALE_MINUTES) or not process_identity.alive(row.holder))
                if not (expired or stale):
                    if row.body_sha256 != fingerprint:
                        return Claim("mismatch")
                    if row.status is None:
                        return Claim("busy")
                    return Claim("replay", status=row.status, body=_replay_body(session, row))
                session.delete(row)
                session.flush()
            claim = WebhookIdempotencyKey(user_id=user_id, key=key, body_sha256=fingerprint, created_at=now,
                                          holder=process_identity.current())
            session.add(claim)
            session.flush()
            claim_id = claim.id
    except IntegrityError:
        return Claim("busy")  # a concurrent request took it first
    return Claim("run", claim_id=claim_id)


def _replay_body(session: Session, row: WebhookIdempotencyKey) -> dict:
    body = dict(row.response_body or {})
    if row.bulk_scrape_id is not None and "output" in body:
        scrape = session.get(BulkScrape, row.bulk_scrape_id)
        body["output"] = list(scrape.output or []) if scrape is not None else []
    return body


def complete_idempotency_key(session: Session, claim_id: int, status: int, body: dict,
                             bulk_scrape_id: uuid.UUID | None) -> None:
    """Record the answer a claimed key replays, in the caller's (the scrape's) transaction. The
    leads are not copied: a replay reads them back from the scrape."""
    stored = {**body, "output": []} if "output" in body else body
    session.execute(sa.update(WebhookIdempotencyKey.__table__)
                    .where(WebhookIdempotencyKey.__table__.c.id == claim_id)
                    .values(status=status, response_body=stored, bulk_scrape_id=bulk_scrape_id))


def release_idempotency_key(claim_id: int) -> None:
    """Give an unanswered key back (the request failed and charged nothing: a retry may run)."""
    table = WebhookIdempotencyKey.__table__
    with session_scope() as session:
        session.execute(sa.delete(table).where(table.c.id == claim_id, table.c.status.is_(None)))


# --------------------------------------------------------------------------- expiry (the daily job)


def expire(now: datetime | None = None) -> dict:
    """Delete log rows older than ``LOG_MAX_AGE_DAYS``, refusal buckets older than ``REFUSAL_KEEP_DAYS``
    and idempotency keys past ``IDEMPOTENCY_TTL_HOURS`` (for users who stopped calling; the insert
    prunes an active user's log)."""
    now = now or utcnow()
    requests, refused, keys = (WebhookRequest.__table__, WebhookRefusal.__table__,
                               WebhookIdempotencyKey.__table__)
    with session_scope() as session:
        return {
            "requests": session.execute(sa.delete(requests).where(
                requests.c.created_at < now - timedelta(days=contract.LOG_MAX_AGE_DAYS))).rowcount,
            "refusals": session.execute(sa.delete(refused).where(
                refused.c.minute < now - timedelta(days=contract.REFUSAL_KEEP_DAYS))).rowcount,
            "idempotency_keys": session.execute(sa.delete(keys).where(
                keys.c.created_at < now - timedelta(hours=contract.IDEMPOTENCY_TTL_HOURS))).rowcount,
        }


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
        key = webhook_keys.rotate_key(session, user_id)
    known_refusals.forget_user(user_id)
    return key
