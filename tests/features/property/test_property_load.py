"""Opening /property/{id}: ``PropertyState.load``, the page's one on_load, on a real tab (real handlers,
real services, the test database). One session resolution and one access check per open; every section
filled from the one view model, or nothing of the lead at all."""

from __future__ import annotations

import uuid

import pytest

from marketplace.platform.db import session_scope
from marketplace.features.property import service_comps as comps, service as property_desk
from marketplace.platform import lead_access
from marketplace.features.property.state_analyzer import AnalyzerState
from marketplace.features.property.state_comps import PropertyCompsState
from marketplace.features.property.state_owner_contact import OwnerContactState
from marketplace.features.property.state_pipeline import PropertyPipelineState
from tests.features.property.property_tab import bell_opens, demo_lead, open_page, open_tab, section, unlock
from tests.platform.tabs import resolutions

@pytest.fixture
def checks(monkeypatch):
    """Counts the access checks (``lead_access``'s two questions) made while a page opens."""
    counted = []
    unlock_of, is_unlocked = lead_access.unlock_of, lead_access.is_unlocked

    def counted_unlock_of(*args, **kwargs):
        counted.append("unlock_of")
        return unlock_of(*args, **kwargs)

    def counted_is_unlocked(*args, **kwargs):
        counted.append("is_unlocked")
        return is_unlocked(*args, **kwargs)

    monkeypatch.setattr(lead_access, "unlock_of", counted_unlock_of)
    monkeypatch.setattr(lead_access, "is_unlocked", counted_is_unlocked)
    return counted


def test_one_open_resolves_the_session_once_checks_access_once_and_fills_every_section(db_url, new_user, checks,
                                                                                         monkeypatch):
    resolved, opened = resolutions(monkeypatch), bell_opens(monkeypatch)
    user = new_user(credits=500)
    lead_id = demo_lead()
    unlock(user.id, lead_id)
    tab = open_tab(user.id, str(lead_id), credits=500)
    open_page(tab)
    assert (resolved(tab), checks) == (1, ["unlock_of"])
    assert tab.status == "shown" and tab.loaded_for == str(user.id) == tab.user_id
    assert tab._lead_id == str(lead_id) and tab.details["address"].startswith("4821 Juniper Hollow Ln")
    assert tab.credits == 500 and opened(tab) == [user.id]
    shown = section(tab, PropertyCompsState)
    assert shown.comps_status == "shown" and shown.comps_count >= 1 and shown.comps_arv.startswith("$")
    analyzer = section(tab, AnalyzerState)
    stored = comps.comp_arv(user.id, lead_id)  # the default pins were stored by this open
    assert analyzer.an_shown and analyzer.form["purchase_price"] == "200,000"
    assert analyzer.comps_arv == str(stored.value) and analyzer.save_kind == "new"
    assert section(tab, OwnerContactState).oc_status == "idle"
    assert section(tab, OwnerContactState).oc_price == 2
    pipeline = section(tab, PropertyPipelineState)
    assert pipeline.pl_shown and pipeline.stage_label == "New"

    again = open_tab(user.id, str(lead_id), credits=500)  # a reload: the same, still one of each
    checks.clear()
    open_page(again)
    assert (resolved(again), checks) == (1, ["unlock_of"])
    assert section(again, AnalyzerState).comps_arv == str(stored.value)


def test_a_public_record_lead_shows_its_record_with_the_same_one_check(db_url, new_user, checks, monkeypatch):
    resolved = resolutions(monkeypatch)
    from tests.features.records.test_public_records import TAX, ingest, tax

    ingest(TAX, [tax()])
    with session_scope() as session:
        from sqlmodel import select

        from marketplace.platform.models import Lead
        lead_id = session.exec(select(Lead.id).where(Lead.property_id.is_not(None))).one()
    user = new_user(credits=500)
    unlock(user.id, lead_id)
    tab = open_tab(user.id, str(lead_id))
    open_page(tab)
    assert (resolved(tab), checks) == (1, ["unlock_of"])
    assert tab.status == "shown" and tab.pr_shown
    assert tab.pr_owner.get("name") == "JANE Q DELINQUENT"
    assert "record 522145900" in tab.details["provenance"]


@pytest.mark.parametrize("who, path, status", [
    ("nobody", "lead", "signed_out"),
    ("stranger", "lead", "denied"),
    ("stranger", "unknown", "missing"),
    ("stranger", "not-a-uuid", "missing"),
])
def test_refused_opens_show_nothing_of_the_lead(db_url, new_user, checks, who, path, status, monkeypatch):
    resolved, opened = resolutions(monkeypatch), bell_opens(monkeypatch)
    owner, stranger = new_user(credits=500), new_user(credits=500)
    lead_id = demo_lead()
    unlock(owner.id, lead_id)
    target = {"lead": str(lead_id), "unknown": str(uuid.uuid4()), "not-a-uuid": "not-a-uuid"}[path]
    tab = open_tab(None if who == "nobody" else stranger.id, target)
    open_page(tab)
    assert tab.status == status and resolved(tab) == 1
    assert checks == ([] if who == "nobody" else ["unlock_of"])
    assert (tab.details, tab.images, tab.record, tab._lead_id, tab.loaded_for) == ({}, [], [], "", "")
    assert section(tab, PropertyCompsState).comps_rows == []
    assert not section(tab, AnalyzerState).an_shown and section(tab, AnalyzerState).form == {}
    assert section(tab, OwnerContactState).oc_status == ""
    assert not section(tab, PropertyPipelineState).pl_shown
    assert opened(tab) == ([] if who == "nobody" else [stranger.id])


def test_a_failed_read_is_the_pages_error_and_its_toast(db_url, new_user, monkeypatch):
    user = new_user()
    lead_id = demo_lead()
    unlock(user.id, lead_id)

    def broken(*args, **kwargs):
        raise RuntimeError("database down")

    monkeypatch.setattr(property_desk, "load", broken)
    tab = open_tab(user.id, str(lead_id))
    events = open_page(tab)
    assert tab.status == "error" and tab.details == {} and tab._lead_id == ""
    assert "Failed to load property details." in str(events)
