"""How long a status item has been open (issue 38, item 2) in Chromium: a locked vacancy card says
'Vacant since 2015 (10 years)' (the year only: the notice's day with the card's ZIP would find the house in
the county's list), no websocket frame carries the notice's day or the address, and after the unlock the
card and the property page say 'Vacant since Dec 11, 2015 (10 years)' with what the date is.

The module imports Baltimore's open vacant building notices (tests/fixtures/public_records_more/, the list
exported in October 2016) with ``record_imports.import_file`` as of its export day, when its notices were
current, after switching off the leads other tests left active; everything is switched back at the end.
Seen from today, those 2016 notices are older than the dataset's maximum age: the card's
signal chip and the page list them as history (the leads stay listed because nothing rescored them); the
line under test counts from today all the same. The durations are counted from the browser's day (the machine's zone, the same as the server's here).
Screenshots of the locked card at 1280 and 375 px and of the property page go to test-artifacts/.
"""

from __future__ import annotations

from datetime import date, datetime, timezone
from pathlib import Path

import pytest
import sqlalchemy as sa
from playwright.sync_api import Page, expect

from marketplace.features.records import rules_open_since as open_since
from marketplace.features.records.rules_address_display import display_street
from marketplace.platform.times import format_date
from marketplace.platform.db import get_engine
from marketplace.platform.models import Lead
from marketplace.features.records import service_imports as record_imports
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import start_session, visit
from tests.browser.test_marketplace_map import _set_active, collect_frames

NOTICES = (Path(__file__).resolve().parents[1] / "fixtures" / "public_records_more" / "bal-vacant-building-notices"
           / "Vacant_Buildings_2016-10_sample.csv")
EXPORTED = date(2016, 10, 22)


@pytest.fixture(scope="module")
def vacancies(live_server):
    url = live_server.database_url
    leads = Lead.__table__
    with get_engine(url).connect() as conn:
        before = list(conn.execute(sa.select(leads.c.id).where(leads.c.is_active == sa.true())).scalars())
    _set_active(url, before, False)
    summary = record_imports.import_file("bal-vacant-building-notices", NOTICES, today=EXPORTED, database_url=url)
    assert summary.status == "ok" and (summary.leads_added or summary.unchanged or summary.updated), summary
    with get_engine(url).connect() as conn:
        rows = conn.execute(sa.select(leads.c.id, leads.c.address, leads.c.zip_code, leads.c.credit_cost,
                                      leads.c.raw_data)
                            .where(leads.c.is_active == sa.true(), leads.c.property_id.is_not(None))).all()
    try:
        yield rows
    finally:
        _set_active(url, [r.id for r in rows], False)
        _set_active(url, before, True)


def test_since_on_a_locked_card_and_on_the_property_page_after_the_unlock(page: Page, vacancies, live_server,
                                                                          make_user):
    # An open list: every notice with an address makes a lead, however old (250 here); the page shows the
    # longest-open notice's ZIP, which one page of 100 holds whole.
    assert len(vacancies) == 250
    target = min(vacancies, key=lambda r: (open_since.from_raw(r.raw_data).since, str(r.id)))
    in_zip = [r for r in vacancies if r.zip_code == target.zip_code]
    assert 0 < len(in_zip) <= 100
    item = open_since.from_raw(target.raw_data)
    lead_id = str(target.id)
    today = datetime.now().date()  # the browser's day (Chromium runs in the machine's zone)
    locked_line = open_since.since_line("vacant", item.since, today, exact=False)
    unlocked_line = open_since.since_line("vacant", item.since, today)
    assert locked_line == f"Vacant since {item.since.year} ({open_since.duration_text(item.since, today)})"
    assert target.credit_cost < 120  # unlocked on the card without the confirm step

    user = make_user(credits=500)
    start_session(page, live_server.database_url, user["id"])
    frames = collect_frames(page)
    visit(page, f"/marketplace?per_page=100&zip={target.zip_code}")
    card = page.locator(f"#lead-card-{lead_id}")
    expect(card).to_be_visible()
    since = page.locator(f"#lead-since-{lead_id}")
    expect(since).to_have_text(locked_line)
    expect(page.locator("[id^='lead-since-']")).to_have_count(len(in_zip))  # every notice is dated
    card.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    card.screenshot(path=str(ARTIFACTS / "open-since-locked-card-1280.png"))
    page.set_viewport_size({"width": 375, "height": 800})
    card.scroll_into_view_if_needed()
    expect(since).to_be_visible()
    card.screenshot(path=str(ARTIFACTS / "open-since-locked-card-375.png"))
    page.set_viewport_size({"width": 1280, "height": 900})

    locked = "\n".join(frames)
    assert locked_line in locked  # the frames are the page's
    day = format_date(item.since, "UTC")
    for private in (day, item.since.isoformat(), display_street(target.address), target.address.strip()):
        assert private not in locked

    button = page.locator(f"#lead-action-{lead_id}")
    expect(button).to_have_text(f"Unlock for {target.credit_cost} credits")
    button.click()
    expect(button).to_have_text("View Details")
    expect(since).to_have_text(unlocked_line)

    visit(page, f"/property/{lead_id}")
    expect(page.locator("#property-open-since")).to_have_text(unlocked_line)
    expect(page.locator("#property-open-since-basis")).to_have_text("Notice date from Vacant Building Notices")
    page.screenshot(path=str(ARTIFACTS / "open-since-property-1280.png"), full_page=True)
    page.set_viewport_size({"width": 375, "height": 800})
    expect(page.locator("#property-open-since")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "open-since-property-375.png"), full_page=True)
