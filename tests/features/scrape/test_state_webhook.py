"""The Webhook section of /bulkscraper (``features/scrape/state_webhook.py``), its real handlers on a real tab against the
test database: signed out, Generate says 'Failed to generate webhook auth key' and stores no key; Generate shows
the new key once and a reload only its last four characters; the log shows this user's requests."""

from __future__ import annotations

from marketplace.features.scrape import service_webhooks as webhooks
from marketplace.features.scrape.state_webhook import WebhookState
from tests.platform.tabs import open_tab, run, seen, toasts


def test_signed_out_nothing_is_generated_or_shown(db_url, new_user):
    tab = open_tab(WebhookState, None, path="/bulkscraper")
    assert seen(tab.load()) == [] and (tab.logs_loaded, tab.has_key, tab.logs) == (False, False, [])
    assert toasts(seen(tab.generate_key())) == [("error", "Failed to generate webhook auth key", "")]
    assert (tab.new_key, tab.has_key, tab.key_busy) == ("", False, False)
    assert seen(tab.toggle()) == [] and seen(tab.refresh_logs()) == [] and not tab.logs_loaded


def test_a_new_key_is_shown_once_and_a_reload_shows_its_last_four(db_url, new_user):
    user = new_user()
    tab = open_tab(WebhookState, user.id, path="/bulkscraper")
    seen(tab.load())
    assert (tab.open, tab.has_key, tab.masked_key, tab.logs, tab.logs_loaded) == (False, False, "", [], True)
    assert tab.endpoint == f"{tab.origin}/functions/v1/webhook-bulk-scrape/{user.id}"
    assert "YOUR_WEBHOOK_AUTH_KEY" in tab.example_request
    events = seen(tab.generate_key())
    assert toasts(events) == [("success", "New webhook auth key generated", "")]
    key = tab.new_key
    assert key.startswith("lvwh_") and (tab.has_key, tab.key_hint, tab.key_busy) == (True, key[-4:], False)
    assert webhooks.authenticate(user.id, key).user_id == user.id and key in tab.example_request
    again = open_tab(WebhookState, user.id, path="/bulkscraper", query={"section": "webhook"})
    (scroll,) = run(again.load())  # opened and scrolled to from Settings' link
    assert "webhook-toggle" in str(scroll)
    assert (again.open, again.new_key, again.has_key, again.masked_key) == (
        True, "", True, f"lvwh_••••••••••••••••{key[-4:]}")
    seen(again.generate_key())
    assert again.new_key != key and webhooks.key_state(user.id).hint == again.new_key[-4:]


def test_the_log_shows_this_users_requests_newest_first(db_url, new_user):
    user, other = new_user(), new_user()
    for n, who in enumerate((user, other, user)):
        webhooks.log_request(user_id=who.id, method="POST", endpoint=f"/functions/v1/webhook-bulk-scrape/{who.id}",
                             status=200 if n == 0 else 402, ip_address="198.51.100.4",
                             request_body={"n": n}, response_body={})
    tab = open_tab(WebhookState, user.id, path="/bulkscraper")
    seen(tab.load())
    assert [(row["status"], row["ok"], row["ip"], row["request"]) for row in tab.logs] == [
        ("402", "", "198.51.100.4", '{"n": 2}'), ("200", "1", "198.51.100.4", '{"n": 0}')]
    assert tab.copy("") is None and len(tab.copy("abc")) == 2
