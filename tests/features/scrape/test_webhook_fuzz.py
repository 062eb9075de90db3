"""Property-based test of the webhook API: whatever a caller sends, the answer is
one of the documented codes with a JSON body, never a 500, and the ledger holds."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from marketplace.platform.web import ratelimit
from marketplace.features.scrape import api_webhook as webhook
from marketplace.api import create_api
from marketplace.features.scrape.rules_webhook import WebhookBody
from marketplace.platform.db import session_scope
from marketplace.platform import ledger
from marketplace.features.scrape import service_webhooks as webhooks

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-10**12, max_value=10**12),
    st.integers(min_value=10**300, max_value=10**420), st.integers(min_value=-10**420, max_value=-10**300),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=40),
    st.sampled_from(["Austin, TX", "TX", "Dallas", "Atlantis, ZZ", ",", " , TX", "1e999"]),
)
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                      max_leaves=6)
bodies = st.one_of(
    st.fixed_dictionaries({}, optional={name: values for name in WebhookBody.model_fields}),
    st.fixed_dictionaries({"leadCount": st.integers(min_value=-5, max_value=1005),
                           "location": st.sampled_from(["Austin, TX", "TX", "Phoenix", "Nowhere, XX", ""])},
                          optional={"minPrice": values, "maxROI": values, "includeAuction": values}),
    values,
)
nested = st.tuples(st.integers(min_value=1, max_value=30_000), st.sampled_from([b"[", b'{"a":'])).map(
    lambda t: t[1] * t[0] + b"1" + (b"]" if t[1] == b"[" else b"}") * t[0])
raw = st.one_of(bodies.map(lambda b: json.dumps(b).encode()), st.binary(max_size=200), nested)


def test_no_input_makes_the_webhook_fail(db_url, new_user, monkeypatch):
    user = new_user(credits=3_000)
    key = webhooks.regenerate_key(user.id)
    monkeypatch.setattr(webhook, "webhook_limiter", ratelimit.Limiter("fuzz", 10**9))
    allowed = {200, 400, 401, 402, 403, 404, 413}

    with TestClient(create_api()) as client:
        @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
        @given(body=raw, use_key=st.booleans(), content_type=st.sampled_from(
            ["application/json", "application/json; charset=utf-8", "text/plain", ""]),
            sp=st.booleans(), path_user=st.sampled_from(["self", "random", "junk"]))
        def run(body, use_key, content_type, sp, path_user):
            target = {"self": str(user.id), "random": "8d1f0c9e-1111-4a4a-9b9b-123456789abc",
                      "junk": "%00..%2F"}[path_user]
            headers = {"content-type": content_type} if content_type else {}
            if use_key:
                headers["x-webhook-auth"] = key
            res = client.post(f"/functions/v1/webhook-bulk-scrape{'-sp' if sp else ''}/{target}", content=body,
                              headers=headers)
            assert res.status_code in allowed, (res.status_code, res.text, body)
            assert isinstance(res.json(), dict)
            with session_scope() as s:
                assert ledger.balance(s, user.id) == ledger.ledger_sum(s, user.id)

        run()
