"""The super admin's webhook on /explorerdev (``features/explorer/state_webhook.py``), its real handlers on a real
tab against the test database: a visitor is sent home and a member gets 'Access Denied' (the grant gone too),
and neither gets a key; the super admin's key is shown once and only its -sp endpoint's requests are listed."""

from __future__ import annotations

from marketplace.features.scrape import service_webhooks as webhooks
from marketplace.features.explorer.state_webhook import ExplorerWebhookState
from tests.platform.tabs import open_tab, seen

DENIED = "Access Denied: You don't have super admin privileges"


def test_anyone_but_a_super_admin_is_refused_and_gets_no_key(db_url, new_user):
    member = new_user()
    visitor = open_tab(ExplorerWebhookState, None, path="/explorerdev")
    assert seen(visitor.generate_key()) == [("redirect", "/")]
    tab = open_tab(ExplorerWebhookState, member.id, path="/explorerdev")
    tab.access_granted, tab.granted_for = True, str(member.id)  # a grant left from an earlier session
    for result in (tab.generate_key(), tab.load_webhook(), tab.refresh_logs(), tab.copy("x")):
        assert seen(result) == [("toast", "error", DENIED, ""), ("redirect", "/")]
    assert (tab.access_granted, tab.granted_for, tab.new_key, tab.logs_loaded) == (False, "", "", False)
    assert webhooks.key_state(member.id).has_key is False


def test_the_super_admins_key_is_shown_once_and_the_log_is_the_sp_endpoints(db_url, new_user):
    admin = new_user(admin=True)
    sp = f"/functions/v1/webhook-bulk-scrape-sp/{admin.id}"
    webhooks.log_request(user_id=admin.id, method="POST", endpoint=sp, status=200, ip_address="198.51.100.4",
                         request_body={"count": 5}, response_body={})
    webhooks.log_request(user_id=admin.id, method="POST", endpoint=f"/functions/v1/webhook-bulk-scrape/{admin.id}",
                         status=200, ip_address="198.51.100.4", request_body={"count": 9}, response_body={})
    tab = open_tab(ExplorerWebhookState, admin.id, path="/explorerdev")
    tab.user_id = str(admin.id)
    assert seen(tab.load_webhook()) == []
    assert [(row["endpoint"], row["request"]) for row in tab.logs] == [(sp, '{"count": 5}')]
    assert (tab.has_key, tab.endpoint) == (False, f"{tab.origin}{sp}")
    events = seen(tab.generate_key())
    assert ("toast", "success", "New webhook auth key generated", "") in events
    assert tab.new_key.startswith("lvwh_") and tab.masked_key == f"lvwh_••••••••••••••••{tab.new_key[-4:]}"
    assert webhooks.authenticate(admin.id, tab.new_key).user_id == admin.id
    assert "webhook-bulk-scrape-sp" in tab.example_request and tab.new_key in tab.example_request
