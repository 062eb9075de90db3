"""Smoke set for the production shape: the app served by ``reflex run --env prod``
on PostgreSQL, with Redis and two backend workers (``make test-prod-shape``).

Each test checks what a user or an operator would notice: two workers answer,
the daily refresh ran once although both workers started it, an account can be
created, confirmed and signed in to, two tabs racing for the last credits get
exactly one unlock, and a test-mode purchase adds credits.
"""

from __future__ import annotations

import ast
import re
import uuid

import sqlalchemy as sa
from playwright.sync_api import Page, expect
from sqlmodel import func, select

from marketplace.platform.db import session_scope
from marketplace.features.records.jobs_refresh import pacific_run_date
from marketplace.platform.models import (
    CreditLedger,
    CreditPurchase,
    EmailOutbox,
    Lead,
    LeadRefreshRun,
    Profile,
    User,
    UserLead,
    utcnow,
)
from marketplace.platform import ledger
from marketplace.features.unlock import service_prefs as unlock_prefs
from tests.browser.helpers import expect_toast, reload, sign_in, start_session, visit, wait_until
from tests.browser.leads import make_lead, store
from tests.browser.smoke.prod_shape import REFRESH_COUNT, SEED_TAG, SEEDED_LEADS, WORKERS, answering_pids
from tests.browser.test_auth import CONFIRM_LINK_RE, fill_sign_up, open_sign_up, unique_email
from tests.browser.test_purchase import buy_starter

REFRESH_LOG = re.compile(r"^lv-smoke pid=(\d+) marketplace\.scheduler: lead refresh: (\{.*\})$", re.M)


def balance_and_ledger(db: str, user_id: str) -> tuple[int, int]:
    uid = uuid.UUID(user_id)
    with session_scope(db) as session:
        return ledger.balance(session, uid), ledger.ledger_sum(session, uid)


def refresh_results(live_server) -> list[tuple[int, dict]]:
    """(pid, result) of every scheduler run the served workers logged."""
    text = live_server.log_path.read_text()
    return [(int(pid), ast.literal_eval(result)) for pid, result in REFRESH_LOG.findall(text)]


# --------------------------------------------------------------------------- operators


def test_two_worker_processes_answer(live_server):
    assert live_server.prod_shape
    pids = answering_pids(live_server.url, live_server.port, live_server.pid)
    assert len(pids) == WORKERS, f"requests were answered by {sorted(pids)}"
    assert live_server.pid not in pids  # workers, not the supervisor


def test_daily_refresh_runs_once_across_workers(live_server):
    """Both workers start the scheduler and both run the start-up catch-up;
    exactly one refresh happens for today's Pacific date."""
    db = live_server.database_url
    results = wait_until(lambda: (r := refresh_results(live_server)) and len(r) >= WORKERS and r,
                         timeout=120, message="the workers did not both log a refresh result")
    assert len(results) == WORKERS
    assert {pid for pid, _ in results} == answering_pids(live_server.url, live_server.port, live_server.pid)
    assert sorted(result["status"] for _, result in results) == ["completed", "skipped"]
    assert len({result["run_key"] for _, result in results}) == 1

    with session_scope(db) as session:
        runs = session.exec(select(LeadRefreshRun)).all()
        assert len(runs) == 1
        run = runs[0]
        assert (run.status, run.trigger, run.leads_added) == ("completed", "catch-up", REFRESH_COUNT)
        assert run.run_key == pacific_run_date(run.started_at) == run.run_date.isoformat()
        assert run.run_key in {pacific_run_date(run.started_at), pacific_run_date(utcnow())}

        not_from_tests = ~Lead.external_id.startswith("test:")
        seeded = Lead.external_id.startswith(SEED_TAG)
        count = lambda *where: session.exec(select(func.count()).select_from(Lead).where(*where)).one()  # noqa: E731
        assert count(not_from_tests) == SEEDED_LEADS + REFRESH_COUNT
        assert count(not_from_tests, ~seeded, Lead.is_new == sa.true()) == REFRESH_COUNT
        assert count(seeded, Lead.is_new == sa.true()) == 0  # the refresh cleared New on older leads


# --------------------------------------------------------------------------- accounts


def test_sign_up_confirm_and_sign_in(page: Page, new_page, live_server):
    db = live_server.database_url
    email = unique_email("smoke")
    open_sign_up(page)
    fill_sign_up(page, "Sam", "Smoke", email, "secret123", "secret123")
    page.locator("#signup-submit").click()

    def confirmation_mail():
        with session_scope(db) as session:
            return session.exec(select(EmailOutbox).where(EmailOutbox.to_address == email)).first()

    mail = wait_until(confirmation_mail, timeout=20, message="no confirmation e-mail was queued")
    with session_scope(db) as session:
        user, profile = session.exec(
            select(User, Profile).join(Profile, Profile.user_id == User.id).where(User.email == email)
        ).one()
        assert (profile.first_name, profile.last_name, profile.credits_remaining) == ("Sam", "Smoke", 0)
    link = CONFIRM_LINK_RE.search(mail.body).group(1)
    assert link.startswith(f"{live_server.url}/auth/callback?token=")

    # The link, opened in another browser, confirms the address and signs in.
    mailbox = new_page()
    visit(mailbox, link)
    mailbox.wait_for_url("**/dashboard", timeout=20000)
    expect(mailbox.locator("#header-email")).to_have_text(email)
    with session_scope(db) as session:
        assert session.get(User, user.id).email_confirmed_at is not None

    # And the password signs in from a third browser.
    other = new_page()
    sign_in(other, email, "secret123")
    expect(other.locator("#header-email")).to_have_text(email)
    expect(other.locator("#dashboard-greeting")).to_contain_text("Sam")


# --------------------------------------------------------------------------- money


def test_unlock_race_across_tabs(page: Page, new_page, live_server, make_user):
    """Two tabs of one user, credits for one of two leads, both click Unlock at
    the same moment: one unlock, the other refused, the balance exact."""
    db = live_server.database_url
    # At the top of the default order (ROI), so both cards are on the first page.
    leads = [make_lead(credit_cost=120, roi=99.99 - i / 100, is_high_roi=True, is_active=True) for i in range(2)]
    store(live_server, *leads)
    user = make_user(credits=150)
    # One click each: the race is the server's, not the confirmation dialog's (120 credits would ask).
    unlock_prefs.set_preference(uuid.UUID(user["id"]), False, 120, database_url=db)
    tabs = [page, new_page()]
    for tab in tabs:
        start_session(tab, db, user["id"])
        visit(tab, "/marketplace")
    for tab in tabs:
        for lead in leads:
            expect(tab.locator(f"#lead-action-{lead['id']}")).to_have_text("Unlock for 120 credits", timeout=30000)

    at = tabs[0].evaluate("Date.now()") + 1500  # one clock: both contexts live in one Chromium
    for tab, lead in zip(tabs, leads):
        tab.evaluate("([id, at]) => setTimeout(() => document.getElementById(id).click(), at - Date.now())",
                     [f"lead-action-{lead['id']}", at])

    def unlocks():
        with session_scope(db) as session:
            return session.exec(select(UserLead.lead_id).where(UserLead.user_id == uuid.UUID(user["id"]))).all()

    won = wait_until(unlocks, timeout=20, message="no unlock happened")
    winner = 0 if won[0] == leads[0]["id"] else 1
    loser = 1 - winner
    expect_toast(tabs[winner], "Lead Unlocked!", "Lead unlocked for 120 credits. 30 credits remaining.")
    expect_toast(tabs[loser], "Error", "You have 30 credits but need 120.")

    assert len(unlocks()) == 1
    assert balance_and_ledger(db, user["id"]) == (30, 30)
    with session_scope(db) as session:
        spent = session.exec(select(CreditLedger.delta).where(CreditLedger.user_id == uuid.UUID(user["id"]),
                                                              CreditLedger.reason == "unlock")).all()
    assert spent == [-120]
    for tab in tabs:
        reload(tab)
        expect(tab.locator(f"#lead-action-{leads[winner]['id']}")).to_have_text("View Details", timeout=30000)
        expect(tab.locator(f"#lead-action-{leads[loser]['id']}")).to_have_text("Insufficient Credits - Buy More")


def test_purchase_adds_credits(page: Page, live_server, make_user):
    db = live_server.database_url
    user = make_user()
    start_session(page, db, user["id"])
    result = buy_starter(page, page.context, live_server)
    wait_until(lambda: balance_and_ledger(db, user["id"]) == (500, 500), timeout=20,
               message="the purchase did not add 500 credits")
    with session_scope(db) as session:
        rows = session.exec(select(CreditLedger.reason, CreditLedger.delta)
                            .where(CreditLedger.user_id == uuid.UUID(user["id"]))).all()
        purchases = session.exec(select(CreditPurchase.status, CreditPurchase.credits)
                                 .where(CreditPurchase.user_id == uuid.UUID(user["id"]))).all()
    assert [tuple(r) for r in rows] == [("purchase", 500)]
    assert [tuple(p) for p in purchases] == [("paid", 500)]
    visit(result, "/dashboard")
    expect(result.locator("#dashboard-credits")).to_have_text("500 credits")
