"""A first analysis' rent, property taxes and insurance, from the lead's own figures (never $0 out of the
box): each an estimate with its basis sentence, so the page can say what it rests on.

- Base value: the lead's market value, else its asking price; neither -> no estimate ($0, "N/A: ...").
- Rent: base / ``GRM_MONTHS`` (a gross rent multiplier of 120 months, i.e. 0.83 % of the value a month),
  to $10: a rule of thumb, named as such, not a rent survey.
- Property taxes: base x the state's effective rate on owner-occupied homes (``STATE_TAX_PCT``, Tax
  Foundation 2023 from Census ACS 2021), else the median state's rate ``DEFAULT_TAX_PCT``, to $10 a year.
- Insurance: base x ``INSURANCE_PCT`` a year, to $10.
- The flip's monthly holding cost: (taxes + insurance) / 12, to $1 (utilities are the user's to add).

Pure: no database; the texts are ``property.texts_deal``'s.
"""

from __future__ import annotations

from dataclasses import dataclass

from marketplace.features.marketplace import usd
from marketplace.features.property import texts_deal as text

GRM_MONTHS = 120
INSURANCE_PCT = 0.5
# Effective property-tax rates on owner-occupied housing (property taxes paid / home value), as published
# by the Tax Foundation's 2023 analysis of the Census Bureau's American Community Survey (2021): only the
# ten highest and ten lowest states it lists, the figures quoted in its press coverage. Every other state
# gets the median of all states and DC in the same analysis, and its basis says so.
DEFAULT_TAX_PCT = 0.91
STATE_TAX_PCT = {
    "NJ": 2.23, "IL": 2.08, "NH": 1.93, "VT": 1.83, "CT": 1.79, "TX": 1.68, "NE": 1.63, "WI": 1.61, "OH": 1.59,
    "IA": 1.52,
    "HI": 0.32, "AL": 0.40, "CO": 0.55, "LA": 0.56, "WY": 0.56, "SC": 0.57, "UT": 0.57, "NV": 0.59, "DE": 0.61,
}


@dataclass(frozen=True)
class Estimate:
    value: float
    basis: str


def _ten(value: float) -> float:
    return float(round(value, -1))


def lead_estimates(market_value: int | None, asking_price: int | None, state: str | None) -> dict[str, Estimate]:
    """The analysis fields' estimates by form key: monthly_rent, property_tax_annual, insurance_annual,
    monthly_holding_cost (module docstring)."""
    base_value, base = (market_value, text.BASE_MARKET) if market_value else (asking_price, text.BASE_ASKING)
    if not base_value or base_value <= 0:
        none = Estimate(0.0, text.NO_VALUE_BASIS)
        return {"monthly_rent": none, "property_tax_annual": none, "insurance_annual": none,
                "monthly_holding_cost": none}
    code = (state or "").strip().upper()
    rate = STATE_TAX_PCT.get(code)
    where = text.TAX_STATE.format(state=code) if rate is not None else text.TAX_DEFAULT
    rate = rate if rate is not None else DEFAULT_TAX_PCT
    rent = _ten(base_value / GRM_MONTHS)
    tax = _ten(base_value * rate / 100)
    insurance = _ten(base_value * INSURANCE_PCT / 100)
    holding = float(round((tax + insurance) / 12))
    shown = usd(base_value)
    return {
        "monthly_rent": Estimate(rent, text.RENT_BASIS.format(base=base.capitalize(), value=shown, grm=GRM_MONTHS,
                                                              rent=usd(rent))),
        "property_tax_annual": Estimate(tax, text.TAX_BASIS.format(base=base.capitalize(), value=shown,
                                                                   rate=f"{rate:g}", where=where)),
        "insurance_annual": Estimate(insurance, text.INSURANCE_BASIS.format(base=base.capitalize(), value=shown,
                                                                            rate=f"{INSURANCE_PCT:g}")),
        "monthly_holding_cost": Estimate(holding, text.HOLDING_BASIS.format(tax=usd(tax), insurance=usd(insurance))),
    }
