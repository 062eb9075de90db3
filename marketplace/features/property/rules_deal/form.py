"""The analyzer's form: what the user types (strings) to and from ``DealAnalysis`` / ``DealDefaults``.

Every number field is a key of ``messages.DEAL_FIELDS`` with a unit (``property.texts_deal.UNITS``). A typed
value may carry '$', ',' and '%' and spaces ("$200,000", "8 %"); an empty target means "no such target".
Each field's problem is ``inputs.field_problem``'s sentence for the parsed number (the same one
``check`` raises), keyed by the field, so the page shows it next to the field. Rehab lines are problems
keyed ``line-{i}-label`` / ``line-{i}-amount``.

One purchase price, ARV and buying closing cost serve every strategy: the rental is bought at the flip's
purchase price with the flip's rehab budget (the lines' sum), as the BRRRR is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Any

from marketplace.platform import texts as msg
from marketplace.features.property.texts_deal import ARV_DEFAULT_HINT, ARV_IN_USE_COMPS, UNITS
from marketplace.features.property.rules_deal.inputs import (
    FINANCING,
    MAX_LABEL,
    MAX_REHAB_LINES,
    DealAnalysis,
    DealDefaults,
    FlipInputs,
    RehabLine,
    RentalInputs,
    Targets,
    field_problem,
)

MAX_TYPED = 32  # characters kept of one typed number


@dataclass(frozen=True)
class Field:
    key: str
    unit: str  # a key of property.texts_deal.UNITS
    optional: bool = False  # empty means "not set" (the targets)

    @property
    def label(self) -> str:
        return msg.DEAL_FIELDS[self.key]

    @property
    def labelled(self) -> str:
        """'Purchase price ($)'; a label already naming its unit keeps it once ('Holding months',
        'Monthly rent ($)')."""
        unit, label = UNITS[self.unit], self.label.lower()
        if unit in label:
            return self.label
        if unit.startswith("$/") and ("monthly" in label or "yearly" in label):  # 'Monthly rent ($)'
            unit = "$"
        return f"{self.label} ({unit})"

    @property
    def whole(self) -> bool:
        return self.unit in ("months", "years")


def _fields(*specs: tuple) -> tuple[Field, ...]:
    return tuple(Field(*spec) for spec in specs)


SHARED = _fields(("purchase_price", "money"), ("arv", "money"), ("buy_closing_pct", "percent"))
FLIP = _fields(("holding_months", "months"), ("monthly_holding_cost", "money_month"),
               ("sell_closing_pct", "percent"))
HARD_MONEY = _fields(("loan_to_cost_pct", "percent"), ("loan_rate_pct", "rate"), ("loan_points_pct", "points"))
RENTAL_INCOME = _fields(("monthly_rent", "money_month"), ("vacancy_pct", "percent"),
                        ("property_tax_annual", "money_year"), ("insurance_annual", "money_year"),
                        ("management_pct", "percent"), ("maintenance_pct", "percent"), ("capex_pct", "percent"))
MORTGAGE = _fields(("down_payment_pct", "percent"), ("mortgage_rate_pct", "rate"), ("term_years", "years"))
REFI = _fields(("refi_ltv_pct", "percent"), ("refi_rate_pct", "rate"), ("refi_term_years", "years"),
               ("refi_closing_pct", "percent"))
TARGETS = _fields(("min_profit", "money", True), ("min_roi_pct", "percent", True), ("min_dscr", "dscr", True))
ANALYSIS_FIELDS = SHARED + FLIP + HARD_MONEY + RENTAL_INCOME + MORTGAGE + REFI + TARGETS
BY_KEY = {f.key: f for f in ANALYSIS_FIELDS}

# The Settings card's fields, grouped as property.texts_deal.DEFAULTS_GROUPS.
DEFAULT_GROUPS: dict[str, tuple[Field, ...]] = {
    "rental": _fields(("down_payment_pct", "percent"), ("mortgage_rate_pct", "rate"), ("term_years", "years"),
                      ("vacancy_pct", "percent"), ("management_pct", "percent"), ("maintenance_pct", "percent"),
                      ("capex_pct", "percent")),
    "flip": _fields(("loan_to_cost_pct", "percent"), ("loan_rate_pct", "rate"), ("loan_points_pct", "points"),
                    ("holding_months", "months"), ("buy_closing_pct", "percent"), ("sell_closing_pct", "percent")),
    "brrrr": _fields(("refi_ltv_pct", "percent"), ("refi_closing_pct", "percent")),
    "targets": TARGETS,
}
DEFAULT_FIELDS = tuple(f for group in DEFAULT_GROUPS.values() for f in group)


# --------------------------------------------------------------------------- typed text <-> numbers


def parse_number(text: object) -> float | None:
    """A typed number ('$200,000', '8 %', '1.25'); None when empty; ValueError when not a number."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text)
    if not isinstance(text, str):
        raise ValueError(text)
    cleaned = text.strip().replace(",", "").replace("$", "").replace("%", "").replace(" ", "")
    if not cleaned:
        return None
    value = float(cleaned)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def format_number(value: float | int | None, field: Field | None = None) -> str:
    """A number as the form shows it: '200,000', '8', '7.25', '' for None."""
    if value is None:
        return ""
    if field is not None and field.whole:
        return str(int(value))
    if float(value).is_integer():
        return f"{int(value):,}" if field is None or field.unit.startswith("money") else str(int(value))
    text = f"{value:,.2f}" if field is None or field.unit.startswith("money") else f"{value:.4f}".rstrip("0")
    return text.rstrip(".")


def read_field(field: Field, text: object) -> tuple[Any, str | None]:
    """(the value, its problem or None); the value is None when the field has a problem or is an empty
    optional field."""
    try:
        value = parse_number(text)
    except ValueError:
        return None, msg.DEAL_NUMBER.format(field=field.label)
    if value is None:
        return None, (None if field.optional else msg.DEAL_NUMBER.format(field=field.label))
    if field.whole and value.is_integer():
        value = int(value)
    return value, field_problem(field.key, value)


def _read(specs: tuple[Field, ...], form: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    values, errors = {}, {}
    for field in specs:
        value, problem = read_field(field, form.get(field.key, ""))
        if problem:
            errors[field.key] = problem
        values[field.key] = value
    return values, errors


def read_lines(lines: list[dict[str, Any]]) -> tuple[tuple[RehabLine, ...], dict[str, str]]:
    """The rehab lines typed, and their problems (keys ``line-{i}-label`` / ``line-{i}-amount``)."""
    out, errors = [], {}
    if len(lines) > MAX_REHAB_LINES:
        errors["lines"] = msg.DEAL_TOO_MANY_LINES
    for i, line in enumerate(lines[:MAX_REHAB_LINES]):
        label = line.get("label") if isinstance(line, dict) else None
        label = label.strip() if isinstance(label, str) else ""
        if not label or len(label) > MAX_LABEL:
            errors[f"line-{i}-label"] = msg.DEAL_LINE_LABEL
        name = f"Rehab line '{label}'" if label else f"Rehab line {i + 1}"
        try:
            amount = parse_number(line.get("amount", "") if isinstance(line, dict) else None)
        except ValueError:
            amount = None
        problem = msg.DEAL_NUMBER.format(field=name) if amount is None else field_problem("rehab", amount, name)
        if problem:
            errors[f"line-{i}-amount"] = problem
        out.append(RehabLine(label, amount or 0.0))
    if not errors and sum(line.amount for line in out) > 100_000_000:
        errors["lines"] = msg.DEAL_MONEY.format(field="The rehab total")
    return tuple(out), errors


# --------------------------------------------------------------------------- the analysis


def read_analysis(form: dict[str, Any], lines: list[dict[str, Any]]) -> tuple[DealAnalysis | None, dict[str, str]]:
    """The analysis the form describes, or None with every field's problem."""
    values, errors = _read(ANALYSIS_FIELDS, form)
    rehab_lines, line_errors = read_lines(lines)
    errors.update(line_errors)
    financing = form.get("financing")
    if financing not in FINANCING:
        errors["financing"] = msg.DEAL_FINANCING
    if errors:
        return None, errors
    v = values
    flip = FlipInputs(purchase_price=v["purchase_price"], arv=v["arv"], rehab_lines=rehab_lines,
                      holding_months=v["holding_months"], monthly_holding_cost=v["monthly_holding_cost"],
                      buy_closing_pct=v["buy_closing_pct"], sell_closing_pct=v["sell_closing_pct"],
                      financing=financing, loan_to_cost_pct=v["loan_to_cost_pct"], loan_rate_pct=v["loan_rate_pct"],
                      loan_points_pct=v["loan_points_pct"])
    rental = RentalInputs(purchase_price=v["purchase_price"], monthly_rent=v["monthly_rent"], rehab=flip.rehab,
                          buy_closing_pct=v["buy_closing_pct"], vacancy_pct=v["vacancy_pct"],
                          property_tax_annual=v["property_tax_annual"], insurance_annual=v["insurance_annual"],
                          management_pct=v["management_pct"], maintenance_pct=v["maintenance_pct"],
                          capex_pct=v["capex_pct"], down_payment_pct=v["down_payment_pct"],
                          mortgage_rate_pct=v["mortgage_rate_pct"], term_years=v["term_years"])
    return DealAnalysis(flip, rental, refi_ltv_pct=v["refi_ltv_pct"], refi_rate_pct=v["refi_rate_pct"],
                        refi_term_years=v["refi_term_years"], refi_closing_pct=v["refi_closing_pct"],
                        targets=Targets(v["min_profit"], v["min_roi_pct"], v["min_dscr"])), {}


def analysis_form(analysis: DealAnalysis) -> tuple[dict[str, str], list[dict[str, str]]]:
    """The form showing ``analysis`` (its fields as typed text, its rehab lines)."""
    a = analysis
    sources = {**{f.name: getattr(a.rental, f.name) for f in fields(a.rental)},
               **{f.name: getattr(a.flip, f.name) for f in fields(a.flip)},
               **{f.name: getattr(a, f.name) for f in fields(a) if f.name not in ("flip", "rental", "targets")},
               **{f.name: getattr(a.targets, f.name) for f in fields(a.targets)}}
    form = {field.key: format_number(sources[field.key], field) for field in ANALYSIS_FIELDS}
    form["financing"] = a.flip.financing
    lines = [{"label": line.label, "amount": format_number(line.amount)} for line in a.flip.rehab_lines]
    return form, lines


def with_arv(analysis: DealAnalysis, arv: float | None) -> DealAnalysis:
    """``analysis`` starting from another ARV (the default ARV's value; None keeps it)."""
    return analysis if arv is None else replace(analysis, flip=replace(analysis.flip, arv=float(arv)))


# --------------------------------------------------------------------------- the user's defaults


def read_defaults(form: dict[str, Any]) -> tuple[DealDefaults | None, dict[str, str]]:
    values, errors = _read(DEFAULT_FIELDS, form)
    if errors:
        return None, errors
    return DealDefaults(**values), {}


def defaults_form(defaults: DealDefaults) -> dict[str, str]:
    return {field.key: format_number(getattr(defaults, field.key), field) for field in DEFAULT_FIELDS}


def comps_in_use(typed: object, comps_arv: str) -> bool:
    """The ARV typed (or put there by "Use this ARV") is the comparable sales' figure (to the dollar)."""
    value = parse_number(typed)
    try:
        comps = int(comps_arv) if comps_arv else None
    except ValueError:
        comps = None
    return comps is not None and value is not None and round(value) == comps


def arv_hint(typed: object, default_basis: str, comps_arv: str, comps_basis: str) -> str:
    """The analyzer's line under the ARV: 'In use: the ARV from comparable sales, $540,000: <basis>' once
    the comps' figure is the analysis' ARV; else 'Starts at the default: <the default's basis>'."""
    if comps_in_use(typed, comps_arv):
        return ARV_IN_USE_COMPS.format(value=f"${int(comps_arv):,}", basis=comps_basis)
    return ARV_DEFAULT_HINT + default_basis
