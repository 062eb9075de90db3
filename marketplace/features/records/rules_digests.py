"""Sets and maps of 64-bit digests in flat arrays (pure: no database): a run's seen record keys and rows
(``records.service_seen_keys``), the rows a file read has passed over (``source_opendata``), the row
digests a dataset's open signals hold."""

from __future__ import annotations

from array import array
from typing import Iterator


class DigestSet:
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


    def __iter__(self) -> Iterator[int]:
        return (digest for digest in self._slots if digest)

    def __len__(self) -> int:
        return self._count


class DigestMap:
    """Non-zero 64-bit digests, each with a 32-bit value, in two flat arrays (open addressing, linear
    probing, at most half full): 24-48 bytes an entry, where a dict of ints takes about 150. Filled once
    (``put``), then read (``get``)."""

    def __init__(self, expected: int = 0) -> None:
        size = 1024
        while size < 2 * expected + 2:
            size *= 2
        self._slots = array("Q", [0]) * size
        self._values = array("I", [0]) * size
        self._mask = size - 1
        self._count = 0

    def put(self, digest: int, value: int) -> None:
        if 2 * (self._count + 1) > self._mask:
            self._grow()
        slots, mask = self._slots, self._mask
        i = digest & mask
        while slots[i] and slots[i] != digest:
            i = (i + 1) & mask
        if not slots[i]:
            self._count += 1
        slots[i], self._values[i] = digest, value

    def get(self, digest: int) -> int | None:
        slots, mask = self._slots, self._mask
        i = digest & mask
        while slots[i]:
            if slots[i] == digest:
                return self._values[i]
            i = (i + 1) & mask
        return None

    def __contains__(self, digest: int) -> bool:
        return self.get(digest) is not None

    def __len__(self) -> int:
        return self._count

    def _grow(self) -> None:
        old = [(d, v) for d, v in zip(self._slots, self._values) if d]
        size = 2 * len(self._slots)
        self._slots, self._values = array("Q", [0]) * size, array("I", [0]) * size
        self._mask, self._count = size - 1, 0
        for digest, value in old:
            self.put(digest, value)
