"""Deal analyzer speed: the formulas must keep up with typing (< 1 ms for a full analysis).

    .venv/bin/python -m benchmarks.deal_analyzer [--runs 2000]

Times each call of ``property.rules_deal`` on a realistic hard-money flip and mortgaged rental: ``flip``,
``rental``, ``brrrr`` (validation included, as the page calls them), ``max_offer`` with all three
targets, and a full analysis (the four together, what one keystroke recomputes). Prints a table of the
median and 95th-percentile time per call; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from marketplace.features.property.rules_deal import (
    BrrrrInputs,
    FlipInputs,
    RehabLine,
    RentalInputs,
    Targets,
    brrrr,
    flip,
    max_offer,
    rental,
)

FLIP = FlipInputs(purchase_price=200_000, arv=350_000, rehab_lines=tuple(
    RehabLine(name, amount) for name, amount in (("Roof", 12_000), ("Kitchen", 15_000), ("Paint", 3_000))),
    holding_months=6, monthly_holding_cost=1_000)
RENTAL = RentalInputs(purchase_price=200_000, monthly_rent=2_500, property_tax_annual=3_000, insurance_annual=1_200)
BRRRR = BrrrrInputs(FLIP, RENTAL)
TARGETS = Targets(min_profit=25_000, min_roi_pct=15, min_dscr=1.25)


def _full() -> None:
    flip(FLIP), rental(RENTAL), brrrr(BRRRR), max_offer(FLIP, TARGETS, RENTAL)


CASES: list[tuple[str, Callable[[], object]]] = [
    ("flip", lambda: flip(FLIP)),
    ("rental", lambda: rental(RENTAL)),
    ("brrrr", lambda: brrrr(BRRRR)),
    ("max_offer (3 targets)", lambda: max_offer(FLIP, TARGETS, RENTAL)),
    ("full analysis (all four)", _full),
]


def _time(call: Callable[[], object], runs: int) -> list[float]:
    for _ in range(min(100, runs)):  # warm up
        call()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1e6)
    return sorted(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000)
    runs = parser.parse_args().runs
    print(f"{'call':<26} {'median µs':>10} {'p95 µs':>10}")
    for name, call in CASES:
        samples = _time(call, runs)
        p95 = samples[min(len(samples) - 1, int(len(samples) * 0.95))]
        print(f"{name:<26} {statistics.median(samples):>10.1f} {p95:>10.1f}")


if __name__ == "__main__":
    main()
