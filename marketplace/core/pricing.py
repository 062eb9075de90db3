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
