"""Public-record addresses in reading case (records.rules_address_display)."""

import pytest

from marketplace.features.records.rules_address_display import display_city, display_street
from marketplace.features.marketplace.rules import mask_address


@pytest.mark.parametrize("published, unit, shown", [
    ("0466 ROUNDVIEW ROAD", None, "466 Roundview Road"),
    ("0107 S ADDISON ST", None, "107 S Addison St"),
    ("1730 K ST NW", None, "1730 K St NW"),
    ("805 E 22ND ST", None, "805 E 22nd St"),
    ("1ST AVE", None, "1st Ave"),
    ("603 S 03RD ST", None, "603 S 3rd St"),
    ("10142 NW 50TH ST", None, "10142 NW 50th St"),
    ("1409-13 N 76TH ST", "501", "1409-13 N 76th St Unit 501"),
    ("3220-A THE ALAMEDA", None, "3220-A The Alameda"),
    ("847 BRUNSWICK RD APT 2A", None, "847 Brunswick Rd Apt 2A"),
    ("12 MAIN ST", "APT 2B", "12 Main St Apt 2B"),
    ("12 MAIN ST", "#2", "12 Main St #2"),
    ("76 CRANBROOK DR, #114", None, "76 Cranbrook Dr, #114"),
    ("2201 MCHENRY ST", None, "2201 McHenry St"),
    ("1 O'NEILL WAY", None, "1 O'Neill Way"),
    ("P.O. BOX 11914", None, "P.O. Box 11914"),
    ("PO BOX 44", None, "PO Box 44"),
    ("612 1/2 EDMONDSON AVE", None, "612 1/2 Edmondson Ave"),
    ("0000 MAIN ST", None, "0 Main St"),
    # Already in reading case (generated leads, BatchData): unchanged.
    ("7953 Robin Pl", None, "7953 Robin Pl"),
    ("15 DeKalb Ave", None, "15 DeKalb Ave"),
    ("", None, ""),
    (None, None, ""),
])
def test_display_street(published, unit, shown):
    assert display_street(published, unit) == shown


@pytest.mark.parametrize("published, shown", [
    ("CHICAGO", "Chicago"), ("chicago", "Chicago"), ("Chicago", "Chicago"), ("NEW YORK", "New York"),
    ("LUTHERVILLE TIMONIUM", "Lutherville Timonium"), ("MCKEESPORT", "McKeesport"), ("", ""), (None, ""),
])
def test_display_city(published, shown):
    assert display_city(published) == shown


def test_masking_still_hides_all_words_but_the_last():
    assert mask_address(display_street("0466 ROUNDVIEW ROAD")) == "•••• •••• Road"
