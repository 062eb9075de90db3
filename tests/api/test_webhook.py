"""The webhook API through FastAPI: every status code, the request log, the
ledger invariant after each call, the super-admin variant and the rate limit."""

from __future__ import annotations

import uuid

import pytest
from fastapi.testclient import TestClient
from sqlmodel import select

from marketplace.api import ratelimit, webhook
from marketplace.api.app import create_api
from marketplace.db import session_scope
from marketplace.models import BulkScrape, WebhookRequest
from marketplace.services import ledger, webhooks

BODY = {"leadCount": 3, "location": "Austin, TX"}


@pytest.fixture
def client(db_url, monkeypatch):
    monkeypatch.setattr(webhook, "webhook_limiter", ratelimit.Limiter("webhook-test", 5))
    with TestClient(create_api()) as c:
        yield c


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
])
def test_bad_bodies_are_400_and_charge_nothing(client, keyed, body, message):
    user, key = keyed()
    res = _post(client, user.id, key, body)
    assert (res.status_code, res.json()) == (400, {"error": message})
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
    assert len(_log(user.id)) == 5


def test_a_user_without_a_key_is_401(client, new_user):
    user = new_user(credits=500)
    assert _post(client, user.id, "lvwh_anything").status_code == 401


def test_unknown_user_is_404_and_logged(client):
    for user_id in (uuid.uuid4(), "not-a-uuid"):
        res = _post(client, user_id, "lvwh_x")
        assert (res.status_code, res.json()) == (404, {"error": "User not found"})
    assert [(e.user_id, e.response_status) for e in _log()] == [(None, 404), (None, 404)]


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
    assert [e.response_status for e in _log(user.id)] == [401] * 5 + [429, 429]


def test_a_source_failure_is_500_without_internals_and_charges_nothing(client, keyed, monkeypatch):
    from marketplace.sources.base import SourceError

    class Broken:
        name = "broken"

        def search(self, criteria):
            raise SourceError("RentCast returned HTTP 500 after 5 attempts on /listings/sale.")

    monkeypatch.setattr("marketplace.sources.get_source", lambda: Broken())
    user, key = keyed()
    res = _post(client, user.id, key)
    assert res.status_code == 500
    assert res.json() == {"error": "The lead source failed: RentCast returned HTTP 500 after 5 attempts on "
                                   "/listings/sale."}
    assert _balance(user.id) == 10_000


def test_openapi_documents_the_webhook(client):
    doc = client.get("/api/openapi.json").json()
    op = doc["paths"]["/functions/v1/webhook-bulk-scrape/{user_id}"]["post"]
    assert {"200", "400", "401", "402", "404", "429", "500"} <= set(op["responses"])
    body = op["requestBody"]["content"]["application/json"]
    assert set(body["schema"]["required"]) == {"leadCount", "location"}
    assert body["example"]["location"] == "Austin, TX"
    assert "/functions/v1/webhook-bulk-scrape-sp/{user_id}" in doc["paths"]
