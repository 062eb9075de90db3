"""A public-record lead's headline ROI rests on the comps ARV of its recorded sales (marketplace.rules_headline) when
there are at least 3 in the default selection, never on the property's own sale."""

from datetime import date, datetime, timezone
from types import SimpleNamespace

from marketplace.features.property.rules_comps import Comp
from marketplace.features.records.service_leads import lead_values

TODAY = date(2026, 11, 20)


def _prop(**changes):
    base = dict(id=7, address="12 ELM ST", unit=None, city="BALTIMORE", state="MD", zip_code="21201",
                latitude=39.3, longitude=-76.6, square_footage=1500, beds=3, baths=1.0,
                property_class="SINGLE FAMILY", year_built=1950, market_value=200_000, value_year=2026,
                value_dataset_id=None, last_sale_price=None, last_sale_date=None, absentee_owner=False, bank_owned=None,
                out_of_state_owner=False)
    return SimpleNamespace(**{**base, **changes})


SIGNAL = SimpleNamespace(kind="tax_delinquent", as_of=date(2026, 10, 1), amount_owed=5_000, years_owed=2,
                         sale_date=None, sale_type=None, notice_date=None, delinquent_since=None, dataset_id="md-tax",
                         record_key="K1",
                         retrieved_at=datetime(2026, 11, 19, tzinfo=timezone.utc), record_url=None)


def _sale(n, per_sqft, address=None):
    return Comp(comp_id=f"sale:{n}", address=address or f"{n} OAK ST", city="", state="", zip_code="21201",
                sale_date=date(2026, 8, 1), price=int(per_sqft * 1500), square_footage=1500, beds=None,
                baths=None, property_type="Single Family", latitude=39.3 + 0.001 * n, longitude=-76.6)


def _values(comps):
    return lead_values(_prop(), [SIGNAL], lambda _id: ("Tax sale list", "City"), hpi=[], sales=[], today=TODAY,
                       comps=comps)


def test_three_recorded_sales_make_the_comps_arv_the_headline():
    values = _values([_sale(1, 100), _sale(2, 110), _sale(3, 120)])
    assert (values["comps_arv"], values["comps_count"], values["roi_basis"]) == (165_000, 3, "comps")
    invested = values["zestimate"] + values["rehab_estimate"]
    assert values["roi"] == round((165_000 - invested) / invested * 100, 1)
    assert "with the comps ARV (3 comparable sales, default selection)" in values["raw_data"]["basis"]["roi"]


def test_the_propertys_own_sale_is_never_its_comp_and_two_are_not_enough():
    values = _values([_sale(1, 100), _sale(2, 110), _sale(3, 120, address="12 Elm St")])
    assert (values["comps_count"], values["roi_basis"]) == (2, "estimate")
