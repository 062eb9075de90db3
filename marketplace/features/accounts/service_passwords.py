"""Password hashing: Argon2id with the library's defaults (RFC 9106 low-memory
profile), shared by sign-up, sign-in and the Settings tab's password change.

Argon2 is deliberately expensive (a noticeable slice of CPU per hash). At most one hash per core but
one runs at a time (``_ARGON2_SLOTS``), so a burst of sign-ins queues here
instead of taking every core from the event loop and the other users' requests.
Callers run it outside any database transaction. No database here.
"""

from __future__ import annotations

import os
import threading

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

_hasher = PasswordHasher()
_ARGON2_SLOTS = threading.BoundedSemaphore(max(1, (os.cpu_count() or 2) - 1))
# Checked when there is no stored hash (an unknown e-mail), so that answer costs
# the same time as a wrong password.
DUMMY_HASH = _hasher.hash("not-a-real-password")


def hash_password(password: str) -> str:
    with _ARGON2_SLOTS:
        return _hasher.hash(password)


def verify_password(stored: str, password: str) -> bool:
    try:
        with _ARGON2_SLOTS:
            return _hasher.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
