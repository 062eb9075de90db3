"""A locked lead's own address (/property/{id} before the unlock) says 'Property Not Found' and 'You don't
have access to this property' (SPEC 4, 8) and offers the way to unlock it: 'Unlock this lead' opens the
marketplace's map with that lead's card, whose unlock goes through the confirm step; View Details then
opens the page it was refused. A visitor's address reveals nothing of the lead."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from marketplace.features.marketplace import rules_map as lead_map
from marketplace.features.marketplace.rules import mask_address
from tests.browser import leads
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import expect_toast, start_session, visit


def test_a_locked_leads_address_leads_to_its_unlock(page: Page, live_server, make_user):
    lead = leads.make_lead(credit_cost=120, city="Fairbanks", state="AK", zip_code="99701",
                           latitude=64.8378, longitude=-147.7164, lead_type="Probate")
    leads.store(live_server, lead)
    user = make_user(credits=500)
    start_session(page, live_server.database_url, user["id"])
    visit(page, f"/property/{lead['id']}")
    expect(page.locator("#property-not-found")).to_have_text("Property Not Found")
    expect(page.locator("#property-not-found-message")).to_have_text("You don't have access to this property")
    link = page.locator("#property-unlock-link")
    expect(link).to_have_text("Unlock this lead")
    expect(link).to_have_attribute("href", f"/marketplace?view=map&lead={lead_map.lead_token(lead['id'])}")
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 800})
        page.screenshot(path=str(ARTIFACTS / f"locked-property-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})

    link.click()
    page.wait_for_url(re.compile(r"/marketplace\?view=map&lead="))
    expect(page.locator("#map-card-panel")).to_be_visible()
    expect(page.locator(f"#lead-address-{lead['id']}")).to_have_text(mask_address(lead["address"]))
    button = page.locator(f"#lead-action-{lead['id']}")
    expect(button).to_have_text("Unlock for 120 credits")
    button.click()
    page.locator("#unlock-confirm-ok").click()
    expect_toast(page, "Lead Unlocked!", "Lead unlocked for 120 credits. 380 credits remaining.")
    expect(button).to_have_text("View Details")
    button.click()
    page.wait_for_url(re.compile(rf"/property/{lead['id']}$"))
    expect(page.locator("#property-address")).to_contain_text(lead["address"].split(" ", 1)[0])


def test_a_visitor_is_asked_to_sign_in_and_told_nothing_of_the_lead(page: Page, live_server):
    lead = leads.make_lead()
    leads.store(live_server, lead)
    visit(page, f"/property/{lead['id']}")
    expect(page.locator("#property-not-found-message")).to_have_text("Please log in to view this property.")
    expect(page.locator("#property-login")).to_be_visible()
    expect(page.locator("#property-unlock-link")).to_have_count(0)
