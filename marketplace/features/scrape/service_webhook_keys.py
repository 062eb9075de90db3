"""Personal webhook auth keys.

Only the SHA-256 of a key is stored (``profiles.webhook_auth_key``) plus its
last four characters as a hint: a leaked database cannot drive anyone's
scraper, and the key is shown in full exactly once, when it is generated.

Functions that take a ``session`` work inside the caller's transaction (``marketplace.platform.db``).
"""

from __future__ import annotations

import secrets
import uuid

from sqlmodel import Session

from marketplace.platform.models import Profile, utcnow
from marketplace.platform.sessions import hash_token

KEY_PREFIX = "lvwh_"


def generate_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def rotate_key(session: Session, user_id: uuid.UUID) -> str:
    """Create or replace the user's key (SPEC ``regenerate_webhook_auth_key``)."""
    profile = session.get(Profile, user_id)
    if profile is None:
        raise LookupError(f"no profile for user {user_id}")
    key = generate_key()
    profile.webhook_auth_key = hash_token(key)
    profile.webhook_auth_key_hint = key[-4:]
    profile.updated_at = utcnow()
    session.add(profile)
    session.flush()
    return key

