"""The deal pipeline (issue 25, item 4) in the browser: the dashboard's Pipeline board (a move with the
keyboard-reachable "Move to" select and one by drag and drop, both still there after a reload and in the CSV;
Dead asks for a reason), the property page's Pipeline card (follow-up, offer, notes), the bell's overdue
follow-up, and hand-sent events and URLs for a lead the user has not unlocked, which change nothing."""

from __future__ import annotations

import csv
import io
import uuid
from datetime import timedelta

import sqlalchemy as sa
from playwright.sync_api import Page, expect

from marketplace.platform.db import get_engine
from marketplace.platform.texts import DEMO_DATA_LINE
from marketplace.platform.models import PipelineEntry, PipelineNote, utcnow
from marketplace.features.property.state_pipeline_board import PipelineState
from marketplace.features.property.state_pipeline import PropertyPipelineState
from tests.browser import leads
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import at_rest, expect_toast, reload, visit
from tests.browser.ws_events import EventChannel

entries = PipelineEntry.__table__


def shot(page: Page, name: str) -> None:
    at_rest(page)
    page.screenshot(path=str(ARTIFACTS / f"pipeline-{name}.png"), full_page=True)


def card(page: Page, lead: dict):
    return page.locator(f"#pipeline-card-{lead['id']}")


def in_column(page: Page, stage: str, lead: dict):
    return page.locator(f"#pipeline-column-{stage} #pipeline-card-{lead['id']}")


def open_board(page: Page) -> None:
    visit(page, "/dashboard?tab=pipeline")
    expect(page.locator("#pipeline-board")).to_have_attribute("data-loading", "false", timeout=30000)
    expect(page.locator("#pipeline-board [data-lead-id]").first).to_be_visible(timeout=30000)


def stored(db: str, lead: dict):
    with get_engine(db).connect() as conn:
        return conn.execute(sa.select(entries).where(entries.c.lead_id == uuid.UUID(str(lead["id"])))).first()


def test_pipeline_board_moves_csv_card_and_bell(page: Page, live_server, make_user):
    db = live_server.database_url
    user = make_user(credits=2_000)
    rows = [leads.make_lead(is_active=True, credit_cost=100) for _ in range(4)]
    leads.store(live_server, *rows)
    first, second, third, locked = rows
    for row in (first, second, third):
        leads.unlock(live_server, user, row)
    leads.signed_in(page, live_server, user)
    open_board(page)
    expect(page.locator("#pipeline-count-new")).to_have_text("3")
    expect(page.locator("#pipeline-summary")).to_have_text("3 leads in your pipeline")
    expect(card(page, locked)).to_have_count(0)

    # The keyboard: Tab from the card's address link reaches its "Move to" select; arrows choose Offer Made.
    card(page, first).get_by_role("link").focus()
    page.keyboard.press("Tab")
    move = page.locator(f"#pipeline-move-{first['id']}")
    expect(move).to_be_focused()
    expect(move).to_have_accessible_name(f"Move {first['address']} to stage")
    page.keyboard.press("ArrowDown")  # Contacted
    expect_toast(page, "Moved to Contacted", first["address"])
    expect(in_column(page, "contacted", first)).to_be_visible()
    page.locator(f"#pipeline-move-{first['id']}").focus()
    page.keyboard.press("ArrowDown")  # Offer Made
    expect_toast(page, "Moved to Offer Made", first["address"])
    expect(in_column(page, "offer_made", first)).to_be_visible()

    # Drag and drop: the second card onto the Under Contract column.
    card(page, second).drag_to(page.locator("#pipeline-column-under_contract"))
    expect_toast(page, "Moved to Under Contract", second["address"])
    expect(in_column(page, "under_contract", second)).to_be_visible()

    # Dead asks for the reason first.
    page.locator(f"#pipeline-move-{third['id']}").select_option("dead")
    dialog = page.locator("#pipeline-dead-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(third["address"])
    shot(page, "dead-dialog")
    page.locator("#pipeline-dead-reason").fill("Owner sold to a neighbour")
    page.locator("#pipeline-dead-submit").click()
    expect_toast(page, "Moved to Dead", third["address"])
    expect(in_column(page, "dead", third)).to_contain_text("Reason: Owner sold to a neighbour")

    # After a reload everything is where it was moved.
    reload(page)
    expect(page.locator("#pipeline-board")).to_have_attribute("data-loading", "false", timeout=30000)
    expect(in_column(page, "offer_made", first)).to_be_visible()
    expect(in_column(page, "under_contract", second)).to_be_visible()
    expect(in_column(page, "dead", third)).to_be_visible()
    for stage, count in (("new", "0"), ("offer_made", "1"), ("under_contract", "1"), ("dead", "1")):
        expect(page.locator(f"#pipeline-count-{stage}")).to_have_text(count)
    shot(page, "board-1280")

    # Filters: the address search narrows the board.
    page.locator("#pipeline-search").fill(second["address"])
    page.locator("#pipeline-search-submit").click()
    expect(page.locator("#pipeline-summary")).to_have_text("1 lead matches your filters")
    expect(card(page, first)).to_have_count(0)
    page.locator("#pipeline-clear").click()
    expect(page.locator("#pipeline-summary")).to_have_text("3 leads in your pipeline")

    # The CSV has the stage.
    with page.expect_download() as info:
        page.locator("#pipeline-export").click()
    assert info.value.suggested_filename.startswith("leadvault-pipeline-")
    table = list(csv.reader(io.StringIO(open(info.value.path(), encoding="utf-8-sig").read())))
    by_address = {r[0]: dict(zip(table[0], r)) for r in table[1:]}
    assert by_address[first["address"]]["Stage"] == "Offer Made"
    assert by_address[third["address"]]["Dead Reason"] == "Owner sold to a neighbour"
    assert locked["address"] not in by_address
    # Each row says where its data comes from (these are the built-in generator's leads).
    assert table[0][-1] == "Provenance" and len(by_address) == 3
    assert {row["Provenance"] for row in by_address.values()} == {DEMO_DATA_LINE}

    # An overdue follow-up (set three days ago) shows in the bell and leads to the property page.
    with get_engine(db).begin() as conn:
        conn.execute(sa.update(entries).where(entries.c.lead_id == uuid.UUID(str(first["id"])))
                     .values(follow_up_date=(utcnow() - timedelta(days=3)).date()))
    reload(page)
    bell = page.locator("#notifications-button")
    expect(bell).to_have_accessible_name("Notifications, 1 follow-up due")
    expect(page.locator("#notifications-count")).to_have_text("1")
    bell.click()
    item = page.locator(f"#follow-up-{first['id']}")
    expect(item).to_contain_text("Follow-up overdue")
    expect(item).to_contain_text(f"{first['address']} · Offer Made · due")
    shot(page, "bell")
    item.click()
    page.wait_for_url(f"**/property/{first['id']}")

    # The property page's card: stage, the overdue date, an offer and a note with its time.
    pipeline_card = page.locator("#property-pipeline")
    expect(page.locator("#property-pipeline-stage")).to_have_text("Offer Made", timeout=30000)
    expect(pipeline_card).to_contain_text("Overdue")
    page.locator("#pipeline-offer-input").fill("180,000")
    page.locator("#pipeline-save").click()
    expect_toast(page, "Pipeline Updated", "Stage, follow-up and offer saved.")
    expect(page.locator("#property-pipeline-offer")).to_have_text("$180,000")
    page.locator("#pipeline-note-input").fill("Called the owner, offer sent by e-mail")
    page.locator("#pipeline-add-note").click()
    expect_toast(page, "Note Added", "Your note was saved.")
    notes = page.locator("#property-pipeline-notes li")
    expect(notes).to_have_count(1)
    expect(notes.first).to_contain_text("Called the owner, offer sent by e-mail")
    expect(notes.first).to_contain_text(" UTC")  # the browser's zone (the test browser runs in UTC)
    page.locator("#pipeline-follow-up-input").fill((utcnow() + timedelta(days=7)).date().isoformat())
    page.locator("#pipeline-save").click()
    expect_toast(page, "Pipeline Updated", "Stage, follow-up and offer saved.")
    expect(pipeline_card).not_to_contain_text("Overdue")
    reload(page)
    expect(page.locator("#property-pipeline-offer")).to_have_text("$180,000", timeout=30000)
    expect(page.locator("#notifications-button")).to_have_accessible_name("Notifications")
    shot(page, "property-1280")

    page.set_viewport_size({"width": 375, "height": 800})
    at_rest(page)
    page.locator("#property-pipeline").screenshot(path=str(ARTIFACTS / "pipeline-property-card-375.png"))
    open_board(page)
    shot(page, "board-375")


def test_a_locked_lead_is_unreachable_by_hand_sent_events_and_urls(page: Page, live_server, make_user):
    db = live_server.database_url
    user = make_user(credits=500)
    mine, locked = leads.make_lead(is_active=True, credit_cost=100), leads.make_lead(is_active=True)
    leads.store(live_server, mine, locked)
    leads.unlock(live_server, user, mine)
    channel = EventChannel(page)
    leads.signed_in(page, live_server, user)

    # The URL: the property page of a locked lead shows no Pipeline card.
    visit(page, f"/property/{locked['id']}")
    expect(page.locator("#property-not-found-message")).to_have_text("You don't have access to this property",
                                                                     timeout=30000)
    expect(page.locator("#property-pipeline")).to_have_count(0)

    open_board(page)
    board = PipelineState.get_full_name()
    locked_id = str(locked["id"])
    start = len(channel.received)
    channel.emit(f"{board}.move", {"lead_id": locked_id, "stage": "offer_made"})
    assert channel.wait_for(lambda text: "Unlock this lead to track it in your pipeline." in text, start)
    channel.emit(f"{board}.drop_card", {"lead_id": locked_id, "stage": "closed"})
    # Dead: the dialog opens for the id sent, but the move itself is refused on the server.
    channel.emit(f"{board}.move", {"lead_id": locked_id, "stage": "dead"})
    expect(page.locator("#pipeline-dead-dialog")).to_be_visible()
    channel.emit(f"{board}.confirm_dead", {"form_data": {"reason": "mine now"}})
    # The property card acts on the lead it was loaded for (held on the server), never an id from the event.
    prop = PropertyPipelineState.get_full_name()
    channel.emit(f"{prop}.setvar", {"var_name": "loaded_for", "value": locked_id})
    channel.emit(f"{prop}.save", {"form_data": {"stage": "closed", "reason": "", "follow_up": "", "offer": "1"}})
    channel.emit(f"{prop}.add_note", {"form_data": {"note": "mine now"}})
    # A tab's events are handled in order: once a later move is refused, the ones above were handled.
    mark = channel.emit(f"{board}.move", {"lead_id": locked_id, "stage": "offer_made"})
    assert channel.wait_for(lambda text: "Unlock this lead to track it in your pipeline." in text, mark)
    assert stored(db, locked) is None
    with get_engine(db).connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(PipelineNote.__table__)
                            .join(entries, entries.c.id == PipelineNote.__table__.c.entry_id)
                            .where(entries.c.user_id == uuid.UUID(user["id"]))).scalar_one() == 0
    assert locked["address"] not in channel.text_since(start)
    expect(card(page, locked)).to_have_count(0)
    # The user's own lead still moves.
    page.locator(f"#pipeline-move-{mine['id']}").select_option("contacted")
    expect(in_column(page, "contacted", mine)).to_be_visible()
    assert stored(db, mine).stage == "contacted"
