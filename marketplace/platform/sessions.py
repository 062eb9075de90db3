"""Sessions: access and refresh tokens, rotation with reuse detection, sign-out.

Tokens are random 256-bit strings; only their SHA-256 is stored, so a copy of
the database cannot be replayed as a session. Access tokens live
``ACCESS_TOKEN_TTL`` seconds (1 h), refresh tokens ``REFRESH_TOKEN_TTL`` (30 d).

Refresh follows the OAuth 2.0 security best practice (refresh-token rotation
with reuse detection). Each ``auth_sessions`` row is one token family:

- a refresh rotates both tokens and keeps the replaced pair's hashes and the
  rotation time;
- for ``REFRESH_GRACE`` (30 s) after a rotation the replaced access token still
  validates, and presenting the replaced refresh token is answered with the
  user id but no new tokens and no second rotation: two tabs of one browser
  that refresh at the same moment both stay signed in; the tab that lost the
  race keeps its tokens until the winner's new pair reaches it through the
  shared localStorage;
- after the grace, presenting the replaced refresh token means it was copied:
  the whole family (the session) is revoked.

Functions that take a ``session`` work inside the caller's transaction (``marketplace.platform.db``). ``resolve_session``
and ``end_session`` open their own, for the UI.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import Session, select

from marketplace.platform.config import get_settings
from marketplace.platform.devices import clean_device_id
from marketplace.platform.models import AuthSession, utcnow

log = logging.getLogger("marketplace.auth")

REFRESH_GRACE = timedelta(seconds=30)
REFRESH_MARGIN = timedelta(minutes=5)  # an access token this close to its end is refreshed


@dataclass(frozen=True)
class TokenPair:
    access_token: str
    refresh_token: str
    access_expires_at: datetime
    refresh_expires_at: datetime


@dataclass(frozen=True)
class Rotation:
    """A successful refresh: ``pair`` is None when the previous refresh token was
    presented inside the grace period (the caller keeps the tokens it has, and
    ``access_expires_at`` says when the session's current access token ends, so
    it does not try again before the new pair reaches it)."""

    user_id: uuid.UUID
    pair: TokenPair | None
    access_expires_at: datetime | None = None


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _new_pair(now: datetime) -> TokenPair:
    settings = get_settings()
    return TokenPair(
        access_token=secrets.token_urlsafe(32),
        refresh_token=secrets.token_urlsafe(32),
        access_expires_at=now + timedelta(seconds=settings.access_token_ttl),
        refresh_expires_at=now + timedelta(seconds=settings.refresh_token_ttl),
    )


def create_session(
    session: Session,
    user_id: uuid.UUID,
    *,
    user_agent: str = "",
    ip_address: str = "",
    device_id: str = "",
    now: datetime | None = None,
) -> TokenPair:
    now = now or utcnow()
    pair = _new_pair(now)
    session.add(
        AuthSession(
            user_id=user_id,
            access_token_hash=hash_token(pair.access_token),
            refresh_token_hash=hash_token(pair.refresh_token),
            access_expires_at=pair.access_expires_at,
            refresh_expires_at=pair.refresh_expires_at,
            user_agent=(user_agent or "")[:512],
            ip_address=(ip_address or "")[:64],
            device_id=clean_device_id(device_id),
            created_at=now,
            last_used_at=now,
        )
    )
    session.flush()
    return pair


def _in_grace(row: AuthSession, now: datetime) -> bool:
    return row.rotated_at is not None and now < row.rotated_at + REFRESH_GRACE


@dataclass(frozen=True)
class AccessStatus:
    user_id: uuid.UUID
    expires_at: datetime  # when the session's current access token expires
    previous: bool  # the token was replaced by a rotation less than REFRESH_GRACE ago
    session_id: uuid.UUID | None = None
    last_used_at: datetime | None = None


def access_status(session: Session, token: str | None, now: datetime | None = None) -> AccessStatus | None:
    """A live access token (or the one replaced by a rotation less than
    ``REFRESH_GRACE`` ago) of an unrevoked session; else None."""
    if not token:
        return None
    now = now or utcnow()
    digest = hash_token(token)
    row = session.exec(
        select(AuthSession).where(
            sa.or_(AuthSession.access_token_hash == digest, AuthSession.prev_access_token_hash == digest)
        )
    ).first()
    if row is None or row.revoked:
        return None
    if row.access_token_hash == digest:
        live = row.access_expires_at > now
        return AccessStatus(row.user_id, row.access_expires_at, False, row.id, row.last_used_at) if live else None
    return AccessStatus(row.user_id, row.access_expires_at, True, row.id, row.last_used_at) if _in_grace(row, now) else None


def validate_access_token(session: Session, token: str | None, now: datetime | None = None) -> uuid.UUID | None:
    """The user id of a live access token (see ``access_status``); else None."""
    status = access_status(session, token, now)
    return status.user_id if status is not None else None


def rotate(session: Session, refresh_token: str | None, now: datetime | None = None) -> Rotation | None:
    """Refresh the session holding ``refresh_token`` (see the module text);
    None when it is unknown, expired, revoked, or a reuse that revoked it now."""
    if not refresh_token:
        return None
    now = now or utcnow()
    digest = hash_token(refresh_token)
    row = session.exec(
        select(AuthSession)
        .where(sa.or_(AuthSession.refresh_token_hash == digest, AuthSession.prev_refresh_token_hash == digest))
        .with_for_update()
    ).first()
    if row is None or row.revoked or row.refresh_expires_at <= now:
        return None
    if row.refresh_token_hash != digest:  # the previous refresh token
        if _in_grace(row, now):
            return Rotation(row.user_id, None, row.access_expires_at)
        log.warning("refresh token reused %s after rotation: session %s revoked", now - row.rotated_at, row.id)
        row.revoked = True
        row.revoked_at = now
        session.add(row)
        session.flush()
        return None
    pair = _new_pair(now)
    row.prev_access_token_hash = row.access_token_hash
    row.prev_refresh_token_hash = row.refresh_token_hash
    row.rotated_at = now
    row.access_token_hash = hash_token(pair.access_token)
    row.refresh_token_hash = hash_token(pair.refresh_token)
    row.access_expires_at = pair.access_expires_at
    row.refresh_expires_at = pair.refresh_expires_at
    row.last_used_at = now
    session.add(row)
    session.flush()
    return Rotation(row.user_id, pair, pair.access_expires_at)


def _holding(access_token: str | None, refresh_token: str | None) -> list:
    """Conditions matching the session that holds either token (current or just replaced)."""
    conditions = []
    for token, current, previous in (
        (access_token, AuthSession.access_token_hash, AuthSession.prev_access_token_hash),
        (refresh_token, AuthSession.refresh_token_hash, AuthSession.prev_refresh_token_hash),
    ):
        if token:
            digest = hash_token(token)
            conditions += [current == digest, previous == digest]
    return conditions


def revoke_session(session: Session, access_token: str | None = None, refresh_token: str | None = None) -> bool:
    """Sign out: the session holding either token (current or just replaced)
    stops working at once."""
    conditions = _holding(access_token, refresh_token)
    if not conditions:
        return False
    rows = session.exec(select(AuthSession).where(sa.or_(*conditions))).all()
    for row in rows:
        row.revoked = True
        row.revoked_at = utcnow()
        session.add(row)
    session.flush()
    return bool(rows)


def device_ids(session: Session, user_id: uuid.UUID) -> set[str]:
    """Every browser (device id) the user has ever had a session in."""
    rows = session.exec(
        select(AuthSession.device_id).where(AuthSession.user_id == user_id, AuthSession.device_id != "").distinct()
    ).all()
    return set(rows)


# --------------------------------------------------------------------------- session-owning calls for the UI


@dataclass(frozen=True)
class SessionCheck:
    user_id: uuid.UUID | None
    refreshed: TokenPair | None = None
    # When no new pair was issued: when the session's current access token
    # expires (the server's word, whatever the tab had stored). A tab holding
    # the pair another tab just replaced stores it and does not refresh again;
    # the new pair itself arrives through localStorage.
    current_expires_at: datetime | None = None


def resolve_session(access_token: str, refresh_token: str) -> SessionCheck:
    """Who holds these tokens. A live access token is checked with a read (no
    write lock); only a dead one, or one within ``REFRESH_MARGIN`` of its
    expiry on the server, is refreshed, in a write transaction. ``refreshed``
    is set only when new tokens were issued."""
    from marketplace.platform.db import read_scope, session_scope

    status = None
    if access_token:
        with read_scope() as session:
            status = access_status(session, access_token)
    user_id = status.user_id if status is not None else None
    if status is not None and (status.previous or status.expires_at - utcnow() > REFRESH_MARGIN):
        _touch(status)
        return SessionCheck(user_id, None, status.expires_at)
    if not refresh_token:
        return SessionCheck(user_id)
    with session_scope() as session:
        result = rotate(session, refresh_token)
        if result is None:
            # Dead refresh token: the access token is good only if the session
            # was not just revoked for a reuse.
            return SessionCheck(validate_access_token(session, access_token) if user_id else None)
        if result.pair is None:
            return SessionCheck(result.user_id, None, result.access_expires_at)
        return SessionCheck(result.user_id, result.pair)


LAST_USED_STEP = timedelta(minutes=5)  # "last active" is kept to this precision


def _touch(status: AccessStatus) -> None:
    """Move the session's ``last_used_at`` (Settings > Signed-in devices) forward, at most
    once per ``LAST_USED_STEP``: a short write only when it is stale, never on every event."""
    now = utcnow()
    if status.session_id is None or (status.last_used_at is not None and now - status.last_used_at < LAST_USED_STEP):
        return
    from marketplace.platform.db import session_scope

    sessions = AuthSession.__table__
    with session_scope() as session:
        session.execute(
            sa.update(sessions)
            .where(sessions.c.id == status.session_id, sessions.c.last_used_at < now - LAST_USED_STEP)
            .values(last_used_at=now)
        )


def end_session(access_token: str, refresh_token: str) -> bool:
    """Sign out (write transaction)."""
    from marketplace.platform.db import session_scope

    with session_scope() as session:
        return revoke_session(session, access_token, refresh_token)


# --------------------------------------------------------------------------- a user's own sessions (Settings tab)


def session_id_for(session: Session, access_token: str | None, refresh_token: str | None = None) -> uuid.UUID | None:
    """The id of the live session holding either token (current or just replaced)."""
    conditions = _holding(access_token, refresh_token)
    if not conditions:
        return None
    return session.exec(
        select(AuthSession.id).where(sa.or_(*conditions), AuthSession.revoked == sa.false())
    ).first()


def live_sessions(session: Session, user_id: uuid.UUID, now: datetime | None = None) -> list[AuthSession]:
    """The user's sessions that can still be used (not revoked, refresh token
    unexpired), most recently used first."""
    now = now or utcnow()
    return list(session.exec(
        select(AuthSession)
        .where(AuthSession.user_id == user_id, AuthSession.revoked == sa.false(), AuthSession.refresh_expires_at > now)
        .order_by(AuthSession.last_used_at.desc(), AuthSession.created_at.desc())
    ).all())


def revoke_user_sessions(
    session: Session, user_id: uuid.UUID, *, only: uuid.UUID | None = None, keep: uuid.UUID | None = None
) -> int:
    """Revoke the user's live sessions (only ``only`` when given; all but
    ``keep`` when given). Never touches another user's session: the user id
    is part of the condition. Returns how many were revoked."""
    table = AuthSession.__table__
    stmt = sa.update(table).where(table.c.user_id == user_id, table.c.revoked == sa.false())
    if only is not None:
        stmt = stmt.where(table.c.id == only)
    if keep is not None:
        stmt = stmt.where(table.c.id != keep)
    result = session.execute(stmt.values(revoked=True, revoked_at=utcnow()))
    return result.rowcount or 0
