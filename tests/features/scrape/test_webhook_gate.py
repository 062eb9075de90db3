"""Issue 26: the webhook API's refusals at the edge (``features/scrape/api_webhook_gate.py``) as the served app stacks it
(``HttpHardening(WebhookGate(app))``): a 429 and a repeated 404/401 never reach the app or the database,
keep the connection open, are counted and never logged; a rotated key is refused at once, also when it
was rotated by another worker; the order of checks stays the route's."""

from __future__ import annotations

import uuid

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlmodel import select

from marketplace.platform.web import ratelimit
from marketplace.features.scrape import api_webhook as webhook
from marketplace.api import create_api
from marketplace.platform.web.security import HttpHardening
from marketplace.features.scrape.api_webhook_gate import WebhookGate
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import WebhookRefusal, WebhookRequest
from marketplace.features.scrape import (
    service_known_refusals as known_refusals,
    service_webhook_keys as webhook_keys,
    service_webhooks as webhooks,
)

BODY = {"leadCount": 1, "location": "Austin, TX"}


class Counting:
    """The app behind the gate, counting the requests that reach it."""

    def __init__(self, app):
        self.app, self.calls = app, 0

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            self.calls += 1
        await self.app(scope, receive, send)


@pytest.fixture
def served(db_url, monkeypatch):
    monkeypatch.setattr(webhook, "webhook_limiter", ratelimit.Limiter(f"gate-{uuid.uuid4().hex}", 5))
    monkeypatch.setattr(webhooks, "refusals", webhooks.RefusalCounter())
    monkeypatch.setattr(webhooks, "known_refusals", known_refusals.KnownRefusals())
    inner = Counting(create_api())
    with TestClient(HttpHardening(WebhookGate(inner))) as client:
        yield client, inner


@pytest.fixture
def statements(db_url):
    """SQL statements the test's engine runs (a list that grows)."""
    seen: list[str] = []
    engine = get_engine()

    def record(conn, cursor, statement, *args):
        seen.append(statement)

    sa.event.listen(engine, "before_cursor_execute", record)
    yield seen
    sa.event.remove(engine, "before_cursor_execute", record)


def _post(client, user_id, key, ip="203.0.113.9", body=BODY, **headers):
    return client.post(f"/functions/v1/webhook-bulk-scrape/{user_id}", json=body,
                       headers={"x-webhook-auth": key, "x-forwarded-for": ip, **headers})


def _refusals() -> dict:
    webhooks.refusals.flush()
    with session_scope() as s:
        return {(r.status, r.ip_address): r.count for r in s.exec(select(WebhookRefusal)).all()}


def _logged() -> int:
    with session_scope() as s:
        return len(s.exec(select(WebhookRequest)).all())


def test_a_repeated_wrong_key_is_refused_at_the_gate_without_the_database(served, new_user, statements,
                                                                            monkeypatch):
    monkeypatch.setenv("TRUSTED_PROXY_HOPS", "1")
    from marketplace.platform.config import reload_settings

    reload_settings()
    client, inner = served
    user = new_user(credits=1_000)
    webhooks.regenerate_key(user.id)
    first = _post(client, user.id, "lvwh_wrong", ip="198.51.100.1")
    assert (first.status_code, first.json()) == (401, {"error": "Invalid or missing webhook auth key"})
    assert inner.calls == 1  # the first refusal is the route's (a database read)
    statements.clear()
    again = [_post(client, user.id, "lvwh_wrong", ip=f"198.51.100.{n}") for n in range(2, 12)]
    assert {(r.status_code, r.json()["error"]) for r in again} == {(401, "Invalid or missing webhook auth key")}
    assert inner.calls == 1 and statements == []  # answered at the gate: no app, no SQL
    assert all(r.headers.get("connection") != "close" for r in again)
    assert again[0].headers["x-content-type-options"] == "nosniff"  # HttpHardening's headers still apply
    unknown = uuid.uuid4()
    assert _post(client, unknown, "lvwh_wrong").status_code == 404
    assert _post(client, unknown, "lvwh_wrong").status_code == 404
    assert inner.calls == 2
    assert _logged() == 0
    counts = _refusals()
    assert sum(n for (status, _ip), n in counts.items() if status == 401) == 11
    assert counts[(404, "203.0.113.9")] == 2


def test_a_429_never_reaches_the_app_and_keeps_the_connection(served, new_user, statements):
    client, inner = served
    user = new_user(credits=100_000)
    key = webhooks.regenerate_key(user.id)
    statuses = [_post(client, user.id, "lvwh_wrong").status_code for _ in range(5)]
    assert statuses == [401] * 5
    calls = inner.calls
    statements.clear()
    refused = [_post(client, user.id, key) for _ in range(3)]
    assert [(r.status_code, r.json()) for r in refused] == [(429, {"error": "Rate limit exceeded"})] * 3
    assert all(r.headers.get("connection") != "close" for r in refused)
    assert inner.calls == calls and statements == []
    assert _logged() == 0
    assert _refusals() == {(401, "testclient"): 5, (429, "testclient"): 3}


def test_a_rotated_key_is_refused_at_once_and_the_new_one_accepted_at_once(served, new_user, monkeypatch):
    client, _ = served
    monkeypatch.setattr(webhook, "webhook_limiter", ratelimit.Limiter(f"gate-{uuid.uuid4().hex}", 1000))
    user = new_user(credits=100_000)
    old = webhooks.regenerate_key(user.id)
    assert _post(client, user.id, old).status_code == 200
    assert _post(client, user.id, "lvwh_guess").status_code == 401  # remembered as refused
    new = webhooks.regenerate_key(user.id)
    assert _post(client, user.id, old).status_code == 401
    assert _post(client, user.id, new).status_code == 200
    assert _post(client, user.id, "lvwh_guess").status_code == 401
    # Rotated by another worker (this process's memory is not told): still refused at once.
    with session_scope() as s:
        newest = webhook_keys.rotate_key(s, user.id)
    assert _post(client, user.id, new).status_code == 401
    assert _post(client, user.id, newest).status_code == 200


def test_a_chunked_body_over_the_limit_still_gets_its_413_before_a_remembered_401(served, new_user):
    client, inner = served
    user = new_user()
    webhooks.regenerate_key(user.id)
    assert _post(client, user.id, "lvwh_wrong").status_code == 401

    def chunks():
        yield b'{"leadCount": 1, "location": "'
        yield b"x" * (80 * 1024)
        yield b'"}'

    res = client.post(f"/functions/v1/webhook-bulk-scrape/{user.id}", content=chunks(),
                      headers={"x-webhook-auth": "lvwh_wrong", "content-type": "application/json"})
    assert res.status_code == 413
    assert res.json() == {"error": "Request body too large (64 KiB at most)."}


def test_the_remembered_refusals_are_bounded_and_expire():
    cache = known_refusals.KnownRefusals(max_entries=3, ttl=60)
    users = [uuid.uuid4() for _ in range(4)]
    for user in users:
        cache.remember(user, "h", 401)
    assert len(cache) == 3 and cache.status(users[0], "h") is None and cache.status(users[3], "h") == 401
    cache.forget_user(users[3])
    assert cache.status(users[3], "h") is None
    stale = known_refusals.KnownRefusals(ttl=0)
    stale.remember(users[0], "h", 404)
    assert stale.status(users[0], "h") is None
