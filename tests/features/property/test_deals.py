"""Saved deal analyses and defaults (SQLite and PostgreSQL): per user per lead, refused without an unlock."""

from __future__ import annotations

import uuid

import pytest
import sqlalchemy as sa

from marketplace.platform import texts as msg
from marketplace.features.property.rules_deal import DealDefaults, DealInputError, RehabLine, Targets, to_json
from marketplace.platform.errors import UserError
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import DealAnalysisRow, UserLead
from marketplace.features.property import service_deals as deals
from tests.factories import add_lead


def unlock(user_id, lead_id) -> None:
    with session_scope() as session:
        session.add(UserLead(user_id=user_id, lead_id=lead_id, credit_cost=120, purchase_type="credits"))


@pytest.fixture
def owned(db_url, new_user):
    user = new_user()
    lead_id = add_lead(asking_price=200_000, arv=350_000, rehab_estimate=30_000)
    unlock(user.id, lead_id)
    return user, lead_id


def test_first_analysis_comes_from_the_lead_and_the_users_defaults(owned):
    user, lead_id = owned
    deals.save_defaults(user.id, {"down_payment_pct": 25, "holding_months": 4})
    loaded = deals.load_analysis(user.id, str(lead_id))
    assert loaded.saved_at is None and loaded.reset is None
    a = loaded.analysis
    assert (a.flip.purchase_price, a.flip.arv, a.flip.rehab) == (200_000, 350_000, 30_000)
    assert a.flip.holding_months == 4 and a.rental.down_payment_pct == 25
    assert deals.load_defaults(user.id) == DealDefaults(down_payment_pct=25, holding_months=4)


def test_save_and_load_per_user_per_lead(owned, new_user):
    from dataclasses import replace
    user, lead_id = owned
    a = deals.load_analysis(user.id, lead_id).analysis
    edited = replace(a, flip=replace(a.flip, rehab_lines=(RehabLine("Roof", 12_000), RehabLine("Paint", 3_500.5))),
                     targets=Targets(min_profit=40_000))
    saved = deals.save_analysis(user.id, lead_id, edited)
    assert deals.load_analysis(user.id, lead_id).analysis == edited
    again = deals.save_analysis(user.id, lead_id, to_json(replace(edited, refi_ltv_pct=70)))  # JSON too
    assert again.saved_at >= saved.saved_at
    assert deals.load_analysis(user.id, lead_id).analysis.refi_ltv_pct == 70
    with get_engine().connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(DealAnalysisRow.__table__)).scalar() == 1
    # another user who unlocked the same lead has their own analysis
    other = new_user()
    unlock(other.id, lead_id)
    assert deals.load_analysis(other.id, lead_id).saved_at is None


def test_invalid_analysis_is_refused_and_changes_nothing(owned):
    user, lead_id = owned
    data = to_json(deals.load_analysis(user.id, lead_id).analysis)
    data["rental"]["vacancy_pct"] = 101
    with pytest.raises(DealInputError) as exc:
        deals.save_analysis(user.id, lead_id, data)
    assert exc.value.message == "Vacancy must be a percentage from 0 to 100."
    assert deals.load_analysis(user.id, lead_id).saved_at is None
    with pytest.raises(DealInputError):
        deals.save_defaults(user.id, {"term_years": 0})
    assert deals.load_defaults(user.id) == DealDefaults()


def test_a_stored_analysis_that_no_longer_validates_starts_over(owned):
    user, lead_id = owned
    deals.save_analysis(user.id, lead_id, deals.load_analysis(user.id, lead_id).analysis)
    with session_scope() as session:
        session.execute(sa.update(DealAnalysisRow.__table__).values(inputs={"flip": "garbage"}))
    loaded = deals.load_analysis(user.id, lead_id)
    assert loaded.reset == msg.DEAL_SHAPE and loaded.saved_at is None
    assert loaded.analysis.flip.purchase_price == 200_000


def test_a_locked_lead_is_unreachable(db_url, new_user, owned):
    _, lead_id = owned
    stranger = new_user()
    data = to_json(deals.load_analysis(owned[0].id, lead_id).analysis)
    for call in (lambda: deals.load_analysis(stranger.id, lead_id),
                 lambda: deals.save_analysis(stranger.id, lead_id, data),
                 lambda: deals.load_analysis(stranger.id, uuid.uuid4()),
                 lambda: deals.load_analysis(stranger.id, "not-a-uuid")):
        with pytest.raises(UserError) as exc:
            call()
        assert (exc.value.title, exc.value.message) == msg.DEAL_LOCKED
    with pytest.raises(UserError) as exc:
        deals.load_analysis(None, lead_id)
    assert (exc.value.title, exc.value.message) == msg.NOT_SIGNED_IN
    with get_engine().connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(DealAnalysisRow.__table__)).scalar() == 0


def test_a_first_analysis_estimates_rent_taxes_and_insurance_and_says_so(db_url, new_user):
    user = new_user()
    lead_id = add_lead(asking_price=200_000, zestimate=240_000, arv=350_000, rehab_estimate=30_000, state="IL")
    unlock(user.id, lead_id)
    loaded = deals.load_analysis(user.id, str(lead_id))
    a = loaded.analysis
    assert (a.rental.monthly_rent, a.rental.property_tax_annual, a.rental.insurance_annual) == (2_000, 4_990, 1_200)
    assert a.flip.monthly_holding_cost == 516
    assert loaded.estimate_bases["property_tax_annual"] == (
        "Market value $240,000 x 2.08% a year (IL's effective rate on owner-occupied homes: Tax Foundation 2023, "
        "Census ACS 2021)")
    assert set(loaded.estimate_bases) == {"monthly_rent", "property_tax_annual", "insurance_annual",
                                          "monthly_holding_cost"}


def test_a_lead_whose_headline_rests_on_comps_starts_at_the_comps_arv(db_url, new_user):
    user = new_user()
    lead_id = add_lead(asking_price=417_000, arv=632_000, rehab_estimate=44_100, comps_arv=540_000, comps_count=6,
                       roi_basis="comps")
    unlock(user.id, lead_id)
    loaded = deals.first_analysis(user.id, str(lead_id))
    assert loaded.analysis.flip.arv == 540_000
    assert loaded.arv_basis == ("Comparable sales ARV ($540,000): the default selection of 6 sales, the ARV the "
                                "lead's card rests on (the lead's estimate: $632,000)")
