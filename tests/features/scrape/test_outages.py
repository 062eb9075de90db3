"""Outages said plainly (issue 40, item 6): with the database refused, /api/health answers 503 JSON naming
what is down, the webhook answers 503 with Retry-After and charges nothing, and every operator command
exits with one line instead of a traceback. A refused address of this machine (port 1) stands in for a
database or Redis that is down: the shared servers are never stopped."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from fastapi.testclient import TestClient

from marketplace.platform.web import ratelimit
from marketplace.features.scrape import api_webhook as webhook
from marketplace.api import create_api
from marketplace.platform.config import PROJECT_ROOT, reload_settings
from marketplace.platform.db import dispose_engines, session_scope
from marketplace.platform import ledger
from marketplace.features.scrape import service_webhooks as webhooks

REFUSED_DB = "postgresql://postgres@127.0.0.1:1/leadvault"
REFUSED_REDIS = "redis://127.0.0.1:1/0"
DB_DOWN = "Database error: cannot connect to 127.0.0.1:1 (connection refused)"
TAX = PROJECT_ROOT / "tests" / "fixtures" / "public_records" / "phl-tax-delinquencies" / \
    "real_estate_tax_delinquency_extract_2016-07_sample.csv"


@pytest.fixture
def outage(monkeypatch):
    """The app's database (and Redis) refused from here on; restored after the test."""
    def down(redis: bool = False):
        monkeypatch.setenv("DATABASE_URL", REFUSED_DB)
        if redis:
            monkeypatch.setenv("REDIS_URL", REFUSED_REDIS)
        reload_settings()
        dispose_engines()
    yield down
    monkeypatch.undo()
    reload_settings()
    dispose_engines()


def test_health_answers_503_naming_what_is_down(db_url, outage):
    with TestClient(create_api()) as client:
        assert (client.get("/api/health").status_code, client.get("/api/health").json()) == (200, {"status": "ok"})
        outage(redis=True)
        answer = client.get("/api/health")
    assert answer.status_code == 503 and answer.headers["retry-after"] == "30"
    body = answer.json()
    assert (body["status"], body["down"], body["problems"]["database"]) == ("unavailable", ["database", "redis"],
                                                                            DB_DOWN)
    assert body["problems"]["redis"].startswith("Redis error: cannot reach 127.0.0.1:1 (")
    assert "Traceback" not in answer.text and "postgres@" not in answer.text


def test_the_webhook_answers_503_with_retry_after_and_charges_nothing(db_url, new_user, outage, monkeypatch, caplog):
    monkeypatch.setattr(webhook, "webhook_limiter", ratelimit.Limiter("webhook-outage-test", 5))
    monkeypatch.setattr(webhooks, "refusals", webhooks.RefusalCounter())
    user = new_user(credits=10_000)
    key = webhooks.regenerate_key(user.id)
    with TestClient(create_api()) as client:
        outage()
        answer = client.post(f"/functions/v1/webhook-bulk-scrape/{user.id}", json={"leadCount": 3,
                             "location": "Austin, TX"}, headers={"x-webhook-auth": key})
    assert (answer.status_code, answer.headers["retry-after"]) == (503, "30")
    assert answer.json() == {"error": "Service temporarily unavailable: we can't reach the database right now; "
                                      "nothing was charged. Retry later."}
    assert [r.getMessage() for r in caplog.records if r.name == "marketplace.webhook" and r.exc_info] == []
    monkeypatch.setenv("DATABASE_URL", db_url)
    reload_settings()
    dispose_engines()
    with session_scope() as s:
        assert ledger.balance(s, user.id) == ledger.ledger_sum(s, user.id) == 10_000


@pytest.mark.parametrize("args", [
    ["migrate"],
    ["import-records", "phl-tax-delinquencies", "--file", str(TAX)],
    ["seed-demo"],
    ["grant-credits", "nobody@example.com", "5"],
])
def test_every_command_on_a_refused_database_is_one_line(args):
    env = {**os.environ, "DATABASE_URL": REFUSED_DB}
    env.pop("APP_ENV", None)
    out = subprocess.run([sys.executable, "-m", "marketplace", *args], cwd=PROJECT_ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert (out.returncode, out.stderr.strip().splitlines()) == (1, [DB_DOWN]), out.stderr
