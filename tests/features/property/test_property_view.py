"""The display values of the property page (marketplace.features.property.rules)."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone

import pytest

from marketplace.platform.models import Lead, UserLead
from marketplace.platform.pricing import potential_profit as profit
from marketplace.features.property.rules import format_unlocked_at, property_view
from marketplace.platform.texts import IMAGE_STATUS_TEXT
from marketplace.features.property.state import lead_id_from_path
from tests import factories


def lead(**fields) -> Lead:
    return factories.lead(address="12 Elm Street", **fields)


UNLOCK = UserLead(user_id=uuid.uuid4(), lead_id=uuid.uuid4(), credit_cost=120, purchase_type="credits",
                  unlocked_at=datetime(2026, 1, 9, 0, 7, tzinfo=timezone.utc))


def test_profit_is_arv_minus_asking_minus_rehab():
    assert profit(350_000, 200_000, 30_000) == 120_000
    assert profit(250_000, 300_000, 20_000) == -70_000
    assert profit(None, 1, 1) is None and profit(1, None, 1) is None and profit(1, 1, None) is None


@pytest.mark.parametrize(
    ("fields", "label", "value", "kind"),
    [({}, "Potential Profit", "$120,000", "profit"),
     ({"arv": 250_000, "asking_price": 300_000, "rehab_estimate": 20_000}, "Potential Loss", "$70,000", "loss"),
     ({"arv": 230_000, "asking_price": 200_000, "rehab_estimate": 30_000}, "Potential Profit", "$0", "profit"),
     ({"rehab_estimate": None}, "Potential Profit", "N/A", "unknown")],
)
def test_profit_or_loss(fields, label, value, kind):
    view = property_view(lead(**fields), UNLOCK)
    assert (view.details["profit_label"], view.details["profit_value"], view.profit_kind) == (label, value, kind)


@pytest.mark.parametrize(("roi", "high", "text"), [(15.1, True, "15.1%"), (15.0, False, "15.0%"),
                                                     (3.2, False, "3.2%"), (None, False, "N/A")])
def test_roi_is_emphasised_only_above_15(roi, high, text):
    view = property_view(lead(roi=roi), UNLOCK)
    assert view.roi_high is high and view.details["roi"] == text


def test_display_strings():
    view = property_view(lead(baths=2.5, zestimate=None, beds=None, confidence_score=None), UNLOCK)
    d = view.details
    assert (d["asking"], d["market_value"], d["arv"], d["rehab"]) == ("$200,000", "N/A", "$350,000", "$30,000")
    assert (d["beds"], d["baths"], d["sqft"]) == ("N/A", "2.5", "1,850")
    assert d["place"] == "Austin, TX 78701"
    assert d["confidence_text"] == "85/100" and view.confidence == 85
    assert d["unlocked_at"] == "Jan 9, 2026, 12:07 AM UTC" == format_unlocked_at(UNLOCK.unlocked_at)
    assert (d["credits_paid"], d["purchase_type"]) == ("120 credits", "Credits")
    assert property_view(lead(baths=2.0), UNLOCK).details["baths"] == "2"
    # In the browser's zone, with its abbreviation.
    assert property_view(lead(), UNLOCK, zone_name="America/Los_Angeles").details["unlocked_at"] == (
        "Jan 8, 2026, 4:07 PM PST")


PHOTOS = [f"https://photos.zillowstatic.com/fp/{n}.jpg" for n in range(6)]


def test_images_at_most_4_in_the_gallery_with_the_rest_counted():
    view = property_view(lead(image_urls=PHOTOS, primary_image_url=PHOTOS[0]), UNLOCK)
    assert view.images == PHOTOS and view.more_count == 2 and view.details["image_total"] == "6"
    view = property_view(lead(image_urls=PHOTOS[:4], primary_image_url=PHOTOS[0]), UNLOCK)
    assert view.more_count == 0


def test_only_known_hosts_and_primary_first():
    view = property_view(lead(image_urls=["https://evil.example/a.jpg", PHOTOS[1]], primary_image_url=PHOTOS[0]),
                         UNLOCK)
    assert view.images == PHOTOS[:2]


def test_a_demo_lead_shows_one_labelled_illustration_counted_as_no_image():
    """Issue 24 #2 and #3: drawings are never the property's images; demo data says so."""
    urls = [f"/api/images/house/k-3b-1450f/{n}.svg" for n in range(6)]
    view = property_view(lead(image_urls=urls, primary_image_url=urls[0], raw_data={"generated": True}), UNLOCK)
    assert view.images == urls[:1] and view.more_count == 0 and view.illustrations
    d = view.details
    assert d["image_total"] == "0"
    assert d["picture_note"] == d["picture_alt"] == d["gallery_count"] == "Illustration, not a photo of this property"
    assert d["provenance"] == "Demo data (generated)"
    # its source was invented with it: never shown as a record office it came from
    assert d["source"] == "County Probate Records (invented for the demo, not a record)"
    # Photos and a drawing: the photos are shown and counted, the drawing is not.
    view = property_view(lead(image_urls=[urls[0], *PHOTOS[:5]], primary_image_url=urls[0]), UNLOCK)
    assert view.images == PHOTOS[:5] and view.more_count == 1 and view.details["picture_note"] == ""
    assert view.details["provenance"] == ""
    assert view.details["source"] == "County Probate Records"


def test_a_demo_lead_s_made_up_listing_url_is_never_linked():
    url = "https://www.zillow.com/homedetails/12-Elm-St/12345678_zpid/"
    view = property_view(lead(raw_data={"generated": True, "zillow_url": url}), UNLOCK)
    assert view.details["listing_label"] == "Search on Zillow" and view.details["listing_url"] != url


@pytest.mark.parametrize("status", ["pending", "failed", "no_images", "success"])
def test_placeholder_text_by_image_status(status):
    assert property_view(lead(images_fetch_status=status), UNLOCK).details["image_status"] == IMAGE_STATUS_TEXT[status]
    assert IMAGE_STATUS_TEXT["pending"] == "Images are being verified"


def test_listing_link_and_public_record():
    url = "https://www.redfin.com/TX/Austin/12-Elm-St/home/1234567"
    view = property_view(lead(raw_data={"redfin_url": url, "owner_name": "Mary Smith", "year_built": 1978}), UNLOCK)
    assert view.details["listing_url"] == url and view.details["listing_label"] == "View Listing"
    assert view.record == [{"label": "Owner", "value": "Mary Smith"}, {"label": "Year built", "value": "1978"}]
    view = property_view(lead(raw_data={"listing_url": "https://example.com/1"}), UNLOCK)
    assert view.details["listing_label"] == "Search on Zillow"
    assert view.details["listing_url"].startswith("https://www.zillow.com/homes/")


def test_archived_leads_are_flagged():
    assert property_view(lead(is_active=False), UNLOCK).archived is True


def test_a_lead_bought_in_a_scrape_was_never_listed_so_never_archived():
    """Issue 24 item 4: a scrape's leads are stored inactive; the page says where they came from."""
    scraped = property_view(lead(is_active=False, scrape_id=uuid.uuid4()), UNLOCK, zone_name="America/Chicago")
    assert scraped.archived is False
    assert scraped.details["scrape_note"] == \
        "Bought in a bulk scrape on Jan 8, 2026: never listed on the marketplace."  # the browser's day
    listed = property_view(lead(is_active=False), UNLOCK)
    assert listed.archived is True and listed.details["scrape_note"] == ""
    assert property_view(lead(), UNLOCK).details["scrape_note"] == ""


@pytest.mark.parametrize(("path", "lead_id"), [("/property/abc", "abc"), ("/property/abc/", "abc"),
                                               ("/property", ""), ("/other/abc", ""), ("/property/a/b", "")])
def test_lead_id_from_path(path, lead_id):
    assert lead_id_from_path(path) == lead_id


@pytest.mark.parametrize(("urls", "illustrations", "texts"), [
    (["/api/images/house/k/0.svg", "/api/images/house/k/1.svg"], True,
     ("Illustration", "Illustration, not a photo of this property", "View illustration", "View illustration",
      "Photos appear here as soon as they are available.")),
    (["https://photos.zillowstatic.com/fp/a.jpg"], False,
     ("All photos", "1 photo of 12 Elm Street", "View all photos", "View photo",
      "Photos appear here as soon as they are available.")),
    ([], False, ("All photos", "0 photos of 12 Elm Street", "View all photos", "View photo",
                 "Photos appear here as soon as they are available.")),
])
def test_pictures_are_illustrations_for_built_in_drawings_and_photos_otherwise(urls, illustrations, texts):
    view = property_view(lead(image_urls=urls, primary_image_url=urls[0] if urls else None), UNLOCK)
    d = view.details
    assert view.illustrations is illustrations
    assert (d["gallery_title"], d["gallery_count"], d["view_all"], d["view_one"], d["pictures_later"]) == texts


def test_the_public_record_section_names_every_value_s_basis():
    from datetime import date
    from types import SimpleNamespace

    from marketplace.features.property.rules import record_section

    chip = SimpleNamespace(label="Vacant", record_key="11CP015666", as_of=date(2023, 9, 18),
                           retrieved_at=datetime(2026, 11, 25, 12, 0, tzinfo=timezone.utc),
                           record_url="https://data.cityofchicago.org/resource/kc9i-wq85.json?docket_number=11CP015666",
                           source="Public record: City of Chicago, Vacant and Abandoned Buildings - Violations",
                           place="Cook County", status_list=False, listed_day=date(2023, 9, 18),
                           first_seen_at=datetime(2026, 11, 25, 12, 0, tzinfo=timezone.utc))
    owner = SimpleNamespace(name=None, mailing_address=None, mailing_city=None, mailing_state=None, mailing_zip=None)
    panel = SimpleNamespace(
        chips=[chip], closed=["Tax delinquent: no longer in the dataset as of 2026-11-25"], owner=owner,
        absentee_owner=False, out_of_state_owner=True, motivation_score=72, motivation_reasons=("Vacant since 2023",),
        parcel_id="20-17-123-004", year_built=None, property_class="",
        proof=SimpleNamespace(publisher="City of Chicago", title="Vacant and Abandoned Buildings - Violations",
                              record_key="11CP015666", retrieved_at=chip.retrieved_at),
        basis={"market_value": "Assessor 2025 value, indexed to Nov 2026", "arv": "ARV: 7 sales in 60609",
               "rehab": "Rehab: 1,200 sqft at $45/sqft", "roi": "ROI against the market value: no asking price",
               "confidence": ["No living area (-25)"]})
    section = record_section(panel)
    assert section.signals == [{"label": "Vacant", "record": "11CP015666", "as_of": "Sep 18, 2023",
                                "retrieved": "Nov 25, 2026, 12:00 PM UTC", "url": chip.record_url,
                                "source": "Public record: City of Chicago, Vacant and Abandoned Buildings - Violations",
                                "listed": "Cook County record of Sep 18, 2023 · first seen Nov 25, 2026, 12:00 PM UTC"}]
    assert section.source_line == ("Public record: City of Chicago, Vacant and Abandoned Buildings - Violations, "
                                   "record 11CP015666, retrieved Nov 25, 2026, 12:00 PM UTC")
    assert (section.owner, section.flags, section.motivation) == (
        {"name": "N/A", "mailing": "N/A"}, ["Out-of-state owner"], "72/100")
    assert section.facts == [{"label": "Parcel ID", "value": "20-17-123-004"}]
    assert section.hints["market_value_basis"] == "Assessor 2025 value, indexed to Nov 2026"
    assert section.hints["roi_label"] == "ROI vs market value"
    assert section.confidence_reasons == ["No living area (-25)"] and section.closed == panel.closed
    no_roi = record_section(SimpleNamespace(**{**panel.__dict__, "basis": {"roi": "N/A: no ARV"}}))
    assert (no_roi.hints["roi_label"], no_roi.hints["arv_basis"]) == ("Est. ROI", "N/A: no basis on record")
    assert record_section(None).shown is False
    # No mailing address on record: the flags are unknown, never "no"; a lender owner is bank-owned; the
    # mailing address and the class read in words.
    unknown = record_section(SimpleNamespace(**{**panel.__dict__, "absentee_owner": None, "out_of_state_owner": None,
                                                "bank_owned": True}))
    assert unknown.flags == ["Bank-owned (REO)", "Owner mailing address unknown"]
    mailed = SimpleNamespace(name="X", mailing_address="0417 E FAYETTE ST RM 1001", mailing_city="BALTIMORE",
                             mailing_state="MD", mailing_zip="21202")
    worded = record_section(SimpleNamespace(**{**panel.__dict__, "owner": mailed, "property_class": "01 ONE FAMILY DWELLINGS",
                                               "class_dataset": "nyc-dof-rolling-sales"}))
    assert worded.owner["mailing"] == "417 E Fayette St Rm 1001, Baltimore, MD 21202"
    assert {"label": "Property class", "value": "One family dwellings"} in worded.facts


@pytest.mark.parametrize(("raw", "shown"), [("2026-11-26", "Nov 26, 2026"), ("2026-03-04T00:00:00", "Mar 4, 2026"),
                                            ("last spring", "last spring")])
def test_a_records_filing_date_reads_in_the_pages_one_date_format(raw, shown):
    """The record's filing date once read '2026-11-26' beside 'Nov 27, 2026, 8:08 AM' on the same page."""
    view = property_view(lead(raw_data={"filing_date": raw, "county": "Ada County"}), UNLOCK)
    rows = {row["label"]: row["value"] for row in view.record}
    assert rows == {"County": "Ada County", "Filing date": shown}
