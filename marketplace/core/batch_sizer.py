"""How many rows the next write transaction of a long job takes, from how long the last ones held the lock."""

from __future__ import annotations

MIN_SIZE = 20  # the smallest step (a commit's own cost stays small beside its rows)


class BatchSizer:
    """The size of the next write transaction from the time the last ones held the lock (on SQLite the
    database's one write lock, which every user's click that writes waits for): aim at half of
    ``budget_ms`` per transaction (the time per row varies from batch to batch), grow at most twice per
    step, shrink at once; always between ``floor`` and ``ceiling``. A fixed size when ``budget_ms`` is None
    (PostgreSQL locks rows, not the database)."""

    def __init__(self, size: int, *, budget_ms: float | None, floor: int = MIN_SIZE,
                 ceiling: int = 5000) -> None:
        self.floor, self.ceiling, self.budget_ms = min(floor, ceiling), ceiling, budget_ms
        self.size = max(self.floor, min(ceiling, size))

    def observe(self, rows: int, held_ms: float) -> int:
        """Record that a transaction of ``rows`` held the lock ``held_ms``; returns the next size."""
        if self.budget_ms is None or rows <= 0:
            return self.size
        per_row = max(held_ms, 0.1) / rows
        want = int(self.budget_ms / 2 / per_row)
        self.size = max(self.floor, min(self.ceiling, 2 * self.size, want))
        return self.size
