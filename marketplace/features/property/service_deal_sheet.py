"""The one-page PDF deal sheet of a lead the user has unlocked.

``deal_sheet`` reads the lead (only through an unlock record of this user: ``DEAL_LOCKED`` otherwise, and
nothing is built), the user's saved analysis (or the first one, as the page shows it) and the default
ARV's basis, and lays them out with ``property.rules_deal.sheet`` with the sales the user pinned on the page's
Comparable Sales card (``property.service_comps``) and the ARV they give.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone

from marketplace.platform import texts as msg
from marketplace.features.property.rules_deal.sheet import SheetComp, SheetLead, deal_sheet as build_sheet
from marketplace.features.marketplace import number_text
from marketplace.platform.leads import provenance_line
from marketplace.platform.times import format_date
from marketplace.platform.db import read_scope
from marketplace.features.property import texts_deal as text
from marketplace.platform.errors import UserError
from marketplace.features.property import service_comps as comp_sales, service_deals as deals
from marketplace.platform import lead_access
from marketplace.features.property.service_deals import load_analysis


@dataclass(frozen=True)
class DealSheet:
    filename: str
    pdf: bytes


def _slug(address: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", address.lower()).strip("-")[:60] or "lead"


def pinned_comps(user_id: uuid.UUID | None, lead_id: object, zone_name: str = "UTC",
                 database_url: str | None = None) -> tuple[list[SheetComp], str, int | None]:
    """The sales the user pinned for this lead, as the sheet lists them, and the ARV they give ('' when
    none are pinned or the sales could not be read: the sheet then says it has no comps)."""
    try:
        view = comp_sales.comps_for(user_id, lead_id, database_url)
    except UserError:
        return [], "", None
    pinned = set(view.pinned)
    rows = [SheetComp(address=scored.comp.address, sold_on=format_date(scored.comp.sale_date, zone_name),
                      price=float(scored.comp.price), sqft=number_text(scored.comp.square_footage))
            for scored in view.selection.comps if scored.comp.comp_id in pinned]
    arv = f"${view.arv.value:,} (${view.arv.low:,}-${view.arv.high:,}): {view.arv.basis}" if view.arv else ""
    return rows, arv, (view.arv.value if view.arv else None)


def arv_basis(typed: float | None, default: deals.ArvDefault, comps_value: int | None, comps_arv: str) -> str:
    """What the analysis's ARV rests on: the default's basis, the comps' when it is their figure, else
    the user's own entry."""
    if typed is not None and comps_value is not None and round(typed) == comps_value:
        return text.ARV_COMPS_BASIS.format(basis=comps_arv)
    if default.value is None and not typed:
        return default.basis
    if typed == default.value or (typed is not None and default.value is not None
                                  and round(typed) == round(default.value)):
        return default.basis
    return text.ARV_TYPED_BASIS.format(default=default.basis)


def deal_sheet(user_id: uuid.UUID | None, lead_id: object, *, zone_name: str = "UTC",
               comps: Sequence[SheetComp] | None = None, now: datetime | None = None,
               database_url: str | None = None) -> DealSheet:
    """The PDF of the user's analysis of the lead; ``UserError(DEAL_LOCKED)`` without an unlock.
    ``comps`` None: the user's pinned comparable sales (``pinned_comps``)."""
    saved = load_analysis(user_id, lead_id, database_url)
    comps_arv, comps_value = "", None
    if comps is None:
        comps, comps_arv, comps_value = pinned_comps(user_id, lead_id, zone_name, database_url)
    default = deals.default_arv(user_id, lead_id, database_url)
    basis = arv_basis(saved.analysis.flip.arv, default, comps_value, comps_arv)
    with read_scope(database_url) as session:
        lead = lead_access.require_unlocked(session, user_id, lead_id, msg.DEAL_LOCKED)
        raw = lead.raw_data if isinstance(lead.raw_data, dict) else {}
        facts = SheetLead(
            address=lead.address, place=f"{lead.city}, {lead.state} {lead.zip_code}".strip(),
            lead_type=lead.lead_type, beds=number_text(lead.beds), baths=number_text(lead.baths),
            sqft=number_text(lead.square_footage), asking_price=lead.asking_price, market_value=lead.zestimate,
            rehab_estimate=lead.rehab_estimate, provenance=provenance_line(raw, lead.source),
        )
    pdf = build_sheet(facts, saved.analysis, arv_basis=basis, comps=comps, comps_arv=comps_arv,
                      saved_on=format_date(saved.saved_at, zone_name) or None,
                      prepared_on=format_date(now or datetime.now(timezone.utc), zone_name))
    return DealSheet(text.SHEET_FILENAME.format(slug=_slug(lead.address)), pdf)
