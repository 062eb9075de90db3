"""Issue 22 #3: a sign-up sent with ``Origin: http://evil.example`` and ``Host: evil.example``
(what any client can send on the websocket when SITE_URL is unset: the origin check then takes the
Host header as the site's own) mails its links on SITE_URL, else on ``http://localhost:PORT``, the
address `make run` prints; never on the request's host. Drives the sign-up handler itself."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from reflex.istate.data import RouterData
from sqlmodel import select

from marketplace.platform.config import reload_settings
from marketplace.platform.db import read_scope
from marketplace.platform.texts import CONFIRM_SUBJECT, EXISTING_SUBJECT
from marketplace.platform.models import EmailOutbox
from marketplace.features.accounts.state import AuthPageState

EVIL = {"origin": "http://evil.example", "host": "evil.example", "user-agent": "attacker"}


def _sign_up_from(headers: dict, email: str) -> None:
    """The sign-up handler, run as for an event whose connection sent ``headers``."""
    root = AuthPageState.get_root_state()(_reflex_internal_init=True)
    root.router = RouterData.from_router_data({"headers": headers, "pathname": "/auth"})
    state = root.get_substate(AuthPageState.get_full_name().split("."))
    assert state.router.headers.origin == "http://evil.example"
    form = {"first_name": "Vic", "last_name": "Tim", "email": email, "password": "secret1",
            "confirm_password": "secret1"}

    async def run():
        async for _ in AuthPageState.sign_up.fn(state, form):
            pass

    with ThreadPoolExecutor(max_workers=1) as pool:  # no asyncio.run beside Playwright's loop
        pool.submit(asyncio.run, run()).result(timeout=60)
    assert (state.signup_sent_to, state.error_message) == (email, "")


def _mail(email: str, subject: str) -> str:
    with read_scope() as session:
        return session.exec(select(EmailOutbox.body).where(EmailOutbox.to_address == email,
                                                           EmailOutbox.subject == subject)).one()


def test_a_sign_up_with_a_forged_host_mails_the_local_address(db_url, monkeypatch):
    monkeypatch.delenv("SITE_URL", raising=False)
    monkeypatch.setenv("PORT", "3000")
    reload_settings()
    _sign_up_from(EVIL, "victim@example.com")
    body = _mail("victim@example.com", CONFIRM_SUBJECT)
    assert "\n\nhttp://localhost:3000/auth/callback?token=" in body
    assert "evil.example" not in body


def test_with_site_url_the_notice_to_a_registered_address_links_there(db_url, monkeypatch, new_user):
    monkeypatch.setenv("SITE_URL", "https://leads.example.com")
    reload_settings()
    new_user(email="owner@example.com", confirmed=True)
    _sign_up_from(EVIL, "owner@example.com")
    body = _mail("owner@example.com", EXISTING_SUBJECT)
    assert "\n\nhttps://leads.example.com/auth\n\n" in body
    assert "evil.example" not in body
