"""The deal analyzer's formulas: each written once, here (the solver calls these same functions).

Conventions follow the common investor calculators (DealCheck, BiggerPockets): pre-tax figures,
percentages of the gross scheduled rent for vacancy and reserves, interest-only hard money, a
standard fixed-rate amortising mortgage. Ratios come back as percents (22.4 means 22.4 %); a ratio
whose denominator is zero is None (the UI shows ``messages.NO_CASH_IN`` / ``DSCR_NO_LOAN``).

Mortgage payment (standard amortisation): ``r = rate / 12``, ``n = years x 12``,
``payment = L x r / (1 - (1 + r)^-n)``; at 0 % ``payment = L / n``.

Flip:
- rehab = the sum of the rehab lines; buying costs = purchase x buying %; selling costs = ARV x selling %;
  holding = months x monthly holding cost.
- hard money: loan = loan-to-cost x (purchase + rehab); points = loan x points %; interest (interest-only,
  monthly) = loan x rate / 12 x months. Cash: no loan, no points, no interest.
- total project cost = purchase + rehab + buying costs + holding + points + interest + selling costs;
  profit = ARV - total project cost.
- total cash in = purchase + rehab - loan + buying costs + holding + points + interest (what the investor
  pays before the sale; selling costs come out of the sale proceeds).
- ROI = profit / total project cost; annualized ROI = (1 + ROI)^(12 / months) - 1 (None for a 0-month
  hold: no period to annualize over); cash-on-cash = profit / total cash in.

Rental (yearly; BiggerPockets-style reserves):
- gross rent = monthly rent x 12; vacancy = gross x vacancy %; operating expenses = property tax +
  insurance + gross x (management % + maintenance % + capex %); NOI = gross - vacancy - operating expenses.
- loan = purchase x (1 - down %); debt service = 12 x mortgage payment; cash flow = NOI - debt service
  (monthly: / 12); cash invested = down payment + purchase x buying % + rehab.
- cap rate = NOI / purchase price; cash-on-cash = yearly cash flow / cash invested; DSCR = NOI / debt
  service (None with no loan: "no loan").

BRRRR: the flip's acquisition (its total cash in, its hard-money loan), then a refinance: new loan = ARV x
refinance LTV; refinance costs = new loan x refinance closing %; cash out = new loan - refinance costs -
hard-money payoff; cash left in the deal = total cash in - cash out (0 or less: every dollar came back,
cash-on-cash is infinite, ``messages.ALL_CASH_BACK``, while the rental cash flows, else
``messages.ALL_CASH_BACK_NO_INCOME``); cash flow = the rental's NOI - the new
loan's debt service; cash-on-cash after the refinance = yearly cash flow / cash left in.
"""

from __future__ import annotations

from dataclasses import dataclass

from marketplace.features.property.rules_deal.inputs import BrrrrInputs, FlipInputs, RentalInputs, check


def mortgage_payment(principal: float, rate_pct: float, years: int) -> float:
    """The monthly principal-and-interest payment of a fixed-rate loan (0 % rate: principal / months)."""
    n = years * 12
    if principal <= 0:
        return 0.0
    r = rate_pct / 100 / 12
    if r == 0:
        return principal / n
    return principal * r / (1 - (1 + r) ** -n)


def _ratio(numerator: float, denominator: float) -> float | None:
    """numerator / denominator as a percent; None over zero."""
    return numerator / denominator * 100 if denominator > 0 else None


def annualized_pct(roi_pct: float | None, months: int) -> float | None:
    """(1 + ROI)^(12 / months) - 1, in percent; None for 0 months or no ROI. A total loss is -100 %."""
    if roi_pct is None or months <= 0:
        return None
    growth = max(0.0, 1 + roi_pct / 100)
    return (growth ** (12 / months) - 1) * 100


@dataclass(frozen=True)
class FlipResult:
    rehab: float
    buying_costs: float
    selling_costs: float
    holding_costs: float
    loan: float
    points: float
    interest: float
    total_cost: float
    cash_in: float
    profit: float
    roi_pct: float | None
    annualized_roi_pct: float | None
    cash_on_cash_pct: float | None


def flip(inputs: FlipInputs, *, checked: bool = False) -> FlipResult:
    """A flip's figures (module docstring). ``DealInputError`` on invalid inputs (``checked``: the
    caller already validated them)."""
    if not checked:
        check(inputs)
    i = inputs
    rehab = i.rehab
    buying = i.purchase_price * i.buy_closing_pct / 100
    selling = i.arv * i.sell_closing_pct / 100
    holding = i.holding_months * i.monthly_holding_cost
    if i.financing == "hard_money":
        loan = i.loan_to_cost_pct / 100 * (i.purchase_price + rehab)
        points = loan * i.loan_points_pct / 100
        interest = loan * i.loan_rate_pct / 100 / 12 * i.holding_months
    else:
        loan = points = interest = 0.0
    financing_costs = points + interest
    total_cost = i.purchase_price + rehab + buying + holding + financing_costs + selling
    cash_in = i.purchase_price + rehab - loan + buying + holding + financing_costs
    profit = i.arv - total_cost
    roi = _ratio(profit, total_cost)
    return FlipResult(rehab, buying, selling, holding, loan, points, interest, total_cost, cash_in, profit,
                      roi, annualized_pct(roi, i.holding_months), _ratio(profit, cash_in))


@dataclass(frozen=True)
class Operations:
    """A rental's yearly income and expenses before debt."""

    gross_rent: float
    vacancy: float
    operating_expenses: float
    noi: float


def operations(inputs: RentalInputs) -> Operations:
    """Gross rent, vacancy, operating expenses and NOI of a year (module docstring)."""
    i = inputs
    gross = i.monthly_rent * 12
    vacancy = gross * i.vacancy_pct / 100
    reserves = gross * (i.management_pct + i.maintenance_pct + i.capex_pct) / 100
    expenses = i.property_tax_annual + i.insurance_annual + reserves
    return Operations(gross, vacancy, expenses, gross - vacancy - expenses)


def dscr(noi: float, debt_service: float) -> float | None:
    """NOI / yearly debt service; None without debt ("no loan")."""
    return noi / debt_service if debt_service > 0 else None


@dataclass(frozen=True)
class RentalResult:
    gross_rent: float
    vacancy: float
    operating_expenses: float
    noi: float
    loan: float
    monthly_payment: float
    annual_debt_service: float
    annual_cash_flow: float
    monthly_cash_flow: float
    cash_invested: float
    cap_rate_pct: float | None
    cash_on_cash_pct: float | None
    dscr: float | None


def rental(inputs: RentalInputs, *, checked: bool = False) -> RentalResult:
    """A rental's figures (module docstring); ``DealInputError`` on invalid inputs."""
    if not checked:
        check(inputs)
    i = inputs
    ops = operations(i)
    loan = i.purchase_price * (1 - i.down_payment_pct / 100)
    payment = mortgage_payment(loan, i.mortgage_rate_pct, i.term_years)
    debt_service = payment * 12
    cash_flow = ops.noi - debt_service
    invested = i.purchase_price - loan + i.purchase_price * i.buy_closing_pct / 100 + i.rehab
    return RentalResult(ops.gross_rent, ops.vacancy, ops.operating_expenses, ops.noi, loan, payment, debt_service,
                        cash_flow, cash_flow / 12, invested, _ratio(ops.noi, i.purchase_price),
                        _ratio(cash_flow, invested), dscr(ops.noi, debt_service))


@dataclass(frozen=True)
class BrrrrResult:
    acquisition: FlipResult  # the flip's figures: its cash_in is the cash put in before the refinance
    refi_loan: float
    refi_costs: float
    payoff: float
    cash_out: float
    cash_left_in: float  # 0 or less: all the cash came back
    noi: float
    monthly_payment: float
    annual_debt_service: float
    annual_cash_flow: float
    monthly_cash_flow: float
    cash_on_cash_pct: float | None  # None when no cash is left in (infinite)
    dscr: float | None


def brrrr(inputs: BrrrrInputs, *, checked: bool = False) -> BrrrrResult:
    """Buy, rehab, rent, refinance (module docstring); ``DealInputError`` on invalid inputs."""
    if not checked:
        check(inputs)
    i = inputs
    acquisition = flip(i.flip, checked=True)
    refi_loan = i.flip.arv * i.refi_ltv_pct / 100
    refi_costs = refi_loan * i.refi_closing_pct / 100
    cash_out = refi_loan - refi_costs - acquisition.loan
    cash_left = acquisition.cash_in - cash_out
    ops = operations(i.rental)
    payment = mortgage_payment(refi_loan, i.refi_rate_pct, i.refi_term_years)
    debt_service = payment * 12
    cash_flow = ops.noi - debt_service
    return BrrrrResult(acquisition, refi_loan, refi_costs, acquisition.loan, cash_out, cash_left, ops.noi, payment,
                       debt_service, cash_flow, cash_flow / 12, _ratio(cash_flow, cash_left),
                       dscr(ops.noi, debt_service))
