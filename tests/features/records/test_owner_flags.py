"""Owner flags from the owner's mailing address, the one-line owner blocks of reports, bank-owned owners."""

from datetime import date

import pytest

from marketplace.features.marketplace import rules_cards as lead_cards
from marketplace.features.scrape import rules_webhook as webhook
from marketplace.features.records.rules_owner_flags import (
    Mailing,
    is_bank_owned,
    mailing_from_block,
    owner_flags,
    record_mailing,
)
from marketplace.features.records.rules import MappedRecord


def test_a_report_block_splits_into_street_and_zip_after_the_owners_and_care_of_names():
    assert mailing_from_block("FAISON, JAMES FAISON, BESSIE L 1650 KINGSWAY RD 21218-1645",
                              ("FAISON, JAMES FAISON, BESSIE L",)) == Mailing("1650 KINGSWAY RD", None, None, "21218")
    # An owner whose name starts with a number; a care-of name; a post-office box; a lettered house number.
    assert mailing_from_block("2008 DRR-ETS, LLC 3604 EASTERN AVE 21224-0000", ("2008 DRR-ETS, LLC",)).street \
        == "3604 EASTERN AVE"
    assert mailing_from_block("MARYLAND 25 LLC 8601 WOODBROOK CT 21133-4448", ("MARYLAND 25 LLC",)).street \
        == "8601 WOODBROOK CT"
    assert mailing_from_block("BOLTON INVESTMENT, LLC. LAURA RANDALL P.O. BOX 331 21152-0331",
                              ("BOLTON INVESTMENT, LLC.",)) == Mailing("P.O. BOX 331", None, None, "21152")
    assert mailing_from_block("COLDSTREAM HOMESTEAD 3220-A THE ALAMEDA 21218-3672", ("COLDSTREAM HOMESTEAD",)).street \
        == "3220-A THE ALAMEDA"
    # The name the owner block prints need not be the owner's (a city agency's contact).
    assert mailing_from_block("SABAH, DAVID 417 E FAYETTE ST RM 1001 21202-0000",
                              ("MAYOR AND CITY COUNCIL OF BALTIMORE",)).street == "417 E FAYETTE ST RM 1001"
    # Only a name: no mailing address.
    assert mailing_from_block("TERRY, HARRIET", ("TERRY, HARRIET",)) == Mailing()
    assert not mailing_from_block("TERRY, HARRIET", ("TERRY, HARRIET",)).known


def _record(**kw) -> MappedRecord:
    fields = dict(dataset_id="d", record_key="1", kind="sale_list", as_of=date(2020, 7, 22),
                  address="0725 APPLETON ST", state="MD", zip_code="21217", owner_name="JIMMORA ESTATES LTD.")
    fields.update(kw)
    return MappedRecord(**fields)


def test_a_records_mailing_address_is_completed_from_its_zip():
    full = record_mailing(_record(mailing_block="JIMMORA ESTATES LTD. 1730 K ST NW 20006-0000"))
    assert full == Mailing("1730 K ST NW", "WASHINGTON", "DC", "20006")
    # Published parts win; an unknown ZIP leaves the state unknown.
    assert record_mailing(_record(mailing_address="12 OCEAN DR", mailing_city="MIAMI BEACH", mailing_state="FL",
                                  mailing_zip="33139")) == Mailing("12 OCEAN DR", "MIAMI BEACH", "FL", "33139")
    assert record_mailing(_record(mailing_block="VICTOR, ARE DAVE 1B HOLYCHILD WAY 99999-0000")).state is None
    assert record_mailing(_record()) == Mailing()


@pytest.mark.parametrize("site, unit, mailing, expected", [
    # Same place, spelled differently: leading zeros, suffix, a direction written on one side only, unit.
    ("0466 ROUNDVIEW ROAD", None, Mailing("466 ROUNDVIEW RD", "BALTIMORE", "MD", "21225"), (False, False)),
    ("145 E BELLS MILL RD", None, Mailing("145 BELLS MILL RD", "PHILADELPHIA", "MD", "21225"), (False, False)),
    ("1409-13 N 76TH ST", "501", Mailing("1409-13 N 76TH ST UNIT 501", None, "MD", "21225"), (False, False)),
    # Another unit of the building, another house on the street, another ZIP: absentee.
    ("1409-13 N 76TH ST", "501", Mailing("1409-13 N 76TH ST UNIT 12", None, "MD", "21225"), (True, False)),
    ("1306 W LOMBARD ST", None, Mailing("1308 W LOMBARD ST", None, "MD", "21225"), (True, False)),
    ("1306 W LOMBARD ST", None, Mailing("1306 W LOMBARD ST", None, "MD", "21230"), (True, False)),
    ("1306 W LOMBARD ST", None, Mailing("P.O. BOX 11914", None, "MD", "21207"), (True, False)),
    # Another state: absentee and out of state.
    ("0725 APPLETON ST", None, Mailing("1730 K ST NW", "WASHINGTON", "DC", "20006"), (True, True)),
    # No street line but a ZIP elsewhere: absentee; the state unknown: out of state unknown.
    ("0725 APPLETON ST", None, Mailing(None, None, None, "21044"), (True, None)),
    ("1B MAIN ST", None, Mailing("1B HOLYCHILD WAY", None, None, "99999"), (True, None)),
    # Nothing on record: unknown, never "no".
    ("0725 APPLETON ST", None, Mailing(), (None, None)),
    ("0725 APPLETON ST", None, Mailing(None, None, None, "21225"), (None, None)),
])
def test_owner_flags(site, unit, mailing, expected):
    assert owner_flags(site, unit, "21225", "MD", mailing) == expected


@pytest.mark.parametrize("name", [
    "WELLS FARGO BANK, N.A.", "DEUTSCHE BANK NATIONAL TRUST COMPANY, AS TRUSTEE", "US BANK TRUST NA",
    "U.S. BANK NATIONAL ASSOCIATION", "FEDERAL NATIONAL MORTGAGE ASSOCIATION", "FANNIE MAE", "FREDDIE MAC",
    "SECRETARY OF HOUSING AND URBAN DEVELOPMENT", "HUD", "NATIONSTAR MORTGAGE LLC", "OCWEN LOAN SERVICING LLC",
    "CITIBANK NA", "JPMORGAN CHASE BANK NATIONAL ASSOCIATION", "WILMINGTON SAVINGS FUND SOCIETY FSB",
    "SECRETARY OF VETERANS AFFAIRS", "LIENLOGIC REO F1, LLC", "BANK OF AMERICA",
])
def test_lenders_servicers_and_trustees_are_bank_owned(name):
    assert is_bank_owned(name) is True


@pytest.mark.parametrize("name", [
    "BANKS, JOHN", "BANK, MARY", "BANKSTON, ALICE", "FAISON, JAMES FAISON, BESSIE L", "REDEVELOPMENT AUTHORITY",
    "PHILADELPHIA LAND BANKING CO-OP", "PHILADELPHIA LAND BANK",
    "EQUITY TRUST COMPANY CUSTODIAN FBO PETER EISEMAN IRA", "MARYLAND FOOD BANK INC", "MORTGAGEE, TOM", "HUDSON, KATE", "SIMMONS MEMORIAL BAPTIST CHURCH",
    "TRUST, ROBERT", "NA, KIM", "FORD RICHARD K TR", "MAYOR AND CITY COUNCIL OF BALTIMORE",
])
def test_people_and_other_owners_are_not(name):
    assert is_bank_owned(name) is False


def test_an_unknown_owner_is_unknown():
    assert is_bank_owned(None) is None and is_bank_owned("  ") is None


def test_the_cards_chips_say_unknown_for_a_record_without_a_mailing_address():
    assert lead_cards.owner_flags(None, None, None, public_record=True) == ["Owner mailing address unknown"]
    assert lead_cards.owner_flags(False, False, False, public_record=True) == []
    assert lead_cards.owner_flags(True, None, True, public_record=True) == ["Bank-owned (REO)", "Absentee owner"]
    assert lead_cards.owner_flags(None, None) == []  # a generated lead claims nothing about its owner


def test_include_bank_owned_selects_bank_owned_leads_not_make_me_move():
    alone = webhook.validate_body({"leadCount": 5, "location": "MD", "includeBankOwned": True}).to_request()
    assert alone.bank_owned is True and alone.lead_types == ()
    assert alone.criteria().bank_owned is True and "Make Me Move" not in alone.lead_types
    both = webhook.validate_body({"leadCount": 5, "location": "MD", "includeBankOwned": True,
                                       "includeAuction": True}).to_request()
    assert both.bank_owned is True and both.lead_types == ("Auction",)
    without = webhook.validate_body({"leadCount": 5, "location": "MD", "includeAuction": True}).to_request()
    assert without.bank_owned is False
    assert webhook.validate_body({"leadCount": 5, "location": "MD", "includeBankOwned": False,
                                       "includeAuction": True}).to_request().bank_owned is False


def test_generated_leads_are_never_bank_owned():
    from marketplace.features.marketplace.rules_criteria import CriteriaError, SearchCriteria
    from marketplace.features.scrape.source_builtin import BuiltinSource

    with pytest.raises(CriteriaError, match="no bank-owned"):
        BuiltinSource(seed=1).search(SearchCriteria(count=3, states=("MD",), bank_owned=True))
    # With a lead type as well: that type's generated leads (none of them claims to be bank-owned).
    leads = BuiltinSource(seed=1).search(SearchCriteria(count=3, states=("MD",), lead_types=("Auction",),
                                                        bank_owned=True))
    assert {lead["lead_type"] for lead in leads} == {"Auction"}
