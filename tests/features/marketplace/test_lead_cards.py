"""A marketplace card's display values and its View Images dialog (SPEC 2, 5; issue 14)."""

from marketplace.platform.web.image_hosts import house_image_urls
from marketplace.features.marketplace.rules_cards import card_data, gallery_view, with_action
from marketplace.platform.texts import IMAGE_STATUS_TEXT

PHOTOS = [f"https://photos.zillowstatic.com/fp/{n}.jpg" for n in range(6)]


def lead(**changes) -> dict:
    base = {
        "id": "lead-1", "address": "12** Main St", "unlocked": False, "city": "Austin", "state": "TX",
        "zip_code": "78756", "lead_type": "Probate", "asking_price": 285_000, "zestimate": 330_000,
        "arv": 410_000, "rehab_estimate": 45_000, "roi": 24.2, "beds": 3, "baths": 2.5, "square_footage": 1450,
        "confidence": 92, "credit_cost": 150, "is_new": True, "is_high_roi": False, "images": PHOTOS,
        "image_status": "success",
    }
    return {**base, **changes}


def test_card_values_and_missing_ones_read_n_a():
    card = card_data(lead())
    assert (card["beds"], card["baths"], card["sqft"]) == ("3 bd", "2.5 ba", "1,450 sqft")
    assert (card["asking"], card["roi"], card["roi_tone"]) == ("$285,000", "24.2%", "positive")
    assert card["confidence_label"] == "Confidence 92 out of 100"
    bare = card_data(lead(beds=None, baths=None, square_footage=None, asking_price=None, roi=None))
    assert (bare["beds"], bare["baths"], bare["sqft"], bare["asking"], bare["roi"]) == (
        "beds N/A", "baths N/A", "sqft N/A", "N/A", "N/A")
    assert "—" not in "".join(str(v) for v in bare.values())


def test_listing_pictures_are_photos_and_drawings_illustrations():
    photos = card_data(lead())
    assert (photos["image_count"], photos["images_label"], photos["image_alt"]) == (
        4, "View Images (4)", "Photo of 12** Main St")
    assert gallery_view(photos).description == "Austin, TX 78756 · 4 photos"
    assert photos["has_picture"] and photos["picture_note"] == ""


def test_a_demo_lead_s_drawing_is_labelled_an_illustration_and_never_counted_as_an_image():
    """Issue 24 #2: one drawing, labelled, not 'View Images (4)'."""
    drawn = card_data(lead(images=house_image_urls("abc-3b-1450f", 1), image_status="no_images",
                           provenance="Demo data (generated)"))
    assert (drawn["image_count"], drawn["has_picture"], drawn["images_label"]) == (0, True, "View Illustration")
    assert drawn["image_alt"] == drawn["picture_note"] == "Illustration, not a photo of this property"
    assert drawn["images_aria"] == "View Illustration, 12** Main St"
    assert drawn["provenance"] == "Demo data (generated)"
    assert drawn["primary_image"] == "/api/images/house/abc-3b-1450f/0-400.jpg"
    view = gallery_view(drawn)
    assert view.description == "Austin, TX 78756 · Illustration, not a photo of this property"
    assert (view.primary.alt, view.more) == ("Illustration, not a photo of this property", [])
    # Older leads with several drawings still show one, and count none.
    many = card_data(lead(images=house_image_urls("abc", 4)))
    assert (many["image_count"], many["images_label"], len(gallery_view(many).more)) == (0, "View Illustration", 0)
    # A lead with photos and a drawing: the photos are its images, the drawing is not shown.
    mixed = card_data(lead(images=house_image_urls("abc", 1) + PHOTOS[:2]))
    assert (mixed["image_count"], mixed["images_label"], mixed["picture_note"]) == (2, "View Images (2)", "")
    assert gallery_view(mixed).description == "Austin, TX 78756 · 2 photos"
    assert card_data(lead())["provenance"] == ""


def test_image_status_text_is_the_property_pages():
    assert card_data(lead(images=[], image_status="pending"))["image_status"] == IMAGE_STATUS_TEXT["pending"]
    empty = card_data(lead(images=[], image_status="no_images"))
    assert (empty["image_status"], empty["images_label"]) == (IMAGE_STATUS_TEXT["no_images"], "No Images")
    assert gallery_view(empty).id == ""
    # With pictures, the text shows only once the picture fails to load.
    assert card_data(lead())["image_status"] == IMAGE_STATUS_TEXT["failed"]


def test_the_browser_gets_no_picture_list_and_the_action_by_who_looks():
    card = card_data(lead())
    view = with_action(card, signed_in=True, credits=100)
    assert not hasattr(view, "images")
    assert (view.action_kind, view.action_label, view.action_href) == (
        "insufficient", "Insufficient Credits - Buy More", "/purchase-credits")
    assert with_action(card, signed_in=True, credits=150).action_label == "Unlock for 150 credits"
    assert with_action(card, signed_in=False, credits=0).action_label == "Login"


def test_the_cards_button_is_the_unlock_quotes():
    card = card_data(lead())
    sub = with_action(card, signed_in=True, credits=0, subscribed=True, subscription_leads=1)
    assert (sub.action_kind, sub.action_label, sub.action_href) == ("subscription", "Unlock with Subscription", "")
    # Leads remaining on an ended subscription are not offered (the service refuses them too).
    assert with_action(card, signed_in=True, credits=0, subscribed=False, subscription_leads=1).action_kind == "insufficient"
    unlocked = with_action({**card, "unlocked": True}, signed_in=True, credits=0)
    assert (unlocked.action_label, unlocked.action_href) == ("View Details", f"/property/{card['id']}")


def test_a_public_record_card_shows_signal_and_owner_chips_and_its_roi_against_the_market_value():
    card = card_data(lead(asking_price=None, roi=31.5, signals=("Tax delinquent", "Vacant"), absentee_owner=True,
                          out_of_state_owner=False, motivation_score=72,
                          provenance="Public record: City of Chicago, Vacant and Abandoned Buildings - Violations"))
    assert (card["signals"], card["owner_flags"], card["motivation"]) == (
        "Tax delinquent|Vacant", "Absentee owner", "Motivation 72/100")
    assert (card["asking"], card["roi"], card["roi_label"]) == ("N/A", "31.5%",
                                                                "ROI vs estimated ARV at market value")
    listing = card_data(lead())
    assert (listing["signals"], listing["owner_flags"], listing["motivation"], listing["roi_label"]) == (
        "", "", "", "ROI vs estimated ARV")
    assert card_data(lead(asking_price=None, roi=None))["roi_label"] == "Est. ROI"  # N/A needs no basis


def test_one_count_formatter_for_beds_and_baths_everywhere():
    """Issue 24 #16: '3 ba' not '6.0 ba', '2.5 ba', a missing count in words ('baths N/A'); the bulk results and the
    property page use the same rule as the card."""
    from marketplace.features.marketplace.rules_cards import beds_baths_text, count_text, number_text
    from marketplace.features.scrape.state import result_row

    assert [count_text(v, "ba") for v in (6.0, 3, 2.5, None, 0.0)] == ["6 ba", "3 ba", "2.5 ba", "baths N/A", "0 ba"]
    assert [number_text(v) for v in (1850, 1850.0, 2.25, None)] == ["1,850", "1,850", "2.2", "N/A"]
    # A missing count says which one in words, never 'N/A ba'.
    assert beds_baths_text(8, None) == "8 bd / baths N/A"
    assert beds_baths_text(None, 2) == "beds N/A / 2 ba"
    assert count_text(None, "sqft") == "sqft N/A"
    assert result_row({"id": "x", "beds": 3, "baths": 6.0})["beds_baths"] == "3 bd / 6 ba"
    assert card_data(lead(baths=6.0))["baths"] == "6 ba"


def test_a_clicked_thumbnail_is_shown_large():
    """Issue 24 #16: View Images thumbnails open their picture large; the others stay thumbnails."""
    card = card_data(lead())
    first = gallery_view(card)
    assert (first.primary.index, [p.index for p in first.more]) == (0, [1, 2, 3])
    third = gallery_view(card, 2)
    assert third.primary.src == first.more[1].src and third.primary.alt == "Photo 3 of 12** Main St"
    assert [p.index for p in third.more] == [0, 1, 3]
    assert gallery_view(card, 9).primary.index == gallery_view(card, -1).primary.index == 0
