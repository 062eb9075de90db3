"""Everything /property/{id} shows, for one user and one lead, in one read (SPEC 2, 4, 8, 9).

``load(user_id, lead_id) -> DeskView``: the access is checked once (``lead_access.unlock_of``),
then, in the same read-only session, the lead and its unlock record, the saved deal analysis (or a first
one), the stored owner contact, the pipeline entry, the stored ARV of the user's pinned comps, what
choosing the comps needs and a public-record lead's panel (``record_views.panel_in``). After that read,
and outside it: the comps themselves (a provider may be asked over HTTP, never inside a transaction; the
default pins are stored when they changed).

A user who has not unlocked the lead, an unknown or malformed id, or nobody signed in gets a ``DeskView``
with ``access`` 'denied' / 'missing' / 'signed_out' and nothing else: no lead data is read for them.
The sections' services keep their own entry points (and checks) for the page's edits.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import date

from marketplace.platform.db import read_scope
from marketplace.platform.models import Lead, UserLead, utcnow
from marketplace.features.property import (
    service_comps as comps,
    service_deals as deals,
    service_pipeline as pipeline,
    service_owner_contact as skip_trace,
)
from marketplace.platform import lead_access
from marketplace.features.records import service_views as record_views

log = logging.getLogger("marketplace.property_desk")


@dataclass(frozen=True)
class DeskView:
    access: str  # shown | denied (the lead exists, not unlocked by this user) | missing | signed_out
    lead: Lead | None = None  # detached: its columns only
    unlock: UserLead | None = None
    record: record_views.PublicRecordPanel | None = None  # a public-record lead's panel (None otherwise)
    comps: comps.CompsView | None = None  # None: the comps failed to load (``comps_failed``)
    comps_failed: bool = False
    comps_arv: comps.CompArv | None = None  # the stored ARV of the user's pins, offered to the analyzer
    analysis: deals.SavedAnalysis | None = None
    contact: skip_trace.ContactView | None = None  # None: never searched
    pipeline: pipeline.Entry | None = None


def load(user_id: uuid.UUID | None, lead_id: object, database_url: str | None = None, *,
         today: date | None = None) -> DeskView:
    """The page's view model for this viewer (module docstring)."""
    if user_id is None:
        return DeskView("signed_out")
    day = today or utcnow().date()
    with read_scope(database_url) as session:
        found = lead_access.unlock_of(session, user_id, lead_id)  # the page's one access check
        if found is None:
            return DeskView("denied" if lead_access.lead_exists(session, lead_id) else "missing")
        lead, unlock = found
        analysis = deals.analysis_of(session, user_id, lead)
        contact = skip_trace.contact_of(session, user_id, lead.id)
        entry = pipeline.entry_of(session, user_id, lead)
        arv = comps.stored_arv(session, user_id, lead.id)
        prepared = comps.prepare(session, user_id, lead, day)
        record = None
        if lead.property_id is not None:
            record = record_views.panel_in(session.connection(), lead.id, user_id, unlocked=True)
    try:
        view, stored_now = comps.view_of(user_id, prepared, day, database_url)
    except Exception:  # noqa: BLE001 - the comps card says it failed; the rest of the page shows
        log.exception("comps of %s for %s failed", lead.id, user_id)
        view, stored_now = None, False
    if stored_now:  # the default pins were stored now: their ARV is the one the analyzer offers
        arv = None if view.arv is None else comps.CompArv(view.arv.value, view.arv.low, view.arv.high,
                                                          view.arv.count, view.arv.basis[:255])
    return DeskView("shown", lead, unlock, record, view, view is None, arv, analysis, contact, entry)
