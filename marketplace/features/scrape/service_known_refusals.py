"""Webhook callers refused recently, remembered so a repeat is refused without a database read.

Only refusals are remembered, keyed by the user id in the path and the SHA-256 of the key presented:
(user id, key) -> 404 (no such user) or 401 (not the user's key). An acceptance is never remembered,
so a rotated or revoked key is refused at once by every worker (its check reads the database). A
remembered refusal stays right: a key that was not the user's can only become it if the user's next
key, 256 random bits, were that very string. What can change is 401 <-> 404 (an account deleted), so
an entry lives ``TTL_SECONDS`` at most; a key generated or removed in this process forgets the
user's entries at once.

The presented key is hashed once per call (``scrape.service_webhooks.key_hash``) and the hash looked up in a
dict; nothing is compared with a stored key here (``scrape.service_webhooks.check_key`` does that, in
constant time).
"""

from __future__ import annotations

import threading
import time
import uuid

TTL_SECONDS = 60.0
MAX_ENTRIES = 10_000


class KnownRefusals:
    def __init__(self, max_entries: int = MAX_ENTRIES, ttl: float = TTL_SECONDS):
        self.max_entries = max_entries
        self.ttl = ttl
        self._lock = threading.Lock()
        self._entries: dict[tuple[uuid.UUID | None, str], tuple[float, int]] = {}

    def status(self, user_id: uuid.UUID | None, key_hash: str) -> int | None:
        """404 or 401 when this (user, key) was refused less than ``ttl`` seconds ago, else None."""
        entry = self._entries.get((user_id, key_hash))
        if entry is None:
            return None
        if time.monotonic() - entry[0] > self.ttl:
            with self._lock:
                self._entries.pop((user_id, key_hash), None)
            return None
        return entry[1]

    def remember(self, user_id: uuid.UUID | None, key_hash: str, status: int) -> None:
        with self._lock:
            self._entries.pop((user_id, key_hash), None)
            while len(self._entries) >= self.max_entries:  # the oldest goes first
                self._entries.pop(next(iter(self._entries)))
            self._entries[(user_id, key_hash)] = (time.monotonic(), status)

    def forget_user(self, user_id: uuid.UUID) -> None:
        """Drop every entry of ``user_id`` (their key was generated or removed)."""
        with self._lock:
            for entry in [k for k in self._entries if k[0] == user_id]:
                del self._entries[entry]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


known_refusals = KnownRefusals()
