"""How many rows the next write transaction of a long job takes, from how long the last ones held the lock."""

from __future__ import annotations

MIN_SIZE = 20   # the smallest step (a commit's own cost stays small beside its rows)
DECAY = 0.8     # the weight of an observation falls by this much per later one


class BatchSizer:
    """The size of the next write transaction from the time the last ones held the lock (on SQLite the
    database's one write lock, which every user's click that writes waits for).

    A transaction's time is modelled as ``fixed + per_row * rows`` (its reads and commit cost the same
    whatever its size), fitted to the recent transactions (least squares, older ones weighing less). The next
    size holds the lock half of ``budget_ms`` (the time per row varies from batch to batch), but never so
    few rows that the fixed part is over half the transaction (on a loaded machine, tiny transactions would
    hold the lock as long, and the job would take many times longer). It grows at most twice per step and
    stays between ``floor`` and ``ceiling``. A fixed size when ``budget_ms`` is None (PostgreSQL locks
    rows, not the database)."""

    def __init__(self, size: int, *, budget_ms: float | None, floor: int = MIN_SIZE,
                 ceiling: int = 5000) -> None:
        self.floor, self.ceiling, self.budget_ms = min(floor, ceiling), ceiling, budget_ms
        self.size = max(self.floor, min(ceiling, size))
        self.fixed_ms = 0.0
        self._sums = [0.0] * 5  # weight, rows, ms, rows^2, rows*ms

    def observe(self, rows: int, held_ms: float) -> int:
        """Record that a transaction of ``rows`` held the lock ``held_ms``; returns the next size."""
        if self.budget_ms is None or rows <= 0:
            return self.size
        held_ms = max(held_ms, 0.01)
        s = [v * DECAY for v in self._sums]
        self._sums = [s[0] + 1, s[1] + rows, s[2] + held_ms, s[3] + rows * rows, s[4] + rows * held_ms]
        weight, sx, sy, sxx, sxy = self._sums
        mean_x, mean_y = sx / weight, sy / weight
        var_x = sxx / weight - mean_x ** 2
        if var_x > (0.1 * mean_x) ** 2:  # sizes different enough to tell the fixed part from the rows'
            slope = (sxy / weight - mean_x * mean_y) / var_x
            if slope > 0:
                self.fixed_ms = min(max(mean_y - slope * mean_x, 0.0), mean_y)
        per_row = max(held_ms - self.fixed_ms, 0.05 * held_ms) / rows
        want = max((self.budget_ms / 2 - self.fixed_ms) / per_row, self.fixed_ms / per_row)
        self.size = int(max(self.floor, min(self.ceiling, 2 * self.size, want)))
        return self.size
