"""The webhook API through FastAPI: every status code, the request log (key holders only,
capped and expired), refusal counts, Idempotency-Key, the ledger invariant after each call, the
super-admin variant and the rate limit."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlmodel import select

from marketplace.platform.web import ratelimit
from marketplace.features.scrape import api_webhook as webhook
from marketplace.api import create_api
from marketplace.platform.db import session_scope
from marketplace.features.scrape import rules_webhook as contract
from marketplace.platform.models import BulkScrape, WebhookRefusal, WebhookRequest, utcnow
from marketplace.platform import ledger
from marketplace.features.scrape import service_webhooks as webhooks

BODY = {"leadCount": 3, "location": "Austin, TX"}


@pytest.fixture
def client(db_url, monkeypatch):
    monkeypatch.setattr(webhook, "webhook_limiter", ratelimit.Limiter("webhook-test", 5))
    monkeypatch.setattr(webhooks, "refusals", webhooks.RefusalCounter())
    with TestClient(create_api()) as c:
        yield c


def _refusals():
    """(endpoint, status) -> count written to webhook_refusals, after flushing what is in memory."""
    webhooks.refusals.flush()
    totals: dict = {}
    with session_scope() as s:
        for row in s.exec(select(WebhookRefusal)).all():
            totals[(row.endpoint, row.status)] = totals.get((row.endpoint, row.status), 0) + row.count
    return totals


@pytest.fixture
def keyed(new_user):
    def _make(credits=10_000, admin=False):
        user = new_user(credits=credits, admin=admin)
        return user, webhooks.regenerate_key(user.id)
    return _make


def _post(client, user_id, key=None, body=BODY, sp=False, **kw):
    headers = {"content-type": "application/json"}
    if key is not None:
        headers["x-webhook-auth"] = key
    headers.update(kw.pop("headers", {}))
    path = f"/functions/v1/webhook-bulk-scrape{'-sp' if sp else ''}/{user_id}"
    if isinstance(body, (bytes, str)):
        return client.post(path, content=body, headers=headers)
    return client.post(path, json=body, headers=headers)


def _balance(user_id):
    with session_scope() as s:
        assert ledger.balance(s, user_id) == ledger.ledger_sum(s, user_id)
        return ledger.balance(s, user_id)


def _log(user_id=None):
    with session_scope() as s:
        q = select(WebhookRequest).order_by(WebhookRequest.created_at)
        if user_id is not None:
            q = q.where(WebhookRequest.user_id == user_id)
        return s.exec(q).all()


def test_a_scrape_through_the_webhook(client, keyed):
    user, key = keyed()
    res = _post(client, user.id, key, {**BODY, "leadCount": 35, "minROI": 5})
    assert res.status_code == 200, res.text
    data = res.json()
    assert (data["leads_generated"], data["credits_used"]) == (35, 3_325)
    assert len(data["output"]) == 35 and {lead["city"] for lead in data["output"]} == {"Austin"}
    assert all(lead["roi"] >= 5 for lead in data["output"])
    assert _balance(user.id) == 10_000 - 3_325
    with session_scope() as s:
        assert s.get(BulkScrape, uuid.UUID(data["bulk_scrape_id"])).origin == "webhook"
    (entry,) = _log(user.id)
    assert (entry.method, entry.endpoint, entry.response_status) == (
        "POST", f"/functions/v1/webhook-bulk-scrape/{user.id}", 200)
    assert entry.bulk_scrape_id == uuid.UUID(data["bulk_scrape_id"])
    assert entry.request_body == {**BODY, "leadCount": 35, "minROI": 5}
    assert entry.response_body["credits_used"] == 3_325


@pytest.mark.parametrize(("body", "message"), [
    ({"location": "Austin, TX"}, "Missing required parameters: leadCount, location"),
    ({"leadCount": 5}, "Missing required parameters: leadCount, location"),
    ({"leadCount": 0, "location": "TX"}, "leadCount must be a whole number from 1 to 1,000."),
    ({"leadCount": 1001, "location": "TX"}, "leadCount must be a whole number from 1 to 1,000."),
    ({"leadCount": "ten", "location": "TX"}, "leadCount must be a whole number from 1 to 1,000."),
    ({"leadCount": 5, "location": "TX", "minPrice": 500000, "maxPrice": 1},
     "minPrice must not be above maxPrice."),
    ("{not json", "The request body is not valid JSON."),
    ([1, 2, 3], "The request body must be a JSON object."),
    # Issue 22, finding 5: these raised OverflowError / RecursionError (500 with a traceback).
    ('{"leadCount": %s, "location": "TX"}' % ("9" * 400), "leadCount must be a whole number from 1 to 1,000."),
    ('{"leadCount": 5, "location": "TX", "minPrice": %s}' % ("9" * 400),
     "minPrice must be a number from 0 to 1,000,000,000."),
    ('{"leadCount": 5, "location": "TX", "maxROI": -%s}' % ("9" * 400), "maxROI must be a number from 0 to 100."),
    ('{"leadCount": 5, "location": "TX", "maxROI": NaN}', "The request body is not valid JSON."),
    ('{"leadCount": 5, "location": "TX", "minPrice": -Infinity}', "The request body is not valid JSON."),
    ("[" * 20_000 + "]" * 20_000, "The request body is nested too deeply (at most 32 levels)."),
    ('{"leadCount": 5, "location": "TX", "x": ' + "{\"a\": " * 5_000 + "1" + "}" * 5_001,
     "The request body is nested too deeply (at most 32 levels)."),
])
def test_bad_bodies_are_400_and_charge_nothing(client, keyed, body, message, caplog):
    user, key = keyed()
    res = _post(client, user.id, key, body)
    assert (res.status_code, res.json()) == (400, {"error": message})
    assert "Traceback" not in caplog.text
    assert _balance(user.id) == 10_000
    assert [e.response_status for e in _log(user.id)] == [400]


def test_wrong_content_type_is_400(client, keyed):
    user, key = keyed()
    res = client.post(f"/functions/v1/webhook-bulk-scrape/{user.id}", content=b'{"leadCount":1,"location":"TX"}',
                      headers={"content-type": "text/plain", "x-webhook-auth": key})
    assert (res.status_code, res.json()) == (400, {"error": "Content-Type must be application/json."})


def test_missing_or_wrong_key_is_401(client, keyed):
    user, key = keyed()
    other, other_key = keyed()
    for presented in (None, "", "lvwh_wrong", other_key, key + "x"):
        res = _post(client, user.id, presented)
        assert res.status_code == 401, presented
        assert res.json() == {"error": "Invalid or missing webhook auth key"}
    assert _balance(user.id) == 10_000
    # Issue 22, finding 2: refusals are counted, never written to the user's log.
    assert _log() == []
    assert _refusals() == {(f"/functions/v1/webhook-bulk-scrape/{user.id}", 401): 5}


def test_a_user_without_a_key_is_401(client, new_user):
    user = new_user(credits=500)
    assert _post(client, user.id, "lvwh_anything").status_code == 401


def test_unknown_user_is_404_and_counted_not_logged(client):
    unknown = uuid.uuid4()
    for user_id in (unknown, "not-a-uuid"):
        res = _post(client, user_id, "lvwh_x")
        assert (res.status_code, res.json()) == (404, {"error": "User not found"})
    assert _log() == []
    assert _refusals() == {(f"/functions/v1/webhook-bulk-scrape/{unknown}", 404): 1,
                           ("/functions/v1/webhook-bulk-scrape/not-a-uuid", 404): 1}


def test_insufficient_credits_is_402_and_charges_nothing(client, keyed):
    user, key = keyed(credits=299)
    res = _post(client, user.id, key, {"leadCount": 3, "location": "TX"})
    assert (res.status_code, res.json()) == (
        402, {"error": "You need 300 credits to run this scrape. You have 299 credits."})
    assert _balance(user.id) == 299
    with session_scope() as s:
        assert s.exec(select(BulkScrape)).all() == []


def test_super_admin_variant(client, keyed):
    admin, admin_key = keyed(credits=0, admin=True)
    res = _post(client, admin.id, admin_key, sp=True)
    assert res.status_code == 200, res.text
    assert (res.json()["leads_generated"], res.json()["credits_used"]) == (3, 0)
    assert _balance(admin.id) == 0
    user, key = keyed()
    res = _post(client, user.id, key, sp=True)
    assert (res.status_code, res.json()) == (403, {"error": "Access denied: Super admin privileges required"})
    assert _balance(user.id) == 10_000
    assert _log(admin.id)[0].endpoint == f"/functions/v1/webhook-bulk-scrape-sp/{admin.id}"


def test_the_sixth_request_within_a_second_is_429(client, keyed):
    user, key = keyed()
    statuses = [_post(client, user.id, "lvwh_wrong").status_code for _ in range(6)]
    assert statuses == [401] * 5 + [429]
    assert _post(client, user.id, key).json() == {"error": "Rate limit exceeded"}
    assert _balance(user.id) == 10_000
    assert _log() == []
    path = f"/functions/v1/webhook-bulk-scrape/{user.id}"
    assert _refusals() == {(path, 401): 5, (path, 429): 2}


def test_a_source_failure_is_503_without_internals_and_charges_nothing(client, keyed, monkeypatch, caplog):
    """Issue 22, finding 4: the provider's words reach the server log, never the caller."""
    from marketplace.features.scrape.source_base import SourceError

    class Broken:
        name = "broken"

        def search(self, criteria):
            raise SourceError("RentCast rejected the API key (HTTP 401): key rc_live_123 is disabled.")

    monkeypatch.setattr("marketplace.features.scrape.source.get_source", lambda: Broken())
    user, key = keyed()
    res = _post(client, user.id, key)
    assert (res.status_code, res.json()) == (503, {"error": "The lead source is unavailable right now; nothing was "
                                                            "charged. Please try again later."})
    assert "RentCast" not in res.text and "rc_live_123" not in res.text
    assert "rc_live_123" in caplog.text
    assert _balance(user.id) == 10_000
    (entry,) = _log(user.id)
    assert entry.response_status == 503 and "RentCast" not in json.dumps(entry.response_body)


def test_an_unexpected_failure_is_500_without_internals(client, keyed, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("connection to db.internal:5432 failed: password authentication failed for lv_prod")

    monkeypatch.setattr(webhook.scrapes, "run_scrape", broken)
    user, key = keyed()
    res = _post(client, user.id, key)
    assert (res.status_code, res.json()) == (500, {"error": "Internal server error"})
    assert "db.internal" not in res.text and "lv_prod" not in res.text and "RuntimeError" not in res.text
    assert "db.internal" in caplog.text  # the detail is in the server log
    assert _balance(user.id) == 10_000


def test_openapi_documents_the_webhook(client):
    doc = client.get("/api/openapi.json").json()
    op = doc["paths"]["/functions/v1/webhook-bulk-scrape/{user_id}"]["post"]
    assert {"200", "400", "401", "402", "404", "409", "422", "429", "500", "503"} <= set(op["responses"])
    assert "Idempotency-Key" in {p["name"] for p in op["parameters"]}
    body = op["requestBody"]["content"]["application/json"]
    assert set(body["schema"]["required"]) == {"leadCount", "location"}
    # The documented schema is the validator's: its limits are the ones enforced.
    assert set(body["schema"]["properties"]) == set(contract.WebhookBody.model_fields)
    assert body["schema"]["properties"]["minPrice"]["anyOf"][0]["maximum"] == 1_000_000_000
    assert body["example"]["location"] == "Austin, TX"
    assert "/functions/v1/webhook-bulk-scrape-sp/{user_id}" in doc["paths"]


def test_refused_requests_are_counted_in_one_batch_never_logged(client, keyed, monkeypatch):
    """Issue 22, finding 2: 60 requests without a key used to write 60 rows (16 KB bodies each)
    into the user's log. Now: no write per refusal, no body, the user's log untouched."""
    monkeypatch.setattr(webhook, "webhook_limiter", ratelimit.Limiter("webhook-flood", 10**6))
    monkeypatch.setattr(contract, "REFUSAL_FLUSH_SECONDS", 3600)
    user, key = keyed()
    assert _post(client, user.id, key).status_code == 200
    junk = {"leadCount": 1, "location": "x" * 15_000}
    for _ in range(60):
        assert _post(client, user.id, None, junk).status_code == 401
    assert client.post(f"/functions/v1/webhook-bulk-scrape/{user.id}", content=b"{" + b" " * (64 * 1024),
                       headers={"content-type": "application/json"}).status_code == 413
    with session_scope() as s:
        assert s.exec(select(WebhookRefusal)).all() == []  # nothing written yet: counted in memory
    assert webhooks.refusals.pending() == 61
    assert [e.response_status for e in _log(user.id)] == [200]
    path = f"/functions/v1/webhook-bulk-scrape/{user.id}"
    assert _refusals() == {(path, 401): 60, (path, 413): 1}
    with session_scope() as s:
        assert {r.ip_address for r in s.exec(select(WebhookRefusal)).all()} == {"testclient"}


def test_the_users_log_is_capped_and_expired(db_url, new_user, monkeypatch):
    monkeypatch.setattr(contract, "LOG_KEEP_ROWS", 3)
    user, other = new_user(), new_user()
    now = utcnow()
    with session_scope() as s:
        for who in (user, other):
            s.add(WebhookRequest(user_id=who.id, created_at=now - timedelta(days=91), method="POST", endpoint="/old",
                                 response_status=200, ip_address="1.2.3.4"))
    entry = dict(method="POST", endpoint="/functions/v1/webhook-bulk-scrape/x", ip_address="1.2.3.4",
                 request_body={"leadCount": 1, "location": "y" * 40_000}, response_body={"error": "e"})
    for status in (400, 402, 403, 503):
        webhooks.log_request(user_id=user.id, status=status, **entry)
    rows = webhooks.recent_requests(user.id)
    assert [r.response_status for r in rows] == [503, 403, 402]  # the newest 3; the 91-day-old row is gone
    assert len(rows[0].request_body["truncated"]) == 16 * 1024  # bodies are stored capped
    # The daily job expires the old rows of users who stopped calling.
    assert [r.endpoint for r in webhooks.recent_requests(other.id)] == ["/old"]
    assert webhooks.expire()["requests"] == 1
    assert webhooks.recent_requests(other.id) == []


def test_nul_characters_never_fail_an_accepted_scrape(client, keyed):
    """The accepted scrape's log row is written in its transaction: a body PostgreSQL's JSON would
    refuse (a NUL character) must not fail the scrape."""
    user, key = keyed()
    res = _post(client, user.id, key, {**BODY, "note\u0000": "a\u0000b"})
    assert res.status_code == 200, res.text
    (entry,) = _log(user.id)
    assert entry.request_body == {**BODY, "note": "ab"}
    res = _post(client, user.id, key, {"leadCount": 1, "location": "Austin\u0000"})
    assert (res.status_code, res.json()) == (
        400, {"error": "location must be a city, a state code, or 'city, state' (e.g. 'Austin, TX')."})
    assert _balance(user.id) == 10_000 - 300


def test_a_location_without_a_state_is_the_largest_city_of_that_name(client, keyed):
    """Issue 24 item 6: the API resolves 'Dallas' as the scrape form does (Dallas, TX), never WV or GA."""
    user, key = keyed()
    res = _post(client, user.id, key, {"leadCount": 12, "location": "Dallas"})
    assert res.status_code == 200, res.text
    assert {(lead["city"], lead["state"]) for lead in res.json()["output"]} == {("Dallas", "TX")}
    with session_scope() as s:
        assert s.get(BulkScrape, uuid.UUID(res.json()["bulk_scrape_id"])).params["cities"] == ["Dallas, TX"]
