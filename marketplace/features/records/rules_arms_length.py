"""Which recorded sales are arm's length: the only ones a comparable sale, a comps ARV or a "last sale"
value may rest on. Pure: the caller passes the sale's price and the published columns a dataset maps into
its record's ``extra`` (``marketplace/features/records/datasets/*.toml``).

A sale is left out, with the first reason that applies:
1. a price of $0 ("$0 price": a gift, a transfer between spouses, a deed into a trust);
2. a price under ``TOKEN_PRICE`` ("token price under $1,000"): recorders print a nominal consideration
   ($1, $10, $100) on quit-claim deeds, land-bank and family transfers; no market paid it;
3. a multi-parcel sale ("multi-parcel sale (10 parcels)"): one price for several parcels says nothing of
   any one of them (an extra named ``MULTI_SALE`` that is true, or ``PARCEL_COUNT`` above 1);
4. a flag of the publisher's own: every extra whose label starts with ``FILTER_PREFIX`` and reads true
   ("Filter: under $10,000" -> "Cook County Assessor's filter: under $10,000" when the dataset's publisher
   is given). The Cook County Assessor flags a sale repeated within 365 days, a sale under $10,000 and a
   deed type that is not a market sale.

``deed_type``: the extra named ``DEED_TYPE`` ("Warranty", "Quit claim"), or None.
"""

from __future__ import annotations

from typing import Mapping

from marketplace.features.records.rules_parse import TRUE_TEXTS

# Below this a recorded price is a nominal consideration, not a market price (module docstring, rule 2).
TOKEN_PRICE = 1_000
FILTER_PREFIX = "Filter: "
MULTI_SALE = "Multi-parcel sale"
PARCEL_COUNT = "Parcels in the sale"
DEED_TYPE = "Deed type"


def _true(value: object) -> bool:
    return str(value or "").strip().lower() in TRUE_TEXTS


def _count(value: object) -> int | None:
    try:
        return int(float(str(value).strip()))
    except (TypeError, ValueError):
        return None


def excluded_reason(price: int | None, extra: Mapping[str, object] | None, publisher: str = "") -> str | None:
    """Why the sale is not arm's length (module docstring), or None when it is."""
    extra = extra or {}
    if price is None or price <= 0:
        return "$0 price"
    if price < TOKEN_PRICE:
        return f"token price under ${TOKEN_PRICE:,}"
    parcels = _count(extra.get(PARCEL_COUNT))
    if _true(extra.get(MULTI_SALE)) or (parcels is not None and parcels > 1):
        return f"multi-parcel sale ({parcels} parcels)" if parcels and parcels > 1 else "multi-parcel sale"
    for label, value in extra.items():
        if str(label).startswith(FILTER_PREFIX) and _true(value):
            what = str(label)[len(FILTER_PREFIX):]
            return f"{publisher}'s filter: {what}" if publisher else f"publisher's filter: {what}"
    return None


def deed_type(extra: Mapping[str, object] | None) -> str | None:
    value = str((extra or {}).get(DEED_TYPE) or "").strip()
    return value or None
