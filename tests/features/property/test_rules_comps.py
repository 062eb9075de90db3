"""property.rules_comps: distance, each widening step, the filters, outliers and the ARV of pinned sales, checked
against hand-computed values."""

from __future__ import annotations

from datetime import date

import pytest

from marketplace.features.property import rules_comps as comps
from marketplace.features.property.rules_comps import Comp, Subject

TODAY = date(2026, 11, 25)
LAT, LON = 40.0, -75.0
MILE = 1 / 69.0941  # degrees of latitude per mile: 2 x pi x 3,958.8 / 360
SUBJECT = Subject(LAT, LON, 1_500, 3, "Single Family")


def sale(n: int, miles: float, sold: date, *, sqft: int = 1_500, price: int = 300_000, beds: int | None = 3,
         kind: str | None = "Single Family") -> Comp:
    return Comp(comp_id=f"c{n}", address=f"{n} Test St", city="Town", state="PA", zip_code="19103",
                sale_date=sold, price=price, square_footage=sqft, beds=beds, baths=2.0, property_type=kind,
                latitude=LAT + miles * MILE, longitude=LON)


RECENT = date(2026, 9, 1)      # within 6 months
OLDER = date(2026, 2, 1)       # 9-10 months ago: within 12, not 6


def test_haversine_one_degree_of_latitude_and_longitude_at_the_equator():
    assert comps.haversine_miles(0, 0, 1, 0) == pytest.approx(69.0941, abs=1e-4)
    assert comps.haversine_miles(0, 0, 0, 1) == pytest.approx(69.0941, abs=1e-4)
    # at 60 degrees north: 2R asin(cos 60 sin 0.5 deg) = 34.5467, about half (cos 60 = 0.5)
    assert comps.haversine_miles(60, 0, 60, 1) == pytest.approx(34.5467, abs=1e-3)
    assert comps.haversine_miles(LAT, LON, LAT, LON) == 0


def test_step_0_three_sales_within_half_a_mile_in_6_months():
    found = comps.select_comps(SUBJECT, [sale(1, 0.1, RECENT), sale(2, 0.3, RECENT), sale(3, 0.45, RECENT),
                                         sale(4, 0.8, RECENT)], TODAY)
    assert found.step == 0
    assert [s.comp.comp_id for s in found.comps] == ["c1", "c2", "c3"]
    assert found.note == "Sold in the last 6 months within 0.5 mile"
    assert found.comps[0].miles == pytest.approx(0.1, abs=1e-6)
    assert found.comps[0].per_sqft == 200


def test_step_1_widens_to_1_mile():
    found = comps.select_comps(SUBJECT, [sale(1, 0.1, RECENT), sale(2, 0.3, RECENT), sale(3, 0.8, RECENT)], TODAY)
    assert found.step == 1
    assert len(found.comps) == 3
    assert found.note == "Widened to 1 mile: fewer than 3 sales within 0.5 mile in 6 months"


def test_step_2_widens_to_12_months():
    found = comps.select_comps(SUBJECT, [sale(1, 0.1, RECENT), sale(2, 0.9, RECENT), sale(3, 0.3, OLDER)], TODAY)
    assert found.step == 2
    assert [s.comp.comp_id for s in found.comps] == ["c1", "c3", "c2"]  # nearest first
    assert found.note == "Widened to 12 months: fewer than 3 sales within 1 mile in 6 months"


def test_step_3_widens_to_2_miles():
    found = comps.select_comps(SUBJECT, [sale(1, 0.1, RECENT), sale(2, 0.9, OLDER), sale(3, 1.9, OLDER),
                                         sale(4, 2.1, RECENT)], TODAY)
    assert found.step == 3
    assert [s.comp.comp_id for s in found.comps] == ["c1", "c2", "c3"]
    assert found.note == "Widened to 2 miles: fewer than 3 sales within 1 mile in 12 months"


def test_fewer_than_3_even_at_the_last_step_says_so():
    found = comps.select_comps(SUBJECT, [sale(1, 0.1, RECENT), sale(2, 2.5, RECENT),
                                         sale(3, 0.2, date(2025, 11, 1))], TODAY)
    assert found.step == 3
    assert [s.comp.comp_id for s in found.comps] == ["c1"]
    assert found.note == ("Widened to 2 miles: fewer than 3 sales within 1 mile in 12 months. "
                          "Only 1 found within 2 miles in 12 months.")


def test_the_filters_living_area_type_beds_and_dates():
    sales = [
        sale(1, 0.1, RECENT, sqft=1_800),                 # +20 %: in
        sale(2, 0.1, RECENT, sqft=1_200),                 # -20 %: in
        sale(3, 0.1, RECENT, sqft=1_810),                 # +20.7 %: out
        sale(4, 0.1, RECENT, beds=5),                     # 2 beds more: out
        sale(5, 0.1, RECENT, beds=4),                     # 1 more: in
        sale(6, 0.1, RECENT, beds=None),                  # unknown beds: not applied
        sale(7, 0.1, RECENT, kind="Condo"),               # another type: out
        sale(8, 0.1, RECENT, kind=None),                  # unknown type: not applied
        sale(9, 0.1, date(2026, 11, 26)),                 # after today: out
        sale(10, 0.1, date(2026, 5, 25)),                 # exactly 6 months ago: out
        sale(11, 0.1, date(2026, 5, 26)),                 # a day later: in
        sale(12, 0.1, RECENT, sqft=0),                    # no living area: never
        sale(13, 0.1, RECENT, price=0),                   # no price: never
    ]
    found = comps.select_comps(SUBJECT, sales, TODAY)
    assert found.step == 0
    assert sorted(s.comp.comp_id for s in found.comps) == sorted(["c1", "c2", "c5", "c6", "c8", "c11"])


def test_a_subject_without_a_position_has_no_comps():
    found = comps.select_comps(Subject(None, None, 1_500, 3, None), [sale(1, 0.1, RECENT)], TODAY)
    assert found.comps == ()
    assert found.note.startswith("N/A: ")


def test_outliers_beyond_two_standard_deviations():
    # $/sqft: seven at 100, one at 300 -> mean 125, population sd sqrt(4375) = 66.14; |300 - 125| = 175 > 132.3
    sales = [sale(i, 0.1, RECENT, sqft=1_500, price=150_000) for i in range(7)]
    sales.append(sale(7, 0.2, RECENT, sqft=1_500, price=450_000))
    found = comps.select_comps(SUBJECT, sales, TODAY)
    assert comps.outliers(found.comps) == {"c7"}
    assert "c7" not in comps.default_pins(found.comps)
    assert len(comps.default_pins(found.comps)) == 7
    # five values can never lie 2 sd out: (n - 1) / sqrt(n) = 1.79
    few = comps.select_comps(SUBJECT, [sale(i, 0.1, RECENT, price=p) for i, p in
                                       enumerate((150_000, 150_000, 150_000, 150_000, 900_000))], TODAY)
    assert comps.outliers(few.comps) == frozenset()


def test_arv_is_the_median_per_sqft_of_the_pinned_sales_times_the_living_area():
    # $/sqft 200, 210, 250 -> median 210; 25th/75th percentile (inclusive) 205 and 230
    pinned = comps.select_comps(SUBJECT, [sale(1, 0.1, RECENT, price=300_000), sale(2, 0.1, RECENT, price=315_000),
                                          sale(3, 0.1, RECENT, price=375_000)], TODAY).comps
    arv = comps.pinned_arv(1_400, pinned)
    assert (arv.value, arv.low, arv.high, arv.count) == (294_000, 287_000, 322_000, 3)
    assert arv.basis == "Median $/sqft of 3 pinned sales x 1,400 sqft ($210/sqft)"
    one = comps.pinned_arv(1_400, pinned[:1])
    assert (one.value, one.low, one.high, one.count) == (280_000, 280_000, 280_000, 1)
    assert one.basis == "Median $/sqft of 1 pinned sale x 1,400 sqft ($200/sqft)"
    assert comps.pinned_arv(1_400, ()) is None
    assert comps.pinned_arv(None, pinned) is None


@pytest.mark.parametrize("raw, kind", [
    ("01 ONE FAMILY DWELLINGS", "Single Family"), ("02 TWO FAMILY DWELLINGS", "Multi-Family"),
    ("13 CONDOS - ELEVATOR APARTMENTS", "Condo"), ("Single Family", "Single Family"), ("Townhouse", "Townhouse"),
    ("Multi-Family", "Multi-Family"), ("Manufactured", "Manufactured"), ("", None), (None, None),
    ("22 STORE BUILDINGS", None),
])
def test_property_type_names(raw, kind):
    assert comps.property_type(raw) == kind
