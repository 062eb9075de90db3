"""Motivation score, its reasons and the lead type of a public-record property (issue 23)."""

from datetime import date

import pytest

from marketplace.platform.leads import LEAD_TYPES
from marketplace.features.records.rules_motivation import (
    LEAD_TYPE_ORDER,
    Motivation,
    SignalFacts,
    lead_type_for,
    motivation,
)
from marketplace.features.records.rules import SIGNAL_KINDS

TODAY = date(2026, 11, 25)


def tax(amount=None, years=None, as_of=date(2016, 7, 1)):
    # Shape of phl-tax-delinquencies: extract of July 2016, amount and number of years owed.
    return SignalFacts("tax_delinquent", as_of, amount_owed=amount, years_owed=years)


def sale(sale_date, sale_type="sheriff", amount=None):
    return SignalFacts("sale_list", date(2026, 6, 1), amount_owed=amount, sale_date=sale_date, sale_type=sale_type)


def vacant(since):
    return SignalFacts("vacant", since, notice_date=since)


def violation(issued):
    return SignalFacts("code_violation", issued, notice_date=issued)


def test_the_issue_example_hand_computed():
    signals = [tax(12_400, 6), sale(date(2026, 12, 3)), vacant(date(2011, 3, 7))]
    result = motivation(signals, market_value=40_000, today=TODAY)
    # owed 12,400 * 100 // 40,000 = 31 % -> min(30, 31) = 30
    # sheriff sale Dec 3 is 8 days after Nov 25 -> 0-30 days -> 30
    # vacant since Mar 7, 2011: 15 full years -> min(20, 10 + 2 * 15) = 20
    # 6 years owed -> min(15, 3 * 6) = 15
    # 3 kinds -> 5 * (3 - 1) = 10
    # 30 + 30 + 20 + 15 + 10 = 105 -> capped at 100
    assert result == Motivation(100, (
        "Owes $12,400 in property tax, 31% of the market value",
        "Sheriff sale on Dec 3, 2026, in 8 days",
        "Vacant since Mar 7, 2011 (15 years)",
        "Property tax owed for 6 years",
        "3 distress signals (tax delinquent, on a sale list, vacant)",
    ))


def test_a_tax_delinquency_alone_hand_computed():
    # 2,150 * 100 // 86,000 = 2 % -> 2 points; 2 years -> 6 points; one kind -> no count points. 2 + 6 = 8
    result = motivation([tax(2_150, 2)], market_value=86_000, today=TODAY)
    assert result.score == 8
    assert result.reasons == ("Property tax owed for 2 years", "Owes $2,150 in property tax, 2% of the market value")


def test_without_a_market_value_the_debt_scores_by_the_thousand():
    # 12,400 // 1,000 = 12 points (at most 15); 6 years -> 15; 15 + 12 = 27
    result = motivation([tax(12_400, 6)], market_value=None, today=TODAY)
    assert result.score == 27
    assert result.reasons == ("Property tax owed for 6 years",
                              "Owes $12,400 in property tax (no market value to compare)")
    assert motivation([tax(90_000)], market_value=None, today=TODAY).score == 15


def test_the_largest_debt_counts_once():
    # A tax delinquency and the tax sale of the same debt: max(12,400, 9,000) -> 31 % -> 30, not 30 + 22
    signals = [tax(12_400), sale(date(2027, 6, 1), "tax", amount=9_000)]
    result = motivation(signals, market_value=40_000, today=TODAY)
    # 30 (owed) + 5 (sale 188 days away) + 5 (2 kinds) = 40
    assert result.score == 40
    assert result.reasons[0] == "Owes $12,400 in property tax, 31% of the market value"
    assert "Tax sale on Jun 1, 2027, in 188 days" in result.reasons


@pytest.mark.parametrize(("sale_date", "points", "words"), [
    (date(2026, 11, 25), 30, "today"),
    (date(2026, 11, 26), 30, "in 1 day"),
    (date(2026, 12, 25), 30, "in 30 days"),
    (date(2026, 12, 26), 20, "in 31 days"),
    (date(2027, 2, 23), 20, "in 90 days"),
    (date(2027, 2, 24), 10, "in 91 days"),
    (date(2027, 5, 24), 10, "in 180 days"),
    (date(2027, 5, 25), 5, "in 181 days"),
])
def test_days_to_the_sale_at_every_boundary(sale_date, points, words):
    result = motivation([sale(sale_date)], market_value=None, today=TODAY)
    assert result.score == points
    assert result.reasons == (f"Sheriff sale on {sale_date:%b} {sale_date.day}, {sale_date.year}, {words}",)


def test_a_sale_already_held_no_longer_scores():
    result = motivation([sale(date(2026, 7, 7))], market_value=None, today=TODAY)
    assert result == Motivation(0, ())


def test_the_nearest_upcoming_sale_counts_not_a_past_one():
    result = motivation([sale(date(2026, 7, 7)), sale(date(2027, 1, 4))], market_value=None, today=TODAY)
    assert result.reasons == ("Sheriff sale on Jan 4, 2027, in 40 days",)
    assert result.score == 20


def test_a_sale_list_without_a_date():
    result = motivation([sale(None, "tax")], market_value=None, today=TODAY)
    assert result == Motivation(10, ("Listed for tax sale, no sale date published",))


def test_vacancy_age():
    # Nov 26, 2024 -> 1 full year on Nov 25, 2026: 10 + 2 = 12
    assert motivation([vacant(date(2024, 11, 26))], market_value=None, today=TODAY) == Motivation(
        12, ("Vacant since Nov 26, 2024 (1 year)",))
    # the earliest date counts: 2001 -> 25 years -> 10 + 50 capped at 20
    result = motivation([vacant(date(2023, 9, 1)), vacant(date(2001, 4, 2))], market_value=None, today=TODAY)
    assert result.score == 20
    assert result.reasons == ("Vacant since Apr 2, 2001 (25 years)",)
    assert motivation([SignalFacts("vacant", None)], market_value=None, today=TODAY) == Motivation(
        10, ("Vacant (no date on record)",))
    # under a year: the vacancy's 10, its age in months
    assert motivation([vacant(date(2026, 3, 4))], market_value=None, today=TODAY) == Motivation(
        10, ("Vacant since Mar 4, 2026 (8 months)",))


def delinquent(first_year, years=None):
    # Shape of phl-tax-delinquencies: the oldest year owed read as January 1 of that year.
    return SignalFacts("tax_delinquent", date(2016, 7, 1), years_owed=years, delinquent_since=date(first_year, 1, 1))


@pytest.mark.parametrize(("since", "points", "reason"), [
    (date(2026, 5, 1), 0, None),                                  # under a year: no points, no reason
    (date(2025, 11, 26), 0, None),                                # 11 months
    (date(2025, 11, 25), 2, "Open since Nov 25, 2025 (1 year)"),  # 1 full year -> 2
    (date(2022, 11, 26), 6, "Open since Nov 26, 2022 (3 years)"),
    (date(2021, 11, 25), 10, "Open since Nov 25, 2021 (5 years)"),  # 5 years: the strong reason, 10
    (date(2001, 1, 1), 10, "Open since Jan 1, 2001 (25 years)"),    # capped at 10
])
def test_time_open_scores_two_points_a_year_up_to_ten(since, points, reason):
    result = motivation([violation(since)], market_value=None, today=TODAY)
    assert result.score == 5 + points  # 5 for the violation itself
    violation_reason = f"1 code violation, the latest on {since:%b} {since.day}, {since.year}"
    expected = [(5, violation_reason)] + ([(points, reason)] if reason else [])
    assert result.reasons == tuple(text for _, text in sorted(expected, key=lambda p: -p[0]))  # strongest first


def test_a_delinquency_open_longest_scores_by_its_first_tax_year():
    # first year owed 1978 -> 48 years on Nov 25, 2026 -> 10 points; 2 years owed -> 6. 10 + 6 = 16
    result = motivation([delinquent(1978, years=2)], market_value=None, today=TODAY)
    assert result == Motivation(16, ("Delinquent since tax year 1978 (48 years)", "Property tax owed for 2 years"))
    # years owed without a first year owed: nothing is derived from the count
    assert motivation([tax(years=2)], market_value=None, today=TODAY) == Motivation(
        6, ("Property tax owed for 2 years",))


def test_only_the_longest_open_item_counts_and_a_vacancy_keeps_its_own_date():
    # delinquent since 1990 is older than the vacancy of 2024: it names the time open (10 points);
    # the vacancy scores its 10 with its own date; 2 kinds -> 5. 10 + 10 + 5 = 25
    result = motivation([vacant(date(2024, 11, 26)), delinquent(1990)], market_value=None, today=TODAY)
    assert result == Motivation(25, (
        "Vacant since Nov 26, 2024 (1 year)",
        "Delinquent since tax year 1990 (36 years)",
        "2 distress signals (tax delinquent, vacant)",
    ))
    # the vacancy older: its time open joins its reason, nothing for the delinquency's: 20 + 5 = 25
    result = motivation([vacant(date(1985, 3, 4)), delinquent(1990)], market_value=None, today=TODAY)
    assert result == Motivation(25, ("Vacant since Mar 4, 1985 (41 years)",
                                     "2 distress signals (tax delinquent, vacant)"))


def test_the_list_day_is_not_the_vacancy_date():
    # a vacancy list without notice dates (Philadelphia's indicators): as_of is the list's day, not the
    # day the building became vacant
    assert motivation([SignalFacts("vacant", date(2024, 6, 24))], market_value=None, today=TODAY) == Motivation(
        10, ("Vacant (no date on record)",))


def test_foreclosure_and_code_violations():
    result = motivation(
        [SignalFacts("foreclosure", date(2026, 7, 7), amount_owed=150_000, notice_date=date(2025, 2, 10)),
         violation(date(2023, 9, 1)), violation(date(2022, 1, 5)), violation(date(2021, 3, 3))],
        market_value=120_000, today=TODAY)
    # owed 150,000 * 100 // 120,000 = 125 % -> 30; foreclosure 20; the oldest violation open since
    # Mar 3, 2021: 5 full years -> min(10, 2 * 5) = 10; 3 violations -> min(10, 15) = 10;
    # 2 kinds -> 5. 30 + 20 + 10 + 10 + 5 = 75
    assert result.score == 75
    assert result.reasons == (
        "Owes $150,000 on the foreclosed debt, 125% of the market value",
        "Foreclosure on record since Feb 10, 2025",
        "Open since Mar 3, 2021 (5 years)",
        "3 code violations, the latest on Sep 1, 2023",
        "2 distress signals (foreclosure, code violation)",
    )


def test_no_signals_scores_zero_and_unknown_kinds_are_refused():
    assert motivation([], market_value=100_000, today=TODAY) == Motivation(0, ())
    with pytest.raises(ValueError):
        motivation([SignalFacts("assessment", TODAY)], market_value=None, today=TODAY)


@pytest.mark.parametrize("market_value", [None, 40_000])
def test_more_owed_never_scores_lower(market_value):
    scores = [motivation([tax(amount, 3)], market_value=market_value, today=TODAY).score
              for amount in range(0, 60_001, 500)]
    assert scores == sorted(scores)
    assert scores[-1] > scores[0]


def test_more_signals_never_score_lower():
    pool = [tax(3_000, 2), sale(date(2027, 1, 4)), vacant(date(2019, 5, 1)), violation(date(2024, 2, 2)),
            SignalFacts("foreclosure", date(2026, 3, 1)), sale(date(2026, 12, 1)), violation(date(2025, 1, 1))]
    previous = 0
    for count in range(len(pool) + 1):
        score = motivation(pool[:count], market_value=90_000, today=TODAY).score
        assert 0 <= score <= 100
        assert score >= previous
        previous = score
    assert previous == 100


def test_lead_type_is_the_strongest_signal():
    assert lead_type_for(["vacant", "tax_delinquent", "sale_list"]) == "Auction"
    assert lead_type_for(["tax_delinquent", "foreclosure"]) == "Pre-Foreclosure"
    assert lead_type_for(["vacant", "tax_delinquent", "code_violation"]) == "Tax Delinquent"
    assert lead_type_for(["code_violation", "vacant"]) == "Vacancy"
    # a code violation is supporting only: alone it makes no lead
    assert lead_type_for(["code_violation"]) is None
    assert lead_type_for([]) is None


def test_the_lead_type_order_uses_the_products_vocabulary():
    kinds = [kind for kind, _ in LEAD_TYPE_ORDER]
    assert set(kinds) == set(SIGNAL_KINDS) - {"code_violation"}
    assert all(lead_type in LEAD_TYPES for _, lead_type in LEAD_TYPE_ORDER)


def test_an_inheritance_is_a_probate_lead_labelled_as_a_deed_based_proxy():
    inherited = SignalFacts("probate", date(2026, 11, 25), notice_date=date(2025, 8, 14))
    result = motivation([inherited], market_value=None, today=TODAY)
    assert result == Motivation(
        score=15,
        reasons=("Inherited: the owner acquired it by inheritance on Aug 14, 2025 (deed-based probate proxy)",),
    )
    undated = motivation([SignalFacts("probate", None)], market_value=None, today=TODAY)
    assert undated.reasons == (
        "Inherited: the owner acquired it by inheritance (deed date not published; deed-based probate proxy)",)
    # below a foreclosure, above a tax delinquency and a vacancy
    assert lead_type_for(["vacant", "probate", "tax_delinquent"]) == "Probate"
    assert lead_type_for(["probate", "foreclosure"]) == "Pre-Foreclosure"
    # counted as a distress signal with the others: 20 + 15 + 5 for the second kind
    both = motivation([SignalFacts("foreclosure", date(2026, 3, 1)), inherited], market_value=None, today=TODAY)
    assert both.score == 40
    assert both.reasons[-1] == "2 distress signals (foreclosure, inherited (probate proxy))"
