"""Unsubscribe from alert e-mails, no sign-in: the link (GET) asks, its button (POST action=off) and RFC 8058's
one-click POST turn e-mail off, the page's undo (POST action=on) turns it back on."""

from datetime import date

import pytest
from fastapi.testclient import TestClient

from marketplace.api import create_api
from marketplace.features.marketplace import rules_saved_searches as rules
from marketplace.platform.db import session_scope
from marketplace.platform.models import EmailOutbox, LeadRefreshRun
from marketplace.features.marketplace import service_alerts as alerts
from marketplace.features.marketplace import service_saved_searches as searches
from tests.factories import add_lead

SECRET = "test-secret-key"  # tests/conftest.py sets SECRET_KEY


@pytest.fixture
def client(db_url):
    with TestClient(create_api()) as c:
        yield c


def _states(user_id):
    return {v.name: v.email_enabled for v in searches.list_saved_searches(user_id)}


def test_the_link_asks_and_its_button_turns_that_searchs_email_off_and_back_on(client, new_user):
    user = new_user()
    austin = searches.create_saved_search(user.id, "Austin probate", "type=Probate")
    searches.create_saved_search(user.id, "Hot", "roi=gt30")
    token = rules.unsubscribe_token(SECRET, user.id, [austin.id])
    url = f"/api/alerts/unsubscribe?token={token}"
    form = f'<form method="post" action="{url}"><input type="hidden" name="action" value="%s">'

    # The link only asks: a mail scanner following it unsubscribes nobody.
    asked = client.get(url)
    assert asked.status_code == 200
    assert asked.headers["content-type"].startswith("text/html")
    assert asked.headers["cache-control"] == "no-store"
    assert "<h1>Stop alert e-mails?</h1>" in asked.text
    assert ('<p role="status">You get an e-mail after each daily refresh when new leads match '
            '&#x27;Austin probate&#x27;.</p>') in asked.text
    assert form % "off" in asked.text and '<button class="button" type="submit">Stop these e-mails</button>' in asked.text
    assert '<a class="button quiet" href="/dashboard?tab=saved">Manage saved searches</a>' in asked.text
    assert '<html lang="en">' in asked.text and '<meta name="robots" content="noindex">' in asked.text
    assert _states(user.id) == {"Austin probate": True, "Hot": True}

    off = client.post(url, data={"action": "off"})
    assert off.status_code == 200
    assert "<h1>E-mail alerts off</h1>" in off.text
    assert '<p role="status">E-mail alerts for &#x27;Austin probate&#x27; are off.</p>' in off.text
    assert form % "on" in off.text and "Turn e-mails back on</button>" in off.text
    assert _states(user.id) == {"Austin probate": False, "Hot": True}
    assert client.post(url, data={"action": "off"}).status_code == 200  # already off: same answer
    assert client.get(url).status_code == 200 and _states(user.id)["Austin probate"] is False

    on = client.post(url, data={"action": "on"})
    assert on.status_code == 200
    assert "<h1>E-mail alerts on</h1>" in on.text
    assert "E-mail alerts for &#x27;Austin probate&#x27; are on again." in on.text
    assert "<form" not in on.text
    assert _states(user.id) == {"Austin probate": True, "Hot": True}


def test_one_click_post_for_every_search_in_the_mail(client, new_user):
    user = new_user(confirmed=True)
    austin = searches.create_saved_search(user.id, "Austin <probate>", "type=Probate")
    hot = searches.create_saved_search(user.id, "Hot", "roi=gt30")
    with session_scope() as s:
        run = LeadRefreshRun(run_key="r1", run_date=date(2026, 11, 21), status="completed")
        s.add(run)
        s.flush()
        run_id = run.id
    add_lead(lead_type="Probate", roi=40.0, refresh_run_id=run_id)
    alerts.match_refresh(run_id)
    with session_scope() as s:
        mail = s.query(EmailOutbox).one()
    header = mail.headers["List-Unsubscribe"]
    assert mail.headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    path = header.strip("<>").split("localhost:3000", 1)[1]
    res = client.post(path, content="List-Unsubscribe=One-Click",
                      headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert res.status_code == 200
    assert "E-mail alerts for &#x27;Austin &lt;probate&gt;&#x27; and &#x27;Hot&#x27; are off." in res.text
    assert _states(user.id) == {"Austin <probate>": False, "Hot": False}
    assert sorted([austin.id, hot.id]) == list(rules.read_unsubscribe_token(SECRET, path.split("token=")[1])[1])


def test_bad_forged_or_expired_links_change_nothing(client, new_user):
    user, other = new_user(), new_user()
    mine = searches.create_saved_search(user.id, "Mine", "")
    gone = searches.create_saved_search(user.id, "Gone", "")
    searches.delete_saved_search(user.id, gone.id)
    good = rules.unsubscribe_token(SECRET, user.id, [mine.id])
    invalid = ("Link Not Valid", "This unsubscribe link is invalid or incomplete. Sign in to manage e-mail alerts "
                                 "from your saved searches.")
    for token in ("", "junk", good[:-2], good.replace(f".{mine.id}.", f".{mine.id + 1}."),
                  rules.unsubscribe_token("another-secret", user.id, [mine.id]),
                  other.id.hex + good[32:]):
        for method in (client.get, client.post):
            res = method("/api/alerts/unsubscribe", params={"token": token} if token else None)
            assert res.status_code == 400
            assert f"<h1>{invalid[0]}</h1>" in res.text and invalid[1] in res.text
    expired = client.get("/api/alerts/unsubscribe", params={"token": rules.unsubscribe_token(SECRET, user.id, [gone.id])})
    assert expired.status_code == 400
    assert "<h1>Link Expired</h1>" in expired.text
    assert "This unsubscribe link has expired: the saved search no longer exists." in expired.text
    # Someone else's search id under a genuine token of this user: not theirs to change.
    theirs = searches.create_saved_search(other.id, "Theirs", "")
    assert client.get("/api/alerts/unsubscribe",
                      params={"token": rules.unsubscribe_token(SECRET, user.id, [theirs.id])}).status_code == 400
    assert _states(user.id) == {"Mine": True}
    assert _states(other.id) == {"Theirs": True}
