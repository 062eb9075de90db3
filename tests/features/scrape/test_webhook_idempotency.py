"""The webhook API's Idempotency-Key (issue 22, finding 1): a retried call is answered from the
first one and charges nothing; another body under the same key is refused; two concurrent calls
with one key never both run."""

from __future__ import annotations

import threading

import pytest
from fastapi.testclient import TestClient
from sqlmodel import func, select

from marketplace.platform.web import ratelimit
from marketplace.features.scrape import api_webhook as webhook
from marketplace.api import create_api
from marketplace.platform.db import session_scope
from marketplace.platform.models import BulkScrape, WebhookIdempotencyKey, WebhookRequest
from marketplace.platform import ledger
from marketplace.features.scrape import service_webhooks as webhooks
from marketplace.features.scrape.source_builtin import BuiltinSource

BODY = {"leadCount": 3, "location": "Austin, TX"}


@pytest.fixture
def client(db_url, monkeypatch):
    monkeypatch.setattr(webhook, "webhook_limiter", ratelimit.Limiter("idem-test", 1000))
    monkeypatch.setattr(webhooks, "refusals", webhooks.RefusalCounter())
    with TestClient(create_api()) as c:
        yield c


@pytest.fixture
def user_key(new_user):
    user = new_user(credits=10_000)
    return user, webhooks.regenerate_key(user.id)


def _post(client, user, key, body=BODY, idem="order-7f3a"):
    headers = {"x-webhook-auth": key}
    if idem is not None:
        headers["Idempotency-Key"] = idem
    return client.post(f"/functions/v1/webhook-bulk-scrape/{user.id}", json=body, headers=headers)


def _state(user_id):
    with session_scope() as s:
        assert ledger.balance(s, user_id) == ledger.ledger_sum(s, user_id)
        return (ledger.balance(s, user_id), s.exec(select(func.count()).select_from(BulkScrape)).one())


def test_a_retry_with_the_same_key_and_body_replays_the_first_answer_and_charges_nothing(client, user_key):
    user, key = user_key
    first = _post(client, user, key)
    assert first.status_code == 200 and "Idempotent-Replayed" not in first.headers
    assert _state(user.id) == (10_000 - 300, 1)
    # The same body, written differently (order, 3.0), is the same request.
    again = _post(client, user, key, body={"location": "Austin, TX", "leadCount": 3.0})
    assert again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()  # same scrape id, same leads
    assert _state(user.id) == (10_000 - 300, 1)
    with session_scope() as s:
        statuses = s.exec(select(WebhookRequest.response_status).where(WebhookRequest.user_id == user.id)).all()
    assert statuses == [200, 200]
    # Without a key (or with another one) it is a new scrape.
    assert _post(client, user, key, idem="order-8b21").status_code == 200
    assert _state(user.id) == (10_000 - 600, 2)


def test_the_same_key_with_another_body_is_422_and_charges_nothing(client, user_key):
    user, key = user_key
    assert _post(client, user, key).status_code == 200
    res = _post(client, user, key, body={**BODY, "leadCount": 4})
    assert (res.status_code, res.json()) == (422, {"error": "This Idempotency-Key was already used with a different "
                                                            "body. Use a new key for a new request."})
    assert _state(user.id) == (10_000 - 300, 1)


def test_the_same_key_on_the_other_endpoint_is_another_request(client, new_user):
    admin = new_user(credits=10_000, admin=True)
    key = webhooks.regenerate_key(admin.id)
    assert _post(client, admin, key).status_code == 200
    res = client.post(f"/functions/v1/webhook-bulk-scrape-sp/{admin.id}", json=BODY,
                      headers={"x-webhook-auth": key, "Idempotency-Key": "order-7f3a"})
    assert res.status_code == 422  # not the charged scrape's answer replayed as a free one
    assert _state(admin.id) == (10_000 - 300, 1)


@pytest.mark.parametrize("bad", ["", " padded", "tab\there", "é", "x" * 256])
def test_a_malformed_key_is_400(client, user_key, bad):
    user, key = user_key
    res = client.post(f"/functions/v1/webhook-bulk-scrape/{user.id}", json=BODY,
                      headers={"x-webhook-auth": key, "Idempotency-Key": bad.encode("utf-8")})
    assert res.status_code == 400
    assert res.json() == {"error": "Idempotency-Key must be 1 to 255 printable ASCII characters (no spaces at either "
                                   "end)."}
    assert _state(user.id) == (10_000, 0)


def test_keys_are_per_user(client, user_key, new_user):
    user, key = user_key
    other = new_user(credits=10_000)
    other_key = webhooks.regenerate_key(other.id)
    assert _post(client, user, key).status_code == 200
    res = _post(client, other, other_key)
    assert res.status_code == 200 and "Idempotent-Replayed" not in res.headers
    assert _state(other.id) == (10_000 - 300, 2)


def test_a_failed_request_frees_its_key_for_a_retry(client, user_key, monkeypatch):
    from marketplace.features.scrape.source_base import SourceError

    class Flaky:
        name = "flaky"
        calls = 0

        def search(self, criteria):
            Flaky.calls += 1
            if Flaky.calls == 1:
                raise SourceError("HTTP 502 from the provider")
            return BuiltinSource(seed=4).search(criteria)

    monkeypatch.setattr("marketplace.features.scrape.source.get_source", lambda: Flaky())
    user, key = user_key
    assert _post(client, user, key).status_code == 503
    assert _state(user.id) == (10_000, 0)
    res = _post(client, user, key)
    assert res.status_code == 200 and "Idempotent-Replayed" not in res.headers
    assert _state(user.id) == (10_000 - 300, 1)


def test_two_concurrent_requests_with_one_key_never_both_run(client, user_key, monkeypatch):
    started, release = threading.Event(), threading.Event()

    class Slow:
        name = "slow"

        def search(self, criteria):
            started.set()
            assert release.wait(20)
            return BuiltinSource(seed=6).search(criteria)

    monkeypatch.setattr("marketplace.features.scrape.source.get_source", lambda: Slow())
    user, key = user_key
    answers = {}
    first = threading.Thread(target=lambda: answers.setdefault("first", _post(client, user, key)))
    first.start()
    assert started.wait(20)
    second = _post(client, user, key)  # while the first is still scraping
    release.set()
    first.join(30)
    assert answers["first"].status_code == 200
    assert (second.status_code, second.json()) == (409, {"error": "A request with this Idempotency-Key is still "
                                                                  "running. Retry once it has answered to get its "
                                                                  "result."})
    assert _state(user.id) == (10_000 - 300, 1)
    third = _post(client, user, key)
    assert third.headers["Idempotent-Replayed"] == "true" and third.json() == answers["first"].json()


def test_claims_expire_after_24_hours_and_stale_claims_are_taken_over(db_url, new_user):
    from datetime import timedelta

    from marketplace.platform.models import utcnow

    user = new_user()
    now = utcnow()
    first = webhooks.claim_idempotency_key(user.id, "k1", "a" * 64, now=now)
    assert first.outcome == "run"
    assert webhooks.claim_idempotency_key(user.id, "k1", "a" * 64, now=now).outcome == "busy"
    assert webhooks.claim_idempotency_key(user.id, "k1", "b" * 64, now=now).outcome == "mismatch"
    # A claim left unanswered (its worker died) is taken over after 15 minutes.
    assert webhooks.claim_idempotency_key(user.id, "k1", "a" * 64, now=now + timedelta(minutes=16)).outcome == "run"
    with session_scope() as s:
        row = s.exec(select(WebhookIdempotencyKey).where(WebhookIdempotencyKey.key == "k1")).one()
        webhooks.complete_idempotency_key(s, row.id, 200, {"credits_used": 0}, None)
    later = now + timedelta(minutes=17)
    assert webhooks.claim_idempotency_key(user.id, "k1", "a" * 64, now=later).outcome == "replay"
    assert webhooks.claim_idempotency_key(user.id, "k1", "a" * 64,
                                          now=now + timedelta(hours=25)).outcome == "run"
    assert webhooks.expire(now=now + timedelta(hours=50))["idempotency_keys"] == 1
    with session_scope() as s:
        assert s.exec(select(func.count()).select_from(WebhookIdempotencyKey)).one() == 0


def _fingerprint(user) -> str:
    from marketplace.features.scrape import rules_webhook as contract

    return contract.validate_body(BODY).fingerprint(f"/functions/v1/webhook-bulk-scrape/{user.id}")


def _dead_holder() -> str:
    """The holder name of a server process on this machine that has exited (it died mid-request)."""
    import subprocess
    import sys

    from marketplace.platform import process_identity

    proc = subprocess.Popen([sys.executable, "-c", "import sys; print(open(f'/proc/self/stat').read()); "
                             "sys.stdout.flush(); sys.stdin.read()"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    stat = proc.stdout.readline()
    tick = stat.rsplit(")", 1)[1].split()[19]
    holder = "|".join((*process_identity._machine(), str(proc.pid), tick))
    assert process_identity.alive(holder)  # while it runs, its claim is busy
    proc.kill()
    proc.wait(10)
    assert not process_identity.alive(holder)
    return holder


def test_a_key_held_by_a_dead_server_process_is_released_at_once_and_the_retry_charges_once(client, user_key):
    import sqlalchemy as sa

    user, key = user_key
    # A first call took the key, then its server process was killed mid-scrape: nothing charged, no answer.
    assert webhooks.claim_idempotency_key(user.id, "order-7f3a", _fingerprint(user)).outcome == "run"
    with session_scope() as s:
        s.execute(sa.update(WebhookIdempotencyKey.__table__).values(holder=_dead_holder()))
    assert _state(user.id) == (10_000, 0)
    retry = _post(client, user, key)  # a minute later, not fifteen
    assert retry.status_code == 200 and "Idempotent-Replayed" not in retry.headers
    assert _state(user.id) == (10_000 - 300, 1)
    again = _post(client, user, key)
    assert again.headers["Idempotent-Replayed"] == "true" and again.json() == retry.json()
    assert _state(user.id) == (10_000 - 300, 1)


def test_a_key_held_by_a_live_process_stays_busy(client, user_key):
    user, key = user_key
    assert webhooks.claim_idempotency_key(user.id, "order-7f3a", _fingerprint(user)).outcome == "run"
    with session_scope() as s:
        row = s.exec(select(WebhookIdempotencyKey)).one()
        assert row.holder.split("|")[3] == str(__import__("os").getpid())  # this (live) process holds it
    busy = _post(client, user, key)
    assert busy.status_code == 409
    assert _state(user.id) == (10_000, 0)
