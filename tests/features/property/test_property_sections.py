"""The property page's section states without a browser (a real tab: ``property_tab``): each edit
handler's refusals (signed out, a lead not unlocked, a bad value), its one service call, and what it puts
in state. The handlers act on the page's lead (``PropertyState._lead_id``) only."""

from __future__ import annotations

import uuid

import pytest
import reflex as rx

from marketplace.features.property import service_comps as comps, service_deals as deals
from marketplace.features.property import service_pipeline as pipeline_service
from marketplace.features.property.state_analyzer import AnalyzerState
from marketplace.features.property.state_comps import PropertyCompsState
from marketplace.features.property.state_pipeline import PropertyPipelineState
from tests.features.property.property_tab import demo_lead, open_page, open_tab, run_events, section, unlock
from tests.platform.tabs import end_session


@pytest.fixture
def calls(monkeypatch):
    """``calls(module, name)``: the service function wrapped; returns the list its calls are put in."""
    def watch(module, name):
        made, real = [], getattr(module, name)

        def counted(*args, **kwargs):
            made.append(args)
            return real(*args, **kwargs)
        monkeypatch.setattr(module, name, counted)
        return made
    return watch


@pytest.fixture
def desk(db_url, new_user):
    """(owner's tab, stranger's tab, lead id): the lead unlocked by the owner, both tabs opened on it."""
    owner, stranger = new_user(credits=500), new_user(credits=500)
    lead_id = demo_lead()
    unlock(owner.id, lead_id)
    mine, theirs = open_tab(owner.id, str(lead_id)), open_tab(stranger.id, str(lead_id))
    open_page(mine)
    open_page(theirs)
    assert (mine.status, theirs.status) == ("shown", "denied")
    return mine, theirs, lead_id


def test_a_locked_leads_page_links_to_its_card_on_the_map_and_a_shown_one_does_not(desk):
    """'Property Not Found' for a user who has not unlocked the lead, with the way to unlock it: the
    marketplace's map with the lead's card open (routes.lead_on_map_url)."""
    from marketplace.features.marketplace.rules_map import lead_token

    mine, theirs, lead_id = desk
    assert theirs.unlock_link == f"/marketplace?view=map&lead={lead_token(lead_id)}"
    assert mine.unlock_link == ""


def signed_out(tab):
    end_session(tab)  # the session ended elsewhere since the page opened
    return tab


# ---------------------------------------------------------------------------------------------- comps

def test_toggle_pin_refuses_a_locked_lead_a_signed_out_tab_and_an_unknown_sale(desk, calls):
    mine, theirs, lead_id = desk
    pin = calls(comps, "set_pinned")
    first = section(mine, PropertyCompsState).comps_rows[0]["id"]
    assert run_events(section(theirs, PropertyCompsState).toggle_pin(first)) == []
    assert run_events(section(mine, PropertyCompsState).toggle_pin("no-such-sale")) == []
    assert run_events(section(signed_out(mine), PropertyCompsState).toggle_pin(first)) == []
    assert pin == [] and section(theirs, PropertyCompsState).comps_rows == []


def test_toggle_pin_stores_the_choice_in_one_call_and_offers_its_arv(desk, calls):
    mine, _, lead_id = desk
    pin = calls(comps, "set_pinned")
    card, analyzer = section(mine, PropertyCompsState), section(mine, AnalyzerState)
    before = card.comps_pinned
    first = card.comps_rows[0]
    assert first["pinned"] == "1"
    events = run_events(card.toggle_pin(first["id"]))
    assert len(pin) == 1 and pin[0][:3] == (uuid.UUID(mine.user_id), str(lead_id), first["id"])
    assert card.comps_pinned == before - 1 and card.comps_rows[0]["pinned"] == ""
    assert events == [AnalyzerState.refresh_comps_arv]
    run_events(analyzer.refresh_comps_arv())
    stored = comps.comp_arv(uuid.UUID(mine.user_id), lead_id)
    assert analyzer.comps_arv == ("" if stored is None else str(stored.value))


def test_outliers_and_pages_change_only_a_shown_card(desk):
    mine, theirs, _ = desk
    theirs_card = section(theirs, PropertyCompsState)
    theirs_card.toggle_outliers()
    theirs_card.comps_go(1)
    assert (theirs_card.comps_show_outliers, theirs_card.comps_page) == (False, 0)
    card = section(mine, PropertyCompsState)
    card.toggle_outliers()
    assert card.comps_show_outliers and card.comps_outlier_toggle == "Hide outliers"
    card.comps_go(True)  # not a number: ignored
    assert card.comps_page == 0


# ---------------------------------------------------------------------------------------------- analyzer

def test_typing_acts_only_on_a_loaded_analysis_and_schedules_one_saver(desk):
    mine, theirs, _ = desk
    assert section(theirs, AnalyzerState).set_field("purchase_price", "150000") is None
    assert section(theirs, AnalyzerState).form == {}
    analyzer = section(mine, AnalyzerState)
    assert analyzer.set_field("no_such_field", "1") is None
    assert analyzer.set_field("purchase_price", "150000") == AnalyzerState.save_soon
    assert analyzer.form["purchase_price"] == "150000" and analyzer.save_kind == "pending"
    assert analyzer.set_field("purchase_price", "150001") is None  # the saver runs already
    assert analyzer.set_field("purchase_price", "abc") is None
    assert analyzer.save_kind == "invalid" and "purchase_price" in analyzer.errors


def test_reset_refuses_a_signed_out_tab_and_reads_the_first_analysis_once(desk, calls):
    mine, theirs, lead_id = desk
    first = calls(deals, "first_analysis")
    assert run_events(section(theirs, AnalyzerState).reset_to_defaults()) == []  # nothing loaded: nothing
    analyzer = section(mine, AnalyzerState)
    analyzer.set_field("purchase_price", "150000")
    events = run_events(analyzer.reset_to_defaults())
    assert len(first) == 1 and first[0][1] == str(lead_id)
    assert analyzer.form["purchase_price"] == "200,000"
    assert "The analysis starts again from the lead's figures and your defaults." in str(events)
    run_events(section(signed_out(mine), AnalyzerState).reset_to_defaults())
    assert not analyzer.an_shown and analyzer.form == {} and len(first) == 1


def test_the_sheet_download_stores_the_waiting_edit_once(desk, calls):
    mine, _, lead_id = desk
    saves = calls(deals, "save_analysis")
    analyzer = section(mine, AnalyzerState)
    analyzer.set_field("purchase_price", "150000")
    events = run_events(analyzer.download_sheet())
    assert len(saves) == 1 and analyzer.save_kind == "saved" and analyzer._pending == {}
    assert len(events) == 1 and isinstance(events[0], rx.event.EventSpec)
    assert deals.load_analysis(uuid.UUID(mine.user_id), lead_id).analysis.flip.purchase_price == 150_000


def test_the_sheet_download_saves_the_starting_analysis_that_was_never_saved(desk, calls):
    """A sheet downloaded before any edit once said "Not saved yet" and left the pipeline's "Analysis
    Saved" empty: the analysis on screen is saved first."""
    mine, _, lead_id = desk
    saves = calls(deals, "save_analysis")
    analyzer = section(mine, AnalyzerState)
    assert analyzer.save_kind == "new" and deals.load_analysis(uuid.UUID(mine.user_id), lead_id).saved_at is None
    events = run_events(analyzer.download_sheet())
    assert len(saves) == 1 and analyzer.save_kind == "saved" and analyzer._pending == {}
    assert len(events) == 1 and isinstance(events[0], rx.event.EventSpec)
    stored = deals.load_analysis(uuid.UUID(mine.user_id), lead_id)
    assert stored.saved_at is not None and stored.analysis.flip.purchase_price == 200_000
    run_events(analyzer.download_sheet())
    assert len(saves) == 1  # saved once: the next download has nothing new to store


# ---------------------------------------------------------------------------------------------- pipeline

FORM = {"stage": "contacted", "reason": "", "follow_up": "", "offer": "180,000"}


def test_pipeline_edits_refuse_a_locked_lead_and_a_signed_out_tab(desk, calls):
    mine, theirs, _ = desk
    saves, notes = calls(pipeline_service, "save_entry"), calls(pipeline_service, "add_note")
    assert run_events(section(theirs, PropertyPipelineState).save(FORM)) == []
    assert run_events(section(theirs, PropertyPipelineState).add_note({"note": "hi"})) == []
    events = run_events(section(signed_out(mine), PropertyPipelineState).save(FORM))
    assert "Please sign in again." in str(events)
    assert (saves, notes) == ([], [])


def test_pipeline_save_and_note_each_call_the_service_once(desk, calls):
    mine, _, lead_id = desk
    saves, notes = calls(pipeline_service, "save_entry"), calls(pipeline_service, "add_note")
    card = section(mine, PropertyPipelineState)
    events = run_events(card.save(FORM))
    assert len(saves) == 1 and saves[0][1] == str(lead_id)
    assert (card.stage, card.stage_label, card.offer_label) == ("contacted", "Contacted", "$180,000")
    assert "Stage, follow-up and offer saved." in str(events)
    events = run_events(card.save({**FORM, "stage": "bogus"}))
    assert "Choose one of the pipeline's stages." in str(events) and card.stage == "contacted"
    card.set_note_input("Called the owner")
    events = run_events(card.add_note({"note": "Called the owner"}))
    assert len(notes) == 1 and [n.body for n in card.notes] == ["Called the owner"] and card.note_input == ""
    assert "Your note was saved." in str(events)


# ---------------------------------------------------------------------------------------------- owner contact
# (a hit, a miss, the confirm step and the wrong-number mark: tests/features/property/test_rules_owner_contact.py)

def test_owner_contact_refuses_a_signed_out_tab_and_a_locked_lead_before_any_search(desk, calls):
    from marketplace.features.property import service_owner_contact as skip_trace
    from marketplace.features.property.state_owner_contact import OwnerContactState

    mine, theirs, _ = desk
    stored, searches = calls(skip_trace, "owner_contact"), calls(skip_trace, "find_owner_contact")
    events = run_events(section(theirs, OwnerContactState).ask_owner_contact())
    assert "Unlock this lead to find the owner's phone and e-mail." in str(events)
    assert len(stored) == 1 and stored[0][1] == ""  # no lead id for a page that was refused
    card = section(signed_out(mine), OwnerContactState)
    assert run_events(card.ask_owner_contact()) == [] and run_events(card.find_owner_contact()) == []
    assert len(stored) == 1 and searches == [] and card.oc_status == "idle"
