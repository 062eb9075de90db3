"""Account e-mails: the confirmation link, the notice an address's owner
gets when someone signs up with it again, and the password reset link.

A confirmation link is an HMAC-signed ``confirm:{user}:{expiry}:{fingerprint}``
where the fingerprint is taken from the password hash the sign-up set: a link
confirms exactly the sign-up that sent it, so it stops working once a later
sign-up of the same (unconfirmed) address chose another password. It is single
use: once the address is confirmed no link signs anyone in.

A password reset link is the same signed token with kind ``reset`` and a
30-minute expiry (``RESET_TTL``). Nothing about it is stored: its fingerprint of
the current password hash makes it single use (setting the password changes the
hash, so every outstanding reset link dies with it, as it does after a password
change in Settings); ``accounts.service_password_reset.reset_password`` swaps the hash with a
conditional UPDATE, so two tabs submitting one link at once cannot both succeed.

Links point at ``Settings.public_url``: ``SITE_URL``, or without it (development
only: production requires it) the local address ``make run`` prints. Never at
the address in the request's headers: whoever sends a sign-up chooses those,
and the mail goes to the address's owner.

Functions that take a ``session`` work inside the caller's transaction (``marketplace.platform.db``). The mail
leaves after that transaction commits (``platform.mail``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import uuid
from datetime import datetime, timedelta

from sqlmodel import Session

from marketplace.platform import routes
from marketplace.platform.config import get_settings
from marketplace.platform.texts import CONFIRM_SUBJECT, EXISTING_SUBJECT, RESET_SUBJECT
from marketplace.platform.models import User, utcnow
from marketplace.platform.mail import send_mail

CONFIRM_TTL = timedelta(days=3)
RESET_TTL = timedelta(minutes=30)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _sign(payload: bytes) -> bytes:
    return hmac.new(get_settings().secret_key.encode(), payload, hashlib.sha256).digest()


def password_fingerprint(password_hash: str) -> str:
    return hashlib.sha256(("confirm-fp:" + (password_hash or "")).encode()).hexdigest()[:16]


def _make_token(kind: str, user_id: uuid.UUID, password_hash: str, ttl: timedelta, now: datetime | None) -> str:
    expires = int(((now or utcnow()) + ttl).timestamp())
    payload = f"{kind}:{user_id}:{expires}:{password_fingerprint(password_hash)}".encode()
    return f"{_b64(payload)}.{_b64(_sign(payload))}"


def _read_token(kind: str, token: object, now: datetime | None) -> tuple[uuid.UUID, str] | None:
    """(user id, password fingerprint) of a genuine, unexpired link of ``kind``; else None."""
    try:
        if not isinstance(token, str) or not token or len(token) > 512:
            return None
        payload_b64, sig_b64 = token.split(".", 1)
        payload = _unb64(payload_b64)
        if not hmac.compare_digest(_sign(payload), _unb64(sig_b64)):
            return None
        found, user_id, expires, fingerprint = payload.decode().split(":")
        if found != kind or int(expires) < (now or utcnow()).timestamp():
            return None
        return uuid.UUID(user_id), fingerprint
    except (ValueError, UnicodeDecodeError):
        return None


def make_confirmation_token(user_id: uuid.UUID, password_hash: str, now: datetime | None = None) -> str:
    return _make_token("confirm", user_id, password_hash, CONFIRM_TTL, now)


def read_confirmation_token(token: str, now: datetime | None = None) -> tuple[uuid.UUID, str] | None:
    """(user id, password fingerprint) of a genuine, unexpired confirmation link; else None."""
    return _read_token("confirm", token, now)


def send_confirmation_email(session: Session, user: User) -> None:
    token = make_confirmation_token(user.id, user.password_hash)
    link = f"{get_settings().public_url}{routes.AUTH_CALLBACK}?token={token}"
    send_mail(
        session,
        user.email,
        CONFIRM_SUBJECT,
        f"Welcome to {routes.APP_NAME}!\n\nConfirm your e-mail address and sign in by opening this link "
        f"(valid for 3 days):\n\n{link}\n\nIf you did not sign up, ignore this message: "
        "no account is opened without this link.\n",
    )


def send_existing_account_notice(session: Session, user: User) -> None:
    """Sign-up with a confirmed address: tell its owner, change nothing."""
    base = get_settings().public_url
    send_mail(
        session,
        user.email,
        EXISTING_SUBJECT,
        f"Someone just tried to create a {routes.APP_NAME} account with this e-mail address, "
        "which already has an account.\n\n"
        f"If it was you, sign in instead:\n\n{base}{routes.AUTH}\n\n"
        f"If you forgot your password, choose a new one here:\n\n{base}{routes.AUTH_RESET}\n\n"
        "If it was not you, ignore this message: nothing was changed.\n",
    )


# --------------------------------------------------------------------------- password reset


def make_reset_token(user_id: uuid.UUID, password_hash: str, now: datetime | None = None) -> str:
    return _make_token("reset", user_id, password_hash, RESET_TTL, now)


def read_reset_token(token: object, now: datetime | None = None) -> tuple[uuid.UUID, str] | None:
    """(user id, password fingerprint) of a genuine reset link younger than ``RESET_TTL``; else None."""
    return _read_token("reset", token, now)


def send_password_reset_email(session: Session, user: User, now: datetime | None = None) -> None:
    """The "Forgot password?" link. Built from ``Settings.public_url`` (SITE_URL), never from the
    request: whoever asks cannot choose where the link points."""
    token = make_reset_token(user.id, user.password_hash, now)
    link = f"{get_settings().public_url}{routes.password_reset_url(token)}"
    minutes = int(RESET_TTL.total_seconds() // 60)
    send_mail(
        session,
        user.email,
        RESET_SUBJECT,
        f"Someone (we hope you) asked to reset the password of your {routes.APP_NAME} account.\n\n"
        f"Choose a new password by opening this link (valid for {minutes} minutes, once):\n\n{link}\n\n"
        "Setting a new password signs out every device signed in to your account.\n"
        "If you did not ask for this, ignore this message: your password stays as it is.\n",
        background=True,
    )
