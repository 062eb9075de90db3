"""Signed, short-lived download links for files a signed-in user may fetch.

The browser keeps its session in localStorage, which a plain link cannot
carry, so a Reflex handler (after its own server-side session check) hands
out a link with a token: HMAC-SHA256 over (purpose, user, object, expiry) with
the app's SECRET_KEY. The route re-checks the signature, the expiry, that the
account still exists (``link_holder``: a deleted account's links are dead) and
that the object still belongs to that user; nothing else opens the file.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
import uuid

import sqlalchemy as sa

from marketplace.platform.config import get_settings
from marketplace.platform.db import read_scope
from marketplace.platform.models import User

TTL_SECONDS = 300
SCRAPE_CSV = "scrape-csv"  # purpose: one bulk scrape as CSV
DEAL_SHEET = "deal-sheet"  # purpose: one lead's PDF deal sheet (the object is the lead id)
PIPELINE_CSV = "pipeline-csv"  # purpose: the user's deal pipeline as CSV (object id: PIPELINE_ALL)
PIPELINE_ALL = "all"
OWNERS_CSV = "owners-csv"  # purpose: the owners found for the user's unlocked leads (object id: the layout)


def _sign(payload: str) -> str:
    mac = hmac.new(get_settings().secret_key.encode(), payload.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


def make_token(purpose: str, user_id: uuid.UUID, object_id: str, now: float | None = None) -> str:
    expires = int((now or time.time()) + TTL_SECONDS)
    payload = f"{purpose}:{user_id}:{object_id}:{expires}"
    return f"{user_id}.{expires}.{_sign(payload)}"


def read_token(token: str, purpose: str, object_id: str, now: float | None = None) -> uuid.UUID | None:
    """The user the token was made for, or None (bad signature, other object, expired)."""
    try:
        user_part, expires_part, signature = (token or "").split(".", 2)
        user_id = uuid.UUID(user_part)
        expires = int(expires_part)
    except ValueError:
        return None
    if expires < (now or time.time()):
        return None
    expected = _sign(f"{purpose}:{user_id}:{object_id}:{expires}")
    return user_id if hmac.compare_digest(expected, signature) else None


def link_holder(token: str, purpose: str, object_id: str, now: float | None = None) -> uuid.UUID | None:
    """``read_token``, and the account it was made for still exists (a read: call it off the
    event loop). None for a bad or expired link and for every link of a deleted account."""
    user_id = read_token(token, purpose, object_id, now)
    if user_id is None:
        return None
    users = User.__table__
    with read_scope() as session:
        live = session.execute(
            sa.select(users.c.id).where(users.c.id == user_id, users.c.deleted_at.is_(None))
        ).first()
    return user_id if live is not None else None
