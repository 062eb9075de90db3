"""Accounts: users, sign-up, sign-in and e-mail confirmation.

The rest of the account machinery lives beside this module; import it from
there: the user rows (``users``: creating, finding, the header's ``CurrentUser``), sessions and tokens (``auth_sessions``), the sign-in and sign-up
throttle (``throttle``), the account e-mails (``account_mail``), the password
reset (``password_reset``) and the referral rules (``referrals``).

Transactions (``marketplace.platform.db``): the functions that take a ``session`` work
inside the caller's transaction and never commit it (the CLI, the seeding and
the tests compose them); the UI calls the session-owning functions at the end
(``sign_in_user``, ``sign_up_user``, ``confirm_email_link``, ``load_account``).

Sign-up never tells whether an address is registered. Whatever the address,
a valid sign-up gets the same answer (check your e-mail) and one e-mail goes
to the address: a confirmation link for a new address (and for one nobody has
confirmed yet, replacing the password it waits with), a notice for an address
that already has an account, whose account is left untouched. Sign-up signs
no one in: the confirmation link does. For the same reason an unconfirmed
address cannot sign in with its password (it gets the same answer as a wrong
password, and a fresh link in its mailbox): otherwise a sign-up followed by a
sign-in would tell whether the address was free.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session, func, select

from marketplace.features.accounts import rules as account_rules
from marketplace.platform.models import EmailOutbox, User, utcnow
from marketplace.platform.texts import (
    CONFIRM_SUBJECT,
    INVALID_CREDENTIALS,
    SIGN_IN_FAILED_TITLE,
    SIGN_UP_FAILED_TITLE,
)
from marketplace.features.billing import service_referrals as referrals
from marketplace.features.accounts import service_throttle as throttle
from marketplace.features.accounts.service_mail import (
    password_fingerprint,
    read_confirmation_token,
    send_confirmation_email,
    send_existing_account_notice,
)
from marketplace.platform.sessions import TokenPair, create_session
from marketplace.features.accounts.service_passwords import DUMMY_HASH, hash_password, verify_password
from marketplace.features.accounts.service_users import AuthError, create_user, find_user_by_email

log = logging.getLogger("marketplace.accounts")

RESEND_CONFIRMATION_AFTER = timedelta(minutes=10)


@dataclass(frozen=True)
class SignUpResult:
    """What a sign-up may tell the browser: the same for a new and a taken address."""

    email: str
    referral_refused: bool  # a referral code came with the sign-up and cannot be applied


@dataclass(frozen=True)
class PreVerified:
    """A password checked before the sign-in transaction opened (against ``stored``)."""

    stored: str
    ok: bool


# --------------------------------------------------------------------------- sign-up


def _wait_minutes(wait: int) -> dict[str, object]:
    """``minutes`` and ``unit`` of a wait in seconds, rounded up, for a message's placeholders."""
    minutes = max(1, (wait + 59) // 60)
    return {"minutes": minutes, "unit": "minute" if minutes == 1 else "minutes"}


def _signup_wait_message(wait: int) -> str:
    return "Too many sign-ups from your network. Please try again in {minutes} {unit}.".format(**_wait_minutes(wait))


def sign_up(
    session: Session,
    *,
    first_name: str,
    last_name: str,
    email: str,
    password: str,
    confirm_password: str,
    referral_code: str | None = None,
    user_agent: str = "",  # noqa: ARG001 - kept for callers; sign-up opens no session
    ip_address: str = "",
    device_id: str = "",
    now: datetime | None = None,
) -> SignUpResult:
    """Validate and throttle, then e-mail the address (see the module text),
    inside the caller's transaction. Raises ``AuthError`` for invalid input (nothing is written) or too many
    sign-ups from one IP."""
    try:
        normalized = account_rules.validate_sign_up(first_name, last_name, email, password, confirm_password)
    except account_rules.ValidationError as exc:
        raise AuthError(exc.title, exc.message) from exc
    now = now or utcnow()
    wait = throttle.signup_wait(session, ip_address, now)
    if wait:
        raise AuthError(SIGN_UP_FAILED_TITLE, _signup_wait_message(wait), retry_after=wait)
    throttle.record_sign_up(session, normalized, ip_address, now)

    # The referral is judged on what the sign-up says (code, address, browser),
    # never on whether the address is taken.
    referrer = referrals.resolve_referrer(session, referral_code)
    refused = bool(referral_code) and (
        referrer is None or referrals.is_self_referral(session, referrer, email=normalized, device_id=device_id)
    )
    password_hash = hash_password(password)  # Argon2 on every path: same cost, same time

    user = find_user_by_email(session, normalized)
    if user is None:
        try:
            user = create_user(
                session, normalized, password, first_name, last_name,
                referred_by=None if refused else referrer, password_hash=password_hash,
            )
        except AuthError:  # registered a moment ago by a concurrent sign-up
            user = find_user_by_email(session, normalized)
            if user is None:
                raise
            send_existing_account_notice(session, user)
        else:
            send_confirmation_email(session, user)
    elif user.email_confirmed_at is None:
        # Nobody has proved they own this address yet: the newest sign-up's
        # password waits for the link, which confirms exactly that password.
        user.password_hash = password_hash
        session.add(user)
        session.flush()
        send_confirmation_email(session, user)
    else:
        send_existing_account_notice(session, user)
    return SignUpResult(email=normalized, referral_refused=refused)


# --------------------------------------------------------------------------- sign-in


def _resend_confirmation(session: Session, user: User, now: datetime) -> None:
    """A fresh link for an unconfirmed address that tried to sign in (at most
    one per ``RESEND_CONFIRMATION_AFTER``)."""
    recent = session.exec(
        select(func.count()).select_from(EmailOutbox).where(
            EmailOutbox.to_address == user.email, EmailOutbox.subject == CONFIRM_SUBJECT,
            EmailOutbox.created_at > now - RESEND_CONFIRMATION_AFTER,
        )
    ).one()
    if not recent:
        send_confirmation_email(session, user)


def _sign_in(
    session: Session, email: str, password: str, *, user_agent: str = "", ip_address: str = "",
    device_id: str = "", now: datetime | None = None, pre_verified: PreVerified | None = None,
) -> tuple[User, TokenPair] | AuthError:
    """Check the password and open a session, inside the caller's transaction.

    A refusal (the same message for any wrong input) is returned, not raised:
    the attempt it recorded feeds the throttle, so the caller commits it and
    then raises the refusal (``sign_in_user``).

    ``pre_verified``: the Argon2 check already ran outside the transaction (see
    ``sign_in_user``); it counts when the stored hash is still the one checked."""
    now = now or utcnow()
    password = password if isinstance(password, str) else ""
    try:
        normalized = account_rules.normalize_email(email)
    except ValueError:
        normalized = (email or "").strip().lower()[:throttle.EMAIL_COLUMN_WIDTH]
    wait = throttle.throttle_wait(session, normalized, ip_address, now)
    if wait:
        return AuthError(
            SIGN_IN_FAILED_TITLE,
            f"Too many failed sign-in attempts. Please wait {wait} seconds and try again.",
            retry_after=wait,
        )
    user = find_user_by_email(session, normalized)
    if len(password) > account_rules.PASSWORD_MAX_LENGTH:
        ok = False  # never hashed: Argon2 of a huge input is a denial of service
    else:
        stored = user.password_hash if user else DUMMY_HASH
        if pre_verified is not None and pre_verified.stored == stored:
            ok = pre_verified.ok and user is not None
        else:
            ok = verify_password(stored, password) and user is not None
    unconfirmed = ok and user.email_confirmed_at is None
    throttle.record_sign_in(session, normalized, ip_address, ok and not unconfirmed, now)
    if unconfirmed:
        _resend_confirmation(session, user, now)
    if not ok or unconfirmed:
        return AuthError(SIGN_IN_FAILED_TITLE, INVALID_CREDENTIALS)
    return user, create_session(
        session, user.id, user_agent=user_agent, ip_address=ip_address, device_id=device_id, now=now
    )


# --------------------------------------------------------------------------- e-mail confirmation


def confirm_email(
    session: Session, token: str, *, user_agent: str = "", ip_address: str = "", device_id: str = ""
) -> tuple[User, TokenPair] | None:
    """Mark the e-mail confirmed and sign the user in, inside the caller's
    transaction; None for a bad, stale, used or superseded link."""
    found = read_confirmation_token(token)
    if found is None:
        return None
    user_id, fingerprint = found
    user = session.get(User, user_id)
    # Single use: once the address is confirmed the link no longer signs anyone in.
    if user is None or user.email_confirmed_at is not None:
        return None
    if fingerprint != password_fingerprint(user.password_hash):
        return None  # a later sign-up of this address chose another password
    user.email_confirmed_at = utcnow()
    session.add(user)
    return user, create_session(session, user.id, user_agent=user_agent, ip_address=ip_address, device_id=device_id)


# --------------------------------------------------------------------------- session-owning calls for the UI
# Reflex states call these through ``marketplace.platform.offloop.run_blocking``: each
# opens its own session (a read where it only reads) and returns plain values.



def sign_in_user(
    email: str, password: str, *, user_agent: str = "", ip_address: str = "", device_id: str = "",
    now: datetime | None = None,
) -> tuple[uuid.UUID, TokenPair]:
    """Sign in: (user id, tokens), or ``AuthError``; call it off the event loop.

    Argon2 runs before the write transaction opens (after a read that checks the
    throttle and finds the stored hash), so the transaction recording the attempt
    stays short: on SQLite the write lock is held for milliseconds, not for the
    hash. ``_sign_in`` re-checks the throttle inside the transaction, which
    commits a failed attempt too (it feeds the throttle) before the refusal is
    raised."""
    from marketplace.platform.db import read_scope, session_scope

    pre = None
    if isinstance(password, str) and len(password) <= account_rules.PASSWORD_MAX_LENGTH:
        try:
            normalized = account_rules.normalize_email(email)
        except ValueError:
            normalized = None
        if normalized is not None:
            with read_scope() as session:
                blocked = throttle.throttle_wait(session, normalized, ip_address, now or utcnow()) > 0
                user = None if blocked else find_user_by_email(session, normalized)
            if not blocked:
                stored = user.password_hash if user else DUMMY_HASH
                pre = PreVerified(stored, verify_password(stored, password))
    with session_scope() as session:
        outcome = _sign_in(
            session, email, password, user_agent=user_agent, ip_address=ip_address, device_id=device_id,
            now=now, pre_verified=pre,
        )
        if not isinstance(outcome, AuthError):
            user, pair = outcome
            return user.id, pair
    raise outcome  # after the commit: the failed attempt is recorded


def sign_up_user(**fields) -> SignUpResult:
    """``sign_up`` in its own transaction; the e-mail leaves after commit."""
    from marketplace.platform.db import session_scope

    with session_scope() as session:
        return sign_up(session, **fields)


def confirm_email_link(
    token: str, *, user_agent: str = "", ip_address: str = "", device_id: str = ""
) -> tuple[uuid.UUID, TokenPair] | None:
    """``confirm_email`` in its own transaction."""
    from marketplace.platform.db import session_scope

    with session_scope() as session:
        result = confirm_email(session, token, user_agent=user_agent, ip_address=ip_address, device_id=device_id)
        return None if result is None else (result[0].id, result[1])
