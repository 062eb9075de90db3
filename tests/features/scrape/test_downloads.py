"""CSV downloads of bulk scrapes: signed links, the owner only, SPEC 9's columns."""

from __future__ import annotations

import csv
import io
import time

import pytest
from fastapi.testclient import TestClient

from marketplace.api import create_api
from marketplace.features.scrape import rules
from marketplace.platform import downloads
from marketplace.features.scrape import service as scrapes
from marketplace.features.scrape.source_builtin import BuiltinSource


@pytest.fixture
def client(db_url):
    with TestClient(create_api()) as c:
        yield c


def test_csv_of_a_scrape(client, new_user):
    user = new_user(credits=10_000)
    result = scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=12), source=BuiltinSource(seed=4))
    sid = str(result.scrape_id)
    token = downloads.make_token("scrape-csv", user.id, sid)
    res = client.get(f"/api/scrapes/{sid}/csv", params={"token": token})
    assert res.status_code == 200
    assert res.headers["content-type"].startswith("text/csv")
    day = result.created_at.strftime("%Y-%m-%d")
    assert res.headers["content-disposition"] == f'attachment; filename="bulk-scrape-{day}.csv"'
    rows = list(csv.reader(io.StringIO(res.content.decode("utf-8-sig"))))
    assert rows[0] == list(rules.CSV_COLUMNS)
    assert len(rows) == 13
    assert [r[0] for r in rows[1:]] == [lead["address"] for lead in result.leads]
    assert [r[15] for r in rows[1:]] == ["Demo data (generated)"] * 12  # the provenance of every row
    stored = client.get(f"/api/scrapes/{sid}/csv", params={"token": token, "kind": "stored"})
    stamp = result.created_at.strftime("%Y%m%d-%H%M%S")
    assert stored.headers["content-disposition"] == f'attachment; filename="bulk-scrape-12-leads-{stamp}.csv"'


def test_csv_links_are_for_their_owner_only(client, new_user):
    owner, other = new_user(credits=5_000), new_user(credits=5_000)
    sid = str(scrapes.run_scrape(owner.id, rules.ScrapeRequest(lead_count=2), source=BuiltinSource(seed=5)).scrape_id)
    other_token = downloads.make_token("scrape-csv", other.id, sid)
    assert client.get(f"/api/scrapes/{sid}/csv", params={"token": other_token}).status_code == 404
    expired = downloads.make_token("scrape-csv", owner.id, sid, now=time.time() - 3600)
    for token in ("", "garbage", expired, downloads.make_token("scrape-csv", owner.id, "another-id"),
                  downloads.make_token("other-purpose", owner.id, sid)):
        res = client.get(f"/api/scrapes/{sid}/csv", params={"token": token})
        assert (res.status_code, res.json()) == (403, {"error": "This download link is invalid or has expired."})


def test_webhook_docs_download(client):
    res = client.get("/api/webhook-docs.md", params={"user_id": "1234-abcd"})
    assert res.status_code == 200
    assert res.headers["content-disposition"] == 'attachment; filename="leadvault-webhook-api.md"'
    text = res.text
    assert "/functions/v1/webhook-bulk-scrape/1234-abcd" in text
    assert "| 91+ | 35% |" in text and "Missing required parameters: leadCount, location" in text
    # The body table comes from the validating model; retries, 503 and the log's limits are documented.
    assert "| `minPrice` | number | no | 0-1,000,000,000 | Lowest asking price (USD). |" in text
    assert "Idempotency-Key" in text and "Idempotent-Replayed: true" in text
    assert "| 503 | the lead source is unavailable" in text and "| 413 | body over 64 KiB |" in text
    assert "newest\n1,000 requests per user for 90 days" in text
    assert "/webhook-bulk-scrape/YOUR_USER_ID" in client.get("/api/webhook-docs.md",
                                                               params={"user_id": "<script>"}).text


def test_links_of_a_deleted_account_answer_403(client, new_user):
    """A link handed out before the account was deleted is dead: 403, not an empty 200 CSV."""
    from marketplace.features.accounts import service_settings as account_settings

    owner = new_user(credits=5_000)
    sid = str(scrapes.run_scrape(owner.id, rules.ScrapeRequest(lead_count=2), source=BuiltinSource(seed=6)).scrape_id)
    token = downloads.make_token("scrape-csv", owner.id, sid)
    assert client.get(f"/api/scrapes/{sid}/csv", params={"token": token}).status_code == 200
    account_settings.delete_account(owner.id, owner.email)
    res = client.get(f"/api/scrapes/{sid}/csv", params={"token": token})
    assert (res.status_code, res.json()) == (403, {"error": "This download link is invalid or has expired."})
