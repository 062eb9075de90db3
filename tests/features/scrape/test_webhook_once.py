"""A webhook call does each of its checks once: one rate-limit count, one key hash, one look-up of the
remembered refusals, one body-size count and one 200 body, whether the served stack
(``HttpHardening(WebhookGate(app))``) or the bare FastAPI app answers it. Each function is wrapped by a
spy that counts its calls and runs the real implementation."""

from __future__ import annotations

import uuid

import pytest
from fastapi.testclient import TestClient

from marketplace.platform.web import ratelimit
from marketplace.features.scrape import api_webhook as webhook
from marketplace.api import create_api
from marketplace.platform.web.security import HttpHardening
from marketplace.features.scrape.api_webhook_gate import WebhookGate
from marketplace.platform.web import http_policy
from marketplace.features.scrape import (
    service_known_refusals as known_refusals,
    service_webhook_answers as webhook_answers,
    service_webhooks as webhooks,
)

BODY = {"leadCount": 2, "location": "Austin, TX"}
WRONG = "Invalid or missing webhook auth key"


class Calls:
    """How many times each spied function ran in the call under test."""

    def __init__(self):
        self.counts: dict[str, int] = {}
        self.meters: list = []

    def tick(self, name: str) -> None:
        self.counts[name] = self.counts.get(name, 0) + 1

    def seen(self) -> dict[str, int]:
        counted = {id(m) for m in self.meters if m.received > 0}
        return {**self.counts, "body counted by": len(counted)}

    def clear(self) -> None:
        self.counts.clear()
        self.meters.clear()


@pytest.fixture
def calls(db_url, monkeypatch) -> Calls:
    spy = Calls()
    limiter = ratelimit.Limiter(f"once-{uuid.uuid4().hex}", 1000)
    real_hit = limiter.hit

    async def hit(key: str) -> bool:
        spy.tick("rate limit")
        return await real_hit(key)

    monkeypatch.setattr(limiter, "hit", hit)
    monkeypatch.setattr(webhook, "webhook_limiter", limiter)
    monkeypatch.setattr(webhooks, "refusals", webhooks.RefusalCounter())

    remembered = known_refusals.KnownRefusals()
    real_status = remembered.status

    def status(*args):
        spy.tick("refusal look-up")
        return real_status(*args)

    monkeypatch.setattr(remembered, "status", status)
    monkeypatch.setattr(webhooks, "known_refusals", remembered)

    real_hash = webhooks.hash_token

    def hash_token(value):
        spy.tick("key hash")
        return real_hash(value)

    monkeypatch.setattr(webhooks, "hash_token", hash_token)

    real_limit = http_policy.BodyLimit

    class CountedLimit(real_limit):
        def __init__(self, limit: int):
            super().__init__(limit)
            spy.meters.append(self)

    monkeypatch.setattr(http_policy, "BodyLimit", CountedLimit)

    real_payload = webhook_answers.scrape_payload

    def scrape_payload(result):
        spy.tick("payload")
        return real_payload(result)

    monkeypatch.setattr(webhook_answers, "scrape_payload", scrape_payload)
    return spy


@pytest.fixture
def served():
    with TestClient(HttpHardening(WebhookGate(create_api()))) as client:
        yield client


@pytest.fixture
def bare():
    with TestClient(create_api()) as client:
        yield client


def _post(client, user_id, key, **kw):
    kw.setdefault("json", BODY)
    return client.post(f"/functions/v1/webhook-bulk-scrape/{user_id}", headers={"x-webhook-auth": key}, **kw)


ONCE = {"rate limit": 1, "key hash": 1, "refusal look-up": 1, "body counted by": 1}


@pytest.mark.parametrize("stack", ["served", "bare"])
def test_an_accepted_call_does_each_check_once_and_builds_its_answer_once(stack, calls, new_user, request):
    client = request.getfixturevalue(stack)
    user = new_user(credits=10_000)
    key = webhooks.regenerate_key(user.id)
    calls.clear()
    res = _post(client, user.id, key)
    assert res.status_code == 200, res.text
    data = res.json()
    assert (data["leads_generated"], data["credits_used"], len(data["output"])) == (2, 200, 2)
    assert calls.seen() == {**ONCE, "payload": 1}


@pytest.mark.parametrize("stack", ["served", "bare"])
def test_a_wrong_key_is_refused_after_each_check_once_first_and_when_repeated(stack, calls, new_user, request):
    client = request.getfixturevalue(stack)
    user = new_user()
    webhooks.regenerate_key(user.id)
    for _ in range(2):  # the first asks the database, the second is the remembered refusal
        calls.clear()
        res = _post(client, user.id, "lvwh_wrong")
        assert (res.status_code, res.json()) == (401, {"error": WRONG})
        assert calls.seen() == ONCE


def test_a_chunked_body_is_looked_up_once_by_the_route(calls, served, new_user):
    user = new_user()
    webhooks.regenerate_key(user.id)

    def chunks():
        yield b'{"leadCount": 1, '
        yield b'"location": "Austin, TX"}'

    for _ in range(2):
        calls.clear()
        res = _post(served, user.id, "lvwh_wrong", json=None, content=chunks())
        assert (res.status_code, res.json()) == (401, {"error": WRONG})
        assert calls.seen() == ONCE


def test_a_429_counts_once_and_hashes_nothing(calls, served, new_user, monkeypatch):
    limiter = webhook.webhook_limiter
    real_hit = limiter.hit

    async def refuse(key: str) -> bool:
        await real_hit(key)
        return False

    monkeypatch.setattr(limiter, "hit", refuse)
    user = new_user()
    res = _post(served, user.id, "lvwh_any")
    assert (res.status_code, res.json()) == (429, {"error": "Rate limit exceeded"})
    assert calls.seen() == {"rate limit": 1, "body counted by": 1}
