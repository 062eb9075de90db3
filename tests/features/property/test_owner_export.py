"""The owner export: each layout's exact header row, one row per owner (or per phone), every Do Not Call
number kept and flagged, only the token user's unlocked leads and own contacts, dead links refused."""

from __future__ import annotations

import csv
import io
import time
import uuid

import pytest
from fastapi.testclient import TestClient

from marketplace.api import create_api
from marketplace.features.property import rules_owner_export as rules
from marketplace.platform.db import session_scope
from marketplace.platform.models import OwnerContact, Property, UserLead
from marketplace.platform import downloads
from tests.factories import add_lead

PHONES = [{"number": "(512) 555-0142", "type": "Mobile", "dnc": False, "wrong": False},
          {"number": "(512) 555-0177", "type": "Land Line", "dnc": True, "wrong": False},
          {"number": "(512) 555-0199", "type": None, "dnc": None, "wrong": True}]

DIALER_HEADER = (["First Name", "Last Name", "Owner Name", "Property Address", "Property City", "Property State",
                  "Property Zip", "Mailing Address", "Mailing City", "Mailing State", "Mailing Zip"]
                 + [c for i in range(1, 11) for c in (f"Phone {i}", f"Phone {i} Type", f"Phone {i} DNC")]
                 + ["Wrong Numbers", "Email 1", "Email 2", "Email 3", "Contact Source", "Lead Source"])
ROWS_HEADER = ["First Name", "Last Name", "Owner Name", "Phone", "Phone Type", "DNC", "Wrong Number", "Email",
               "Property Address", "Property City", "Property State", "Property Zip", "Mailing Address",
               "Mailing City", "Mailing State", "Mailing Zip", "Contact Source", "Lead Source"]
HUBSPOT_HEADER = ["First Name", "Last Name", "Email", "Phone Number", "Mobile Phone Number", "Street Address", "City",
                  "State/Region", "Postal Code", "Owner Name", "Other Phones", "DNC Phones", "Wrong Numbers",
                  "Other Emails", "Property Address", "Property City", "Property State", "Property Zip",
                  "Contact Source", "Lead Source"]


@pytest.fixture
def client(db_url):
    with TestClient(create_api()) as c:
        yield c


def _unlock(user_id, lead_id):
    with session_scope() as session:
        session.add(UserLead(user_id=user_id, lead_id=lead_id, credit_cost=120, purchase_type="credits"))


def _contact(user_id, lead_id, phones=PHONES, emails=("jane@example.com",), status="found", provider="batchdata"):
    with session_scope() as session:
        session.add(OwnerContact(user_id=user_id, lead_id=lead_id, provider=provider, demo=provider == "demo",
                                 status=status, owner_name="Jane Q Doe", phones=list(phones), emails=list(emails),
                                 credits_charged=2 if status == "found" else 0))


def _get(client, user_id, layout):
    res = client.get("/api/owners.csv", params={"layout": layout,
                                                "token": downloads.make_token("owners-csv", user_id, layout)})
    assert res.status_code == 200, res.text
    assert res.text.startswith("\ufeff") and res.headers["content-type"].startswith("text/csv")
    assert f'leadvault-owners-{layout.replace("_", "-")}-' in res.headers["content-disposition"]
    return list(csv.reader(io.StringIO(res.text.lstrip("\ufeff"))))


@pytest.fixture
def owner(db_url, new_user):
    user = new_user(credits=100)
    with session_scope() as session:
        prop = Property(address_key=f"12 oak st {uuid.uuid4()}", address="12 Oak St",
                        city="Austin", state="TX", zip_code="78701", owner_name="DOE JANE",
                        mailing_address="500 Main St Apt 4", mailing_city="Dallas", mailing_state="TX",
                        mailing_zip="75201")
        session.add(prop)
        session.flush()
        prop_id = prop.id
    lead_id = add_lead(address="12 Oak St", property_id=prop_id)
    _unlock(user.id, lead_id)
    _contact(user.id, lead_id)
    return user, lead_id


def test_the_dialer_layout_one_row_per_owner_with_every_phone_and_its_dnc_mark(client, owner):
    user, _ = owner
    rows = _get(client, user.id, "dialer")
    assert rows[0] == DIALER_HEADER and len(rows) == 2
    row = dict(zip(rows[0], rows[1]))
    assert (row["First Name"], row["Last Name"], row["Owner Name"]) == ("Jane Q", "Doe", "Jane Q Doe")
    assert (row["Property Address"], row["Property City"], row["Property State"], row["Property Zip"]) == \
        ("12 Oak St", "Austin", "TX", "78701")
    assert (row["Mailing Address"], row["Mailing City"], row["Mailing State"], row["Mailing Zip"]) == \
        ("500 Main St Apt 4", "Dallas", "TX", "75201")
    assert [(row[f"Phone {i}"], row[f"Phone {i} Type"], row[f"Phone {i} DNC"]) for i in (1, 2, 3, 4)] == [
        ("(512) 555-0142", "Mobile", "No"), ("(512) 555-0177", "Land Line", "Yes"), ("(512) 555-0199", "", "Unknown"),
        ("", "", "")]
    assert row["Wrong Numbers"] == "(512) 555-0199" and row["Email 1"] == "jane@example.com"
    assert row["Contact Source"] == "BatchData"


def test_the_per_phone_layout_one_row_per_number_dnc_flagged(client, owner):
    user, _ = owner
    rows = _get(client, user.id, "dialer_rows")
    assert rows[0] == ROWS_HEADER and len(rows) == 4
    body = [dict(zip(rows[0], r)) for r in rows[1:]]
    assert [(r["Phone"], r["Phone Type"], r["DNC"], r["Wrong Number"]) for r in body] == [
        ("(512) 555-0142", "Mobile", "No", "No"), ("(512) 555-0177", "Land Line", "Yes", "No"),
        ("(512) 555-0199", "", "Unknown", "Yes")]
    assert {r["Mailing City"] for r in body} == {"Dallas"} and {r["Email"] for r in body} == {"jane@example.com"}


def test_the_hubspot_layout_names_hubspots_contact_properties(client, owner):
    user, _ = owner
    rows = _get(client, user.id, "hubspot")
    assert rows[0] == HUBSPOT_HEADER and len(rows) == 2
    row = dict(zip(rows[0], rows[1]))
    assert (row["First Name"], row["Last Name"], row["Email"]) == ("Jane Q", "Doe", "jane@example.com")
    assert (row["Phone Number"], row["Mobile Phone Number"]) == ("(512) 555-0177", "(512) 555-0142")
    assert (row["Street Address"], row["City"], row["State/Region"], row["Postal Code"]) == \
        ("500 Main St Apt 4", "Dallas", "TX", "75201")
    assert row["DNC Phones"] == "(512) 555-0177"  # the DNC number in Phone Number is flagged, not hidden
    assert row["Other Phones"] == "(512) 555-0199 DNC unknown wrong number"


def test_only_the_users_unlocked_leads_and_own_found_contacts(client, owner, new_user):
    user, lead_id = owner
    other = new_user(credits=100)
    theirs = add_lead(address="9 Elm St")
    _unlock(other.id, theirs)
    _contact(other.id, theirs)  # another user's lead and contact
    _contact(other.id, lead_id, phones=[{"number": "(212) 555-0100", "type": "Mobile", "dnc": False,
                                         "wrong": False}])  # not unlocked by `other`: never exported
    missed = add_lead(address="7 Pine St")
    _unlock(user.id, missed)
    _contact(user.id, missed, phones=[], emails=[], status="miss")
    not_unlocked = add_lead(address="5 Ash St")
    _contact(user.id, not_unlocked)  # a contact row without an unlock record (refused per lead)
    rows = _get(client, user.id, "dialer")
    assert [r[3] for r in rows[1:]] == ["12 Oak St"]
    assert [r[3] for r in _get(client, other.id, "dialer")[1:]] == ["9 Elm St"]


def test_demo_contacts_say_so_and_cells_never_run_as_formulas(client, db_url, new_user):
    user = new_user(credits=100)
    lead_id = add_lead(address="=HYPERLINK(\"x\")")
    _unlock(user.id, lead_id)
    _contact(user.id, lead_id, provider="demo")
    row = dict(zip(*_get(client, user.id, "hubspot")))
    assert row["Contact Source"] == "Demo data (fictional)"
    assert row["Property Address"] == "'=HYPERLINK(\"x\")"


def test_dead_links_and_unknown_layouts_are_refused(client, owner):
    user, _ = owner
    for token in ("", "garbage", downloads.make_token("owners-csv", user.id, "dialer", now=time.time() - 3600),
                  downloads.make_token("owners-csv", user.id, "hubspot"),  # another layout's link
                  downloads.make_token("pipeline-csv", user.id, "dialer")):
        res = client.get("/api/owners.csv", params={"layout": "dialer", "token": token})
        assert res.status_code == 403 and res.json() == {"error": "This download link is invalid or has expired."}
    assert client.get("/api/owners.csv", params={"layout": "excel", "token": "x"}).status_code == 404


def test_names_split_for_the_name_columns():
    assert rules.split_name("DOE, JANE") == ("JANE", "DOE")
    assert rules.split_name("Jane Q Doe") == ("Jane Q", "Doe")
    assert rules.split_name("ACME HOLDINGS LLC") == ("", "ACME HOLDINGS LLC")
    assert rules.split_name("Cher") == ("", "Cher") and rules.split_name(None) == ("", "")
