"""The deal analyzer: pure formulas, no I/O.

- ``inputs``: the input dataclasses (FlipInputs, RentalInputs, BrrrrInputs, Targets, DealDefaults,
  DealAnalysis), validation (``validate`` / ``check``), the first analysis of a lead, JSON in and out.
- ``formulas``: ``flip``, ``rental``, ``brrrr``, ``mortgage_payment``; every formula is written down in
  its docstring.
- ``solver``: ``max_offer`` (the 70 % rule and the highest price meeting the user's targets).
"""

from marketplace.features.property.rules_deal.formulas import (
    BrrrrResult,
    FlipResult,
    RentalResult,
    annualized_pct,
    brrrr,
    dscr,
    flip,
    mortgage_payment,
    operations,
    rental,
)
from marketplace.features.property.rules_deal.inputs import (
    BrrrrInputs,
    DealAnalysis,
    DealDefaults,
    DealInputError,
    FlipInputs,
    RehabLine,
    RentalInputs,
    Targets,
    analysis_from_json,
    check,
    defaults_from_json,
    field_problem,
    initial_analysis,
    to_json,
    validate,
)
from marketplace.features.property.rules_deal.solver import MaxOffer, max_offer, rule_70  # noqa: F401
