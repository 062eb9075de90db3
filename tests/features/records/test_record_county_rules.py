"""The county rules of a public-record lead: which recorded sales are arm's length, each list the parcel is
on stacks in the motivation score, and the card's roll line."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace

from marketplace.features.records import (
    rules_arms_length as arms_length,
    rules_motivation as motivation,
    rules_roll_facts as roll_facts,
)
from marketplace.platform.pricing import COST_TIERS, lowest_credit_cost
from marketplace.features.records.source_opendata.markets import markets

TODAY = date(2016, 12, 1)


def test_a_sale_is_left_out_for_its_price_its_parcels_or_the_publishers_flag():
    ok = {"Deed type": "Warranty", "Multi-parcel sale": "no", "Parcels in the sale": "1",
          "Filter: under $10,000": "no", "Filter: deed type": "no"}
    assert arms_length.excluded_reason(45_000, ok, "Cook County Assessor") is None
    assert arms_length.excluded_reason(0, ok) == "$0 price"
    assert arms_length.excluded_reason(arms_length.TOKEN_PRICE - 1, ok) == "token price under $1,000"
    assert arms_length.excluded_reason(arms_length.TOKEN_PRICE, ok) is None
    assert arms_length.excluded_reason(180_000, {**ok, "Multi-parcel sale": "yes", "Parcels in the sale": "10"}) \
        == "multi-parcel sale (10 parcels)"
    assert arms_length.excluded_reason(57_500, {**ok, "Filter: deed type": "yes"}, "Cook County Assessor") \
        == "Cook County Assessor's filter: deed type"
    assert arms_length.deed_type(ok) == "Warranty" and arms_length.deed_type({}) is None


def test_each_list_the_parcel_is_on_stacks_in_the_score_with_its_reason():
    annual = motivation.SignalFacts(kind="sale_list", as_of=date(2015, 1, 1), sale_type="tax",
                                    source="Treasurer - Annual Tax Sale")
    scavenger = motivation.SignalFacts(kind="sale_list", as_of=date(2015, 1, 1), sale_type="tax",
                                       source="Treasurer - Scavenger Tax Sale")
    alone = motivation.motivation([scavenger], market_value=None, today=TODAY)
    both = motivation.motivation([annual, scavenger], market_value=None, today=TODAY)
    assert both.score == alone.score + motivation.EXTRA_SIGNAL_POINTS
    assert both.reasons[-1] == ("2 distress signals: on a sale list (Treasurer - Annual Tax Sale); "
                                "on a sale list (Treasurer - Scavenger Tax Sale)")
    # Two records of one list (two years of the same sale) are one stack.
    again = motivation.SignalFacts(kind="sale_list", as_of=date(2014, 1, 1), sale_type="tax",
                                   source="Treasurer - Scavenger Tax Sale")
    assert motivation.motivation([scavenger, again], market_value=None, today=TODAY).score == alone.score


def test_the_card_names_the_roll_basis_or_that_the_county_has_no_roll():
    shipped = markets()
    baltimore, cook = shipped["baltimore-city-md"], shipped["cook-county-il"]
    prop = SimpleNamespace(address="5446 S 73RD AVE", city="SUMMIT", zip_code="60501", beds=None, baths=None,
                           square_footage=None, year_built=None, property_class="205", assessed_value=23_246,
                           market_value=None, value_year=2025, facts_record="cook-ccao-parcel-addresses/x")
    raw = {roll_facts.ROLL_KEY: roll_facts.roll_summary(prop, cook)}
    assert roll_facts.card_facts_line(raw) == "Assessed value $23,246 · Cook County Assessor, tax year 2025"
    assert "SUMMIT" in repr(raw) and "owner" not in repr(raw).lower()
    none = {roll_facts.ROLL_KEY: roll_facts.roll_summary(prop, baltimore)}
    assert roll_facts.card_facts_line(none) == "No property facts: Baltimore City's assessor roll is not configured"
    assert roll_facts.credit_cost(baltimore, 60) == lowest_credit_cost() == COST_TIERS[-1][1]
    assert roll_facts.credit_cost(cook, 60) == 60
