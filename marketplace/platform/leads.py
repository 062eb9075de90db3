"""What a lead is, in one place: the lead types, their sources, the US state
codes, and ``LeadRecord``, the typed record every producer of leads builds
with ``lead_record`` (the built-in source, the HTTP source and the two sample
leads). The derived fields (source, ROI, unlock cost, High ROI flag, primary
image, image status) are computed here only.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, TypedDict

from marketplace.platform import pricing
from marketplace.platform.texts import DEMO_DATA_LINE, LISTING_DATA_LINE, NO_PROVENANCE


@dataclass(frozen=True)
class LeadLine:
    """A lead as one line of a list (the dashboard's unlocked leads, the pipeline board's cards)."""

    lead_id: uuid.UUID
    address: str
    city: str
    state: str
    zip_code: str
    lead_type: str


LEAD_TYPES = ("Probate", "Pre-Foreclosure", "Auction", "Tax Delinquent", "Vacancy", "Make Me Move")
# The bulk scraper also offers "Other" (SPEC 5); no source produces it.
SCRAPER_LEAD_TYPES = LEAD_TYPES + ("Other",)
SOURCES = (
    "County Probate Records",
    "Notice of Default Filings",
    "Trustee Sale Calendar",
    "Tax Collector Delinquency List",
    "USPS Vacancy Data",
    "Make Me Move Listings",
)
SOURCE_FOR_TYPE = dict(zip(LEAD_TYPES, SOURCES))
# Where raw_data may hold a listing URL (the property page links it when on a known site).
LISTING_URL_KEYS = ("listing_url", "zillow_url", "redfin_url", "property_url", "url", "realtor_url")
# raw_data[GENERATED_KEY] is True on every lead the built-in generator makes (demo data).
GENERATED_KEY = "generated"
# The built-in generator's leads made before GENERATED_KEY existed carry a condition score and no
# "provider" (a RentCast listing carries both: it is real listing data, never demo data).
_LEGACY_GENERATED_KEY = "condition_score"
_PROVIDER_KEY = "provider"
US_STATES = (
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY",
    "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND",
    "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
)


# A lead as a source delivers it: the columns of the ``leads`` table.
LeadRecord = TypedDict("LeadRecord", {
    "id": uuid.UUID | str, "external_id": str | None,
    "address": str, "city": str, "state": str, "zip_code": str, "lead_type": str, "source": str,
    "asking_price": int | None, "zestimate": int | None, "arv": int | None, "rehab_estimate": int | None,
    "roi": float | None, "beds": int | None, "baths": float | None, "square_footage": int | None,
    "confidence_score": int | None, "credit_cost": int,
    "is_new": bool, "is_high_roi": bool, "is_active": bool, "created_at": datetime | None,
    "image_urls": list[str], "primary_image_url": str | None, "images_fetch_status": str,
    "raw_data": dict[str, Any], "latitude": float | None, "longitude": float | None,
    "sale_date": date | None,
})


def lead_record(
    *,
    id: uuid.UUID | str,
    address: str,
    city: str,
    state: str,
    zip_code: str,
    lead_type: str,
    asking_price: int | None,
    zestimate: int | None,
    arv: int | None,
    rehab_estimate: int | None,
    beds: int | None,
    baths: float | None,
    square_footage: int | None,
    confidence_score: int | None,
    image_urls: list[str],
    images_fetch_status: str | None = None,
    external_id: str | None = None,
    created_at: datetime | None = None,
    raw_data: dict[str, Any] | None = None,
    latitude: float | None = None,
    longitude: float | None = None,
    sale_date: date | None = None,
) -> LeadRecord:
    """A new, active lead; ROI, unlock cost, High ROI, source and image fields derived.

    ``images_fetch_status`` defaults to "success" with images and "no_images" without."""
    roi = pricing.compute_roi(arv, asking_price, rehab_estimate)
    return LeadRecord(
        id=id,
        external_id=external_id,
        address=address,
        city=city,
        state=state,
        zip_code=zip_code,
        lead_type=lead_type,
        source=SOURCE_FOR_TYPE.get(lead_type, "Other"),
        asking_price=asking_price,
        zestimate=zestimate,
        arv=arv,
        rehab_estimate=rehab_estimate,
        roi=roi,
        beds=beds,
        baths=baths,
        square_footage=square_footage,
        confidence_score=confidence_score,
        credit_cost=pricing.credit_cost_for_confidence(confidence_score),
        is_new=True,
        is_high_roi=pricing.is_high_roi(roi),
        is_active=True,
        created_at=created_at,
        image_urls=list(image_urls),
        primary_image_url=image_urls[0] if image_urls else None,
        images_fetch_status=images_fetch_status or ("success" if image_urls else "no_images"),
        raw_data=dict(raw_data or {}),
        latitude=latitude,
        longitude=longitude,
        sale_date=sale_date,
    )


def is_generated(raw_data: dict | None) -> bool:
    """True for a lead made up by the built-in generator (demo data)."""
    raw = raw_data if isinstance(raw_data, dict) else {}
    return raw.get(GENERATED_KEY) is True or (raw.get(_LEGACY_GENERATED_KEY) is not None
                                              and raw.get(_PROVIDER_KEY) is None)


# raw_data[PROOF_KEY] of a lead made from public records: the record that proves it, as facts
# {"publisher", "title", "record_key", "retrieved_at" (ISO instant)}; its lines are written when shown
# (``public_record_line``).
PROOF_KEY = "proof"


def public_record_line(publisher: str, title: str, record_key: str = "", retrieved: str = "") -> str:
    """'Public record: City of Chicago, Vacant and Abandoned Buildings - Violations', with ', record
    11CP015666' and ', retrieved <retrieved>' where given (the record key names the house: an unlocked
    viewer's line only)."""
    who = f"{publisher}, {title}" if publisher and publisher != title else title
    line = f"Public record: {who}"
    if record_key:
        line += f", record {record_key}"
    return line + (f", retrieved {retrieved}" if retrieved else "")


def record_proof(raw_data: dict | None) -> dict:
    """A public-record lead's ``raw_data[PROOF_KEY]`` ({} when it has none)."""
    raw = raw_data if isinstance(raw_data, dict) else {}
    proof = raw.get(PROOF_KEY)
    return proof if isinstance(proof, dict) else {}


def provenance_line(raw_data: dict | None, source: str | None = None) -> str:
    """Where a lead's data comes from, in one line for the card, the property page
    and exports: 'Demo data (generated)' for the built-in generator's leads; 'Public record: <publisher>,
    <dataset>' for a lead made from public records; '' when the lead says nothing about it. (``source`` is the lead's source column,
    for lines that name a dataset.)"""
    if is_generated(raw_data):
        return DEMO_DATA_LINE
    raw = raw_data if isinstance(raw_data, dict) else {}
    if raw.get("public_record") is True:
        # 'Public record: City of Chicago, Vacant and Abandoned Buildings - Violations' (records.service_leads);
        # never the record key: it names the house, and cards show this line before the unlock.
        proof = record_proof(raw)
        return public_record_line(str(proof.get("publisher") or ""), str(proof.get("title") or "")) \
            if proof.get("title") else ""
    return ""


PROVIDER_NAMES = {"rentcast": "RentCast"}


def export_provenance(raw_data: dict | None, source: str | None = None) -> str:
    """The provenance cell of every export (scrape CSV, pipeline CSV, explorer export, webhook JSON):
    ``provenance_line``, else the listing provider a lead came from ('Listing data: RentCast'), else
    'N/A' (never an empty cell that could pass for a public record)."""
    line = provenance_line(raw_data, source)
    if line:
        return line
    raw = raw_data if isinstance(raw_data, dict) else {}
    provider = raw.get(_PROVIDER_KEY)
    if isinstance(provider, str) and provider.strip():
        return LISTING_DATA_LINE.format(provider=PROVIDER_NAMES.get(provider.strip().lower(), provider.strip()))
    return NO_PROVENANCE
