"""Saved deal analyses and analyzer defaults.

A lead's analysis is reachable only by a user with an unlock record of that lead (``lead_access``); anyone
else gets ``DEAL_LOCKED`` (a ``UserError``) and nothing is read or written. An archived lead stays
analyzable (an unlock is forever, as on the property page).

- ``load_analysis``: the saved analysis (its JSON re-validated by ``property.rules_deal.analysis_from_json``), or a
  first one from the lead's figures and the user's defaults (``property.rules_deal.initial_analysis``). A saved
  analysis that no longer validates is replaced by a first one and ``reset`` says so (``DEAL_SHAPE``).
- ``save_analysis``: validates first (``DealInputError`` changes nothing), then one transaction: the unlock
  check and the upsert of the one row per user and lead.
- ``load_defaults`` / ``save_defaults``: the user's ``DealDefaults`` (no row: the built-in ones).
- ``default_arv``: the ARV a first analysis starts from, with its basis sentence: the ONE place that
  chooses it. Today the lead's own ARV estimate; the comps feature's ``property.service_comps.comp_arv(user_id,
  lead_id)`` (value + basis sentence) replaces it at merge (see the function's docstring).
- ``first_analysis``: the lead's figures, the default ARV and the user's defaults ("Reset to my defaults").
- ``forget_user``: inside the caller's transaction, removes the user's analyses, defaults and owner
  contacts (for account deletion).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from marketplace.platform import texts as msg
from marketplace.features.property.rules_deal import (
    DealAnalysis,
    DealDefaults,
    DealInputError,
    analysis_from_json,
    check,
    defaults_from_json,
    initial_analysis,
    to_json,
)
from marketplace.features.property.rules_deal.form import with_arv
from marketplace.features.marketplace import rules_headline as headline
from marketplace.features.property.rules_deal.estimates import lead_estimates
from marketplace.features.property.rules_deal.report import lead_arv_basis
from marketplace.features.marketplace import usd
from marketplace.features.property import texts_deal as msg_deal
from marketplace.platform.errors import UserError
from marketplace.platform.db import read_scope, session_scope
from marketplace.platform.models import DealAnalysisRow, DealDefaultsRow, Lead, OwnerContact, SkipTraceRun, utcnow
from marketplace.platform import lead_access


@dataclass(frozen=True)
class SavedAnalysis:
    lead_id: uuid.UUID
    analysis: DealAnalysis
    saved_at: datetime | None  # None: not saved yet (a first analysis from the lead's figures)
    reset: str | None = None  # why a stored analysis was replaced by a first one (DEAL_SHAPE), else None
    arv_basis: str = ""  # the default ARV's basis sentence (``default_arv``)
    # What a first analysis' rent, taxes, insurance and holding cost start at (property.rules_deal.estimates), by key.
    estimate_bases: dict[str, str] | None = None


@dataclass(frozen=True)
class ArvDefault:
    value: float | None  # None: no estimate (the analysis starts at $0 and says so)
    basis: str  # one sentence: what the value is based on


def _lead_arv(lead: Lead) -> ArvDefault:
    """The ARV the lead's headline rests on (``marketplace.rules_headline``): the comps ARV of the default selection
    when there are enough comps, else the lead's estimate."""
    if lead.roi_basis == headline.COMPS and lead.comps_arv is not None:
        return ArvDefault(float(lead.comps_arv), msg_deal.ARV_HEADLINE_COMPS.format(
            value=usd(lead.comps_arv), count=lead.comps_count, estimate=usd(lead.arv)))
    raw = lead.raw_data if isinstance(lead.raw_data, dict) else {}
    basis = raw.get("basis") if isinstance(raw.get("basis"), dict) else {}
    return ArvDefault(None if lead.arv is None else float(lead.arv), lead_arv_basis(lead.arv, basis.get("arv")))


def _estimates(lead: Lead) -> dict:
    """The first analysis' rent, taxes, insurance and holding cost (``property.rules_deal.estimates``)."""
    return lead_estimates(lead.zestimate, lead.asking_price, lead.state)


def default_arv(user_id: uuid.UUID | None, lead_id: object, database_url: str | None = None) -> ArvDefault:
    """The ARV a first analysis of the lead starts from, and its basis sentence (``DEAL_LOCKED`` without
    an unlock). Today: the lead's own ARV estimate ("Lead's ARV estimate ($350,000): ...").

    At merge with the comps feature, make this::

        found = comps.comp_arv(user_id, lead_uuid)   # CompArv(value, low, high, count, basis) | None
        if found is not None:
            return ArvDefault(float(found.value), found.basis)
        ...the lead's estimate, as now

    Everything else (``load_analysis``, ``first_analysis``, the page's ARV hint, the PDF) asks this."""
    with read_scope(database_url) as session:
        return _lead_arv(lead_access.require_unlocked(session, user_id, lead_id, msg.DEAL_LOCKED))


def _first(lead: Lead, defaults: DealDefaults, arv: ArvDefault) -> DealAnalysis:
    first = initial_analysis(asking_price=lead.asking_price, arv=lead.arv, rehab_estimate=lead.rehab_estimate,
                             defaults=defaults, estimates=_estimates(lead))
    return with_arv(first, arv.value)


def _bases(lead: Lead) -> dict[str, str]:
    return {key: estimate.basis for key, estimate in _estimates(lead).items()}


def first_analysis(user_id: uuid.UUID | None, lead_id: object, database_url: str | None = None) -> SavedAnalysis:
    """The analysis a lead starts with (its figures, ``default_arv`` and the user's defaults); nothing is
    stored (the page saves it like any edit)."""
    with read_scope(database_url) as session:
        lead = lead_access.require_unlocked(session, user_id, lead_id, msg.DEAL_LOCKED)
        arv = _lead_arv(lead)
        first = _first(lead, _defaults(session, user_id), arv)
        bases = _bases(lead)
    return SavedAnalysis(lead.id, first, None, arv_basis=arv.basis, estimate_bases=bases)


def load_analysis(user_id: uuid.UUID | None, lead_id: object, database_url: str | None = None) -> SavedAnalysis:
    with read_scope(database_url) as session:
        return analysis_of(session, user_id, lead_access.require_unlocked(session, user_id, lead_id,
                                                                          msg.DEAL_LOCKED))


def analysis_of(session: Session, user_id: uuid.UUID, lead: Lead) -> SavedAnalysis:
    """Inside the caller's read, for a lead the caller found unlocked (``lead_access``): the saved analysis,
    or a first one (module docstring)."""
    arv = _lead_arv(lead)
    row = session.exec(select(DealAnalysisRow).where(
        DealAnalysisRow.user_id == user_id, DealAnalysisRow.lead_id == lead.id)).first()
    first = _first(lead, _defaults(session, user_id), arv)
    bases = _bases(lead)
    if row is None:
        return SavedAnalysis(lead.id, first, None, arv_basis=arv.basis, estimate_bases=bases)
    try:
        return SavedAnalysis(lead.id, analysis_from_json(row.inputs), row.updated_at, arv_basis=arv.basis,
                             estimate_bases=bases)
    except DealInputError:
        return SavedAnalysis(lead.id, first, None, reset=msg.DEAL_SHAPE, arv_basis=arv.basis,
                             estimate_bases=bases)


def save_analysis(user_id: uuid.UUID | None, lead_id: object, analysis: DealAnalysis | dict[str, Any],
                  database_url: str | None = None) -> SavedAnalysis:
    """Store ``analysis`` (a ``DealAnalysis`` or its JSON) as the user's analysis of the lead."""
    lead_uuid = lead_access.parse_lead(user_id, lead_id, msg.DEAL_LOCKED)
    if isinstance(analysis, DealAnalysis):
        check(analysis)
    else:
        analysis = analysis_from_json(analysis)
    inputs = to_json(analysis)
    for attempt in range(2):  # a concurrent first save of the same lead: the second attempt updates its row
        try:
            with session_scope(database_url) as session:
                lead_access.require_unlocked(session, user_id, lead_uuid, msg.DEAL_LOCKED)
                now = utcnow()
                row = session.exec(select(DealAnalysisRow).where(
                    DealAnalysisRow.user_id == user_id, DealAnalysisRow.lead_id == lead_uuid)).first()
                if row is None:
                    session.add(DealAnalysisRow(user_id=user_id, lead_id=lead_uuid, inputs=inputs, created_at=now,
                                                updated_at=now))
                else:
                    row.inputs, row.updated_at = inputs, now
                    session.add(row)
                session.flush()
            return SavedAnalysis(lead_uuid, analysis, now)
        except IntegrityError:
            if attempt:
                raise
    raise AssertionError("unreachable")


def load_defaults(user_id: uuid.UUID | None, database_url: str | None = None) -> DealDefaults:
    if user_id is None:
        raise UserError(*msg.NOT_SIGNED_IN)
    with read_scope(database_url) as session:
        return _defaults(session, user_id)


def save_defaults(user_id: uuid.UUID | None, defaults: DealDefaults | dict[str, Any],
                  database_url: str | None = None) -> DealDefaults:
    """Store the user's defaults (validated first: ``DealInputError`` changes nothing)."""
    if user_id is None:
        raise UserError(*msg.NOT_SIGNED_IN)
    if isinstance(defaults, DealDefaults):
        check(defaults)
    else:
        defaults = defaults_from_json(defaults)
    values = to_json(defaults)
    for attempt in range(2):
        try:
            with session_scope(database_url) as session:
                row = session.get(DealDefaultsRow, user_id)
                if row is None:
                    row = DealDefaultsRow(user_id=user_id, defaults=values)
                row.defaults, row.updated_at = values, utcnow()
                session.add(row)
                session.flush()
            return defaults
        except IntegrityError:
            if attempt:
                raise
    raise AssertionError("unreachable")


def _defaults(session: Session, user_id: uuid.UUID) -> DealDefaults:
    row = session.get(DealDefaultsRow, user_id)
    if row is None:
        return DealDefaults()
    try:
        return defaults_from_json(row.defaults)
    except DealInputError:  # stored by an older version with other limits: the built-in ones
        return DealDefaults()


def forget_user(session: Session, user_id: uuid.UUID) -> None:
    """Inside the caller's transaction: delete the user's analyses, defaults, owner contacts and bulk owner
    search runs."""
    for model in (DealAnalysisRow, DealDefaultsRow, OwnerContact, SkipTraceRun):
        session.execute(sa.delete(model.__table__).where(model.__table__.c.user_id == user_id))
