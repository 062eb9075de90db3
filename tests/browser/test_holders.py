"""How many investors hold a lead: every card (signed out and in, locked and unlocked) and the property
page say it ('Unlocked by 2 investors', 'Nobody has unlocked this yet'), never who: no other investor's
e-mail, name or id reaches the page or its websocket. The "Unlocked by" filter and the "Least unlocked"
sort list the least-held leads first."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import visit
from tests.browser.leads import make_lead, signed_in, store, unlock

ZIP = "05011"  # no other lead of the test database is in this ZIP


def _frames(page: Page) -> list[str]:
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: frames.append(p if isinstance(p, str) else "")))
    return frames


def _assert_nobody_named(page: Page, frames: list[str], holders: list[dict]) -> None:
    html = page.content()
    assert frames, "the page's websocket frames were not recorded"
    for holder in holders:
        for secret in (holder["email"], holder["first_name"], "Quackenbush", holder["id"]):
            assert secret not in html, secret
            assert not any(secret in frame for frame in frames), secret


def test_a_lead_held_by_n_investors_says_so_and_names_nobody(page: Page, live_server, make_user):
    contested = make_lead(zip_code=ZIP, roi=12.0, credit_cost=100)
    single = make_lead(zip_code=ZIP, roi=15.0, credit_cost=100)
    untouched = make_lead(zip_code=ZIP, roi=9.0, credit_cost=100)
    store(live_server, contested, single, untouched)
    holders = [make_user(credits=1000, first_name=f"Octavia{n}", last_name="Quackenbush") for n in range(2)]
    for holder in holders:
        unlock(live_server, holder, contested)
    unlock(live_server, holders[0], single)
    ids = {name: str(row["id"]) for name, row in
           (("contested", contested), ("single", single), ("untouched", untouched))}

    # Signed out: every card carries its count.
    frames = _frames(page)
    visit(page, f"/marketplace?zip={ZIP}")
    expect(page.locator(f"#lead-held-{ids['contested']}")).to_have_text("Unlocked by 2 investors", timeout=30000)
    expect(page.locator(f"#lead-held-{ids['single']}")).to_have_text("Unlocked by 1 investor")
    expect(page.locator(f"#lead-held-{ids['untouched']}")).to_have_text("Nobody has unlocked this yet")
    _assert_nobody_named(page, frames, holders)

    # The filter, from its control: leads nobody has unlocked yet, with its chip.
    page.locator("#filter-group-held").click()
    page.locator("#filter-held-none").click()
    expect(page.locator("#result-count")).to_have_text("1 lead", timeout=20000)
    expect(page.locator(f"#lead-card-{ids['untouched']}")).to_be_visible()
    expect(page.locator("#chip-held-none")).to_contain_text("Unlocked by nobody yet")
    page.keyboard.press("Escape")
    expect(page).to_have_url(re.compile(r"held=none"))  # the address bar follows the filters

    # The control in the bar (1280, 1024 px) and in the phone's filter sheet (375 px).
    for width in (1280, 1024):
        page.set_viewport_size({"width": width, "height": 900})
        page.locator("#filter-bar").screenshot(path=str(ARTIFACTS / f"holders-filter-bar-{width}.png"))
    page.set_viewport_size({"width": 375, "height": 800})
    page.locator("#mobile-filters-button").click()
    expect(page.locator("#sheet-filter-held-none")).to_be_visible()
    expect(page.locator("#sheet-filter-held-3plus")).to_be_visible()
    page.locator("#sheet-filter-held-none").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "holders-filter-sheet-375.png"))
    page.keyboard.press("Escape")
    page.set_viewport_size({"width": 1280, "height": 900})

    # The sort: the least-held first.
    visit(page, f"/marketplace?zip={ZIP}")
    expect(page.locator(f"#lead-card-{ids['untouched']}")).to_be_visible(timeout=30000)
    page.locator("#sort-select").select_option(label="Least unlocked")
    page.wait_for_function("() => location.search.includes('sort=held_asc')", timeout=20000)
    cards = page.locator("#lead-grid article[id^='lead-card-']")
    expect(cards).to_have_count(3)
    assert [cards.nth(n).get_attribute("id") for n in range(3)] == [
        f"lead-card-{ids[name]}" for name in ("untouched", "single", "contested")]

    # Signed in, a third investor who holds the contested lead: the count includes them and says so;
    # the locked cards still carry theirs.
    viewer = make_user(credits=1000)
    unlock(live_server, viewer, contested)
    signed_in(page, live_server, viewer)
    frames.clear()
    visit(page, f"/marketplace?zip={ZIP}")
    expect(page.locator(f"#lead-held-{ids['contested']}")).to_have_text(
        "Unlocked by 3 investors (you and 2 others)", timeout=30000)
    expect(page.locator(f"#lead-card-{ids['contested']}")).to_have_attribute("data-unlocked", "true")
    expect(page.locator(f"#lead-held-{ids['single']}")).to_have_text("Unlocked by 1 investor")
    expect(page.locator(f"#lead-held-{ids['untouched']}")).to_have_text("Nobody has unlocked this yet")
    _assert_nobody_named(page, frames, holders)
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        card = page.locator(f"#lead-card-{ids['contested']}")
        card.scroll_into_view_if_needed()
        card.screenshot(path=str(ARTIFACTS / f"holders-card-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})

    # The property page says the same.
    frames.clear()
    visit(page, f"/property/{ids['contested']}")
    expect(page.locator("#property-held")).to_have_text("Unlocked by 3 investors (you and 2 others)", timeout=30000)
    _assert_nobody_named(page, frames, holders)
    for width in (1280, 375):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(ARTIFACTS / f"holders-property-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
