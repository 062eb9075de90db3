"""The headline numbers (marketplace.rules_headline): the card's ROI rests on the comps ARV when there are enough comps,
else on the estimate, and says which; a disagreement over 10 % is shown."""

from datetime import date

from marketplace.features.marketplace import rules_headline as headline
from marketplace.features.property.rules_comps import Comp, Subject
from marketplace.features.marketplace.rules_cards import card_data
from marketplace.features.property.rules import property_view, roi_mark
from tests.features.marketplace.test_lead_cards import lead
from types import SimpleNamespace
from datetime import datetime, timezone

TODAY = date(2026, 11, 27)


def sale(n: int, per_sqft: float, miles_north: float = 0.1) -> Comp:
    return Comp(comp_id=f"s{n}", address=f"{n} Oak St", city="Austin", state="TX", zip_code="78756",
                sale_date=date(2026, 9, 1), price=int(per_sqft * 1500), square_footage=1500, beds=3, baths=2.0,
                property_type="Single Family", latitude=30.0 + miles_north / 69.09, longitude=-97.0)


SUBJECT = Subject(30.0, -97.0, 1500, 3, "Single Family")


def test_enough_comps_means_the_comps_arv_and_its_roi():
    comps = headline.default_comps_arv(SUBJECT, [sale(1, 300), sale(2, 320), sale(3, 340)], TODAY)
    assert (comps.value, comps.count) == (480_000, 3)  # median $320/sqft x 1,500 sqft
    cols = headline.columns(asking_price=400_000, market_value=420_000, estimate_arv=560_000, rehab=40_000,
                            comps=comps)
    assert cols == {"comps_arv": 480_000, "comps_count": 3, "roi_basis": "comps", "roi": 9.1,
                    "is_high_roi": False}
    assert headline.profit(estimate_arv=560_000, comps_arv=480_000, basis="comps", asking_price=400_000,
                           rehab=40_000) == 40_000


def test_fewer_than_three_comps_fall_back_to_the_estimate():
    comps = headline.default_comps_arv(SUBJECT, [sale(1, 300), sale(2, 320)], TODAY)
    assert comps.count == 2
    cols = headline.columns(asking_price=400_000, market_value=420_000, estimate_arv=560_000, rehab=40_000,
                            comps=comps)
    assert (cols["roi_basis"], cols["roi"]) == ("estimate", 27.3)


def test_a_negative_comps_roi_is_stored_as_such():
    comps = headline.CompsArv(360_000, 5)
    cols = headline.columns(asking_price=400_000, market_value=420_000, estimate_arv=560_000, rehab=40_000,
                            comps=comps)
    assert (cols["roi"], cols["is_high_roi"]) == (-18.2, False)


def test_disagreement_over_ten_percent_is_said():
    assert headline.disagreement(540_000, 632_000) == "Comps ARV $540,000 is 15% below the estimate"
    assert headline.disagreement(700_000, 600_000) == "Comps ARV $700,000 is 17% above the estimate"
    assert headline.disagreement(570_000, 632_000) == ""   # 9.8 % apart
    assert headline.disagreement(None, 632_000) == ""


def test_the_card_names_the_arv_its_roi_rests_on():
    comps = card_data(lead(roi=-1.1, arv=632_000, comps_arv=540_000, comps_count=6, roi_basis="comps"))
    assert (comps["roi_label"], comps["arv_term"], comps["arv"], comps["roi_tone"]) == (
        "ROI vs comps ARV", "Comps ARV", "$540,000", "negative")
    assert comps["arv_note"] == "Comps ARV $540,000 is 15% below the estimate"
    close = card_data(lead(arv=500_000, comps_arv=520_000, comps_count=4, roi_basis="comps"))
    assert close["arv_note"] == "ARV from 4 comparable sales (default selection)"
    estimate = card_data(lead(arv=410_000, comps_arv=300_000, comps_count=2, roi_basis="estimate"))
    assert (estimate["roi_label"], estimate["arv_term"], estimate["arv"], estimate["arv_note"]) == (
        "ROI vs estimated ARV", "Est. ARV", "$410,000", "ARV estimated: fewer than 3 comparable sales")
    old = card_data(lead())  # stored before the headline existed: its ROI is against the estimate
    assert (old["roi_label"], old["arv_note"]) == ("ROI vs estimated ARV", "ARV estimated: no comparable sales checked")


def _lead(**changes):
    base = dict(id="x", address="7953 Robin Pl", city="Austin", state="TX", zip_code="78756", lead_type="Probate",
                source="Probate Court", asking_price=417_000, zestimate=560_000, arv=632_000, rehab_estimate=44_100,
                roi=37.1, beds=3, baths=2.0, square_footage=1800, confidence_score=80, primary_image_url=None,
                image_urls=[], raw_data={}, images_fetch_status="no_images", is_active=True, scrape_id=None,
                comps_arv=None, comps_count=0, roi_basis="")
    return SimpleNamespace(**{**base, **changes})


UNLOCK = SimpleNamespace(unlocked_at=datetime(2026, 11, 20, tzinfo=timezone.utc), credit_cost=100,
                         purchase_type="credits")


def test_the_property_page_uses_the_same_arv_profit_and_says_the_card_uses_the_default_selection():
    view = property_view(_lead(roi=17.1, comps_arv=540_000, comps_count=6, roi_basis="comps"), UNLOCK)
    d = view.details
    assert (d["arv_term"], d["arv"], d["profit_label"], d["profit_value"], d["roi"]) == (
        "Comps ARV", "$540,000", "Potential Profit", "$78,900", "17.1%")
    assert d["arv_note"] == "Comps ARV $540,000 is 15% below the estimate"
    assert view.hints["roi_label"] == "ROI vs comps ARV"
    assert "default selection" in view.hints["arv_basis"] and "uses your pins" in view.hints["arv_basis"]
    assert "$632,000" in view.hints["arv_basis"]
    est = property_view(_lead(), UNLOCK)
    assert (est.details["arv"], est.details["arv_term"], est.details["arv_note"], est.hints["roi_label"]) == (
        "$632,000", "Est. ARV", "", "ROI vs estimated ARV")


def test_an_roi_of_n_a_is_never_at_or_below_15_percent():
    # The badge read "N/A" beside "At or below 15%": no figure is neither above nor below the mark.
    view = property_view(_lead(roi=None, arv=None), UNLOCK)
    assert (view.details["roi"], view.details["roi_mark"]) == ("N/A", "No ROI figure: a number it needs is missing")
    assert roi_mark(15.0) == "At or below 15%" and roi_mark(15.1) == "Above the 15% mark"
    assert roi_mark(-3.0) == "At or below 15%"


def test_the_developer_export_gives_the_arv_its_roi_rests_on():
    from datetime import datetime as dt
    from marketplace.features.explorer.rules import CSV_COLUMNS, csv_row
    row = {"id": "x", "created_at": dt(2026, 11, 27), "is_active": True, "address": "1 A St", "city": "Austin",
           "state": "TX", "zip_code": "78756", "lead_type": "Probate", "source": "s", "asking_price": 417_000,
           "zestimate": 560_000, "arv": 632_000, "rehab_estimate": 44_100, "roi": 17.1, "comps_arv": 540_000,
           "roi_basis": "comps"}
    cells = dict(zip(CSV_COLUMNS, csv_row(row)))
    assert (cells["ARV"], cells["ROI (%)"]) == ("540000", "17.1")
    assert dict(zip(CSV_COLUMNS, csv_row({**row, "roi_basis": "estimate"})))["ARV"] == "632000"
