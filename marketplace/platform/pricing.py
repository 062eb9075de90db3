"""Lead pricing and flags (SPEC section 9), defined once.

- Unlock cost by confidence score: 90-100 -> 150, 80-89 -> 120, 60-79 -> 60,
  30-59 -> 30 (SPEC 9). Below 30 the SPEC is silent: such a lead costs the lowest
  tier's 30 (never more than a better lead, as public-record leads with little data
  can score that low); a missing score -> the default 85.
- A lead's own ``credit_cost`` wins when present (SPEC: "which applies to a
  given lead is decided by the lead's credit_cost").
- High ROI: ``roi >= HIGH_ROI_THRESHOLD`` (20 %).
- Confidence shows as 85 when missing.
"""

from __future__ import annotations

from marketplace.platform.texts import COST_FAQ, LOW_CREDIT_COSTS

DEFAULT_CREDIT_COST = 85
DEFAULT_CONFIDENCE = 85
HIGH_ROI_THRESHOLD = 20.0
HIGH_CONFIDENCE = 80  # the two top tiers: what the FAQ's "typically 85-150" speaks of
COST_TIERS = ((90, 150), (80, 120), (60, 60), (30, 30))  # (minimum confidence, credits)


def credit_cost_for_confidence(confidence: int | None) -> int:
    if confidence is None:
        return DEFAULT_CREDIT_COST
    for minimum, cost in COST_TIERS:
        if confidence >= minimum:
            return cost
    return COST_TIERS[-1][1]  # below the lowest tier: its price


def lowest_credit_cost() -> int:
    """The lowest tier's price: what a lead with little more than an address costs (a public-record lead
    whose county has no roll configured, ``records.rules_roll_facts``)."""
    return min(cost for _, cost in COST_TIERS)


def cost_tiers() -> list[tuple[int, int, int]]:
    """(lowest score, highest score, credits) per tier, highest first: (90, 100, 150), ..."""
    tiers, top = [], 100
    for minimum, cost in COST_TIERS:
        tiers.append((minimum, top, cost))
        top = minimum - 1
    return tiers


def cost_bounds() -> tuple[int, int]:
    """The cheapest and the dearest unlock the rule gives (30, 150)."""
    costs = [cost for _, cost in COST_TIERS] + [DEFAULT_CREDIT_COST]
    return min(costs), max(costs)


def typical_cost_range(minimum_confidence: int = HIGH_CONFIDENCE) -> tuple[int, int]:
    """What a lead scored ``minimum_confidence`` or more costs: its tier's price, or the
    default when it has no credit_cost of its own (85-150 at 80+, the FAQ's 'typically')."""
    costs = [cost for minimum, cost in COST_TIERS if minimum >= minimum_confidence] + [DEFAULT_CREDIT_COST]
    return min(costs), max(costs)


def cost_rule_text() -> str:
    """'150 credits at 90-100, 120 at 80-89, 60 at 60-79 and 30 at 30-59 or below' (from COST_TIERS)."""
    parts = [f"{cost} credits at {low}-{high}" if i == 0 else f"{cost} at {low}-{high}"
             for i, (low, high, cost) in enumerate(cost_tiers())]
    return ", ".join(parts[:-1]) + f" and {parts[-1]} or below"


def cost_faq_text() -> str:
    """The pricing FAQ's answer to 'How much does a lead cost?', stating the rule."""
    low_typical, high_typical = typical_cost_range()
    tier_prices = sorted({cost for minimum, cost in COST_TIERS if minimum >= HIGH_CONFIDENCE})
    return COST_FAQ.format(rule=cost_rule_text(), default=DEFAULT_CREDIT_COST, high=HIGH_CONFIDENCE,
                           tier_low=tier_prices[0], tier_high=tier_prices[-1],
                           low_typical=low_typical, high_typical=high_typical)


def low_credit_cost_text() -> str:
    """The low-credit banner's clause: 'leads cost 30 to 150 credits to unlock, ...'."""
    low, high = cost_bounds()
    return LOW_CREDIT_COSTS.format(low=low, high=high)


def unlock_cost(credit_cost: int | None) -> int:
    """What unlocking a lead costs: its credit_cost, 85 when absent."""
    return DEFAULT_CREDIT_COST if credit_cost is None else credit_cost


def display_confidence(confidence: int | None) -> int:
    return DEFAULT_CONFIDENCE if confidence is None else confidence


def is_high_roi(roi: float | None) -> bool:
    return roi is not None and roi >= HIGH_ROI_THRESHOLD


def estimate_arv(market_value: int, condition: float) -> int:
    """After-repair value: market value x (1.04 + 0.22 x (1 - condition)), to $1,000.

    ``condition`` runs from 0 (gut rehab) to 1 (move-in ready).
    """
    return int(round(market_value * (1.04 + 0.22 * (1 - condition)), -3))


def estimate_rehab(square_footage: int, condition: float) -> int:
    """Rehab cost: square footage x (8 + 47 x (1 - condition)) $/sqft, to $100."""
    return int(round(square_footage * (8 + 47 * (1 - condition)), -2))


def potential_profit(arv: int | None, asking: int | None, rehab: int | None) -> int | None:
    """SPEC 9: profit = ARV - asking price - rehab estimate; None when a number is missing."""
    if arv is None or asking is None or rehab is None:
        return None
    return arv - asking - rehab


def compute_roi(arv: int | None, asking_price: int | None, rehab_estimate: int | None) -> float | None:
    """ROI in percent: profit over cash invested.

    ``roi = (arv - asking_price - rehab_estimate) / (asking_price + rehab_estimate) * 100``,
    rounded to one decimal; None when a number is missing or nothing is invested.
    """
    if arv is None or asking_price is None or rehab_estimate is None:
        return None
    invested = asking_price + rehab_estimate
    if invested <= 0:
        return None
    # + 0.0: a loss that rounds to zero is 0.0, never -0.0 (PostgreSQL stores -0 and it reads '-0.0%')
    return round((arv - invested) / invested * 100, 1) + 0.0


def asking_price_for_roi(arv: int, rehab_estimate: int, roi_percent: float) -> int:
    """The asking price at which ``compute_roi`` gives ``roi_percent`` (inverse)."""
    return int(round(arv / (1 + roi_percent / 100) - rehab_estimate))
