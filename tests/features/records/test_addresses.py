from marketplace.features.records.rules_addresses import (
    address_key,
    clean,
    normalize_street,
    same_street,
    split_unit,
    zip5,
)


def test_clean_folds_case_punctuation_and_spaces():
    assert clean("  5818 Woodcrest  Ave. ") == "5818 WOODCREST AVE"
    assert clean(None) == ""


def test_suffix_and_direction_spellings_give_one_key():
    spellings = ["5818 Woodcrest Avenue", "5818 WOODCREST AVE.", "05818 woodcrest  ave", "5818 WOODCREST AV"]
    assert {address_key(s) for s in spellings} == {"5818 WOODCREST AVE"}
    assert normalize_street("9332 South LaSalle Street") == "9332 S LASALLE ST"
    assert normalize_street("9332 S LASALLE ") == "9332 S LASALLE"
    assert normalize_street("100 Main Street North") == "100 MAIN ST N"


def test_a_direction_inside_a_street_name_is_kept():
    assert normalize_street("1200 West North Avenue") == "1200 W NORTH AVE"


def test_unit_is_split_off_and_kept_apart():
    assert split_unit("12 Main St Apt 3B") == ("12 MAIN ST", "3B")
    assert split_unit("12 Main St #4") == ("12 MAIN ST", "4")
    assert split_unit("12 Main St", "Unit 7") == ("12 MAIN ST", "7")
    assert split_unit("12 Main St") == ("12 MAIN ST", None)
    assert address_key("12 Main Street Apt 3B") == "12 MAIN ST#3B"
    assert address_key("12 MAIN ST", "3B") == "12 MAIN ST#3B"
    assert address_key("12 Main St") != address_key("12 Main St Unit 1")


def test_empty_street_has_no_key():
    assert address_key(None) == "" and address_key("  ") == ""


def test_zip5():
    assert zip5("19131-2201") == "19131"
    assert zip5(" 08330") == "08330"
    assert zip5("1913") is None and zip5("ABCDE") is None and zip5(None) is None


def test_same_street_ignores_spelling_and_units():
    assert same_street("5818 Woodcrest Avenue", "5818 WOODCREST AVE APT 1")
    assert not same_street("5818 Woodcrest Ave", "PO BOX 12")
    assert not same_street(None, None)


def test_zip_for_point_takes_the_nearest_zip_centre():
    from marketplace.features.records.rules_addresses import zip_for_point

    # 9332 S LaSalle St, Chicago (the Chicago vacant-buildings sample): ZIP 60620.
    assert zip_for_point(41.72433163710899, -87.62766855145455) == "60620"
    assert zip_for_point(41.72433163710899, -87.62766855145455, "IL") == "60620"
    assert zip_for_point(41.72433163710899, -87.62766855145455, "PA") is None


def test_zip_for_point_refuses_far_or_invalid_points():
    from marketplace.features.records.rules_addresses import zip_for_point

    assert zip_for_point(30.0, -40.0) is None  # mid-Atlantic
    assert zip_for_point(None, -87.6) is None
    assert zip_for_point(float("nan"), 1.0) is None
    assert zip_for_point(123.0, 1.0) is None


def test_zip_city_state():
    from marketplace.features.records.rules_addresses import zip_city_state

    assert zip_city_state("19131") == ("Philadelphia", "PA")
    assert zip_city_state("00000") is None and zip_city_state("abc") is None
