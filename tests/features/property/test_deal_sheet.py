"""The PDF deal sheet's route: the unlocking user's signed link gets the sheet; anyone else gets 404 and
no bytes of it. Also the default ARV and a first analysis (property.service_deals)."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from marketplace.platform import texts as msg
from marketplace.api import create_api
from marketplace.features.property.rules_deal import Targets
from marketplace.platform.errors import UserError
from marketplace.platform.pdf import page_text
from marketplace.platform.db import session_scope
from marketplace.platform.models import UserLead
from marketplace.features.property import service_deals as deals
from marketplace.platform import downloads
from tests.factories import add_lead


@pytest.fixture
def client(db_url):
    with TestClient(create_api()) as c:
        yield c


def unlock(user_id, lead_id) -> None:
    with session_scope() as session:
        session.add(UserLead(user_id=user_id, lead_id=lead_id, credit_cost=120, purchase_type="credits"))


@pytest.fixture
def owned(db_url, new_user):
    user = new_user()
    lead_id = add_lead(asking_price=200_000, arv=350_000, rehab_estimate=30_000, address="77 Sheet Street")
    unlock(user.id, lead_id)
    return user, lead_id


def url(lead_id) -> str:
    return f"/api/deals/{lead_id}/sheet.pdf"


def test_the_unlocking_user_downloads_the_sheet_of_the_saved_analysis(client, owned):
    from dataclasses import replace
    user, lead_id = owned
    first = deals.load_analysis(user.id, lead_id).analysis
    deals.save_analysis(user.id, lead_id, replace(first, targets=Targets(min_profit=40_000)))
    token = downloads.make_token(downloads.DEAL_SHEET, user.id, str(lead_id))
    res = client.get(url(lead_id), params={"token": token, "tz": "America/Chicago"})
    assert res.status_code == 200
    assert res.headers["content-type"] == "application/pdf"
    assert res.headers["content-disposition"] == 'attachment; filename="deal-sheet-77-sheet-street.pdf"'
    assert res.headers["cache-control"] == "private, no-store"
    shown = page_text(res.content)
    assert "77 Sheet Street" in shown and "After-repair value: $350,000" in shown
    assert "$40,000" in shown  # the saved minimum profit
    assert any(line.startswith("Analysis saved ") for line in shown)


def test_everyone_else_gets_404_and_no_bytes(client, owned, new_user):
    user, lead_id = owned
    stranger = new_user()
    locked = add_lead(address="1 Locked Lane")
    tokens = [
        "", "garbage",
        downloads.make_token(downloads.DEAL_SHEET, stranger.id, str(lead_id)),  # a foreign lead
        downloads.make_token(downloads.DEAL_SHEET, user.id, str(lead_id), now=time.time() - 3600),  # expired
        downloads.make_token(downloads.SCRAPE_CSV, user.id, str(lead_id)),  # another purpose
        downloads.make_token(downloads.DEAL_SHEET, user.id, str(locked)),  # for another lead
    ]
    for token in tokens:
        res = client.get(url(lead_id), params={"token": token})
        assert (res.status_code, res.json()) == (404, {"error": "Not found"}), token
        assert b"%PDF" not in res.content
    # the user's own signed link for a lead they never unlocked
    res = client.get(url(locked), params={"token": downloads.make_token(downloads.DEAL_SHEET, user.id, str(locked))})
    assert res.status_code == 404 and b"%PDF" not in res.content and b"Locked Lane" not in res.content


def test_default_arv_and_the_first_analysis(owned, new_user):
    user, lead_id = owned
    arv = deals.default_arv(user.id, lead_id)
    assert arv.value == 350_000
    assert arv.basis == ("Lead's ARV estimate ($350,000): the lead's market value x a renovation uplift, "
                         "from its source. Not from comparable sales.")
    first = deals.first_analysis(user.id, lead_id)
    assert first.saved_at is None and first.analysis.flip.arv == 350_000 and first.arv_basis == arv.basis
    assert deals.load_analysis(user.id, lead_id).arv_basis == arv.basis
    no_arv = add_lead(arv=None)
    unlock(user.id, no_arv)
    assert deals.default_arv(user.id, no_arv).value is None
    assert deals.load_analysis(user.id, no_arv).analysis.flip.arv == 0
    stranger = new_user()
    for call in (deals.default_arv, deals.first_analysis):
        with pytest.raises(UserError) as refused:
            call(stranger.id, lead_id)
        assert (refused.value.title, refused.value.message) == msg.DEAL_LOCKED


def test_the_sheet_lists_the_pinned_comps_and_says_what_its_arv_rests_on(client, db_url, new_user):
    from dataclasses import replace
    from datetime import datetime, timezone

    from marketplace.features.property import service_comps as comps

    user = new_user()
    lead_id = add_lead(address="4821 Juniper Hollow Ln", city="Austin", state="TX", zip_code="78704",
                       latitude=30.2431, longitude=-97.7702, square_footage=1_600, beds=3, baths=2.0,
                       asking_price=300_000, arv=520_500, rehab_estimate=40_000, raw_data={"generated": True},
                       created_at=datetime.now(timezone.utc))
    # (the lead's own ARV is not whole thousands: the comps' ARV, rounded to them, can never equal it, and
    # an analysis at the comps' figure says it rests on the comps)
    unlock(user.id, lead_id)
    view = comps.comps_for(user.id, lead_id)
    assert view.arv is not None and view.pinned
    token = downloads.make_token(downloads.DEAL_SHEET, user.id, str(lead_id))

    def sheet() -> list[str]:
        res = client.get(url(lead_id), params={"token": token})
        assert res.status_code == 200
        return page_text(res.content)

    shown = sheet()
    pinned = [s.comp for s in view.selection.comps if s.comp.comp_id in view.pinned]
    assert any(pinned[0].address in line for line in shown)
    assert any(line.startswith(f"ARV from the pinned sales: ${view.arv.value:,}") for line in shown)
    assert any(line.startswith("Lead's ARV estimate ($520,500)") for line in shown)  # the analysis's own ARV

    first = deals.load_analysis(user.id, lead_id).analysis
    deals.save_analysis(user.id, lead_id, replace(first, flip=replace(first.flip, arv=float(view.arv.value))))
    assert any(line.startswith("From comparable sales: $") for line in sheet())
    deals.save_analysis(user.id, lead_id, replace(first, flip=replace(first.flip, arv=611_000.0)))
    shown = sheet()
    assert "After-repair value: $611,000" in shown
    assert any(line.startswith("Entered on the analyzer (the default was: Lead's ARV estimate") for line in shown)
