"""Sign-in and sign-up throttling, from the rows of ``login_attempts``.

Sign-in: failures are counted inside ``LOGIN_WINDOW_SECONDS`` (15 min) in two
scopes, and an attempt must wait once either is over its allowance:

- per (e-mail, IP): ``LOGIN_MAX_FAILURES`` (5). A success for that e-mail from
  that IP starts the count again (it took the password, so it helps no
  attacker). Keyed by IP as well, so a lockout of an address from one network
  never locks its owner out from another.
- per IP: ``IP_ALLOWANCE_FACTOR`` (4) times as many, whatever the e-mails,
  and never reset by a success: one attacker with one account of their own
  cannot buy more guesses by signing into it.

Over the allowance each further attempt waits 30 s x 2^(failures - allowance)
after the last failure (capped at the window). A refused attempt does not
check the password and is not recorded.

Sign-up: at most ``SIGNUP_MAX_PER_HOUR`` (10) per IP in any hour.

Password reset requests ("Forgot password?"): at most ``RESET_MAX_PER_ADDRESS``
(3) per typed e-mail address and ``RESET_MAX_PER_IP`` (10) per IP in any hour,
counted whether or not an account exists for the address (so the refusal tells
nothing about it): a mailbox cannot be flooded with reset mails, and one
network cannot probe or spam many addresses.

Functions that take a ``session`` work inside the caller's transaction (``marketplace.platform.db``).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import sqlalchemy as sa
from sqlmodel import Session, func, select

from marketplace.platform.config import get_settings
from marketplace.platform.models import LoginAttempt, utcnow

IP_ALLOWANCE_FACTOR = 4
SIGN_IN = "sign_in"
SIGN_UP = "sign_up"
RESET_REQUEST = "reset_request"
SIGNUP_WINDOW = timedelta(hours=1)
RESET_WINDOW = timedelta(hours=1)
RESET_MAX_PER_ADDRESS = 3
RESET_MAX_PER_IP = 10
EMAIL_COLUMN_WIDTH = 320


def _aware(value):
    if isinstance(value, str):  # SQLite aggregate over a TypeDecorator comes back raw
        value = datetime.fromisoformat(value)
    if value is not None and value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value


def _throttle_wait(failures: int, allowance: int, last_failure: datetime | None, now: datetime, window: int) -> int:
    if failures < allowance or last_failure is None:
        return 0
    delay = min(30 * 2 ** (failures - allowance), window)
    remaining = (last_failure + timedelta(seconds=delay) - now).total_seconds()
    return max(0, int(remaining + 0.999))


def throttle_wait(session: Session, email: str, ip_address: str, now: datetime | None = None) -> int:
    """Seconds this (e-mail, IP) or this IP must wait before another sign-in attempt (0 = go)."""
    settings = get_settings()
    now = now or utcnow()
    since = now - timedelta(seconds=settings.login_window_seconds)
    is_sign_in = LoginAttempt.kind == SIGN_IN
    # (condition, allowance, a success starts the count again)
    scopes = [(
        sa.and_(LoginAttempt.email == email[:EMAIL_COLUMN_WIDTH], LoginAttempt.ip_address == ip_address),
        settings.login_max_failures,
        True,
    )]
    if ip_address:
        scopes.append((LoginAttempt.ip_address == ip_address, settings.login_max_failures * IP_ALLOWANCE_FACTOR, False))
    waits = [0]
    for condition, allowance, resets in scopes:
        start = since
        if resets:
            last_success = _aware(session.exec(
                select(func.max(LoginAttempt.created_at)).where(condition, is_sign_in, LoginAttempt.succeeded == sa.true())
            ).one())
            if last_success is not None:
                start = max(since, last_success)
        count, last = session.exec(
            select(func.count(), func.max(LoginAttempt.created_at)).where(
                condition, is_sign_in, LoginAttempt.succeeded == sa.false(), LoginAttempt.created_at > start
            )
        ).one()
        waits.append(_throttle_wait(count, allowance, _aware(last), now, settings.login_window_seconds))
    return max(waits)


def record_sign_in(session: Session, email: str, ip_address: str, succeeded: bool, now: datetime | None = None) -> None:
    _record(session, email, ip_address, succeeded, SIGN_IN, now)


def _window_wait(session: Session, condition, limit: int, window: timedelta, now: datetime) -> int:
    """Seconds until fewer than ``limit`` attempts matching ``condition`` lie inside ``window`` (0 = go)."""
    recent = session.exec(
        select(LoginAttempt.created_at)
        .where(condition, LoginAttempt.created_at > now - window)
        .order_by(LoginAttempt.created_at.desc())
        .limit(limit)
    ).all()
    if len(recent) < limit:
        return 0
    # The oldest of the last ``limit`` attempts must leave the window first.
    free_at = _aware(recent[-1]) + window
    return max(1, int((free_at - now).total_seconds() + 0.999))


def signup_wait(session: Session, ip_address: str, now: datetime | None = None) -> int:
    """Seconds until this IP may sign up again (0 = go)."""
    if not ip_address:
        return 0
    condition = sa.and_(LoginAttempt.kind == SIGN_UP, LoginAttempt.ip_address == ip_address)
    return _window_wait(session, condition, get_settings().signup_max_per_hour, SIGNUP_WINDOW, now or utcnow())


def reset_request_wait(session: Session, email: str, ip_address: str, now: datetime | None = None) -> int:
    """Seconds until another password reset may be requested for ``email`` from this IP (0 = go)."""
    now = now or utcnow()
    is_reset = LoginAttempt.kind == RESET_REQUEST
    waits = [_window_wait(session, sa.and_(is_reset, LoginAttempt.email == email[:EMAIL_COLUMN_WIDTH]),
                          RESET_MAX_PER_ADDRESS, RESET_WINDOW, now)]
    if ip_address:
        waits.append(_window_wait(session, sa.and_(is_reset, LoginAttempt.ip_address == ip_address),
                                  RESET_MAX_PER_IP, RESET_WINDOW, now))
    return max(waits)


def record_reset_request(session: Session, email: str, ip_address: str, now: datetime | None = None) -> None:
    _record(session, email, ip_address, True, RESET_REQUEST, now)


def _record(session: Session, email: str, ip_address: str, succeeded: bool, kind: str, now: datetime | None) -> None:
    session.add(LoginAttempt(
        email=(email or "")[:EMAIL_COLUMN_WIDTH], ip_address=(ip_address or "")[:64], succeeded=succeeded,
        kind=kind, created_at=now or utcnow(),
    ))
    session.flush()


def record_sign_up(session: Session, email: str, ip_address: str, now: datetime | None = None) -> None:
    _record(session, email, ip_address, True, SIGN_UP, now)
