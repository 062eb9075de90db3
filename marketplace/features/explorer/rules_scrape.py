"""The developer explorer's manual scrape (SPEC 3 "Developer scrape parameters",
5 "Developer explorer inputs", 7 dev-manual-scrape, 9 "Developer explorer defaults").

Pure rules: the form's defaults and options, the validation of what was typed
(every problem in the user's words; refused input is never half-applied) and
the request the scrape service runs. Unlike the bulk scraper's form, nothing
is clamped: a value out of range is refused with a message.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from marketplace.features.marketplace import Range, SearchCriteria
from marketplace.platform.errors import UserError
from marketplace.features.scrape import _number, pick
from marketplace.features.explorer.texts import (
    DEV_FIELD_AT_LEAST,
    DEV_FIELD_BETWEEN,
    DEV_FIELD_NOT_NUMBER,
    DEV_FIELD_NOT_WHOLE,
    DEV_FIELD_REQUIRED,
    DEV_FIELD_STEP,
    DEV_NO_LEAD_TYPE,
    DEV_NO_STATE,
    DEV_RANGE_REVERSED,
    DEV_SCRAPE_ADDED,
    DEV_SCRAPE_INVALID_TITLE,
    DEV_SCRAPE_MISSING,
)

# --------------------------------------------------------------------------- SPEC 9's constants

DEV_STATES = ("AZ", "TX", "FL", "GA", "CO", "NV", "CA", "NY", "IL", "OH", "PA", "MI")
DEV_LEAD_TYPES = ("Probate", "Pre-Foreclosure", "Auction", "Make Me Move", "Tax Delinquent", "Vacancy")
MIN_LEADS, MAX_LEADS = 1, 100
MIN_BEDS, MAX_BEDS = 1, 10

# SPEC 3's field names, as the form posts them; the defaults as the form shows them.
DEFAULTS: dict[str, Any] = {
    "leadCount": 25,
    "minPrice": 150_000,
    "maxPrice": 550_000,
    "minSqft": 1_000,
    "maxSqft": 3_000,
    "minBeds": 2,
    "maxBeds": 6,
    "minConfidence": 70,
    "maxConfidence": 100,
    "roiThreshold": 15,
    "selectedStates": ["AZ", "TX", "FL", "GA", "CO", "NV"],
    "selectedLeadTypes": ["Probate", "Pre-Foreclosure", "Auction", "Make Me Move"],
}
NUMBER_FIELDS = ("leadCount", "minPrice", "maxPrice", "minSqft", "maxSqft", "minBeds", "maxBeds",
                 "minConfidence", "maxConfidence", "roiThreshold")

# field -> (label, lowest, highest or None, whole numbers only, decimals allowed)
_FIELDS: dict[str, tuple[str, float, float | None, bool, int]] = {
    "leadCount": ("Lead count", MIN_LEADS, MAX_LEADS, True, 0),
    "minPrice": ("Minimum price", 0, None, False, 2),
    "maxPrice": ("Maximum price", 0, None, False, 2),
    "minSqft": ("Minimum sqft", 0, None, False, 2),
    "maxSqft": ("Maximum sqft", 0, None, False, 2),
    "minBeds": ("Minimum beds", MIN_BEDS, MAX_BEDS, True, 0),
    "maxBeds": ("Maximum beds", MIN_BEDS, MAX_BEDS, True, 0),
    "minConfidence": ("Minimum confidence", 0, 100, False, 1),
    "maxConfidence": ("Maximum confidence", 0, 100, False, 1),
    "roiThreshold": ("ROI threshold", 0, 100, False, 1),
}
# (min field, max field, noun in the message)
_PAIRS = (("minPrice", "maxPrice", "price"), ("minSqft", "maxSqft", "sqft"), ("minBeds", "maxBeds", "beds"),
          ("minConfidence", "maxConfidence", "confidence"))


def added_message(count: int) -> str:
    return DEV_SCRAPE_ADDED.format(count=count, plural="" if count == 1 else "s")


def default_form() -> dict[str, str]:
    """The number fields as the form shows them on first load."""
    return {name: str(DEFAULTS[name]) for name in NUMBER_FIELDS}


def _show(value: float) -> str:
    """1500000 -> '1,500,000'; 12.5 -> '12.5' (for messages)."""
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,g}"


@dataclass(frozen=True)
class DevScrapeRequest:
    """Validated developer parameters; duck-types ``scrape.rules.ScrapeRequest`` for the scrape service
    (``lead_count``, ``criteria()``, ``problems()``, ``as_dict()``)."""

    lead_count: int
    price: tuple[float, float]
    sqft: tuple[float, float]
    beds: tuple[int, int]
    confidence: tuple[float, float]
    roi_threshold: float
    states: tuple[str, ...]
    lead_types: tuple[str, ...]

    def problems(self) -> list[str]:
        return []

    def criteria(self) -> SearchCriteria:
        return SearchCriteria(
            count=self.lead_count,
            states=self.states,
            lead_types=self.lead_types,
            price=Range(*self.price),
            sqft=Range(*self.sqft),
            beds=Range(*self.beds),
            confidence=Range(*self.confidence),
            roi=Range(self.roi_threshold, None),
        )

    def as_dict(self) -> dict:
        """SPEC 3's field names, as stored with the scrape."""
        return {
            "leadCount": self.lead_count,
            "minPrice": self.price[0], "maxPrice": self.price[1],
            "minSqft": self.sqft[0], "maxSqft": self.sqft[1],
            "minBeds": self.beds[0], "maxBeds": self.beds[1],
            "minConfidence": self.confidence[0], "maxConfidence": self.confidence[1],
            "roiThreshold": self.roi_threshold,
            "selectedStates": list(self.states),
            "selectedLeadTypes": list(self.lead_types),
        }


class DevScrapeInvalid(UserError, ValueError):
    """Refused input: ``problems`` lists every message, in form order; the
    message is all of them in one line."""

    def __init__(self, title: str, message: str, *, problems: list[str]):
        super().__init__(title, message)
        self.problems = problems


def _invalid(problems: list[str]) -> DevScrapeInvalid:
    return DevScrapeInvalid(DEV_SCRAPE_INVALID_TITLE, " ".join(problems), problems=problems)


def _field(name: str, raw: Any) -> tuple[float | None, str | None]:
    label, low, high, whole, decimals = _FIELDS[name]
    if isinstance(raw, str) and not raw.strip():
        return None, DEV_FIELD_REQUIRED.format(label=label)
    value = _number(raw)
    if value is None:
        return None, DEV_FIELD_NOT_NUMBER.format(label=label)
    if whole and not value.is_integer():
        return None, DEV_FIELD_NOT_WHOLE.format(label=label)
    if not whole and round(value, decimals) != value:
        step = "0.1" if decimals == 1 else "0.01"
        return None, DEV_FIELD_STEP.format(label=label, step=step)
    if value < low or (high is not None and value > high):
        if high is None:
            return None, DEV_FIELD_AT_LEAST.format(label=label, low=_show(low))
        return None, DEV_FIELD_BETWEEN.format(label=label, low=_show(low), high=_show(high))
    return value, None


def parse(form: Mapping[str, Any], states: Any, lead_types: Any) -> DevScrapeRequest:
    """The request for ``form`` (number fields as typed) and the chosen states and
    lead types, or ``DevScrapeInvalid`` with every problem."""
    if not isinstance(form, Mapping):
        raise _invalid([DEV_SCRAPE_MISSING])
    values: dict[str, float] = {}
    problems: list[str] = []
    for name in NUMBER_FIELDS:
        value, problem = _field(name, form.get(name))
        if problem:
            problems.append(problem)
        else:
            values[name] = value
    for low_name, high_name, noun in _PAIRS:
        if low_name in values and high_name in values and values[low_name] > values[high_name]:
            problems.append(DEV_RANGE_REVERSED.format(noun=noun, low=_show(values[low_name]),
                                                      high=_show(values[high_name])))
    chosen_states = pick(states, DEV_STATES)
    chosen_types = pick(lead_types, DEV_LEAD_TYPES)
    if not chosen_states:
        problems.append(DEV_NO_STATE)
    if not chosen_types:
        problems.append(DEV_NO_LEAD_TYPE)
    if problems:
        raise _invalid(problems)

    def num(name: str) -> float:
        value = values[name]
        return int(value) if value.is_integer() else value

    return DevScrapeRequest(
        lead_count=int(values["leadCount"]),
        price=(num("minPrice"), num("maxPrice")),
        sqft=(num("minSqft"), num("maxSqft")),
        beds=(int(values["minBeds"]), int(values["maxBeds"])),
        confidence=(num("minConfidence"), num("maxConfidence")),
        roi_threshold=num("roiThreshold"),
        states=chosen_states,
        lead_types=chosen_types,
    )
