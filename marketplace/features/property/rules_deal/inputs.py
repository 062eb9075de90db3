"""What the deal analyzer is given: frozen input dataclasses, the user's defaults, validation, JSON.

Units (the app's conventions): money in US dollars (floats: a rehab line may have cents), every
percentage and rate as a percent number (8 means 8 %), months and years whole numbers.

Limits (``validate``): money 0 to 100,000,000; percentages 0-100; interest rates 0-30 %; terms 1-40
years; holding months 0-60; a DSCR target 0-10. A problem is a sentence from ``messages`` naming the
field ("Vacancy must be a percentage from 0 to 100."); ``check`` raises ``DealInputError`` (a
``UserError``) with every problem of the inputs, so nothing is computed from bad input.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from marketplace.platform import texts as msg
from marketplace.platform.errors import UserError

MAX_MONEY = 100_000_000
MAX_RATE = 30.0
MAX_MONTHS = 60
MIN_TERM, MAX_TERM = 1, 40
MAX_DSCR = 10.0
MAX_REHAB_LINES = 50
MAX_LABEL = 60
FINANCING = ("cash", "hard_money")


class DealInputError(UserError):
    """Invalid analyzer input: ``message`` lists every problem, one sentence each."""

    def __init__(self, problems: list[str]):
        super().__init__(msg.DEAL_INPUT_TITLE, " ".join(problems))
        self.problems = tuple(problems)


@dataclass(frozen=True)
class RehabLine:
    label: str
    amount: float


@dataclass(frozen=True)
class FlipInputs:
    """A fix-and-flip: buy, rehab, hold, sell at the ARV; cash or a hard-money loan."""

    purchase_price: float
    arv: float
    rehab_lines: tuple[RehabLine, ...] = ()
    holding_months: int = 6
    monthly_holding_cost: float = 0.0  # utilities, taxes, insurance while held (not loan interest)
    buy_closing_pct: float = 2.0  # of the purchase price
    sell_closing_pct: float = 8.0  # of the ARV (the sale price): commissions and closing
    financing: str = "hard_money"  # "cash" or "hard_money"
    loan_to_cost_pct: float = 90.0  # of purchase + rehab
    loan_rate_pct: float = 12.0  # yearly, interest-only
    loan_points_pct: float = 2.0  # of the loan, paid at closing

    @property
    def rehab(self) -> float:
        """The rehab budget: the lines' sum."""
        return sum(line.amount for line in self.rehab_lines)


@dataclass(frozen=True)
class RentalInputs:
    """A buy-and-hold rental with a fixed-rate amortising mortgage (100 % down: no loan)."""

    purchase_price: float
    monthly_rent: float
    rehab: float = 0.0
    buy_closing_pct: float = 2.0
    vacancy_pct: float = 8.0  # of the gross scheduled rent
    property_tax_annual: float = 0.0
    insurance_annual: float = 0.0
    management_pct: float = 8.0  # of the gross scheduled rent
    maintenance_pct: float = 5.0  # of the gross scheduled rent
    capex_pct: float = 5.0  # of the gross scheduled rent
    down_payment_pct: float = 20.0
    mortgage_rate_pct: float = 7.0
    term_years: int = 30


@dataclass(frozen=True)
class BrrrrInputs:
    """Buy and rehab as the flip does (its purchase, rehab, holding and hard money), rent as the rental
    does (its income and expenses; its purchase price and mortgage are not used), then refinance at
    ``refi_ltv_pct`` of the flip's ARV, paying off the hard-money loan."""

    flip: FlipInputs
    rental: RentalInputs
    refi_ltv_pct: float = 75.0
    refi_rate_pct: float = 7.0
    refi_term_years: int = 30
    refi_closing_pct: float = 2.0  # of the new loan


@dataclass(frozen=True)
class Targets:
    """The user's minimums for the maximum-offer solver; None: no such target."""

    min_profit: float | None = None
    min_roi_pct: float | None = None
    min_dscr: float | None = None


@dataclass(frozen=True)
class DealDefaults:
    """What a new analysis starts from; the user changes them in Settings."""

    down_payment_pct: float = 20.0
    mortgage_rate_pct: float = 7.0
    term_years: int = 30
    loan_to_cost_pct: float = 90.0
    loan_rate_pct: float = 12.0
    loan_points_pct: float = 2.0
    holding_months: int = 6
    buy_closing_pct: float = 2.0
    sell_closing_pct: float = 8.0
    vacancy_pct: float = 8.0
    management_pct: float = 8.0
    maintenance_pct: float = 5.0
    capex_pct: float = 5.0
    refi_ltv_pct: float = 75.0
    refi_closing_pct: float = 2.0
    min_profit: float | None = 25_000.0
    min_roi_pct: float | None = 15.0
    min_dscr: float | None = 1.25


@dataclass(frozen=True)
class DealAnalysis:
    """One saved analysis of one lead: everything the page shows, as entered."""

    flip: FlipInputs
    rental: RentalInputs
    refi_ltv_pct: float = 75.0
    refi_rate_pct: float = 7.0
    refi_term_years: int = 30
    refi_closing_pct: float = 2.0
    targets: Targets = field(default_factory=Targets)

    @property
    def brrrr(self) -> BrrrrInputs:
        return BrrrrInputs(self.flip, self.rental, self.refi_ltv_pct, self.refi_rate_pct, self.refi_term_years,
                           self.refi_closing_pct)


# --------------------------------------------------------------------------- validation

_KIND: dict[str, str] = {
    "purchase_price": "money", "arv": "money", "monthly_holding_cost": "money", "monthly_rent": "money",
    "rehab": "money", "property_tax_annual": "money", "insurance_annual": "money", "min_profit": "money",
    "holding_months": "months", "term_years": "term", "refi_term_years": "term",
    "loan_rate_pct": "rate", "mortgage_rate_pct": "rate", "refi_rate_pct": "rate",
    "min_dscr": "dscr",
}  # every other number is a percentage


def field_problem(name: str, value: Any, label: str | None = None) -> str | None:
    """The one sentence ``check`` gives for field ``name`` holding ``value`` (None: fine); ``label`` names
    the field in it (default: ``messages.DEAL_FIELDS``). The analyzer's form shows it next to the field."""
    label = label or msg.DEAL_FIELDS.get(name, name)
    kind = _KIND.get(name, "percent")
    if value is None and name in ("min_profit", "min_roi_pct", "min_dscr"):
        return None
    try:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            return msg.DEAL_NUMBER.format(field=label)
        whole = float(value).is_integer()
    except OverflowError:  # an integer too large for a float
        return msg.DEAL_NUMBER.format(field=label)
    if kind == "money" and not 0 <= value <= MAX_MONEY:
        return msg.DEAL_MONEY.format(field=label)
    if kind == "percent" and not 0 <= value <= 100:
        return msg.DEAL_PERCENT.format(field=label)
    if kind == "rate" and not 0 <= value <= MAX_RATE:
        return msg.DEAL_RATE.format(field=label)
    if kind == "term" and not (whole and MIN_TERM <= value <= MAX_TERM):
        return msg.DEAL_TERM.format(field=label)
    if kind == "months" and not (whole and 0 <= value <= MAX_MONTHS):
        return msg.DEAL_MONTHS.format(field=label)
    if kind == "dscr" and not 0 <= value <= MAX_DSCR:
        return msg.DEAL_DSCR.format(field=label)
    return None


def validate(inputs: Any) -> list[str]:
    """Every problem of ``inputs`` (any input dataclass above, nested ones included), in field order."""
    problems: list[str] = []
    for f in fields(inputs):
        value = getattr(inputs, f.name)
        if f.name == "rehab_lines":
            problems += _line_problems(value)
        elif f.name == "financing":
            if value not in FINANCING:
                problems.append(msg.DEAL_FINANCING)
        elif hasattr(value, "__dataclass_fields__"):
            problems += validate(value)
        else:
            problem = field_problem(f.name, value)
            if problem:
                problems.append(problem)
    return problems


def _line_problems(lines: Any) -> list[str]:
    if not isinstance(lines, tuple) or not all(isinstance(line, RehabLine) for line in lines):
        return [msg.DEAL_SHAPE]
    problems = [msg.DEAL_TOO_MANY_LINES] if len(lines) > MAX_REHAB_LINES else []
    for line in lines:
        if not isinstance(line.label, str) or not line.label.strip() or len(line.label) > MAX_LABEL:
            problems.append(msg.DEAL_LINE_LABEL)
        name = f"Rehab line '{line.label}'" if isinstance(line.label, str) else None
        problem = field_problem("rehab", line.amount, name)
        if problem:
            problems.append(problem)
    if sum(line.amount for line in lines if isinstance(line.amount, (int, float))) > MAX_MONEY:
        problems.append(msg.DEAL_MONEY.format(field="The rehab total"))
    return list(dict.fromkeys(problems))


def check(inputs: Any) -> None:
    """Raise ``DealInputError`` naming every problem of ``inputs``; nothing when they are valid."""
    problems = validate(inputs)
    if problems:
        raise DealInputError(problems)


# --------------------------------------------------------------------------- starting point and JSON


def initial_analysis(*, asking_price: int | None, arv: int | None, rehab_estimate: int | None,
                     defaults: DealDefaults = DealDefaults(), estimates: dict | None = None) -> DealAnalysis:
    """A lead's first analysis: its asking price, ARV and rehab estimate (one rehab line, "Lead's rehab
    estimate"; missing figures start at 0) and the user's defaults. Rent, taxes, insurance and the flip's
    holding cost start at ``estimates`` (``property.rules_deal.estimates.lead_estimates``: each with its basis),
    else at 0."""
    d = defaults
    est = {key: float(e.value) for key, e in (estimates or {}).items()}
    price, value = float(asking_price or 0), float(arv or 0)
    lines = (RehabLine("Lead's rehab estimate", float(rehab_estimate)),) if rehab_estimate else ()
    flip = FlipInputs(purchase_price=price, arv=value, rehab_lines=lines, holding_months=d.holding_months,
                      monthly_holding_cost=est.get("monthly_holding_cost", 0.0), buy_closing_pct=d.buy_closing_pct, sell_closing_pct=d.sell_closing_pct,
                      loan_to_cost_pct=d.loan_to_cost_pct, loan_rate_pct=d.loan_rate_pct,
                      loan_points_pct=d.loan_points_pct)
    rental = RentalInputs(purchase_price=price, monthly_rent=est.get("monthly_rent", 0.0),
                          rehab=float(rehab_estimate or 0), buy_closing_pct=d.buy_closing_pct,
                          vacancy_pct=d.vacancy_pct, property_tax_annual=est.get("property_tax_annual", 0.0),
                          insurance_annual=est.get("insurance_annual", 0.0),
                          management_pct=d.management_pct, maintenance_pct=d.maintenance_pct,
                          capex_pct=d.capex_pct, down_payment_pct=d.down_payment_pct,
                          mortgage_rate_pct=d.mortgage_rate_pct, term_years=d.term_years)
    return DealAnalysis(flip, rental, refi_ltv_pct=d.refi_ltv_pct, refi_rate_pct=d.mortgage_rate_pct,
                        refi_term_years=d.term_years, refi_closing_pct=d.refi_closing_pct,
                        targets=Targets(d.min_profit, d.min_roi_pct, d.min_dscr))


def to_json(value: Any) -> dict[str, Any]:
    """An input dataclass as plain JSON types (rehab lines as a list of {label, amount})."""
    return json.loads(json.dumps(asdict(value)))


def analysis_from_json(data: Any) -> DealAnalysis:
    """A stored or submitted analysis, validated; ``DealInputError`` when it cannot be used."""
    if not isinstance(data, dict) or not isinstance(data.get("flip"), dict) or not isinstance(data.get("rental"),
                                                                                              dict):
        raise DealInputError([msg.DEAL_SHAPE])
    flip_data = dict(data["flip"])
    raw_lines = flip_data.pop("rehab_lines", [])
    if not isinstance(raw_lines, list) or not all(isinstance(x, dict) and set(x) == {"label", "amount"}
                                                  for x in raw_lines):
        raise DealInputError([msg.DEAL_SHAPE])
    if len(raw_lines) > MAX_REHAB_LINES:  # before building anything from a long list
        raise DealInputError([msg.DEAL_TOO_MANY_LINES])
    lines = tuple(RehabLine(x["label"], x["amount"]) for x in raw_lines)
    top = {k: v for k, v in data.items() if k not in ("flip", "rental", "targets")}
    targets = data.get("targets", {})
    analysis = _build(DealAnalysis, {**top, "flip": _build(FlipInputs, {**flip_data, "rehab_lines": lines}),
                                     "rental": _build(RentalInputs, data["rental"]),
                                     "targets": _build(Targets, targets if isinstance(targets, dict) else None)})
    check(analysis)
    return analysis


def defaults_from_json(data: Any) -> DealDefaults:
    """Stored or submitted defaults, validated (missing keys keep the built-in default)."""
    defaults = _build(DealDefaults, data if isinstance(data, dict) else None)
    check(defaults)
    return defaults


def _build(cls: type, data: dict[str, Any] | None) -> Any:
    if data is None:
        raise DealInputError([msg.DEAL_SHAPE])
    try:
        return cls(**data)
    except TypeError:  # a required field missing, or an unknown one
        raise DealInputError([msg.DEAL_SHAPE]) from None
