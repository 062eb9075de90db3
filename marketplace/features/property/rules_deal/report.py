"""One analysis as the page and the deal sheet show it: every result as a display string, with the line
saying how it is computed (filled with the analysis' own figures), the maximum offer's note and each
target's own price. Pure: the formulas are ``property.rules_deal.formulas`` / ``solver``'s; this only formats.
"""

from __future__ import annotations

from dataclasses import dataclass

from marketplace.platform import texts as msg
from marketplace.features.property.rules_deal.formulas import (
    BrrrrResult,
    FlipResult,
    RentalResult,
    brrrr,
    flip,
    rental,
)
from marketplace.features.property.rules_deal.inputs import DealAnalysis, check
from marketplace.features.property.rules_deal.solver import MaxOffer, max_offer
from marketplace.features.marketplace import percent, usd
from marketplace.features.property import texts_deal as text


@dataclass(frozen=True)
class Report:
    values: dict[str, str]  # text.RESULT_LABELS' keys -> '$65,440', '23.0%', '1.31', 'no loan'
    hows: dict[str, str]  # the same keys -> 'ARV $350,000 - total project cost $284,560'
    tones: dict[str, str]  # 'flip_profit', 'rental_cash_flow', 'brrrr_cash_flow' -> 'gain' | 'loss'
    offer_note: str  # which target binds, or why there is no price
    offer_targets: list[str]  # 'Minimum profit: $212,345', one per target set
    flip: FlipResult
    rental: RentalResult
    brrrr: BrrrrResult
    offer: MaxOffer


def _ratio(value: float | None) -> str:
    return msg.DSCR_NO_LOAN if value is None else f"{value:.2f}"


def _pct(value: float | None, none: str = msg.NO_CASH_IN) -> str:
    return none if value is None else percent(value)


def _tone(value: float) -> str:
    return "loss" if value < 0 else "gain"


def _brrrr_coc(b) -> str:
    """Cash-on-cash after the refinance: infinite only when no cash is left in AND the rental cash flows;
    with no cash left in and a cash flow of zero or less there is no return to speak of."""
    if b.cash_left_in > 0:
        return _pct(b.cash_on_cash_pct)
    return msg.ALL_CASH_BACK if b.monthly_cash_flow > 0 else msg.ALL_CASH_BACK_NO_INCOME


def report(analysis: DealAnalysis) -> Report:
    """The four strategies' results; ``DealInputError`` on invalid input (nothing is computed from it)."""
    check(analysis)
    a = analysis
    f = flip(a.flip, checked=True)
    r = rental(a.rental, checked=True)
    b = brrrr(a.brrrr, checked=True)
    o = max_offer(a.flip, a.targets, a.rental)
    values = {
        "flip_total_cost": usd(f.total_cost), "flip_cash_in": usd(f.cash_in), "flip_profit": usd(f.profit),
        "flip_roi": _pct(f.roi_pct, text.NA),
        "flip_annualized": _pct(f.annualized_roi_pct,
                                msg.ANNUALIZED_NO_HOLD if a.flip.holding_months == 0 else text.NA),
        "flip_coc": _pct(f.cash_on_cash_pct),
        "rental_noi": usd(r.noi), "rental_cap": _pct(r.cap_rate_pct, text.NA),
        "rental_cash_flow": usd(r.monthly_cash_flow), "rental_coc": _pct(r.cash_on_cash_pct),
        "rental_dscr": _ratio(r.dscr),
        "brrrr_refi_loan": usd(b.refi_loan), "brrrr_cash_out": usd(b.cash_out), "brrrr_cash_left": usd(b.cash_left_in),
        "brrrr_cash_flow": usd(b.monthly_cash_flow),
        "brrrr_coc": _brrrr_coc(b),
        "brrrr_dscr": _ratio(b.dscr),
        "offer_rule_70": usd(o.rule_70), "offer_max": usd(o.max_price) if o.max_price is not None else text.NA,
    }
    hows = {key: how.format(
        buying=usd(f.buying_costs), holding=usd(f.holding_costs), points=usd(f.points), interest=usd(f.interest),
        selling=usd(f.selling_costs), loan=usd(f.loan), arv=usd(a.flip.arv), total_cost=usd(f.total_cost),
        months=a.flip.holding_months, gross=usd(r.gross_rent), vacancy=usd(r.vacancy),
        expenses=usd(r.operating_expenses), payment=usd(r.monthly_payment), invested=usd(r.cash_invested),
        debt=usd(r.annual_debt_service), ltv=f"{a.refi_ltv_pct:g}%", costs=usd(b.refi_costs), payoff=usd(b.payoff),
        cash_in=usd(f.cash_in), noi=usd(b.noi), rehab=usd(a.flip.rehab),
    ) for key, how in text.HOW.items()}
    hows["brrrr_cash_flow"] = text.HOW["brrrr_cash_flow"].format(noi=usd(b.noi), payment=usd(b.monthly_payment))
    hows["brrrr_dscr"] = text.HOW["brrrr_dscr"].format(debt=usd(b.annual_debt_service))
    if o.rule_70 < 0:
        hows["offer_rule_70"] += f". {text.RULE_70_NEGATIVE}"
    tones = {"flip_profit": _tone(f.profit), "rental_cash_flow": _tone(r.monthly_cash_flow),
             "brrrr_cash_flow": _tone(b.monthly_cash_flow)}
    targets = [text.OFFER_BY_TARGET.format(target=msg.TARGET_LABELS[name],
                                           price=usd(price) if price is not None else text.OFFER_NO_PRICE)
               for name, price in o.by_target.items()]
    return Report(values, hows, tones, o.note, targets, f, r, b, o)


def lead_arv_basis(arv: float | None, record_basis: object = None) -> str:
    """The basis sentence of a lead's own ARV estimate (a public record's stored sentence when it has
    one, else the listing sources' formula); 'no estimate' when the lead has none."""
    if arv is None:
        return text.ARV_NONE_BASIS
    how = str(record_basis).rstrip(".") if isinstance(record_basis, str) and record_basis.strip() else text.ARV_LEAD_HOW
    return text.ARV_LEAD_BASIS.format(value=usd(arv), how=how)
