"""Lead pricing and flags (SPEC section 9), defined once.

- Unlock cost by confidence score: 90-100 -> 150, 80-89 -> 120, 60-79 -> 60,
  30-59 -> 30; below 30 or missing -> the default 85.
- A lead's own ``credit_cost`` wins when present (SPEC: "which applies to a
  given lead is decided by the lead's credit_cost").
- High ROI: ``roi >= HIGH_ROI_THRESHOLD`` (20 %).
- Confidence shows as 85 when missing.
"""

from __future__ import annotations

DEFAULT_CREDIT_COST = 85
DEFAULT_CONFIDENCE = 85
HIGH_ROI_THRESHOLD = 20.0
COST_TIERS = ((90, 150), (80, 120), (60, 60), (30, 30))  # (minimum confidence, credits)


def credit_cost_for_confidence(confidence: int | None) -> int:
    if confidence is None:
        return DEFAULT_CREDIT_COST
    for minimum, cost in COST_TIERS:
        if confidence >= minimum:
            return cost
    return DEFAULT_CREDIT_COST


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
    return round((arv - invested) / invested * 100, 1)


def asking_price_for_roi(arv: int, rehab_estimate: int, roi_percent: float) -> int:
    """The asking price at which ``compute_roi`` gives ``roi_percent`` (inverse)."""
    return int(round(arv / (1 + roi_percent / 100) - rehab_estimate))
