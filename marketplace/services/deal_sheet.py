"""The one-page PDF deal sheet of a lead the user has unlocked (issue 25, item 2).

``deal_sheet`` reads the lead (only through an unlock record of this user: ``DEAL_LOCKED`` otherwise, and
nothing is built), the user's saved analysis (or the first one, as the page shows it) and the default
ARV's basis, and lays them out with ``core.deal.sheet``. ``comps``: the comparable sales behind the ARV,
for the comps feature to pass at merge (``core.deal.sheet.SheetComp``); none today.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone

from marketplace import messages as msg
from marketplace.core.deal.sheet import SheetComp, SheetLead, deal_sheet as build_sheet
from marketplace.core.lead_cards import number_text
from marketplace.core.leads import provenance_line
from marketplace.core.times import format_date
from marketplace.db import read_scope
from marketplace.messages import deal as text
from marketplace.services.deals import load_analysis, parse_ids, unlocked_lead


@dataclass(frozen=True)
class DealSheet:
    filename: str
    pdf: bytes


def _slug(address: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", address.lower()).strip("-")[:60] or "lead"


def deal_sheet(user_id: uuid.UUID | None, lead_id: object, *, zone_name: str = "UTC",
               comps: Sequence[SheetComp] = (), now: datetime | None = None,
               database_url: str | None = None) -> DealSheet:
    """The PDF of the user's analysis of the lead; ``UserError(DEAL_LOCKED)`` without an unlock."""
    saved = load_analysis(user_id, lead_id, database_url)
    lead_uuid = parse_ids(user_id, lead_id, msg.DEAL_LOCKED)
    with read_scope(database_url) as session:
        lead = unlocked_lead(session, user_id, lead_uuid, msg.DEAL_LOCKED)
        raw = lead.raw_data if isinstance(lead.raw_data, dict) else {}
        facts = SheetLead(
            address=lead.address, place=f"{lead.city}, {lead.state} {lead.zip_code}".strip(),
            lead_type=lead.lead_type, beds=number_text(lead.beds), baths=number_text(lead.baths),
            sqft=number_text(lead.square_footage), asking_price=lead.asking_price, market_value=lead.zestimate,
            rehab_estimate=lead.rehab_estimate, provenance=provenance_line(raw, lead.source),
        )
    pdf = build_sheet(facts, saved.analysis, arv_basis=saved.arv_basis, comps=comps,
                      saved_on=format_date(saved.saved_at, zone_name) or None,
                      prepared_on=format_date(now or datetime.now(timezone.utc), zone_name))
    return DealSheet(text.SHEET_FILENAME.format(slug=_slug(lead.address)), pdf)
