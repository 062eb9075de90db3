"""Issue 41, defect 11: a demo lead in Baltimore showed "ARV estimated: fewer than 3 comparable sales" on its card
while its property page listed 3 pinned comps and "N/A: this property has no living area on record", and a
$33,100 rehab with no square footage and no basis. The comps were there; the living area to price them was not.
The card and the page now say so, and a lead without a living area gets no per-square-foot rehab."""

from types import SimpleNamespace

from marketplace.features.marketplace import rules_headline as headline
from marketplace.features.marketplace.rules_cards import card_data
from marketplace.features.property.rules import property_view
from marketplace.features.property.rules_comps import Subject
from marketplace.features.scrape.source_builtin import BuiltinSource
from marketplace.features.marketplace.rules_criteria import SearchCriteria
from tests.features.marketplace.test_lead_cards import lead
from tests.features.marketplace.test_rules_headline import TODAY, UNLOCK, _lead, sale

NO_AREA = Subject(30.0, -97.0, None, 3, "Single Family")


def test_three_comps_without_a_living_area_are_counted_not_priced():
    comps = headline.default_comps_arv(NO_AREA, [sale(1, 300), sale(2, 320), sale(3, 340)], TODAY)
    assert (comps.value, comps.count) == (None, 3)
    cols = headline.columns(asking_price=200_000, market_value=250_000, estimate_arv=300_000, rehab=None,
                            comps=comps)
    assert (cols["roi_basis"], cols["comps_count"]) == ("estimate", 3)


def test_the_card_says_the_living_area_is_missing_not_the_comps():
    card = card_data(lead(arv=300_000, comps_arv=None, comps_count=3, roi_basis="estimate"))
    assert card["arv_note"] == "ARV estimated: no living area on record to price 3 comparable sales"
    fewer = card_data(lead(arv=300_000, comps_arv=None, comps_count=2, roi_basis="estimate"))
    assert fewer["arv_note"] == "ARV estimated: fewer than 3 comparable sales"


def test_the_property_page_says_the_same():
    view = property_view(_lead(square_footage=None, comps_arv=None, comps_count=3, roi_basis="estimate"), UNLOCK)
    assert view.hints["arv_basis"].endswith(
        "No living area on record to price the 3 comparable sales per square foot, so the estimate is used.")
    two = property_view(_lead(comps_arv=None, comps_count=2, roi_basis="estimate"), UNLOCK)
    assert two.hints["arv_basis"].endswith("Fewer than 3 comparable sales, so the estimate is used.")


def test_a_demo_rehab_says_what_it_rests_on():
    generated = {"generated": True}
    view = property_view(_lead(raw_data=generated, rehab_estimate=44_100, square_footage=1_800), UNLOCK)
    assert view.hints["rehab_basis"] == "Demo estimate: 1,800 sqft x $24/sqft for the condition it was given"
    none = property_view(_lead(raw_data=generated, rehab_estimate=None, square_footage=None), UNLOCK)
    assert (none.details["rehab"], none.hints["rehab_basis"]) == ("N/A", "N/A: no living area on record")
    # A lead that is not demo data keeps its stated basis (the record section's), never this line.
    assert "rehab_basis" not in property_view(_lead(), UNLOCK).hints


def test_a_generated_lead_without_a_living_area_has_no_rehab_estimate():
    leads = BuiltinSource(seed=11).search(SearchCriteria(count=400))
    hidden = [x for x in leads if x["square_footage"] is None]
    shown = [x for x in leads if x["square_footage"] is not None]
    assert hidden and shown
    assert all(x["rehab_estimate"] is None and x["roi"] is None for x in hidden)
    assert all(x["rehab_estimate"] is not None for x in shown)
