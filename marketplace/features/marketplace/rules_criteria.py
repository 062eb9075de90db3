"""What a search for leads asks for: ``SearchCriteria`` (counts, places, lead
types, ranges) and its validation.

Every producer of leads (``sources/``) answers a ``SearchCriteria``; the bulk
scraper, the webhook body and the developer explorer build one (``scrape.rules``,
``explorer.rules_scrape``). Pure: no database, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from marketplace.platform.leads import SCRAPER_LEAD_TYPES, US_STATES
from marketplace.platform.texts import (
    CRITERIA_COUNT,
    CRITERIA_RANGE_REVERSED,
    CRITERIA_UNKNOWN_STATE,
    CRITERIA_UNKNOWN_TYPE,
)


class CriteriaError(ValueError):
    """The criteria cannot be met (unknown city, empty range...): the message says why."""


@dataclass(frozen=True)
class Range:
    min: float | None = None
    max: float | None = None

    def contains(self, value: float | None) -> bool:
        if value is None:
            return self.min is None and self.max is None
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)

    def check(self, name: str) -> None:
        if self.min is not None and self.max is not None and self.min > self.max:
            raise CriteriaError(CRITERIA_RANGE_REVERSED.format(name=name, low=self.min, high=self.max))


@dataclass(frozen=True)
class SearchCriteria:
    count: int = 50
    cities: tuple[str, ...] = ()  # "Austin" or "Austin, TX"
    states: tuple[str, ...] = ()
    lead_types: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    price: Range = field(default_factory=Range)
    sqft: Range = field(default_factory=Range)
    roi: Range = field(default_factory=Range)
    confidence: Range = field(default_factory=Range)
    beds: Range = field(default_factory=Range)
    # Bank-owned (REO) leads asked for (the owner of record is a lender or servicer): with ``lead_types``,
    # leads of those types or bank-owned ones; without, bank-owned leads only. Unknown never matches.
    bank_owned: bool = False

    def validate(self, max_count: int = 1000) -> None:
        if not 1 <= self.count <= max_count:
            raise CriteriaError(CRITERIA_COUNT.format(max_count=max_count))
        for name, rng in (("Price", self.price), ("Square footage", self.sqft), ("ROI", self.roi),
                          ("Confidence", self.confidence), ("Beds", self.beds)):
            rng.check(name)
        unknown_states = [s for s in self.states if s.upper() not in US_STATES]
        if unknown_states:
            raise CriteriaError(CRITERIA_UNKNOWN_STATE.format(codes=", ".join(unknown_states)))
        unknown_types = [t for t in self.lead_types if t not in SCRAPER_LEAD_TYPES]
        if unknown_types:
            raise CriteriaError(CRITERIA_UNKNOWN_TYPE.format(types=", ".join(unknown_types)))
