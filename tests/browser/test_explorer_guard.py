"""The explorer's events sent by hand (issue 12 "Done when"): a signed-in plain
user, and a visitor with no session, send EVERY handler of ExplorerState and all
its substates (found by introspection, so sections added later are covered) over
the real websocket, with plausible arguments. Nothing changes in the database,
no explorer data comes back in any frame, and each event is answered with
'Access Denied' (signed in) or a redirect home."""

from __future__ import annotations

import inspect
import json
import uuid

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import func, select

from marketplace.features.explorer import rules_scrape as dev_scrape
from marketplace.features.marketplace.rules_criteria import SearchCriteria
from marketplace.platform.db import session_scope
from marketplace.platform.models import BulkScrape, CreditLedger, Lead, LeadRefreshRun, Profile, WebhookRequest
from marketplace.features.scrape import service_seeding as seeding, service_webhook_keys as webhook_keys
from marketplace.features.scrape.source_builtin import BuiltinSource
from tests.browser.helpers import ever_seen, expect_toast, start_session, visit, watch_for
from tests.browser.ws_events import EventChannel, own_handlers, parameters, state_tree, var_defaults

ACCESS_DENIED = "Access Denied: You don't have super admin privileges"
VAR_SUFFIX = "_rx_state_"


def _explorer_states():
    import marketplace.features.explorer.page  # noqa: F401 - imports every section's state
    from marketplace.features.explorer.state import ExplorerState

    return state_tree(ExplorerState)


def _argument(handler_name: str, param: inspect.Parameter):
    """A plausible value for a handler's parameter: what the page itself would send."""
    name, hint = param.name.lower(), str(param.annotation).lower()
    if name == "form_data":
        return {**dev_scrape.default_form(), "leadCount": "2"}
    if name == "form" or "dict" in hint:
        return {"query": "Austin", "search": "Austin", "leads_query": "Austin"}
    if name == "code":
        return "CA"
    if name == "lead_type":
        return "Vacancy"
    if name == "text":
        return "lvwh_copied-text"
    if name in ("number", "page") or "int" in hint:
        return 2
    if "bool" in hint:
        return True
    if "status" in handler_name:
        return "archived"
    if "sort" in handler_name:
        return "roi_desc"
    if "size" in handler_name:
        return "50"
    return "Austin"


def _events() -> list[tuple[str, dict]]:
    """(full event name, payload) for every explorer handler but setvar."""
    events = []
    for state in _explorer_states():
        for name, handler in sorted(own_handlers(state).items()):
            if name == "setvar":
                continue  # sent separately below
            payload = {p.name: _argument(name, p) for p in parameters(handler)}
            events.append((f"{state.get_full_name()}.{name}", payload))
    return events


def _snapshot(db: str, *user_ids: str) -> dict:
    with session_scope(db) as s:
        return {
            "leads": s.exec(select(func.count()).select_from(Lead)).one(),
            "active": s.exec(select(func.count()).select_from(Lead).where(Lead.is_active)).one(),
            "pending_images": s.exec(select(func.count()).select_from(Lead)
                                     .where(Lead.images_fetch_status == "pending")).one(),
            "bulk_scrapes": s.exec(select(func.count()).select_from(BulkScrape)).one(),
            "refresh_runs": s.exec(select(func.count()).select_from(LeadRefreshRun)).one(),
            "ledger": s.exec(select(func.count()).select_from(CreditLedger)).one(),
            "webhook_requests": s.exec(select(func.count()).select_from(WebhookRequest)).one(),
            "keys": [s.get(Profile, uuid.UUID(u)).webhook_auth_key for u in user_ids],
        }


@pytest.fixture
def guarded(live_server, make_user):
    """An admin and a user with webhook keys, and leads whose images are pending."""
    db = live_server.database_url
    tag = uuid.uuid4().hex[:8]
    leads = BuiltinSource().search(SearchCriteria(count=4, states=("AZ",)))
    for i, row in enumerate(leads):
        row.update(address=f"{900 + i} Guardtest {tag} Lane", image_urls=[], primary_image_url=None,
                   images_fetch_status="pending")
    seeding.insert_leads(leads, db)
    admin, user = make_user(admin=True, credits=500), make_user(credits=300)
    keys = {}
    with session_scope(db) as s:
        for who in (admin, user):
            keys[who["id"]] = webhook_keys.rotate_key(s, uuid.UUID(who["id"]))
    secrets = [row["address"] for row in leads] + [admin["id"], admin["email"], *keys.values()]
    return {"db": db, "admin": admin, "user": user, "secrets": secrets}


def _send_everything(page: Page, channel: EventChannel, answer: str) -> tuple[int, list[str]]:
    """Send every handler; each must be answered with ``answer`` in its frames. Returns the first
    frame index and the handlers sent."""
    start = len(channel.received)
    sent = []
    for name, payload in _events():
        mark = channel.emit(name, payload)
        assert channel.wait_for(lambda text: answer in text, mark), f"{name} was not refused"
        sent.append(name.rsplit(".", 1)[1])
    # Reflex's built-in setvar cannot grant access or set data either.
    for state in _explorer_states():
        for var in ("access_granted", "granted_for", "has_key", "new_key", "result_rows", "lead_rows"):
            if var in state.base_vars:
                channel.emit(f"{state.get_full_name()}.setvar",
                             {"var_name": var, "value": True if var in ("access_granted", "has_key") else "x"})
    channel.settle()  # the setvars were handled (the handlers above each answered already)
    return start, sent


def _assert_no_explorer_data(channel: EventChannel, start: int, secrets: list[str]) -> None:
    text = channel.text_since(start)
    for secret in secrets:
        assert secret not in text, f"{secret!r} came back"
    defaults = {state.get_full_name(): var_defaults(state) for state in _explorer_states()}
    checked = 0
    for update in channel.updates(start):
        for state_name, delta in (update.get("delta") or {}).items():
            if state_name not in defaults:
                continue
            for var, value in delta.items():
                name = var.removesuffix(VAR_SUFFIX)
                if name in defaults[state_name]:
                    checked += 1
                    assert value == defaults[state_name][name], f"{state_name}.{name} = {json.dumps(value)[:200]}"
    assert checked > 0  # the denials did reach the explorer's states


def test_plain_user_sending_explorer_events_gets_nothing(page: Page, live_server, guarded):
    db, user, admin = guarded["db"], guarded["user"], guarded["admin"]
    start_session(page, db, user["id"])
    watch_for(page, "explorer-heading", "dev-scrape", "explorer-webhook")
    channel = EventChannel(page)
    visit(page, "/")
    expect(page.get_by_text(user["email"]).first).to_be_visible()
    before = _snapshot(db, admin["id"], user["id"])

    start, sent = _send_everything(page, channel, "Access Denied")
    # Every section's handlers were sent, the leads table's too.
    assert {"load", "refresh_overview", "run_lead_refresh", "fetch_images", "run_scrape", "toggle_state",
            "generate_key", "refresh_logs", "load_webhook", "copy"} <= set(sent)
    assert len(sent) >= 15

    assert _snapshot(db, admin["id"], user["id"]) == before
    _assert_no_explorer_data(channel, start, guarded["secrets"])
    assert "_redirect" in channel.text_since(start)
    expect_toast(page, ACCESS_DENIED)
    expect(page).to_have_url(f"{live_server.url}/")
    for element in ("explorer-heading", "dev-scrape", "explorer-webhook"):
        assert not ever_seen(page, element)


def test_visitor_sending_explorer_events_is_sent_home(page: Page, live_server, guarded):
    db, user, admin = guarded["db"], guarded["user"], guarded["admin"]
    watch_for(page, "explorer-heading", "dev-scrape", "explorer-webhook")
    channel = EventChannel(page)
    visit(page, "/")
    expect(page.locator("#header-login")).to_be_visible()
    before = _snapshot(db, admin["id"], user["id"])

    start, sent = _send_everything(page, channel, "_redirect")
    assert len(sent) >= 15
    assert _snapshot(db, admin["id"], user["id"]) == before
    _assert_no_explorer_data(channel, start, guarded["secrets"])
    assert "Access Denied" not in channel.text_since(start)  # no session: just sent home
    expect(page).to_have_url(f"{live_server.url}/")
    expect(page.locator("#header-login")).to_be_visible()
    for element in ("explorer-heading", "dev-scrape", "explorer-webhook"):
        assert not ever_seen(page, element)
