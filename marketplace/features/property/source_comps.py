"""Comparable sales per lead source: one provider per source, chosen by the lead's source
(``features/property/service_comps.py``): the public-record source reads its recorded sales from the database
(``features/records/service_comps.py``), the built-in source draws a synthetic history (``features/property/source_builtin_comps.py``),
RentCast answers with its value estimate's comparables (``features/property/source_rentcast_comps.py``).

A provider returns the sales near a lead (``property.rules_comps.Comp``), at most 2 miles away and 12 months old
where it can tell; ``property.rules_comps.select_comps`` applies the rules. A comp carries only the sale's own facts,
never another lead's data.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date



@dataclass(frozen=True)
class LeadFacts:
    """What a provider needs to know of the subject lead."""

    id: uuid.UUID
    address: str
    city: str
    state: str
    zip_code: str
    latitude: float | None
    longitude: float | None
    square_footage: int | None
    beds: int | None
    baths: float | None
    property_type: str | None
    created: date
