"""The two built-in sample leads (SPEC 2: "When no leads load, two built-in
sample leads (Austin and Dallas) are shown").

They illustrate what a lead looks like when the marketplace has no active
leads (or the leads could not be loaded). They are not rows of ``leads``:
their ids are not UUIDs, nobody can unlock them (the unlock handler refuses
any id that is not a real lead), and their addresses are shown masked like any
locked lead. They are demo data and say so ("Demo data (generated)"), and
their one picture is an illustration drawn from their facts. The numbers are realistic for each market and consistent with
``platform.pricing`` (ROI = (ARV - asking - rehab) / (asking + rehab), unlock cost
from the confidence score).
"""

from __future__ import annotations

from marketplace.features.marketplace import rules as marketplace_rules
from marketplace.platform import pricing
from marketplace.platform.web.image_hosts import illustration_url
from marketplace.platform.leads import GENERATED_KEY, lead_record, provenance_line

SAMPLE_PREFIX = "sample-"


def _sample(key: str, address: str, city: str, state: str, zip_code: str, lead_type: str, *, asking: int,
            zestimate: int, arv: int, rehab: int, beds: int, baths: float, sqft: int, confidence: int) -> dict:
    """A sample lead built like any source's lead, in the shape of a marketplace card."""
    lead_id = f"{SAMPLE_PREFIX}{key}"
    record = lead_record(
        id=lead_id, address=address, city=city, state=state, zip_code=zip_code, lead_type=lead_type,
        asking_price=asking, zestimate=zestimate, arv=arv, rehab_estimate=rehab, beds=beds, baths=baths,
        square_footage=sqft, confidence_score=confidence, image_urls=[illustration_url(lead_id, beds, sqft)],
        images_fetch_status="no_images", raw_data={GENERATED_KEY: True},
    )
    card_fields = ("id", "address", "city", "state", "zip_code", "lead_type", "asking_price", "zestimate", "arv",
                   "rehab_estimate", "roi", "beds", "baths", "square_footage", "credit_cost", "is_new",
                   "is_high_roi")
    return {**{name: record[name] for name in card_fields}, "confidence": record["confidence_score"],
            "images": record["image_urls"], "image_status": record["images_fetch_status"],
            "provenance": provenance_line(record["raw_data"], record["source"])}


SAMPLE_LEADS: tuple[dict, ...] = (
    _sample("austin", "4812 Shoal Creek Blvd", "Austin", "TX", "78756", "Probate",
            asking=412_000, zestimate=498_000, arv=585_000, rehab=68_000, beds=3, baths=2.0, sqft=1_740,
            confidence=92),
    _sample("dallas", "2209 Lakewood Blvd", "Dallas", "TX", "75214", "Pre-Foreclosure",
            asking=329_000, zestimate=365_000, arv=432_000, rehab=41_500, beds=4, baths=2.5, sqft=2_180,
            confidence=84),
)


# The home page hero's illustrative card (features/marketing/page_home.py): scored, priced and its ROI
# computed by the same rules as any lead (SPEC 9: 92/100 -> 150 credits).
HERO_SAMPLE = {"address": "1234 Maple Ridge Dr", "city_line": "Austin, TX 78704", "beds": 3, "baths": 2.0,
               "sqft": 1_850, "asking": 285_000, "arv": 410_000, "rehab": 45_000, "confidence": 92}
HERO_SAMPLE_COST = pricing.credit_cost_for_confidence(HERO_SAMPLE["confidence"])
HERO_SAMPLE_ROI = pricing.compute_roi(HERO_SAMPLE["arv"], HERO_SAMPLE["asking"], HERO_SAMPLE["rehab"])


def is_sample_id(lead_id: str) -> bool:
    return str(lead_id).startswith(SAMPLE_PREFIX)


def sample_leads() -> list[dict]:
    """The sample leads as card data, addresses masked (they are never unlocked)."""
    return [{**lead, "address": marketplace_rules.mask_address(lead["address"]), "unlocked": False} for lead in SAMPLE_LEADS]
