"""Values without a paid valuation service (issue 23): market value, ARV, rehab, ROI and confidence, each
with the basis the property page shows. Figures are real: Philadelphia OPA rows in ZIP 19134 (sales of
2022) and the FHFA annual HPI for ZIP3 191 (values copied from HPI_AT_BDL_ZIP3, 2017 release)."""

from datetime import date

import pytest

from marketplace.platform import pricing
from marketplace.features.records.rules import HpiPoint
from marketplace.features.property.rules_valuation import (
    Estimate,
    Sale,
    arv,
    confidence,
    index_forward,
    market_value,
    rehab,
    roi,
)

TODAY = date(2026, 11, 25)
HPI_191 = tuple(HpiPoint("fhfa-hpi-zip3", "191", year, index, change) for year, index, change in (
    (1975, 100.00, None), (2009, 564.07, -3.19), (2012, 528.27, -1.44), (2015, 567.28, 3.14),
    (2016, 592.31, 4.41)))
HPI_112 = (HpiPoint("fhfa-hpi-zip3", "112", 2016, 1312.38, 8.60),)


def opa(address, price, sold, sqft, zip_code="19134"):
    return Sale(price=price, sale_date=sold, square_footage=sqft, zip_code=zip_code, address=address)


# opa_properties_public_sample.csv, ZIP 19134, as published (sale_price, sale_date, total_livable_area)
MARTHA = opa("2756 MARTHA ST", 75_500, date(2022, 8, 22), 1_050)          # $71.90/sqft
E_ST = opa("3417 E ST", 84_000, date(2022, 10, 19), 1_040)                # $80.77/sqft
CLEMENTINE = opa("2135 E CLEMENTINE ST", 67_500, date(2022, 11, 7), 771)  # $87.55/sqft
TUSCULUM = opa("275 E TUSCULUM ST", 82_000, date(2022, 10, 9), 672)       # $122.02/sqft
WEIKEL = opa("3196 WEIKEL ST", 110_000, date(2022, 9, 20), 600)           # $183.33/sqft
RUSSELL = opa("953 E RUSSELL ST", 1, date(2022, 4, 19), 1_176)            # token: $1
BIRCH = opa("2155 E BIRCH ST", 1, date(2022, 10, 19), None)               # no living area
KENSINGTON = opa("3308 KENSINGTON AVE", 50_000, date(2020, 8, 11), 1_860)  # $26.88/sqft
ARV_DAY = date(2023, 3, 1)


# --- index_forward -------------------------------------------------------------------------------------

def test_index_forward_hand_computed():
    # 85,000 x 567.28 / 528.27 = 91,277.2 -> $91,000
    assert index_forward(85_000, date(2012, 6, 3), date(2015, 1, 1), HPI_191) == 91_000


def test_index_forward_stops_at_the_latest_published_year():
    # 85,000 x 592.31 (2016, the latest) / 564.07 (2009) = 89,255.6 -> $89,000
    assert index_forward(85_000, date(2009, 6, 3), TODAY, HPI_191) == 89_000


def test_index_forward_without_the_from_year_or_backwards_is_none():
    assert index_forward(85_000, date(2019, 6, 3), TODAY, HPI_191) is None   # after the data
    assert index_forward(85_000, date(1970, 1, 1), TODAY, HPI_191) is None   # before the series
    assert index_forward(85_000, date(2016, 1, 1), date(2012, 1, 1), HPI_191) is None
    assert index_forward(85_000, date(2012, 1, 1), TODAY, ()) is None
    with pytest.raises(ValueError):
        index_forward(85_000, date(2012, 1, 1), TODAY, HPI_191 + HPI_112)


# --- market_value ----------------------------------------------------------------------------------------

def value(**kwargs):
    base = dict(assessor_value=None, assessor_year=None, assessor_label="Philadelphia OPA", last_sale=None,
                hpi=HPI_191, today=TODAY)
    return market_value(**(base | kwargs))


def test_the_assessor_value_of_this_year_is_shown_as_published():
    assert value(assessor_value=69_300, assessor_year=2026) == Estimate(
        69_300, "Assessor 2026 market value (Philadelphia OPA)")


def test_an_assessor_value_after_the_index_ends_is_not_indexed_and_says_so():
    assert value(assessor_value=69_300, assessor_year=2023, last_sale=MARTHA) == Estimate(
        69_300, "Assessor 2023 market value (Philadelphia OPA), not indexed (FHFA HPI ZIP3 191 ends in 2016)")


def test_an_older_assessor_value_is_indexed_as_an_estimate():
    # 69,300 x 592.31 / 528.27 = 77,700.3 -> $78,000
    assert value(assessor_value=69_300, assessor_year=2012) == Estimate(
        78_000, "Assessor 2012 market value $69,300 (Philadelphia OPA), indexed with FHFA HPI ZIP3 191 to "
                "2016 (latest published); estimate")
    assert value(assessor_value=69_300, assessor_year=None).basis == (
        "Assessor market value (Philadelphia OPA, year not published)")


def test_else_the_last_sale_indexed_forward():
    last = opa("3308 KENSINGTON AVE", 85_000, date(2009, 6, 3), 1_860)
    # 85,000 x 592.31 / 564.07 = 89,255.6 -> $89,000
    assert value(last_sale=last) == Estimate(
        89_000, "Estimate from the last sale: $85,000 on Jun 3, 2009, indexed with FHFA HPI ZIP3 191 to 2016 "
                "(latest published)")
    # while the index is current, no "(latest published)"
    assert value(last_sale=last, today=date(2016, 12, 1)).basis.endswith("to 2016")


def test_a_last_sale_the_index_does_not_reach_is_shown_unindexed():
    assert value(last_sale=MARTHA) == Estimate(
        75_500, "Last sale (not indexed): $75,500 on Aug 22, 2022 (FHFA HPI ZIP3 191 ends in 2016); estimate")
    assert value(last_sale=MARTHA, hpi=()) == Estimate(
        75_500, "Last sale (not indexed): $75,500 on Aug 22, 2022 (no FHFA HPI for this ZIP3 area); estimate")
    assert value(last_sale=MARTHA, today=date(2022, 12, 1)) == Estimate(
        75_500, "Estimate from the last sale: $75,500 on Aug 22, 2022 (this year: nothing to index)")


def test_no_market_value_from_a_token_or_future_sale_or_nothing():
    na = Estimate(None, "N/A: no assessor value or market-price sale on record")
    assert value(last_sale=RUSSELL) == na                       # $1 deed
    assert value(last_sale=opa("X", 9_999, date(2012, 1, 1), None)) == na
    assert value(last_sale=opa("X", 15_000, date(2012, 1, 1), 1_600)) == na   # $9.38/sqft
    assert value(last_sale=opa("X", 90_000, date(2027, 1, 1), 1_000)) == na   # not yet held
    assert value() == na
    assert value(assessor_value=0, assessor_year=2024) == na


# --- arv -------------------------------------------------------------------------------------------------

def test_arv_hand_computed_from_real_19134_sales():
    sales = [MARTHA, E_ST, CLEMENTINE, TUSCULUM, WEIKEL, RUSSELL, BIRCH,
             opa("FAR AWAY", 500_000, date(2022, 10, 1), 1_000, zip_code="19103")]
    result = arv(square_footage=1_040, zip_code="19134", sales=sales, today=ARV_DAY)
    # $/sqft sorted: 71.905, 80.769, 87.549, 122.024, 183.333 (Russell is a $1 deed, Birch has no area,
    # 19103 is another ZIP). Median 87.549 x 1,040 = 91,051 -> $91,000.
    # Inclusive quartiles of 5: positions 1 and 3 -> 80.769 x 1,040 = 84,000; 122.024 x 1,040 = 126,905
    assert result == Estimate(
        91_000,
        "ARV: 5 sales in 19134 since Mar 1, 2022, median $88/sqft x 1,040 sqft (estimate); "
        "1 under $10,000 or $10/sqft excluded; 1 without living area excluded",
        low=84_000, high=127_000, sample_size=5, widened_steps=0)


def test_arv_widens_to_24_months_when_12_have_fewer_than_3():
    older = opa("2232 E CLEARFIELD ST", 58_000, date(2021, 9, 30), 888)   # $65.32/sqft, 17 months back
    result = arv(square_footage=1_040, zip_code="19134", sales=[CLEMENTINE, TUSCULUM, older], today=ARV_DAY)
    # 65.315, 87.549, 122.024: median 87.549 x 1,040 -> $91,000; quartiles 76.432, 104.787 -> 79,000; 109,000
    assert result == Estimate(
        91_000, "ARV: 3 sales in 19134 since Mar 1, 2021 (widened to 24 months: fewer than 3 in 12), "
                "median $88/sqft x 1,040 sqft (estimate)",
        low=79_000, high=109_000, sample_size=3, widened_steps=1)


def test_arv_widens_to_36_months_then_gives_up():
    result = arv(square_footage=1_040, zip_code="19134", sales=[CLEMENTINE, TUSCULUM, KENSINGTON], today=ARV_DAY)
    # 26.882, 87.549, 122.024: median 87.549 -> $91,000; quartiles 57.215, 104.787 -> 60,000; 109,000
    assert (result.value, result.low, result.high, result.sample_size, result.widened_steps) == (
        91_000, 60_000, 109_000, 3, 2)
    assert result.basis.startswith(
        "ARV: 3 sales in 19134 since Mar 1, 2020 (widened to 36 months: fewer than 3 in 24)")
    # Kensington sold Aug 11, 2020: 36 months before Sep 1, 2023 is Sep 1, 2020 -> only 2 usable sales
    none = arv(square_footage=1_040, zip_code="19134", sales=[CLEMENTINE, TUSCULUM, KENSINGTON, RUSSELL],
               today=date(2023, 9, 1))
    assert none == Estimate(None, "N/A: 2 usable recorded sales in 19134 in 36 months, 3 needed; "
                                  "1 under $10,000 or $10/sqft excluded", widened_steps=2)


def test_arv_window_boundary_is_exclusive():
    # exactly 12 months before Mar 1, 2023 is Mar 1, 2022: a sale on that day is outside the window
    edge = opa("EDGE", 90_000, date(2022, 3, 1), 1_000)
    result = arv(square_footage=1_000, zip_code="19134", sales=[CLEMENTINE, TUSCULUM, edge], today=ARV_DAY)
    assert result.widened_steps == 1


def test_arv_without_sales_or_living_area():
    assert arv(square_footage=1_040, zip_code="19134", sales=[], today=ARV_DAY) == Estimate(
        None, "N/A: 0 usable recorded sales in 19134 in 36 months, 3 needed", widened_steps=2)
    assert arv(square_footage=None, zip_code="19134", sales=[MARTHA, E_ST, WEIKEL], today=ARV_DAY) == Estimate(
        None, "N/A: no living area on record")
    assert arv(square_footage=0, zip_code="19134", sales=[MARTHA, E_ST, WEIKEL], today=ARV_DAY).value is None


def test_arv_ignores_future_sales_and_token_prices():
    future = [opa("F", 200_000, date(2023, 6, 1), 1_000) for _ in range(3)]
    token = [opa("T", 9_000, date(2022, 12, 1), 700), opa("T", 12_000, date(2022, 12, 1), 1_300)]
    result = arv(square_footage=1_000, zip_code="19134", sales=future + token + [MARTHA, E_ST, WEIKEL],
                 today=ARV_DAY)
    assert result.sample_size == 3
    assert result.basis.endswith("; 2 under $10,000 or $10/sqft excluded")


def test_arv_grows_with_the_living_area():
    sales = [MARTHA, E_ST, CLEMENTINE, TUSCULUM, WEIKEL]
    values = [arv(square_footage=sqft, zip_code="19134", sales=sales, today=ARV_DAY).value
              for sqft in range(500, 3_001, 250)]
    assert values == sorted(values)


# --- rehab -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("kinds", "year_built", "expected"), [
    # 1,040 x $15 = 15,600
    (["tax_delinquent"], 1962, Estimate(15_600, "Rehab estimate: light tier, $15/sqft x 1,040 sqft "
                                                "(tax delinquent; built 1962)")),
    # sale list -> medium, 1920 -> one up: heavy, 1,040 x $45 = 46,800
    (["sale_list", "tax_delinquent"], 1920, Estimate(46_800, "Rehab estimate: heavy tier, $45/sqft x 1,040 sqft "
                                                            "(sale list; built 1920, before 1950: one tier up)")),
    # vacant -> heavy, 1945 -> full, 1,040 x $60 = 62,400
    (["vacant", "foreclosure"], 1945, Estimate(62_400, "Rehab estimate: full tier, $60/sqft x 1,040 sqft "
                                                       "(vacant; built 1945, before 1950: one tier up)")),
    (["code_violation"], None, Estimate(46_800, "Rehab estimate: heavy tier, $45/sqft x 1,040 sqft "
                                                "(code violation; year built unknown)")),
    (["foreclosure"], 2071, Estimate(31_200, "Rehab estimate: medium tier, $30/sqft x 1,040 sqft "
                                             "(foreclosure; year built unknown)")),
    ([], 1950, Estimate(15_600, "Rehab estimate: light tier, $15/sqft x 1,040 sqft (no distress signal; "
                                "built 1950)")),
])
def test_rehab_tiers(kinds, year_built, expected):
    assert rehab(square_footage=1_040, kinds=kinds, year_built=year_built, today=TODAY) == expected


def test_rehab_without_living_area_and_rounding():
    assert rehab(square_footage=None, kinds=["vacant"], year_built=1920, today=TODAY) == Estimate(
        None, "N/A: no living area on record")
    # 771 x $60 = 46,260 -> $46,300
    assert rehab(square_footage=771, kinds=["vacant"], year_built=1920, today=TODAY).value == 46_300


# --- roi -------------------------------------------------------------------------------------------------

def test_roi_against_the_asking_price_when_there_is_one():
    # (91,000 - 60,000 - 15,600) / (60,000 + 15,600) = 15,400 / 75,600 = 20.37 % -> 20.4
    assert roi(asking_price=60_000, market_value=69_300, arv=91_000, rehab=15_600) == (
        20.4, "ROI against the asking price")
    assert pricing.compute_roi(91_000, 60_000, 15_600) == 20.4


def test_roi_against_the_market_value_without_an_asking_price():
    # (91,000 - 69,300 - 46,800) / (69,300 + 46,800) = -25,100 / 116,100 = -21.62 % -> -21.6
    assert roi(asking_price=None, market_value=69_300, arv=91_000, rehab=46_800) == (
        -21.6, "ROI against the market value: no asking price on public records")


def test_roi_is_na_with_a_missing_number():
    assert roi(asking_price=None, market_value=69_300, arv=None, rehab=46_800) == (None, "N/A: no ARV")
    assert roi(asking_price=None, market_value=None, arv=91_000, rehab=None) == (
        None, "N/A: no asking price or market value or rehab estimate")
    assert roi(asking_price=0, market_value=None, arv=91_000, rehab=0) == (None, "N/A: nothing invested")


# --- confidence ------------------------------------------------------------------------------------------

def score(**kwargs):
    base = dict(has_address=True, has_zip=True, has_sqft=True,
                market_value_basis="Assessor 2024 market value (Philadelphia OPA)", arv_sample_size=12,
                arv_widened_steps=0, newest_record_age_days=100)
    return confidence(**(base | kwargs))


def test_complete_recent_data_scores_100():
    assert score() == (100, ())


def test_confidence_hand_computed():
    # indexed last sale -10, 4 sales -10, widened once -10, newest record 3 years old 5 x (3 - 1) = -10
    # 100 - 40 = 60 -> costs 60 credits
    result = score(market_value_basis="Estimate from the last sale: $85,000 on Jun 3, 2009, indexed with FHFA",
                   arv_sample_size=4, arv_widened_steps=1, newest_record_age_days=3 * 365 + 10)
    assert result == (60, ("Market value estimated from an indexed last sale (-10)", "ARV from only 4 sales (-10)",
                           "ARV sales window widened to 24 months (-10)", "Newest record is 3 years old (-10)"))
    assert pricing.credit_cost_for_confidence(result[0]) == 60


def test_nothing_known_scores_zero():
    # 30 + 20 + 25 + 30 + 30 + 20 = 155 off 100 -> 0
    assert score(has_address=False, has_zip=False, has_sqft=False, market_value_basis="N/A: nothing",
                 arv_sample_size=0, arv_widened_steps=2, newest_record_age_days=None) == (0, (
                     "No street address (-30)", "No ZIP code (-20)", "No living area: no ARV or rehab estimate (-25)",
                     "No market value (-30)", "No ARV: too few recorded sales (-30)", "No dated record (-20)"))


@pytest.mark.parametrize(("days", "expected"), [(0, 100), (729, 100), (730, 95), (1_095, 90), (3_650, 70),
                                                (20_000, 70)])
def test_confidence_by_record_age(days, expected):
    # a 2016 extract read in 2026: 10 years -> 5 x 9 = 45, capped at 30
    assert score(newest_record_age_days=days)[0] == expected


def test_more_arv_sales_never_lower_the_confidence():
    scores = [score(arv_sample_size=n)[0] for n in range(0, 15)]
    assert scores == sorted(scores)
    assert (scores[0], scores[3], scores[5], scores[10]) == (70, 90, 95, 100)


def test_the_market_value_basis_must_be_one_market_value_writes():
    with pytest.raises(ValueError):
        score(market_value_basis="Zillow says so")
    for estimate in (value(assessor_value=69_300, assessor_year=2023), value(last_sale=MARTHA),
                     value(last_sale=opa("X", 85_000, date(2009, 6, 3), 1_000)), value()):
        assert 0 <= score(market_value_basis=estimate.basis)[0] <= 100


def test_arv_window_from_a_month_end():
    # 12 months before Feb 29, 2024 is Feb 28, 2023 (no Feb 29 in 2023)
    sales = [opa(f"S{i}", 100_000, date(2023, 6, i + 1), 1_000) for i in range(3)]
    result = arv(square_footage=1_000, zip_code="19134", sales=sales, today=date(2024, 2, 29))
    assert result == Estimate(100_000, "ARV: 3 sales in 19134 since Feb 28, 2023, median $100/sqft x 1,000 sqft "
                                       "(estimate)", low=100_000, high=100_000, sample_size=3)
