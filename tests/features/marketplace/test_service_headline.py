"""The headline ROI in the database: computed in bulk where leads are stored (seeding, the daily refresh,
its backfill of older rows), sorted by "Highest ROI" as the card shows it, and banded (a loss is "Below 0%",
never "Unknown")."""

from datetime import datetime, timedelta, timezone

import sqlalchemy as sa
from sqlmodel import select

from marketplace.features.marketplace import rules_headline as headline
from marketplace.features.property import rules_valuation as valuation
from marketplace.features.marketplace import rules
from marketplace.features.marketplace.rules_criteria import SearchCriteria
from marketplace.features.marketplace.rules_cards import card_data
from marketplace.features.marketplace.rules_saved_searches import lead_facets
from marketplace.platform.db import get_engine, session_scope
from marketplace.features.records import jobs_refresh as refresh
from marketplace.platform.models import Lead, LeadFacet
from marketplace.features.marketplace import service as svc
from marketplace.features.scrape import service_seeding as seeding
from marketplace.features.scrape.source_builtin import BuiltinSource
from marketplace.features.property.source_builtin_comps import generated_headline
from tests.factories import add_lead

MORNING = datetime(2026, 11, 21, 16, 0, tzinfo=timezone.utc)


def _stored():
    with session_scope() as s:
        return list(s.exec(select(Lead)).all())


def _check_headline(lead: Lead) -> None:
    arv = headline.arv_used(lead.arv, lead.comps_arv, lead.roi_basis)
    expected, _ = valuation.roi(asking_price=lead.asking_price, market_value=lead.zestimate, arv=arv,
                                rehab=lead.rehab_estimate)
    assert lead.roi == expected
    assert lead.is_high_roi == (lead.roi is not None and lead.roi >= 20)
    if lead.roi_basis == "comps":
        assert lead.comps_count >= 3 and lead.comps_arv is not None
    else:
        assert lead.roi_basis == "estimate" and (lead.comps_arv is None or lead.comps_count < 3)


def test_seeded_leads_carry_the_headline_and_highest_roi_sorts_by_it(db_url):
    seeding.seed_leads(120, seed=7, progress=False)
    leads = _stored()
    assert {lead.roi_basis for lead in leads} == {"comps", "estimate"}
    for lead in leads:
        _check_headline(lead)
    # Some comps ARVs turn an estimated profit into a loss: the card shows the loss, named.
    assert any(lead.roi is not None and lead.roi < 0 and lead.roi_basis == "comps" for lead in leads)
    cards = [c for n in (1, 2, 3) for c in svc.query_page(rules.Filters(page_size=50, page=n)).cards]
    by_id = {str(lead.id): lead for lead in leads}
    assert [c.roi for c in cards] == [by_id[c.id].roi for c in cards]
    shown = [c.roi for c in cards if c.roi is not None]
    assert shown == sorted(shown, reverse=True) and len(cards) == 120
    for card in cards:
        data = card_data(card)
        if card.roi is None:  # no living area: no rehab estimate, no ROI (issue 41, defect 11)
            assert (data["roi_label"], by_id[card.id].square_footage) == ("Est. ROI", None)
            continue
        assert data["roi_label"] in ("ROI vs comps ARV", "ROI vs estimated ARV")
        assert data["roi_label"] == ("ROI vs comps ARV" if card.roi_basis == "comps" else "ROI vs estimated ARV")
        assert data["arv"] == rules.usd(card.comps_arv if card.roi_basis == "comps" else card.arv)


def test_the_refresh_computes_new_leads_and_backfills_older_ones(db_url):
    old = BuiltinSource(seed=31).search(SearchCriteria(count=15))
    for row in old:
        row["created_at"] = MORNING - timedelta(days=3)
    seeding.insert_leads(old)  # stored before the headline existed: roi_basis ''
    assert {lead.roi_basis for lead in _stored()} == {""}
    result = refresh.run_refresh(now=MORNING, source=BuiltinSource(seed=32), count=10)
    assert result["leads_added"] == 10
    leads = _stored()
    assert len(leads) == 25 and "" not in {lead.roi_basis for lead in leads}
    for lead in leads:
        _check_headline(lead)
    before = {str(r["id"]): r for r in old}
    for lead in leads:
        if str(lead.id) in before:
            record = {**before[str(lead.id)], "created_at": lead.created_at}
            assert generated_headline(record)["comps_arv"] == lead.comps_arv


def test_a_loss_is_below_zero_and_unknown_is_none_or_zero(db_url):
    ids = {roi: add_lead(roi=roi, is_high_roi=False) for roi in (-12.5, -0.1, 0.0, 4.0)}
    missing = add_lead(roi=None)
    svc.rebuild_facets_now()

    def shown(band):
        return {c.id for c in svc.query_page(rules.Filters(roi_ranges=(band,), page_size=50)).cards}

    assert shown("lt0") == {str(ids[-12.5]), str(ids[-0.1])}
    assert shown("unknown") == {str(ids[0.0]), str(missing)}
    assert svc.query_page(rules.Filters(roi_ranges=("lt0",))).total == 2
    assert svc.query_page(rules.Filters(roi_ranges=("unknown",))).total == 2
    with get_engine(db_url).connect() as conn:
        bands = dict(conn.execute(sa.select(LeadFacet.__table__.c.roi_band,
                                            sa.func.sum(LeadFacet.__table__.c.lead_count))
                                  .group_by(LeadFacet.__table__.c.roi_band)).all())
    assert (bands["lt0"], bands["unknown"], bands["0-10"]) == (2, 2, 1)
    # A saved search's alert matches the same band.
    assert ("roi", "lt0") in lead_facets("Probate", -3.0, 1500, True, False)
    assert ("roi", "unknown") in lead_facets("Probate", 0.0, 1500, True, False)
