"""A run's seen record keys in little memory: which keys a full read saw (a key seen twice is rejected)
and, at the end, every key seen, for closing the signals the read did not see."""

from __future__ import annotations

import hashlib
import json
import tempfile
from array import array
from typing import Any, Iterator


class _DigestSet:
    """A set of non-zero 64-bit digests in one flat array (open addressing, linear probing, at most half
    full): 16-32 bytes a digest, where a Python set of ints takes about 90."""

    def __init__(self) -> None:
        self._slots = array("Q", [0]) * 1024
        self._mask = 1023
        self._count = 0

    def add(self, digest: int) -> bool:
        """Whether the digest is new (then it is kept)."""
        slots, mask = self._slots, self._mask
        i = digest & mask
        while True:
            found = slots[i]
            if found == 0:
                break
            if found == digest:
                return False
            i = (i + 1) & mask
        slots[i] = digest
        self._count += 1
        if 2 * self._count > mask:
            self._grow()
        return True

    def __contains__(self, digest: int) -> bool:
        slots, mask = self._slots, self._mask
        i = digest & mask
        while slots[i]:
            if slots[i] == digest:
                return True
            i = (i + 1) & mask
        return False

    def _grow(self) -> None:
        old = self._slots
        self._slots, self._mask = array("Q", [0]) * (2 * len(old)), 2 * len(old) - 1
        slots, mask = self._slots, self._mask
        for digest in old:
            if digest:
                i = digest & mask
                while slots[i]:
                    i = (i + 1) & mask
                slots[i] = digest


class SeenKeys:
    """The record keys a run has seen, in little memory: an 8-byte digest of each in a flat hash table (to
    find a key seen twice; two keys sharing a digest, about 1 in 10^10 for a million keys, would reject the
    second), the keys themselves in a temporary file (for closing the ones not seen)."""

    def __init__(self) -> None:
        self._digests = _DigestSet()
        self._file: Any = None
        self.count = 0

    @staticmethod
    def _digest(key: str) -> int:
        return int.from_bytes(hashlib.blake2b(key.encode("utf-8"), digest_size=8).digest(), "big") or 1

    def add(self, key: str) -> bool:
        """Whether the key is new (then it is remembered)."""
        if not self._digests.add(self._digest(key)):
            return False
        if self._file is None:
            self._file = tempfile.TemporaryFile("w+", encoding="utf-8")
        self._file.write(json.dumps(key) + "\n")
        self.count += 1
        return True

    def __contains__(self, key: str) -> bool:
        return self._digest(key) in self._digests

    def keys(self) -> Iterator[str]:
        if self._file is None:
            return
        self._file.seek(0)
        for line in self._file:
            yield json.loads(line)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
