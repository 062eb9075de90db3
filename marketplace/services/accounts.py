"""Accounts, sign-in throttling, sessions (access + refresh tokens) and
e-mail confirmation.

Tokens are random 256-bit strings; only their SHA-256 is stored, so a copy of
the database cannot be replayed as a session. Access tokens live
``ACCESS_TOKEN_TTL`` seconds (1 h), refresh tokens ``REFRESH_TOKEN_TTL`` (30 d);
refreshing rotates both, so a stolen old refresh token is worthless.

Throttle: failed sign-ins are recorded per e-mail and per IP. Once an e-mail
has ``LOGIN_MAX_FAILURES`` (5) failures inside ``LOGIN_WINDOW_SECONDS`` (15 min),
each further attempt must wait 30 s x 2^(failures - 5) after the last failure
(capped at the window); an IP gets four times the allowance. A refused attempt
does not check the password and is not recorded.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, func, select

from marketplace.config import get_settings
from marketplace.core import accounts as rules
from marketplace.models import (
    AuthSession,
    LoginAttempt,
    Profile,
    Subscription,
    SuperAdmin,
    User,
    utcnow,
)
from marketplace.services import ledger
from marketplace.services.mail import send_mail

_hasher = PasswordHasher()  # Argon2id, library defaults (RFC 9106 low-memory profile)
_DUMMY_HASH = _hasher.hash("not-a-real-password")
CONFIRM_TTL = timedelta(days=3)
IP_ALLOWANCE_FACTOR = 4


class AuthError(Exception):
    """A sign-in or sign-up refusal the UI shows as ``title: message``."""

    def __init__(self, title: str, message: str, retry_after: int | None = None):
        super().__init__(message)
        self.title = title
        self.message = message
        self.retry_after = retry_after


@dataclass(frozen=True)
class TokenPair:
    access_token: str
    refresh_token: str
    access_expires_at: datetime
    refresh_expires_at: datetime


@dataclass(frozen=True)
class CurrentUser:
    id: uuid.UUID
    email: str
    first_name: str
    last_name: str
    credits: int
    email_confirmed: bool
    is_super_admin: bool


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def _verify_password(stored: str, password: str) -> bool:
    try:
        return _hasher.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


# --------------------------------------------------------------------------- users


def _unique_referral_code(session: Session) -> str:
    for _ in range(20):
        code = rules.generate_referral_code()
        if session.exec(select(Profile.user_id).where(func.upper(Profile.referral_code) == code)).first() is None:
            return code
    raise RuntimeError("could not generate a unique referral code")


def find_user_by_email(session: Session, email: str) -> User | None:
    return session.exec(select(User).where(User.email == email.strip().lower())).first()


def create_user(
    session: Session,
    email: str,
    password: str,
    first_name: str,
    last_name: str,
    *,
    credits: int = 0,
    confirmed: bool = False,
    admin: bool = False,
    referred_by: uuid.UUID | None = None,
) -> User:
    """Create a user with profile (and optional opening credits through the ledger).

    Raises ``AuthError('Sign Up Failed', 'User already registered')`` for a
    taken e-mail and ``ValueError`` for a malformed e-mail or short password.
    """
    email = rules.normalize_email(email)
    if len(password) < rules.PASSWORD_MIN_LENGTH:
        raise ValueError(rules.PASSWORD_TOO_SHORT[1])
    if find_user_by_email(session, email) is not None:
        raise AuthError("Sign Up Failed", rules.ALREADY_REGISTERED)
    user = User(email=email, password_hash=hash_password(password), email_confirmed_at=utcnow() if confirmed else None)
    session.add(user)
    try:
        session.flush()
    except IntegrityError as exc:  # a concurrent sign-up with the same e-mail
        raise AuthError("Sign Up Failed", rules.ALREADY_REGISTERED) from exc
    session.add(
        Profile(
            user_id=user.id,
            first_name=first_name.strip(),
            last_name=last_name.strip(),
            referral_code=_unique_referral_code(session),
            referred_by=referred_by,
        )
    )
    session.add(Subscription(user_id=user.id))
    session.flush()
    if credits:
        ledger.apply_credits(session, user.id, credits, "admin_grant", reference_id=None)
    if admin:
        session.add(SuperAdmin(user_id=user.id))
        session.flush()
    return user


def resolve_referrer(session: Session, code: str | None) -> uuid.UUID | None:
    """The user owning referral ``code`` (case-insensitive), or None."""
    if not code or not rules.is_valid_referral_code(code):
        return None
    return session.exec(
        select(Profile.user_id).where(func.upper(Profile.referral_code) == code.upper())
    ).first()


def sign_up(
    session: Session,
    *,
    first_name: str,
    last_name: str,
    email: str,
    password: str,
    confirm_password: str,
    referral_code: str | None = None,
    user_agent: str = "",
    ip_address: str = "",
) -> tuple[User, TokenPair]:
    """Validate, create the account, send the confirmation e-mail, open a session."""
    try:
        normalized = rules.validate_sign_up(first_name, last_name, email, password, confirm_password)
    except rules.ValidationError as exc:
        raise AuthError(exc.title, exc.message) from exc
    user = create_user(
        session, normalized, password, first_name, last_name,
        referred_by=resolve_referrer(session, referral_code),
    )
    send_confirmation_email(session, user)
    return user, create_session(session, user.id, user_agent=user_agent, ip_address=ip_address)


# --------------------------------------------------------------------------- throttle


def _throttle_wait(failures: int, allowance: int, last_failure: datetime | None, now: datetime, window: int) -> int:
    if failures < allowance or last_failure is None:
        return 0
    delay = min(30 * 2 ** (failures - allowance), window)
    remaining = (last_failure + timedelta(seconds=delay) - now).total_seconds()
    return max(0, int(remaining + 0.999))


def throttle_wait(session: Session, email: str, ip_address: str, now: datetime | None = None) -> int:
    """Seconds this e-mail or IP must wait before another sign-in attempt (0 = go)."""
    settings = get_settings()
    now = now or utcnow()
    since = now - timedelta(seconds=settings.login_window_seconds)
    waits = [0]
    scopes = [(LoginAttempt.email == email, settings.login_max_failures)]
    if ip_address:
        scopes.append((LoginAttempt.ip_address == ip_address, settings.login_max_failures * IP_ALLOWANCE_FACTOR))
    for condition, allowance in scopes:
        last_success = session.exec(
            select(func.max(LoginAttempt.created_at)).where(condition, LoginAttempt.succeeded == sa.true())
        ).one()
        start = max(since, last_success) if last_success else since
        count, last = session.exec(
            select(func.count(), func.max(LoginAttempt.created_at)).where(
                condition, LoginAttempt.succeeded == sa.false(), LoginAttempt.created_at > start
            )
        ).one()
        if isinstance(last, str):  # SQLite aggregate over a TypeDecorator comes back raw
            last = datetime.fromisoformat(last)
        if last is not None and last.tzinfo is None:
            last = last.replace(tzinfo=timezone.utc)
        waits.append(_throttle_wait(count, allowance, last, now, settings.login_window_seconds))
    return max(waits)


def sign_in(
    session: Session, email: str, password: str, *, user_agent: str = "", ip_address: str = "",
    now: datetime | None = None,
) -> tuple[User, TokenPair]:
    """Check the password and open a session; the same message for any wrong input."""
    now = now or utcnow()
    try:
        normalized = rules.normalize_email(email)
    except ValueError:
        normalized = (email or "").strip().lower()
    wait = throttle_wait(session, normalized, ip_address, now)
    if wait:
        raise AuthError(
            "Sign In Failed",
            f"Too many failed sign-in attempts. Please wait {wait} seconds and try again.",
            retry_after=wait,
        )
    user = find_user_by_email(session, normalized)
    ok = _verify_password(user.password_hash if user else _DUMMY_HASH, password or "") and user is not None
    session.add(LoginAttempt(email=normalized, ip_address=ip_address, succeeded=ok, created_at=now))
    session.flush()
    if not ok:
        # The failure must survive the caller's rollback: it feeds the throttle.
        session.commit()
        raise AuthError("Sign In Failed", rules.INVALID_CREDENTIALS)
    return user, create_session(session, user.id, user_agent=user_agent, ip_address=ip_address, now=now)


# --------------------------------------------------------------------------- sessions


def create_session(
    session: Session, user_id: uuid.UUID, *, user_agent: str = "", ip_address: str = "", now: datetime | None = None
) -> TokenPair:
    settings = get_settings()
    now = now or utcnow()
    pair = TokenPair(
        access_token=secrets.token_urlsafe(32),
        refresh_token=secrets.token_urlsafe(32),
        access_expires_at=now + timedelta(seconds=settings.access_token_ttl),
        refresh_expires_at=now + timedelta(seconds=settings.refresh_token_ttl),
    )
    session.add(
        AuthSession(
            user_id=user_id,
            access_token_hash=hash_token(pair.access_token),
            refresh_token_hash=hash_token(pair.refresh_token),
            access_expires_at=pair.access_expires_at,
            refresh_expires_at=pair.refresh_expires_at,
            user_agent=(user_agent or "")[:512],
            ip_address=(ip_address or "")[:64],
            created_at=now,
            last_used_at=now,
        )
    )
    session.flush()
    return pair


def validate_access_token(session: Session, token: str | None, now: datetime | None = None) -> uuid.UUID | None:
    """The user id of a live, unrevoked, unexpired access token; else None."""
    if not token:
        return None
    now = now or utcnow()
    row = session.exec(select(AuthSession).where(AuthSession.access_token_hash == hash_token(token))).first()
    if row is None or row.revoked or row.access_expires_at <= now:
        return None
    return row.user_id


def refresh_session(session: Session, refresh_token: str | None, now: datetime | None = None) -> TokenPair | None:
    """Rotate both tokens of the session holding ``refresh_token``; None if it is dead."""
    if not refresh_token:
        return None
    settings = get_settings()
    now = now or utcnow()
    row = session.exec(
        select(AuthSession).where(AuthSession.refresh_token_hash == hash_token(refresh_token)).with_for_update()
    ).first()
    if row is None or row.revoked or row.refresh_expires_at <= now:
        return None
    pair = TokenPair(
        access_token=secrets.token_urlsafe(32),
        refresh_token=secrets.token_urlsafe(32),
        access_expires_at=now + timedelta(seconds=settings.access_token_ttl),
        refresh_expires_at=now + timedelta(seconds=settings.refresh_token_ttl),
    )
    row.access_token_hash = hash_token(pair.access_token)
    row.refresh_token_hash = hash_token(pair.refresh_token)
    row.access_expires_at = pair.access_expires_at
    row.refresh_expires_at = pair.refresh_expires_at
    row.last_used_at = now
    session.add(row)
    session.flush()
    return pair


def revoke_session(session: Session, access_token: str | None = None, refresh_token: str | None = None) -> bool:
    """Sign out: the session holding either token stops working at once."""
    conditions = []
    if access_token:
        conditions.append(AuthSession.access_token_hash == hash_token(access_token))
    if refresh_token:
        conditions.append(AuthSession.refresh_token_hash == hash_token(refresh_token))
    if not conditions:
        return False
    rows = session.exec(select(AuthSession).where(sa.or_(*conditions))).all()
    for row in rows:
        row.revoked = True
        row.revoked_at = utcnow()
        session.add(row)
    session.flush()
    return bool(rows)


def is_super_admin(session: Session, user_id: uuid.UUID) -> bool:
    return session.get(SuperAdmin, user_id) is not None


def current_user(session: Session, user_id: uuid.UUID) -> CurrentUser | None:
    row = session.exec(select(User, Profile).join(Profile, Profile.user_id == User.id).where(User.id == user_id)).first()
    if row is None:
        return None
    user, profile = row
    return CurrentUser(
        id=user.id,
        email=user.email,
        first_name=profile.first_name,
        last_name=profile.last_name,
        credits=profile.credits_remaining,
        email_confirmed=user.email_confirmed_at is not None,
        is_super_admin=is_super_admin(session, user.id),
    )


def make_admin(session: Session, email: str) -> User:
    user = find_user_by_email(session, email)
    if user is None:
        raise LookupError(f"No user with e-mail {email}")
    if session.get(SuperAdmin, user.id) is None:
        session.add(SuperAdmin(user_id=user.id))
        session.flush()
    return user


# --------------------------------------------------------------------------- e-mail confirmation


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def make_confirmation_token(user_id: uuid.UUID, now: datetime | None = None) -> str:
    expires = int(((now or utcnow()) + CONFIRM_TTL).timestamp())
    payload = f"confirm:{user_id}:{expires}".encode()
    sig = hmac.new(get_settings().secret_key.encode(), payload, hashlib.sha256).digest()
    return f"{_b64(payload)}.{_b64(sig)}"


def read_confirmation_token(token: str, now: datetime | None = None) -> uuid.UUID | None:
    try:
        payload_b64, sig_b64 = token.split(".", 1)
        payload = _unb64(payload_b64)
        expected = hmac.new(get_settings().secret_key.encode(), payload, hashlib.sha256).digest()
        if not hmac.compare_digest(expected, _unb64(sig_b64)):
            return None
        kind, user_id, expires = payload.decode().split(":")
        if kind != "confirm" or int(expires) < (now or utcnow()).timestamp():
            return None
        return uuid.UUID(user_id)
    except (ValueError, UnicodeDecodeError):
        return None


def send_confirmation_email(session: Session, user: User) -> None:
    link = f"{get_settings().site_url}/auth/callback?token={make_confirmation_token(user.id)}"
    send_mail(
        session,
        user.email,
        "Confirm your e-mail address",
        "Welcome to LeadVault!\n\nConfirm your e-mail address by opening this link "
        f"(valid for 3 days):\n\n{link}\n\nIf you did not sign up, ignore this message.\n",
    )


def confirm_email(
    session: Session, token: str, *, user_agent: str = "", ip_address: str = ""
) -> tuple[User, TokenPair] | None:
    """Mark the e-mail confirmed and sign the user in; None for a bad, stale or used link."""
    user_id = read_confirmation_token(token)
    if user_id is None:
        return None
    user = session.get(User, user_id)
    # Single use: once the address is confirmed the link no longer signs anyone in.
    if user is None or user.email_confirmed_at is not None:
        return None
    user.email_confirmed_at = utcnow()
    session.add(user)
    return user, create_session(session, user.id, user_agent=user_agent, ip_address=ip_address)


# --------------------------------------------------------------------------- session-owning calls for the UI
# Reflex states call these through ``marketplace.offloop.run_blocking``: each
# opens its own session (a read where it only reads) and returns plain values.


@dataclass(frozen=True)
class SessionCheck:
    user_id: uuid.UUID | None
    refreshed: TokenPair | None = None


def resolve_session(access_token: str, refresh_token: str, refresh_now: bool = False) -> SessionCheck:
    """Who holds these tokens. A live access token is checked with a read (no
    write lock); a dead or soon-expiring one is refreshed in a write transaction."""
    from marketplace.db import read_scope, session_scope

    user_id = None
    if access_token:
        with read_scope() as session:
            user_id = validate_access_token(session, access_token)
    if user_id is not None and not refresh_now:
        return SessionCheck(user_id)
    if not refresh_token:
        return SessionCheck(user_id)
    with session_scope() as session:
        pair = refresh_session(session, refresh_token)
        if pair is None:
            return SessionCheck(user_id)
        return SessionCheck(validate_access_token(session, pair.access_token), pair)


def load_account(user_id: uuid.UUID) -> tuple[CurrentUser | None, object | None]:
    """The header's data: the user and their subscription status (None when the
    subscription check failed: it is only logged, SPEC 8)."""
    import logging

    from marketplace.db import read_scope
    from marketplace.services import subscriptions

    with read_scope() as session:
        user = current_user(session, user_id)
        if user is None:
            return None, None
        try:
            status = subscriptions.check_subscription(session, user_id)
        except Exception:  # noqa: BLE001 - any failure keeps the old badge
            logging.getLogger("marketplace.auth").exception("subscription check failed for %s", user_id)
            status = None
    return user, status


def end_session(access_token: str, refresh_token: str) -> bool:
    """Sign out (write transaction)."""
    from marketplace.db import session_scope

    with session_scope() as session:
        return revoke_session(session, access_token, refresh_token)


def sign_in_user(email: str, password: str, *, user_agent: str = "", ip_address: str = "") -> tuple[uuid.UUID, TokenPair]:
    """``sign_in`` in its own transaction (Argon2 included: call it off the loop)."""
    from marketplace.db import session_scope

    with session_scope() as session:
        user, pair = sign_in(session, email, password, user_agent=user_agent, ip_address=ip_address)
        return user.id, pair


def sign_up_user(**fields) -> tuple[uuid.UUID, TokenPair]:
    """``sign_up`` in its own transaction; the confirmation e-mail leaves after commit."""
    from marketplace.db import session_scope

    with session_scope() as session:
        user, pair = sign_up(session, **fields)
        return user.id, pair


def confirm_email_link(token: str, *, user_agent: str = "", ip_address: str = "") -> tuple[uuid.UUID, TokenPair] | None:
    """``confirm_email`` in its own transaction."""
    from marketplace.db import session_scope

    with session_scope() as session:
        result = confirm_email(session, token, user_agent=user_agent, ip_address=ip_address)
        return None if result is None else (result[0].id, result[1])
