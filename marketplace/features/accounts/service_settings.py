"""The dashboard's Settings tab: profile names, the confirmation e-mail again,
a password change, the user's own sessions, and deleting the account.

Every function opens its own transaction (``session_scope``) or read
(``read_scope``) and returns plain values; Reflex states call them through
``offloop.run_blocking``. Refusals are ``SettingsError(title, message)``.

A password change checks the current password with Argon2 BEFORE the write
transaction opens (as ``accounts.sign_in_user`` does; both hash through
``accounts.service_passwords``), counts a wrong one in the sign-in throttle, and then, in
one short transaction, stores the new hash if the stored one is still the one
checked and revokes every other session of the user.

Deleting an account (see ``delete_account``) removes the profile and every
piece of sign-in and contact data, and keeps, anonymised, what bookkeeping
needs: the ``users`` row stays as a tombstone (``deleted_at`` set, e-mail
replaced, unusable password hash) because the credit ledger, the credit
purchases and the unlock records point at it.
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlmodel import select

from marketplace.features.accounts import rules_settings as settings_rules
from marketplace.platform.errors import UserError
from marketplace.platform.limits import PASSWORD_MAX_LENGTH
from marketplace.platform.web.user_agent import describe_user_agent
from marketplace.platform.db import read_scope, session_scope
from marketplace.platform.models import (
    AuthSession,
    BulkScrape,
    CreditPurchase,
    EmailOutbox,
    HeldProperty,
    LoginAttempt,
    Notification,
    Profile,
    SavedSearch,
    Subscription,
    SuperAdmin,
    User,
    WebhookIdempotencyKey,
    WebhookRequest,
    utcnow,
)
from marketplace.platform.texts import (
    ALREADY_CONFIRMED,
    CONFIRM_SUBJECT,
    DELETE_MISMATCH,
    NOT_SIGNED_IN,
    PASSWORD_CHANGE_THROTTLED,
    PASSWORD_CHANGED_MEANWHILE,
    WRONG_CURRENT_PASSWORD,
)
from marketplace.platform import sessions as auth_sessions, ledger
from marketplace.features.property import service_comps as comps, service_deals as deals, service_pipeline as pipeline
from marketplace.features.accounts import service_throttle as throttle
from marketplace.features.unlock import service_counts as unlock_counts
from marketplace.features.accounts.service_mail import send_confirmation_email
from marketplace.features.accounts.service_passwords import hash_password, verify_password

RESEND_INTERVAL = timedelta(minutes=1)


class SettingsError(UserError):
    """A refusal the UI shows as a toast: ``title`` and ``message``."""

    def __init__(self, title: str, message: str, *, retry_after: int | None = None):
        super().__init__(title, message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class SessionInfo:
    id: uuid.UUID
    device: str  # "Chrome on Linux"
    ip_address: str
    created_at: datetime
    last_used_at: datetime
    current: bool  # the session of the browser asking


@dataclass(frozen=True)
class SettingsData:
    email: str
    email_confirmed: bool
    first_name: str
    last_name: str
    member_since: datetime
    credits: int
    has_webhook_key: bool
    webhook_key_hint: str
    sessions: list[SessionInfo]


def _live_user(session, user_id: uuid.UUID, *, lock: bool = False) -> User:
    user = session.get(User, user_id, with_for_update=lock) if lock else session.get(User, user_id)
    if user is None or user.deleted_at is not None:
        raise SettingsError(*NOT_SIGNED_IN)
    return user


def _sessions(session, user_id: uuid.UUID, access_token: str, refresh_token: str) -> list[SessionInfo]:
    current = auth_sessions.session_id_for(session, access_token, refresh_token)
    return [
        SessionInfo(row.id, describe_user_agent(row.user_agent), row.ip_address or "", row.created_at,
                    row.last_used_at, row.id == current)
        for row in auth_sessions.live_sessions(session, user_id)
    ]


# --------------------------------------------------------------------------- reads


def load_settings(user_id: uuid.UUID, access_token: str = "", refresh_token: str = "") -> SettingsData:
    """Everything the tab shows, in one read."""
    with read_scope() as session:
        user = _live_user(session, user_id)
        profile = session.get(Profile, user_id)
        if profile is None:
            raise SettingsError(*NOT_SIGNED_IN)
        return SettingsData(
            email=user.email,
            email_confirmed=user.email_confirmed_at is not None,
            first_name=profile.first_name,
            last_name=profile.last_name,
            member_since=user.created_at,
            credits=profile.credits_remaining,
            has_webhook_key=bool(profile.webhook_auth_key),
            webhook_key_hint=(profile.webhook_auth_key_hint or "") if profile.webhook_auth_key else "",
            sessions=_sessions(session, user_id, access_token, refresh_token),
        )


def list_sessions(user_id: uuid.UUID, access_token: str = "", refresh_token: str = "") -> list[SessionInfo]:
    with read_scope() as session:
        return _sessions(session, user_id, access_token, refresh_token)


# --------------------------------------------------------------------------- profile and e-mail


def update_names(user_id: uuid.UUID, first_name: object, last_name: object) -> settings_rules.Names:
    """Save both names (trimmed, checked: ``SettingsError`` with the reason)."""
    try:
        names = settings_rules.validate_names(first_name, last_name)
    except settings_rules.ValidationError as exc:
        raise SettingsError(exc.title, exc.message) from None
    with session_scope() as session:
        _live_user(session, user_id)
        profile = session.get(Profile, user_id)
        if profile is None:
            raise SettingsError(*NOT_SIGNED_IN)
        profile.first_name = names.first_name
        profile.last_name = names.last_name
        profile.updated_at = utcnow()
        session.add(profile)
    return names


def resend_confirmation(user_id: uuid.UUID, now: datetime | None = None) -> str:
    """A fresh confirmation link to an unconfirmed address, at most one a
    minute; returns the address. ``SettingsError`` when confirmed or too soon."""
    now = now or utcnow()
    with session_scope() as session:
        user = _live_user(session, user_id, lock=True)
        if user.email_confirmed_at is not None:
            raise SettingsError(*ALREADY_CONFIRMED)
        last = session.exec(
            select(EmailOutbox.created_at)
            .where(EmailOutbox.to_address == user.email, EmailOutbox.subject == CONFIRM_SUBJECT)
            .order_by(EmailOutbox.created_at.desc())
            .limit(1)
        ).first()
        if last is not None and now - last < RESEND_INTERVAL:
            wait = max(1, int((last + RESEND_INTERVAL - now).total_seconds() + 0.999))
            unit = "second" if wait == 1 else "seconds"
            raise SettingsError(
                "Please Wait",
                f"A confirmation link was sent less than a minute ago. You can send another in {wait} {unit}.",
                retry_after=wait,
            )
        send_confirmation_email(session, user)
        return user.email


# --------------------------------------------------------------------------- password


def change_password(
    user_id: uuid.UUID, current: object, new: object, confirm: object, *,
    access_token: str = "", refresh_token: str = "", ip_address: str = "",
) -> int:
    """Set a new password; returns how many other sessions were signed out.

    The current password is checked with Argon2 outside any transaction; a
    wrong one is recorded as a failed sign-in (the sign-in throttle counts it)
    and changes nothing. The session holding ``access_token`` stays signed in.
    """
    try:
        new_password = settings_rules.validate_new_password(current, new, confirm)
    except settings_rules.ValidationError as exc:
        raise SettingsError(exc.title, exc.message) from None
    with read_scope() as session:
        user = _live_user(session, user_id)
        email, stored = user.email, user.password_hash
        wait = throttle.throttle_wait(session, email, ip_address, utcnow())
    if wait:
        raise SettingsError(
            PASSWORD_CHANGE_THROTTLED[0], PASSWORD_CHANGE_THROTTLED[1].format(wait=wait),
            retry_after=wait,
        )
    ok = len(current) <= PASSWORD_MAX_LENGTH and verify_password(stored, current)
    if not ok:
        with session_scope() as session:
            throttle.record_sign_in(session, email, ip_address, False)
        raise SettingsError(*WRONG_CURRENT_PASSWORD)
    new_hash = hash_password(new_password)  # Argon2, still outside the transaction
    with session_scope() as session:
        user = _live_user(session, user_id, lock=True)
        if user.password_hash != stored:
            raise SettingsError(*PASSWORD_CHANGED_MEANWHILE)
        keep = auth_sessions.session_id_for(session, access_token, refresh_token)
        user.password_hash = new_hash
        session.add(user)
        session.flush()
        return auth_sessions.revoke_user_sessions(session, user_id, keep=keep)


# --------------------------------------------------------------------------- sessions


@dataclass(frozen=True)
class Revoked:
    revoked: bool  # a live session of this user was signed out
    was_current: bool  # it was the session of the browser asking


def revoke_session(user_id: uuid.UUID, session_id: object, access_token: str = "", refresh_token: str = "") -> Revoked:
    """Sign out one of the user's own sessions. Another user's id, a revoked
    one or a malformed one changes nothing."""
    try:
        target = uuid.UUID(str(session_id))
    except ValueError:
        return Revoked(False, False)
    with session_scope() as session:
        current = auth_sessions.session_id_for(session, access_token, refresh_token)
        count = auth_sessions.revoke_user_sessions(session, user_id, only=target)
        return Revoked(count > 0, count > 0 and target == current)


def revoke_all_sessions(user_id: uuid.UUID) -> int:
    """Sign out everywhere, this browser included."""
    with session_scope() as session:
        return auth_sessions.revoke_user_sessions(session, user_id)


# --------------------------------------------------------------------------- deleting the account


@dataclass(frozen=True)
class Deleted:
    email: str  # the address the account had (it may sign up again)
    credits_forfeited: int


def delete_account(user_id: uuid.UUID, typed_email: object, now: datetime | None = None) -> Deleted:
    """Delete the account, confirmed by its e-mail typed again (any case).

    Removed: the profile (names, balance, referral code, webhook key), every
    session, the subscription, the super-admin right, the sign-in and sign-up
    attempts and every e-mail to the address, the webhook request log (IP
    addresses and request bodies), the deal pipeline (stages, follow-ups,
    offers, notes), and the stored results and search parameters of the bulk
    scrapes. People this user referred keep their
    first-purchase bonus; the deleted account earns no more rewards.

    Kept, pointing at the anonymised ``users`` row: the credit ledger, the
    credit purchases (pending ones are cancelled), the unlock records and the
    bulk scrapes' counts and credits (what the ledger's entries refer to);
    the leads it held count one investor fewer (``leads.unlock_count``).
    The remaining balance is forfeited through the ledger (one ``forfeited``
    row of minus the balance), so a deleted account's ledger sums to 0, the
    balance it no longer has.
    """
    now = now or utcnow()
    with session_scope() as session:
        user = _live_user(session, user_id, lock=True)
        if not settings_rules.delete_confirmation_matches(typed_email, user.email):
            raise SettingsError(*DELETE_MISMATCH)
        email = user.email
        profile = session.get(Profile, user_id, with_for_update=True)  # the balance forfeited is the last one
        credits = profile.credits_remaining if profile is not None else 0

        def delete(model, *conditions) -> None:
            session.execute(sa.delete(model.__table__).where(*conditions))

        def update(model, values: dict, *conditions) -> None:
            session.execute(sa.update(model.__table__).where(*conditions).values(**values))

        # Referees keep their link (and their first-purchase bonus); a deleted
        # referrer earns no reward (purchases.fulfil_in checks for the profile).
        delete(AuthSession, AuthSession.__table__.c.user_id == user_id)
        delete(WebhookRequest, WebhookRequest.__table__.c.user_id == user_id)
        delete(WebhookIdempotencyKey, WebhookIdempotencyKey.__table__.c.user_id == user_id)
        delete(HeldProperty, HeldProperty.__table__.c.user_id == user_id)  # which addresses the user bought
        deals.forget_user(session, user_id)  # analyses, deal defaults, owner phones and e-mails found
        comps.forget_user(session, user_id)  # pinned comparable sales
        pipeline.forget_user(session, user_id)  # pipeline stages, follow-ups, offers and notes
        delete(Subscription, Subscription.__table__.c.user_id == user_id)
        delete(SuperAdmin, SuperAdmin.__table__.c.user_id == user_id)
        delete(Notification, Notification.__table__.c.user_id == user_id)
        delete(SavedSearch, SavedSearch.__table__.c.user_id == user_id)  # their criteria cascade
        delete(LoginAttempt, LoginAttempt.__table__.c.email == email)
        delete(EmailOutbox, EmailOutbox.__table__.c.to_address == email)
        update(BulkScrape, {"output": [], "params": {}}, BulkScrape.__table__.c.user_id == user_id)
        unlock_counts.removed_for_user(session, user_id)  # its unlock records stay; it holds no lead any more
        update(CreditPurchase, {"status": "canceled"},
               CreditPurchase.__table__.c.user_id == user_id, CreditPurchase.__table__.c.status == "pending")
        if credits:
            ledger.apply_credits(session, user_id, -credits, "forfeited")
        delete(Profile, Profile.__table__.c.user_id == user_id)

        user.email = settings_rules.tombstone_email(user_id.hex)
        user.password_hash = "!deleted:" + secrets.token_hex(16)  # no Argon2 hash: never verifies
        user.email_confirmed_at = None
        user.deleted_at = now
        session.add(user)
        session.flush()
    return Deleted(email=email, credits_forfeited=credits)
