"""A first analysis starts from the lead's figures (rent, taxes, insurance, holding cost estimated with
their basis, never $0), so its maximum offer is a price; after "Use this ARV" the ARV line says the comps'
figure is in use."""

from marketplace.features.property.rules_deal.estimates import lead_estimates
from marketplace.features.property.rules_deal.form import arv_hint, comps_in_use
from marketplace.features.property.rules_deal.inputs import initial_analysis
from marketplace.features.property.rules_deal.report import report


def test_rent_taxes_and_insurance_are_estimated_from_the_market_value_with_their_basis():
    est = lead_estimates(560_000, 417_000, "TX")
    assert {k: e.value for k, e in est.items()} == {"monthly_rent": 4_670, "property_tax_annual": 9_410,
                                                   "insurance_annual": 2_800, "monthly_holding_cost": 1_018}
    assert est["monthly_rent"].basis == ("Market value $560,000 / gross rent multiplier 120 = $4,670 a month "
                                         "(a rule of thumb, not a rent survey)")
    assert est["property_tax_annual"].basis == ("Market value $560,000 x 1.68% a year (TX's effective rate on "
                                                "owner-occupied homes: Tax Foundation 2023, Census ACS 2021)")
    assert est["insurance_annual"].basis.startswith("Market value $560,000 x 0.5% a year (a stated rule of thumb")
    unknown = lead_estimates(None, 300_000, "ZZ")
    assert unknown["property_tax_annual"].basis == ("Asking price $300,000 x 0.91% a year (median state effective "
                                                    "rate: Tax Foundation 2023, Census ACS 2021; this state's own "
                                                    "is not on file)")
    nothing = lead_estimates(None, None, "TX")
    assert nothing["monthly_rent"].value == 0 and nothing["monthly_rent"].basis.startswith("N/A")


def test_max_offer_is_a_price_out_of_the_box():
    before = report(initial_analysis(asking_price=417_000, arv=540_000, rehab_estimate=44_100))
    assert before.values["offer_max"] == "$0"  # rent $0: the DSCR target allowed no price
    first = initial_analysis(asking_price=417_000, arv=540_000, rehab_estimate=44_100,
                             estimates=lead_estimates(560_000, 417_000, "TX"))
    assert (first.rental.monthly_rent, first.rental.property_tax_annual, first.rental.insurance_annual,
            first.flip.monthly_holding_cost) == (4_670, 9_410, 2_800, 1_018)
    after = report(first)
    assert after.values["offer_max"] == "$341,558"
    assert after.values["rental_dscr"] != "0.00"


def test_after_use_this_arv_the_line_says_the_comps_arv_is_in_use():
    default = "Lead's ARV estimate ($632,000): the lead's market value x a renovation uplift. Not from comparable sales."
    basis = "Median $/sqft of 5 pinned sales x 1,800 sqft ($300/sqft)"
    assert arv_hint("632000", default, "540000", basis) == "Starts at the default: " + default
    # "Use this ARV" puts the comps' figure into the form, typed or formatted.
    for typed in ("540000", "540,000", "540000.00"):
        assert comps_in_use(typed, "540000")
        assert arv_hint(typed, default, "540000", basis) == (
            "In use: the ARV from comparable sales, $540,000: Median $/sqft of 5 pinned sales x 1,800 sqft "
            "($300/sqft)")
    assert not comps_in_use("540001", "540000") and not comps_in_use("540000", "")
