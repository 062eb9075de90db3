"""The size of a long job's next write transaction, from the time the last ones held the lock."""

from marketplace.platform.batch_sizer import MIN_SIZE, BatchSizer


def test_a_transaction_over_its_budget_makes_the_next_one_smaller_at_once():
    sizer = BatchSizer(500, budget_ms=100)
    assert sizer.observe(500, 400.0) == 62  # 0.8 ms a row: 50 ms (half the budget) is 62 rows
    assert sizer.observe(62, 12.4) == 124   # 0.2 ms a row would allow 250: at most twice the last size
    assert sizer.observe(124, 24.8) == 248


def test_the_size_stays_between_its_floor_and_its_ceiling():
    sizer = BatchSizer(100, budget_ms=100, ceiling=300)
    assert sizer.observe(100, 10_000.0) == MIN_SIZE
    for _ in range(10):
        sizer.observe(sizer.size, 0.0)
    assert sizer.size == 300
    assert BatchSizer(200, budget_ms=100, ceiling=3).size == 3  # a ceiling under the floor wins


def test_without_a_budget_the_size_is_fixed():
    sizer = BatchSizer(5000, budget_ms=None)
    assert sizer.observe(5000, 90_000.0) == 5000


def test_when_each_transaction_costs_the_same_whatever_its_size_the_batches_grow_not_shrink():
    # A loaded machine: ~90 ms of reads and commit per transaction, 0.5 ms a row. Small batches would hold
    # the lock as long and make the job many times longer; the size grows until the rows are half the time.
    sizer = BatchSizer(200, budget_ms=100)
    size = sizer.observe(200, 190.0)
    for _ in range(12):
        size = sizer.observe(size, 90 + 0.5 * size)
    assert 170 <= size <= 190 and 80 <= sizer.fixed_ms <= 100
