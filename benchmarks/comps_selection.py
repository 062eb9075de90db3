"""Comparable-sales speed: the server's share of a Comparable Sales card view, off the event loop.

    .venv/bin/python -m benchmarks.comps_selection [--runs 200]

Times ``property.source_builtin_comps.BuiltinComps.sales_near`` (a demo lead's synthetic history) and
``property.rules_comps.select_comps`` + ``outliers`` + ``pinned_arv`` on 36 sales (a demo lead), 500 and 2,000
sales (``records.service_comps.MAX_CANDIDATES``, a dense recorded-sales area). Prints the median and
95th-percentile time per call; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import uuid
from datetime import date, timedelta

from marketplace.features.property import rules_comps as rules
from marketplace.features.property.source_builtin_comps import BuiltinComps
from marketplace.features.property.source_comps import LeadFacts

TODAY = date(2026, 11, 25)
LEAD = LeadFacts(uuid.UUID(int=7), "1 Bench St", "Austin", "TX", "78704", 30.2431, -97.7702, 1_600, 3, 2.0,
                 "Single Family", TODAY)
SUBJECT = rules.Subject(30.2431, -97.7702, 1_600, 3, "Single Family")


def _sales(n: int) -> list[rules.Comp]:
    rng = random.Random(n)
    return [rules.Comp(f"s{i}", f"{i} Bench Ave", "Austin", "TX", "78704", TODAY - timedelta(days=rng.randint(1, 380)),
                       rng.randint(250_000, 650_000), rng.randint(1_100, 2_100), rng.randint(2, 4), 2.0,
                       "Single Family", 30.2431 + rng.uniform(-0.03, 0.03), -97.7702 + rng.uniform(-0.03, 0.03))
            for i in range(n)]


def _rules(sales: list[rules.Comp]) -> None:
    chosen = rules.select_comps(SUBJECT, sales, TODAY)
    rules.outliers(chosen.comps)
    rules.pinned_arv(1_600, chosen.comps)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    runs = parser.parse_args().runs
    cases = [("demo history (sales_near)", lambda: BuiltinComps().sales_near(LEAD, TODAY))]
    for n in (36, 500, 2_000):
        sales = _sales(n)
        cases.append((f"select + outliers + ARV, {n:,} sales", lambda s=sales: _rules(s)))
    print(f"{'case':<40} {'median ms':>10} {'p95 ms':>10}")
    for name, call in cases:
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            call()
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        print(f"{name:<40} {statistics.median(times):>10.3f} {times[int(len(times) * 0.95) - 1]:>10.3f}")


if __name__ == "__main__":
    main()
