"""Password reset: "Forgot password?".

"Forgot password?". A request always gets the same answer,
whether or not an account exists for the address: the mail with the link
goes to a registered address; an unknown one is sent nothing (a notice would
let anyone make the app mail any address). Requests are throttled per typed
address and per IP (``throttle.reset_request_wait``), counted alike for both.
The link (``account_mail.make_reset_token``: signed, 30 minutes, tied to the
current password hash) sets a new password once: ``reset_password`` swaps the
hash with a conditional UPDATE, signs out every session of the account and
signs this browser in. An unconfirmed account that resets its password is
confirmed by it: opening the link proved the mailbox, as the confirmation
link does.
"""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlmodel import Session

from marketplace.features.accounts import rules as account_rules
from marketplace.platform.db import read_scope, session_scope
from marketplace.platform.texts import (
    RESET_EMAIL_INVALID,
    RESET_LINK_INVALID,
    RESET_REQUEST_FAILED_TITLE,
    RESET_THROTTLED,
)
from marketplace.platform.models import User, utcnow
from marketplace.features.accounts import service_throttle as throttle
from marketplace.features.accounts.service_mail import (
    password_fingerprint,
    read_reset_token,
    send_password_reset_email,
)
from marketplace.features.accounts.service import AuthError, _wait_minutes, find_user_by_email
from marketplace.platform.sessions import TokenPair, create_session, revoke_user_sessions
from marketplace.features.accounts.service_passwords import hash_password


class ResetLinkInvalid(AuthError):
    """A reset link that is forged, expired, already used or superseded by a later password."""

    def __init__(self):
        super().__init__(*RESET_LINK_INVALID)


def request_password_reset(email: object, *, ip_address: str = "", now: datetime | None = None) -> None:
    """Throttle, record, and mail a reset link when the address has an account; call it off the
    event loop. Raises ``AuthError`` for a malformed address or too many requests (neither tells
    whether the address is registered)."""
    try:
        normalized = account_rules.normalize_email(email if isinstance(email, str) else "")
    except ValueError:
        raise AuthError(*RESET_EMAIL_INVALID) from None
    now = now or utcnow()
    with session_scope() as session:
        wait = throttle.reset_request_wait(session, normalized, ip_address, now)
        if wait:
            raise AuthError(RESET_REQUEST_FAILED_TITLE, RESET_THROTTLED.format(**_wait_minutes(wait)),
                            retry_after=wait)
        throttle.record_reset_request(session, normalized, ip_address, now)
        user = find_user_by_email(session, normalized)
        if user is not None and user.deleted_at is None:
            send_password_reset_email(session, user, now)


def _reset_target(session: Session, token: object, now: datetime | None = None) -> User | None:
    """The live user a genuine, unexpired reset link was made for, while their password is still
    the one it was made with; else None."""
    found = read_reset_token(token, now)
    if found is None:
        return None
    user_id, fingerprint = found
    user = session.get(User, user_id)
    if user is None or user.deleted_at is not None or fingerprint != password_fingerprint(user.password_hash):
        return None
    return user


def password_reset_link_ok(token: object, now: datetime | None = None) -> bool:
    """Whether the link can still set a password (the page shows the form, or 'expired')."""
    with read_scope() as session:
        return _reset_target(session, token, now) is not None


def reset_password(
    token: object, password: object, confirm: object, *, user_agent: str = "", ip_address: str = "",
    device_id: str = "", now: datetime | None = None,
) -> tuple[uuid.UUID, TokenPair]:
    """Set a new password from a reset link: (user id, tokens of a new session for this browser).

    Raises ``ResetLinkInvalid`` for a link that cannot (or can no longer) be used and ``AuthError``
    with SPEC 5's texts for a refused password (the link stays usable). Argon2 runs before the
    write transaction, which swaps the hash only if it is still the one the link was made with
    (one winner when two tabs submit the same link), confirms the address, revokes every session
    of the account and opens this browser's. Call it off the event loop."""
    with read_scope() as session:
        user = _reset_target(session, token, now)
        if user is None:
            raise ResetLinkInvalid()
        user_id, stored = user.id, user.password_hash
    try:
        new_password = account_rules.validate_password_pair(password, confirm)
    except account_rules.ValidationError as exc:
        raise AuthError(exc.title, exc.message) from None
    new_hash = hash_password(new_password)
    now = now or utcnow()
    users = User.__table__
    with session_scope() as session:
        swapped = session.execute(
            sa.update(users)
            .where(users.c.id == user_id, users.c.password_hash == stored, users.c.deleted_at.is_(None))
            .values(
                password_hash=new_hash,
                email_confirmed_at=sa.func.coalesce(
                    users.c.email_confirmed_at, sa.bindparam("confirmed_now", now, type_=users.c.email_confirmed_at.type)
                ),
            )
        ).rowcount
        if swapped != 1:
            raise ResetLinkInvalid()
        revoke_user_sessions(session, user_id)
        pair = create_session(
            session, user_id, user_agent=user_agent, ip_address=ip_address, device_id=device_id, now=now
        )
    return user_id, pair
