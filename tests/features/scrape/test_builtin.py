"""The built-in source honours every criterion exactly (property-based)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from marketplace.platform import pricing
from marketplace.features.marketplace.rules_criteria import CriteriaError, Range, SearchCriteria
from marketplace.platform.web.image_hosts import is_illustration
from marketplace.platform.leads import LEAD_TYPES, LISTING_URL_KEYS, SOURCE_FOR_TYPE, provenance_line
from marketplace.features.scrape.source_builtin import BuiltinSource, matches


def _consistent(lead):
    assert lead["confidence_score"] is not None and 0 <= lead["confidence_score"] <= 100
    assert lead["credit_cost"] == pricing.credit_cost_for_confidence(lead["confidence_score"])
    assert lead["roi"] == pricing.compute_roi(lead["arv"], lead["asking_price"], lead["rehab_estimate"])
    assert lead["is_high_roi"] == pricing.is_high_roi(lead["roi"])
    assert lead["source"] == SOURCE_FOR_TYPE[lead["lead_type"]]
    # No photos: one illustration, and the image status says there are no images.
    assert lead["images_fetch_status"] == "no_images"
    assert len(lead["image_urls"]) == 1 and is_illustration(lead["image_urls"][0])
    assert lead["baths"] is None or lead["beds"] is None or lead["baths"] <= lead["beds"]
    assert provenance_line(lead["raw_data"], lead["source"]) == "Demo data (generated)"


def test_the_issue_example_1000_probate_leads_in_austin():
    criteria = SearchCriteria(count=1000, cities=("Austin",), states=("TX",), lead_types=("Probate",),
                              price=Range(150_000, 300_000), roi=Range(15, 40), confidence=Range(80, None))
    leads = BuiltinSource(seed=42).search(criteria)
    assert len(leads) == 1000
    for lead in leads:
        assert (lead["city"], lead["state"], lead["lead_type"]) == ("Austin", "TX", "Probate")
        assert 150_000 <= lead["asking_price"] <= 300_000
        assert 15 <= lead["roi"] <= 40
        assert lead["confidence_score"] >= 80
        assert lead["zip_code"].startswith("78")
        _consistent(lead)


def test_same_seed_same_leads():
    a = BuiltinSource(seed=5).search(SearchCriteria(count=20))
    b = BuiltinSource(seed=5).search(SearchCriteria(count=20))
    assert [x["address"] for x in a] == [x["address"] for x in b]


def test_variety_across_markets_and_types_and_no_made_up_listing_urls():
    leads = BuiltinSource(seed=1).search(SearchCriteria(count=600))
    assert len({lead["state"] for lead in leads}) >= 15
    assert {lead["lead_type"] for lead in leads} == set(LEAD_TYPES)
    # Demo data never invents a link to a real listing site.
    assert not [lead for lead in leads if set(lead["raw_data"]) & set(LISTING_URL_KEYS)]
    assert not [lead for lead in leads if "http" in repr(lead["raw_data"])]
    assert len({lead["address"] for lead in leads}) == 600


@pytest.mark.parametrize(
    ("criteria", "message"),
    [(SearchCriteria(count=5, cities=("Atlantis",)), "No such city: Atlantis."),
     (SearchCriteria(count=5, cities=("Austin, ZZ",)), "No such city: Austin, ZZ."),
     (SearchCriteria(count=5, states=("ZZ",)), "Unknown state code: ZZ."),
     (SearchCriteria(count=5, price=Range(300_000, 100_000)), "Price: the minimum (300000) is above the maximum"),
     (SearchCriteria(count=5, roi=Range(90, 100)), "No leads have an ROI above"),
     (SearchCriteria(count=0), "Lead count must be between 1 and"),
     (SearchCriteria(count=5, lead_types=("Other",)), "no leads of the requested lead types"),
     (SearchCriteria(count=5, cities=("Austin",), price=Range(20_000_000, 30_000_000)), "Only 0 of 5 leads match")],
)
def test_impossible_criteria_say_why(criteria, message):
    with pytest.raises(CriteriaError) as err:
        BuiltinSource(seed=1).search(criteria)
    assert message in str(err.value)


_states = st.sampled_from(["TX", "AZ", "FL", "GA", "CO", "NV", "OH", "PA", "MI", "IL"])


@st.composite
def criteria(draw):
    lo_price = draw(st.integers(50_000, 400_000))
    lo_roi = draw(st.floats(0, 30))
    return SearchCriteria(
        count=draw(st.integers(1, 40)),
        states=tuple(draw(st.sets(_states, min_size=1, max_size=3))),
        lead_types=tuple(draw(st.sets(st.sampled_from(LEAD_TYPES), min_size=1, max_size=3))),
        price=Range(lo_price, lo_price + draw(st.integers(150_000, 600_000))),
        sqft=Range(draw(st.integers(600, 1500)), draw(st.integers(2500, 5000))),
        roi=Range(lo_roi, lo_roi + draw(st.floats(15, 40))),
        confidence=Range(draw(st.integers(0, 75)), 100),
        beds=Range(draw(st.integers(1, 3)), draw(st.integers(3, 6))),
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(criteria(), st.integers(0, 10_000))
def test_every_lead_satisfies_every_criterion(c, seed):
    try:
        leads = BuiltinSource(seed=seed).search(c)
    except CriteriaError as err:
        assert "match these criteria" in str(err) or "No leads have an ROI" in str(err)
        return
    assert len(leads) == c.count
    for lead in leads:
        assert matches(lead, c)
        assert lead["state"] in c.states and lead["lead_type"] in c.lead_types
        assert c.price.min <= lead["asking_price"] <= c.price.max
        assert c.sqft.min <= lead["square_footage"] <= c.sqft.max
        assert c.roi.min <= lead["roi"] <= c.roi.max
        assert c.beds.min <= lead["beds"] <= c.beds.max
        assert lead["confidence_score"] >= c.confidence.min
        _consistent(lead)
