"""The maximum offer: the 70 % rule, and the highest purchase price that still meets the user's targets.

70 % rule (the flipper's rule of thumb): 0.70 x ARV - rehab.

The solver never restates a formula: it asks ``formulas.flip`` (profit, ROI) and ``formulas.rental``
(DSCR) at trial purchase prices. Each target becomes a margin that is >= 0 exactly when the target is met:
profit - minimum profit; profit - minimum ROI x total project cost (ROI >= t); NOI - minimum DSCR x debt
service (DSCR >= t). Every margin only falls as the price rises (the price adds to the cost, the closing
costs and the loan). For each target the solver finds the highest whole-dollar price in [0, 100,000,000]
with a margin >= 0: the margins are straight lines in the price (every cost is a percentage of the price
or of a loan that is), so the line through the margins at $0 and $100,000,000 gives the crossing, which
is then confirmed to the dollar against the same functions; should a margin ever stop being a straight
line, bisection takes over. The answer is the lowest of those prices, and the target that set it "binds".
A target that even a $0 price misses means no price works (named in the note); a DSCR target is met at
any price when the rental has no loan (100 % down).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from marketplace.platform import texts as msg
from marketplace.features.property.rules_deal.formulas import flip, rental
from marketplace.features.property.rules_deal.inputs import MAX_MONEY, FlipInputs, RentalInputs, Targets, check

RULE_70 = 0.70


@dataclass(frozen=True)
class MaxOffer:
    rule_70: float  # 0.70 x ARV - rehab (negative: the rule allows no offer)
    max_price: float | None  # whole dollars; None: no target set, or no price meets them
    binding: str | None  # "min_profit" | "min_roi_pct" | "min_dscr": the target that sets max_price
    by_target: dict[str, float | None]  # each target's own highest price (None: not even $0)
    note: str  # one sentence for the page


def rule_70(arv: float, rehab: float) -> float:
    return round(RULE_70 * arv - rehab, 2)


def max_offer(flip_inputs: FlipInputs, targets: Targets, rental_inputs: RentalInputs | None = None) -> MaxOffer:
    """The 70 % rule and the solved maximum offer (module docstring); ``DealInputError`` on bad inputs.
    ``rental_inputs``: the rental the DSCR target is judged on (without it a DSCR target is ignored)."""
    check(flip_inputs)
    check(targets)
    if rental_inputs is not None:
        check(rental_inputs)
    tests = _tests(flip_inputs, targets, rental_inputs)
    by_target = {name: _highest(ok) for name, ok in tests.items()}
    rule = rule_70(flip_inputs.arv, flip_inputs.rehab)
    if not by_target:
        return MaxOffer(rule, None, None, {}, msg.MAX_OFFER_NO_TARGETS)
    missed = [name for name, price in by_target.items() if price is None]
    if missed:
        return MaxOffer(rule, None, missed[0], by_target,
                        msg.MAX_OFFER_NONE.format(target=msg.TARGET_LABELS[missed[0]].lower()))
    binding = min(by_target, key=lambda name: by_target[name])
    return MaxOffer(rule, by_target[binding], binding, by_target,
                    msg.MAX_OFFER_BINDS.format(target=msg.TARGET_LABELS[binding]))


def _tests(f: FlipInputs, t: Targets, r: RentalInputs | None) -> dict[str, Callable[[float], float]]:
    """Each set target's margin at a purchase price (>= 0: met)."""
    tests: dict[str, Callable[[float], float]] = {}
    if t.min_profit is not None:
        tests["min_profit"] = lambda p: flip(replace(f, purchase_price=p), checked=True).profit - t.min_profit
    if t.min_roi_pct is not None:
        def roi_margin(p: float) -> float:
            result = flip(replace(f, purchase_price=p), checked=True)
            return result.profit - t.min_roi_pct / 100 * result.total_cost
        tests["min_roi_pct"] = roi_margin
    if t.min_dscr is not None and r is not None and r.down_payment_pct < 100:
        def dscr_margin(p: float) -> float:
            result = rental(replace(r, purchase_price=p), checked=True)
            return result.noi - t.min_dscr * result.annual_debt_service
        tests["min_dscr"] = dscr_margin
    return tests


def _highest(margin: Callable[[float], float]) -> float | None:
    """The highest whole-dollar price in [0, MAX_MONEY] where ``margin`` >= 0 (it falls as the price
    rises); None when not even 0 meets it."""
    at_zero, top = margin(0.0), float(MAX_MONEY)
    if at_zero < 0:
        return None
    at_top = margin(top)
    if at_top >= 0:
        return top
    guess = float(min(top - 1, max(0.0, math.floor(top * at_zero / (at_zero - at_top)))))  # where the line crosses 0
    if margin(guess) >= 0 and margin(guess + 1) < 0:
        return guess
    lo, hi = 0.0, top  # margin(lo) >= 0 > margin(hi)
    while hi - lo > 1:
        mid = float(math.floor((lo + hi) / 2))
        if margin(mid) >= 0:
            lo = mid
        else:
            hi = mid
    return lo
