"""A lead's headline numbers (the card's and the property page's ROI and profit): the best-supported ARV.

- Comps ARV (``comps_arv``): ``property.rules_comps`` over the sales its source reports near the lead, with the
  default selection (``property.rules_comps.default_pins``: every selected sale but the outliers), the median $/sqft
  x the living area. Enough comps: at least ``property.rules_comps.MIN_COMPS`` (3) sales in that selection, the
  threshold the comparable sales card widens its search for.
- The ARV used: the comps ARV when there are enough comps, else the lead's estimated ARV (``leads.arv``).
  Its basis is stored (``leads.roi_basis``: ``comps`` or ``estimate``; ``''`` not yet computed, read as
  the estimate) and named on the card ("ROI vs comps ARV" / "ROI vs estimated ARV").
- ROI (``leads.roi``, what "Highest ROI" sorts and the ROI bands filter): ``property.rules_valuation.roi`` with the
  ARV used (against the asking price, else the market value). Profit: ARV used - asking price - rehab.
- Disagreement: where the comps ARV and the estimate differ by more than 10 % of the estimate, the card
  says so ("Comps ARV $540,000 is 15% below the estimate").

Pure: the caller passes the sales (``property.source_builtin_comps``, ``records.service_comps``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from marketplace.features.property import rules_comps as comps_rules
from marketplace.platform import pricing
from marketplace.features.property import rules_valuation as valuation
from marketplace.features.marketplace.rules import usd
from marketplace.features.marketplace import texts_headline as text

COMPS = "comps"
ESTIMATE = "estimate"
BASES = (COMPS, ESTIMATE)
DISAGREE_ABOVE = 0.10  # a difference of more than 10 % of the estimate is shown


@dataclass(frozen=True)
class CompsArv:
    value: int | None   # None without a comps ARV (no sale selected, no living area)
    count: int          # the sales of the default selection (counted with or without a living area)


def default_comps_arv(subject: comps_rules.Subject, sales, today: date) -> CompsArv:
    """The ARV of the default selection of ``sales`` around ``subject`` (module docstring)."""
    selection = comps_rules.select_comps(subject, sales, today)
    pins = set(comps_rules.default_pins(selection.comps))
    pinned = [s for s in selection.comps if s.comp.comp_id in pins]
    arv = comps_rules.pinned_arv(subject.square_footage, pinned)
    return CompsArv(arv.value if arv else None, len(pinned))


def enough(comps_arv: int | None, comps_count: int | None) -> bool:
    return comps_arv is not None and (comps_count or 0) >= comps_rules.MIN_COMPS


def unpriced(basis: str | None, comps_count: int | None) -> bool:
    """Enough comparable sales, yet the estimate: the subject has no living area to price them by (a comps
    ARV is their median $/sqft x the living area; ``enough`` needs both)."""
    return basis == ESTIMATE and (comps_count or 0) >= comps_rules.MIN_COMPS


def basis_of(comps_arv: int | None, comps_count: int | None) -> str:
    return COMPS if enough(comps_arv, comps_count) else ESTIMATE


def arv_used(estimate_arv: int | None, comps_arv: int | None, basis: str | None) -> int | None:
    return comps_arv if basis == COMPS and comps_arv is not None else estimate_arv


def columns(*, asking_price: int | None, market_value: int | None, estimate_arv: int | None,
            rehab: int | None, comps: CompsArv | None) -> dict:
    """The lead columns of the headline: comps_arv, comps_count, roi_basis, roi, is_high_roi."""
    comps_arv, count = (comps.value, comps.count) if comps is not None else (None, 0)
    basis = basis_of(comps_arv, count)
    roi, _ = valuation.roi(asking_price=asking_price, market_value=market_value,
                           arv=arv_used(estimate_arv, comps_arv, basis), rehab=rehab)
    return {"comps_arv": comps_arv, "comps_count": count, "roi_basis": basis, "roi": roi,
            "is_high_roi": pricing.is_high_roi(roi)}


def profit(*, estimate_arv: int | None, comps_arv: int | None, basis: str | None, asking_price: int | None,
           rehab: int | None) -> int | None:
    """ARV used - asking price - rehab estimate (SPEC 9); None when a number is missing."""
    return pricing.potential_profit(arv_used(estimate_arv, comps_arv, basis), asking_price, rehab)


def roi_label(basis: str | None, asking_price: int | None, roi: float | None) -> str:
    """'ROI vs comps ARV' / 'ROI vs estimated ARV' ('... at market value' without an asking price);
    'Est. ROI' without a figure (N/A rests on nothing)."""
    if roi is None:
        return text.NO_FIGURE
    label = text.ROI_VS_COMPS if basis == COMPS else text.ROI_VS_ESTIMATE
    return label + (text.AT_MARKET_VALUE if asking_price is None else "")


def arv_term(basis: str | None) -> str:
    """The card's name for the ARV it shows: 'Comps ARV' or 'Est. ARV'."""
    return text.ARV_COMPS if basis == COMPS else text.ARV_ESTIMATE


def disagreement(comps_arv: int | None, estimate_arv: int | None) -> str:
    """'Comps ARV $540,000 is 15% below the estimate' when they differ by more than 10 % of the estimate;
    '' otherwise (or when either is missing)."""
    if comps_arv is None or not estimate_arv or estimate_arv <= 0:
        return ""
    share = (comps_arv - estimate_arv) / estimate_arv
    if abs(share) <= DISAGREE_ABOVE:
        return ""
    return text.DISAGREE.format(comps=usd(comps_arv), percent=round(abs(share) * 100),
                                direction="below" if share < 0 else "above")


def basis_line(basis: str | None, comps_count: int | None, computed: bool = True) -> str:
    """The card's short line under the ROI: what the ARV rests on."""
    if basis == COMPS:
        return text.BASIS_COMPS.format(count=comps_count or 0)
    if not computed:
        return text.BASIS_ESTIMATE_ONLY
    if unpriced(basis, comps_count):
        return text.BASIS_NO_AREA.format(count=comps_count)
    return text.BASIS_ESTIMATE.format(minimum=comps_rules.MIN_COMPS)


def card_note(basis: str | None, comps_arv: int | None, comps_count: int | None, estimate_arv: int | None) -> str:
    """The card's line: the disagreement when there is one (only when comps were counted), else the basis."""
    computed = basis in BASES
    if computed and (comps_count or 0) >= comps_rules.MIN_COMPS:
        differs = disagreement(comps_arv, estimate_arv)
        if differs:
            return differs
    return basis_line(basis, comps_count, computed)


def page_arv_basis(basis: str | None, comps_count: int | None, estimate_arv: int | None,
                   estimate_basis: str) -> str:
    """The property page's line under the ARV: the default selection (and that the comps card uses the
    user's pins), or the estimate's own basis."""
    if basis == COMPS:
        return text.PAGE_COMPS.format(count=comps_count or 0, estimate=usd(estimate_arv))
    if unpriced(basis, comps_count):
        return text.PAGE_NO_AREA.format(estimate_basis=estimate_basis.rstrip(".") + ".", count=comps_count)
    if basis == ESTIMATE:
        return text.PAGE_ESTIMATE.format(estimate_basis=estimate_basis.rstrip(".") + ".",
                                         minimum=comps_rules.MIN_COMPS)
    return estimate_basis
