"""What a public-record lead says of its county's roll and recorded sales (pure; ``records.service_leads``
stores it in the lead's ``raw_data``, cards and the property page read it).

- ``roll_summary``: the roll's facts of the property (street address, city, ZIP, beds, baths, living area,
  year built, land use, assessed and market value) with the values' basis in words: the market's
  ``roll_publisher`` and the roll record's tax year ("Cook County Assessor, tax year 2025"). Never the
  owner's name or mailing address: ``raw_data`` reaches locked viewers' cards; the owner is read from
  ``properties`` for unlockers only (``records.service_views``).
- A market whose roll is not configured says so: "No property facts: Baltimore City's assessor roll is not
  configured". *Configured* means the market file (``marketplace/features/records/markets/<id>.toml``) names at least one
  roll dataset (``load_markets`` checks each has its dataset file). Whether the roll was imported yet is not
  part of it: a lead made before its roll arrives is updated when the roll is read (import order never
  matters), and saying "not configured" of a configured roll would be false. Such a lead costs the lowest
  unlock tier (``platform.pricing.lowest_credit_cost``): it holds the list's address and little else.
- ``last_sale_summary``: the parcel's last recorded sale (price, date, deed type, basis); where the market
  has no recorded sale of it, the sale the roll prints (``roll_sale``).
"""

from __future__ import annotations

from typing import Any

from marketplace.features.records.rules_arms_length import excluded_reason
from marketplace.features.marketplace import usd
from marketplace.platform.pricing import lowest_credit_cost
from marketplace.features.records.rules_property_classes import describe
from marketplace.features.records.rules_recorded_comps import SaleRecord, sale_text

ROLL_KEY = "roll"
LAST_SALE_KEY = "last_sale"
NO_ROLL = "No property facts: {county}'s assessor roll is not configured"


def roll_configured(market: Any) -> bool:
    """The market file names a roll dataset (module docstring)."""
    return market is not None and bool(market.roll)


def credit_cost(market: Any, by_confidence: int) -> int:
    """A lead's unlock cost: its confidence tier's, the lowest tier's when its market has no roll."""
    return by_confidence if market is None or roll_configured(market) else lowest_credit_cost()


def no_roll_line(market: Any) -> str:
    return NO_ROLL.format(county=market.county) if market is not None and not roll_configured(market) else ""


def value_basis(market: Any, value_year: int | None) -> str:
    """'Cook County Assessor, tax year 2025' (the publisher alone without a year)."""
    if not roll_configured(market) or not market.roll_publisher:
        return ""
    return f"{market.roll_publisher}, tax year {value_year}" if value_year else market.roll_publisher


def roll_summary(prop: Any, market: Any) -> dict:
    """The roll facts a lead carries (module docstring); {} for a property outside every market."""
    if market is None:
        return {}
    if not roll_configured(market):
        return {"market": market.id, "no_facts": no_roll_line(market)}
    class_dataset = (getattr(prop, "facts_record", None) or "").split("/")[0] or None
    land_use = describe(class_dataset, prop.property_class) if prop.property_class else None
    return {
        "market": market.id,
        "street": prop.address, "city": prop.city, "zip_code": prop.zip_code,
        "beds": prop.beds, "baths": prop.baths, "square_footage": prop.square_footage,
        "year_built": prop.year_built, "land_use": land_use,
        "assessed_value": prop.assessed_value, "market_value": prop.market_value,
        "value_year": prop.value_year,
        "basis": value_basis(market, prop.value_year) if (prop.assessed_value or prop.market_value) else "",
    }


def roll_sale(prop: Any, market: Any) -> SaleRecord | None:
    """The last sale the roll itself prints (OPA's sale price and date) where no recorded sale is stored:
    its basis is the roll ('Philadelphia Office of Property Assessment roll, sale of Oct 7, 2022')."""
    if not roll_configured(market) or not prop.last_sale_price or not prop.last_sale_date:
        return None
    return SaleRecord(sale_id=0, dataset_id=prop.value_dataset_id or "", title=f"{market.roll_publisher} roll",
                      publisher="", parcel_id=prop.parcel_id, address=prop.address or "",
                      zip_code=prop.zip_code or "", sale_date=prop.last_sale_date, price=prop.last_sale_price,
                      deed_type=None, excluded_reason=excluded_reason(prop.last_sale_price, None))


def last_sale_summary(sale: SaleRecord | None) -> dict:
    if sale is None:
        return {}
    return {"price": sale.price, "date": sale.sale_date.isoformat(), "deed_type": sale.deed_type,
            "excluded_reason": sale.excluded_reason, "basis": sale.basis, "text": sale_text(sale)}


def _raw(raw_data: Any, key: str) -> dict:
    raw = raw_data if isinstance(raw_data, dict) else {}
    value = raw.get(key)
    return value if isinstance(value, dict) else {}


def card_facts_line(raw_data: Any) -> str:
    """The card's roll line: 'Market value $82,000 · Philadelphia Office of Property Assessment, tax year
    2022' (assessed value too where the roll has it), or the market's 'No property facts: ...' line; ''
    when the lead says nothing of a roll."""
    roll = _raw(raw_data, ROLL_KEY)
    if roll.get("no_facts"):
        return str(roll["no_facts"])
    parts = [f"{label} {usd(roll[key])}" for key, label in (("market_value", "Market value"),
                                                             ("assessed_value", "Assessed value"))
             if roll.get(key) is not None]
    if not parts:
        return ""
    basis = str(roll.get("basis") or "")
    return ", ".join(parts) + (f" · {basis}" if basis else "")


def card_use_line(raw_data: Any) -> str:
    """The roll's land use and year built for the card: 'Single family, built 1925'; '' without either."""
    roll = _raw(raw_data, ROLL_KEY)
    parts = [str(roll["land_use"])] if roll.get("land_use") else []
    if roll.get("year_built"):
        parts.append(f"built {roll['year_built']}")
    text = ", ".join(parts)
    return text[:1].upper() + text[1:]


def card_last_sale(raw_data: Any) -> str:
    """'Last sale: $45,000 on Apr 7, 2017, Warranty deed'; '' without a recorded sale."""
    sale = _raw(raw_data, LAST_SALE_KEY)
    return f"Last sale: {sale['text']}" if sale.get("text") else ""


def page_facts(raw_data: Any) -> list[tuple[str, str]]:
    """The roll's facts as the property page lists them (label, value), with the values' basis."""
    roll = _raw(raw_data, ROLL_KEY)
    if roll.get("no_facts"):
        return [("Property facts", str(roll["no_facts"]))]
    if not roll:
        return []

    def count(value: Any) -> str | None:
        if value is None:
            return None
        return f"{value:g}" if isinstance(value, float) else f"{int(value):,}"

    rows = [
        ("Street address", roll.get("street")), ("City", roll.get("city")), ("ZIP", roll.get("zip_code")),
        ("Beds", count(roll.get("beds"))), ("Baths", count(roll.get("baths"))),
        ("Living area", f"{int(roll['square_footage']):,} sq ft" if roll.get("square_footage") else None),
        ("Land use", roll.get("land_use")),
        ("Assessed value", usd(roll["assessed_value"]) if roll.get("assessed_value") is not None else None),
        ("Market value", usd(roll["market_value"]) if roll.get("market_value") is not None else None),
        ("Value basis", roll.get("basis")),
    ]
    return [(label, str(value)) for label, value in rows if value not in (None, "")]
