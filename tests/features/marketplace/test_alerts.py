"""Saved-search alerts: set-wise matching of a refresh's new leads, one notification and
at most one digest e-mail per user per refresh, nothing twice."""

import email
import email.policy
import random
import threading
import time
from datetime import date, timedelta

import sqlalchemy as sa

from marketplace.platform.config import reload_settings
from marketplace.features.marketplace import rules_saved_searches as rules
from marketplace.features.marketplace.rules import LEAD_TYPE_OPTIONS, ROI_BANDS, SIZE_BANDS, TAGS, Filters
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import EmailOutbox, LeadRefreshRun, Notification, SavedSearchCriterion, User, utcnow
from marketplace.features.marketplace import service_alerts as alerts
from marketplace.features.marketplace import service_notifications as notifications
from marketplace.features.marketplace import service_saved_searches as searches
from tests.factories import add_lead


def _run(key: str = "r1") -> int:
    with session_scope() as s:
        run = LeadRefreshRun(run_key=key, run_date=date(2026, 11, 21), status="completed")
        s.add(run)
        s.flush()
        return run.id


def _table(model, order=None):
    table = model.__table__
    with get_engine().connect() as conn:
        return conn.execute(sa.select(table).order_by(order if order is not None else table.c.id)).all()


def _token(url: str) -> str:
    return url.split("token=", 1)[1]


def test_new_leads_notify_matching_users_once(db_url, new_user, monkeypatch):
    monkeypatch.setenv("SITE_URL", "https://leadvault.test")
    reload_settings()
    alice = new_user(confirmed=True, email="alice@example.com")
    bob = new_user(confirmed=True, email="bob@example.com")
    carol = new_user(confirmed=False, email="carol@example.com")
    dave = new_user(confirmed=True, email="dave@example.com")
    probate = searches.create_saved_search(alice.id, "Austin probate", "type=Probate")
    hot = searches.create_saved_search(alice.id, "Hot", "roi=gt30&sort=newest")
    off = searches.create_saved_search(alice.id, "Off", "")
    searches.set_alerts(alice.id, off.id, False)
    everything = searches.create_saved_search(bob.id, "Everything", "")
    searches.set_email(bob.id, everything.id, False)
    searches.create_saved_search(carol.id, "Carol's", "type=Auction")
    searches.create_saved_search(dave.id, "Dave's", "")
    with session_scope() as s:
        s.execute(sa.update(User.__table__).where(User.__table__.c.id == dave.id).values(deleted_at=utcnow()))
    run = _run()
    add_lead(address="1200 Maple Ridge Dr", lead_type="Probate", roi=35.0, credit_cost=150, refresh_run_id=run)
    add_lead(address="77 Elm St", lead_type="Probate", roi=10.0, credit_cost=120, refresh_run_id=run)
    add_lead(address="5 Pine Ave", lead_type="Auction", roi=40.0, credit_cost=None, refresh_run_id=run)
    add_lead(address="9 Oak Ct", lead_type="Vacancy", roi=None, refresh_run_id=run)
    add_lead(address="1 Old Rd", lead_type="Probate", roi=50.0)  # an older lead: no alert
    add_lead(address="2 Gone Rd", lead_type="Probate", roi=50.0, refresh_run_id=run, is_active=False)

    summary = alerts.match_refresh(run)
    assert {k: summary[k] for k in ("new_leads", "searches_matched", "users_matched", "users_notified", "mails")} == {
        "new_leads": 4, "searches_matched": 4, "users_matched": 3, "users_notified": 3, "mails": 1}
    assert summary["queries"] <= 8

    assert [(n.title, n.body, n.url) for n in notifications.list_notifications(alice.id)] == [
        ("3 new leads match your saved searches", "Austin probate: 2 · Hot: 2", "/dashboard?tab=saved")]
    assert [(n.title, n.body, n.url) for n in notifications.list_notifications(bob.id)] == [
        ("4 new leads match your saved searches", "Everything: 4", "/marketplace")]
    assert [(n.title, n.body, n.url) for n in notifications.list_notifications(carol.id)] == [
        ("1 new lead matches your saved searches", "Carol's: 1", "/marketplace?type=Auction")]
    assert notifications.list_notifications(dave.id) == []

    [mail] = _table(EmailOutbox)
    assert (mail.to_address, mail.subject) == ("alice@example.com", "3 new leads match your saved searches")
    lines = mail.body.splitlines()
    assert lines[:8] == [
        "3 new leads match your saved searches.",
        "",
        "Austin probate: 2 new leads",
        "  - •••• •••• •••• Dr, Austin, TX 78701 · Probate · 150 credits to unlock · ROI 35.0%",
        "  - •••• •••• St, Austin, TX 78701 · Probate · 120 credits to unlock · ROI 10.0%",
        "  Open this search: https://leadvault.test/marketplace?type=Probate",
        "  Stop e-mails for this search: https://leadvault.test/api/alerts/unsubscribe?token="
        + rules.unsubscribe_token("test-secret-key", alice.id, [probate.id]),
        "",
    ]
    assert lines[8:12] == [
        "Hot: 2 new leads",
        "  - •••• •••• Ave, Austin, TX 78701 · Auction · 85 credits to unlock · ROI 40.0%",
        "  - •••• •••• •••• Dr, Austin, TX 78701 · Probate · 150 credits to unlock · ROI 35.0%",
        "  Open this search: https://leadvault.test/marketplace?roi=gt30&sort=newest",
    ]
    assert "Maple" not in mail.body and "Elm" not in mail.body and "Off" not in mail.body
    all_url = ("https://leadvault.test/api/alerts/unsubscribe?token="
               + rules.unsubscribe_token("test-secret-key", alice.id, [probate.id, hot.id]))
    assert mail.headers == {"List-Unsubscribe": f"<{all_url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
    assert lines[-1].endswith(all_url)
    assert rules.read_unsubscribe_token("test-secret-key", _token(all_url)) == (alice.id, tuple(sorted([probate.id, hot.id])))

    notes = {n.user_id: n for n in _table(Notification)}
    assert notes[alice.id].outbox_id == mail.id and notes[bob.id].outbox_id is None
    assert notes[alice.id].matches["searches"] == [
        {"id": probate.id, "name": "Austin probate", "query": "type=Probate", "count": 2},
        {"id": hot.id, "name": "Hot", "query": "roi=gt30&sort=newest", "count": 2}]
    assert len(notes[alice.id].matches["lead_ids"]) == 3

    again = alerts.match_refresh(run)
    assert (again["users_matched"], again["users_notified"], again["mails"]) == (3, 0, 0)
    assert len(_table(Notification)) == 3 and len(_table(EmailOutbox)) == 1
    assert notifications.unread_count(alice.id) == 1


def test_two_workers_at_once_send_one_of_each(db_url, new_user):
    users = [new_user(confirmed=True) for _ in range(5)]
    for n, user in enumerate(users):
        searches.create_saved_search(user.id, "Mine", "type=Probate" if n % 2 else "")
    run = _run()
    for _ in range(3):
        add_lead(lead_type="Probate", refresh_run_id=run)
    results, errors = [], []

    def work():
        try:
            results.append(alerts.match_refresh(run))
        except Exception as exc:  # pragma: no cover - the assertion below shows it
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(r["users_notified"] for r in results) == [0, 5]
    assert sorted(r["mails"] for r in results) == [0, 5]
    assert len(_table(Notification)) == 5 and len(_table(EmailOutbox)) == 5
    assert all(notifications.unread_count(u.id) == 1 for u in users)


def test_digest_lists_at_most_twenty(db_url, new_user):
    user = new_user(confirmed=True)
    searches.create_saved_search(user.id, "All", "")
    run = _run()
    for n in range(25):
        add_lead(address=f"{n} Main St", roi=float(n), refresh_run_id=run)
    alerts.match_refresh(run)
    [mail] = _table(EmailOutbox)
    lines = mail.body.splitlines()
    assert lines[2] == "All: 25 new leads"
    assert len([line for line in lines if line.startswith("  - ")]) == 20
    assert lines[3].endswith("ROI 24.0%") and "  and 5 more" in lines
    [note] = notifications.list_notifications(user.id)
    assert note.title == "25 new leads match your saved searches"


def test_sql_matching_agrees_with_the_filter_rule(db_url, new_user):
    rng = random.Random(15)
    users = [new_user() for _ in range(6)]
    made = []
    groups = {"type": LEAD_TYPE_OPTIONS, "roi": [v for v, _ in ROI_BANDS], "size": [v for v, _ in SIZE_BANDS],
              "tag": [v for v, _ in TAGS]}
    keys = {"type": "type", "roi": "roi", "size": "size", "tag": "tag"}
    for n in range(60):
        params = [(keys[g], v) for g, values in groups.items() if rng.random() < 0.45
                  for v in rng.sample(values, rng.randint(1, 2))]
        query = "&".join(f"{k}={v}" for k, v in params)
        made.append(searches.create_saved_search(users[n % 6].id, f"Search {n}", query))
    run = _run()
    leads = {}
    for _ in range(40):
        fields = dict(lead_type=rng.choice(LEAD_TYPE_OPTIONS), roi=rng.choice([None, -3.0, 0.0, 5.0, 10.0, 19.9, 20.0,
                                                                              30.0, 30.1, 55.0]),
                      square_footage=rng.choice([None, 800, 1000, 1001, 2000, 2500]), is_new=rng.random() < 0.8,
                      is_high_roi=rng.random() < 0.3, signal_count=rng.choice([0, 1, 2, 3]),
                      absentee_owner=rng.random() < 0.3, out_of_state_owner=rng.random() < 0.2)
        leads[str(add_lead(refresh_run_id=run, **fields))] = rules.lead_facets(
            fields["lead_type"], fields["roi"], fields["square_footage"], fields["is_new"], fields["is_high_roi"],
            fields["signal_count"], fields["absentee_owner"], fields["out_of_state_owner"])
    alerts.match_refresh(run)
    expected_per_user = {}
    for view in made:
        filters = Filters.from_query(view.query)
        hits = {lid for lid, facets in leads.items() if rules.matches(filters, facets)}
        owner = next(u.id for n, u in enumerate(users) if made.index(view) % 6 == n)
        expected_per_user.setdefault(owner, {})[view.id] = hits
    notes = {n.user_id: n for n in _table(Notification)}
    for owner, per_search in expected_per_user.items():
        matched = {sid: hits for sid, hits in per_search.items() if hits}
        if not matched:
            assert owner not in notes
            continue
        stored = {s["id"]: s["count"] for s in notes[owner].matches["searches"]}
        assert stored == {sid: len(hits) for sid, hits in matched.items()}
        assert notes[owner].lead_count == len(set().union(*matched.values()))


def test_alerts_off_or_no_new_leads_notify_nobody(db_url, new_user):
    user = new_user(confirmed=True)
    view = searches.create_saved_search(user.id, "All", "")
    searches.set_alerts(user.id, view.id, False)
    run = _run()
    add_lead(refresh_run_id=run)
    assert alerts.match_refresh(run)["users_notified"] == 0
    empty = alerts.match_refresh(_run("r2"))
    assert (empty["new_leads"], empty["users_notified"], empty["queries"]) == (0, 0, 1)
    assert _table(Notification) == [] and _table(EmailOutbox) == []
    assert notifications.unread_count(user.id) == 0
    assert searches.list_saved_searches(user.id)[0].created_at <= utcnow() + timedelta(seconds=1)


def test_digest_goes_out_over_smtp_with_the_unsubscribe_headers(db_url, new_user, monkeypatch):
    """A tiny SMTP server on loopback receives the digest after the commit."""
    from tests.fakes.smtp import smtp_server

    with smtp_server() as (smtp_url, received):
        monkeypatch.setenv("SMTP_URL", smtp_url)
        monkeypatch.setenv("SITE_URL", "https://leadvault.test")
        reload_settings()
        user = new_user(confirmed=True, email="ann@example.com")
        view = searches.create_saved_search(user.id, "Austin probate", "type=Probate")
        run = _run()
        add_lead(lead_type="Probate", refresh_run_id=run)
        assert alerts.match_refresh(run)["mails"] == 1
        deadline = time.monotonic() + 20  # delivered on a thread of its own after the commit
        while not received and time.monotonic() < deadline:
            time.sleep(0.05)
        [raw] = received
        message = email.message_from_string(raw, policy=email.policy.default)
        url = ("https://leadvault.test/api/alerts/unsubscribe?token="
               + rules.unsubscribe_token("test-secret-key", user.id, [view.id]))
        assert message["List-Unsubscribe"] == f"<{url}>"
        assert f"\r\nList-Unsubscribe: <{url}>\r\n" in raw  # one plain line, not RFC 2047 encoded words
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert message["Subject"] == "1 new lead matches your saved searches"
        assert f"Stop e-mails for this search: {url}" in message.get_content()
        while _table(EmailOutbox)[0].sent_at is None and time.monotonic() < deadline:
            time.sleep(0.05)
        [mail] = _table(EmailOutbox)
        assert mail.sent_at is not None and mail.error is None


def test_deleting_the_account_removes_searches_and_notifications(db_url, new_user):
    from marketplace.features.accounts import service_settings as account_settings

    user = new_user(confirmed=True, email="gone@example.com")
    keeper = new_user(confirmed=True)
    searches.create_saved_search(user.id, "Mine", "type=Probate")
    searches.create_saved_search(keeper.id, "Kept", "")
    run = _run()
    add_lead(lead_type="Probate", refresh_run_id=run)
    alerts.match_refresh(run)
    assert notifications.unread_count(user.id) == 1
    account_settings.delete_account(user.id, "gone@example.com")
    assert searches.list_saved_searches(user.id) == [] and notifications.list_notifications(user.id) == []
    assert [n.user_id for n in _table(Notification)] == [keeper.id]
    with get_engine().connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(SavedSearchCriterion)).scalar_one() == 0


def test_sql_matching_agrees_with_the_rule_for_places_and_prices(db_url, new_user):
    """Issue 24 #8: state, city (any case) and ZIP criteria and price ranges in the set-wise matcher;
    a lead without an asking price never matches a range."""
    rng = random.Random(24)
    users = [new_user() for _ in range(5)]
    places = [("TX", "Austin", "78701"), ("TX", "AUSTIN", "78702"), ("TX", "Dallas", "75201"),
              ("OK", "Austin", "74001"), ("CA", "Fresno", "93650")]
    prices = [None, 0, 50000, 99999, 100000, 150000, 200000, 200001, 350000]
    made = []
    for n in range(80):
        params = []
        if rng.random() < 0.5:
            params += [("state", s) for s in rng.sample(["TX", "OK", "CA", "NY"], rng.randint(1, 2))]
        if rng.random() < 0.4:
            params += [("city", c) for c in rng.sample(["austin", "Dallas", "FRESNO", "Boise"], rng.randint(1, 2))]
        if rng.random() < 0.3:
            params += [("zip", z) for z in rng.sample(["78701", "75201", "93650"], 1)]
        if rng.random() < 0.5:
            low, high = sorted(rng.sample([0, 50000, 100000, 150000, 200000, 300000], 2))
            params += [("min_price", low)] if rng.random() < 0.7 else []
            params += [("max_price", high)] if rng.random() < 0.7 else []
        if rng.random() < 0.3:
            params += [("type", rng.choice(LEAD_TYPE_OPTIONS))]
        if rng.random() < 0.3:
            params += [("roi", rng.choice(["gt30", "20-30", "0-10", "unknown"]))]
        query = "&".join(f"{k}={v}" for k, v in params)
        made.append((users[n % 5].id, searches.create_saved_search(users[n % 5].id, f"Search {n}", query)))
    run = _run()
    leads = {}
    for _ in range(60):
        state, city, zip_code = rng.choice(places)
        fields = dict(lead_type=rng.choice(LEAD_TYPE_OPTIONS), roi=rng.choice([None, 5.0, 25.0, 40.0]),
                      square_footage=rng.choice([None, 900, 1500]), is_new=True, is_high_roi=False,
                      state=state, city=city, zip_code=zip_code, asking_price=rng.choice(prices))
        facets = rules.lead_facets(fields["lead_type"], fields["roi"], fields["square_footage"], True, False)
        leads[str(add_lead(refresh_run_id=run, **fields))] = (facets | rules.place_facets(state, city, zip_code),
                                                              fields["asking_price"])
    summary = alerts.match_refresh(run)
    assert summary["queries"] <= 8
    notes = {n.user_id: n for n in _table(Notification)}
    expected: dict = {}
    for owner, view in made:
        filters = Filters.from_query(view.query)
        hits = {lid for lid, (facets, price) in leads.items() if rules.matches(filters, facets, price)}
        if hits:
            expected.setdefault(owner, {})[view.id] = hits
    assert sum(len(per) for per in expected.values()) >= 15  # the random searches do match something
    assert set(notes) == set(expected)
    for owner, matched in expected.items():
        assert {s["id"]: s["count"] for s in notes[owner].matches["searches"]} == {
            sid: len(hits) for sid, hits in matched.items()}
        assert notes[owner].lead_count == len(set().union(*matched.values()))


def test_a_saved_state_and_price_search_alerts_on_a_matching_new_lead_only(db_url, new_user):
    user = new_user(confirmed=True)
    view = searches.create_saved_search(user.id, "Texas under 200k", "state=TX&max_price=200000")
    run = _run()
    match = add_lead(state="TX", city="Austin", asking_price=180000, refresh_run_id=run)
    add_lead(state="TX", city="Austin", asking_price=None, refresh_run_id=run)  # no price: hidden
    add_lead(state="TX", city="Austin", asking_price=250000, refresh_run_id=run)
    add_lead(state="CA", city="Fresno", asking_price=150000, refresh_run_id=run)
    alerts.match_refresh(run)
    [note] = _table(Notification)
    assert note.matches["searches"] == [{"id": view.id, "name": "Texas under 200k",
                                         "query": "state=TX&max_price=200000", "count": 1}]
    assert note.matches["lead_ids"] == [str(match)]


def test_the_digest_marks_generated_leads_as_demo_data(db_url, new_user, monkeypatch):
    monkeypatch.setenv("SITE_URL", "https://leadvault.test")
    reload_settings()
    user = new_user(confirmed=True, email="demo-watcher@example.com")
    searches.create_saved_search(user.id, "Everything", "")
    run = _run("demo")
    add_lead(address="1 Maple Ridge Dr", lead_type="Probate", roi=121.6, credit_cost=150, refresh_run_id=run,
             raw_data={"generated": True})
    alerts.match_refresh(run)
    [mail] = _table(EmailOutbox)
    assert "Demo install: the leads on this site are generated demo data, not public records." in mail.body
    assert "· ROI 121.6% · demo data" in mail.body
