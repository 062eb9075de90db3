"""Saved searches in the database: create, list with counts, rename, delete, toggles, open."""

import threading
from datetime import date, timedelta

import pytest
import sqlalchemy as sa

from marketplace.platform.errors import UserError
from marketplace.platform.db import get_engine, session_scope
from marketplace.features.marketplace.rules import Filters
from marketplace.platform.models import LeadRefreshRun, SavedSearch, SavedSearchCriterion, utcnow
from marketplace.features.marketplace import service_saved_searches as svc
from marketplace.features.marketplace.service import count_leads, rebuild_facets_now
from tests.factories import add_lead


def _err(exc_info):
    return exc_info.value.title, exc_info.value.message


def _table_rows():
    with get_engine().connect() as conn:
        searches = conn.execute(sa.select(SavedSearch.__table__).order_by(SavedSearch.__table__.c.id)).all()
        criteria = conn.execute(sa.select(SavedSearchCriterion.__table__)).all()
    return searches, criteria


def test_create_normalises_and_lists_with_counts(db_url, new_user):
    user = new_user()
    add_lead(lead_type="Probate", roi=35.0, created_at=utcnow() - timedelta(days=3))
    add_lead(lead_type="Auction", roi=12.0, created_at=utcnow() - timedelta(days=3))
    add_lead(lead_type="Probate", roi=5.0, created_at=utcnow() - timedelta(days=3), is_active=False)
    rebuild_facets_now()
    view = svc.create_saved_search(user.id, "  Austin  probate ", "type=Probate&page=4&per_page=50&junk=1")
    assert (view.name, view.query, view.summary) == ("Austin probate", "type=Probate", "Probate · sorted by Highest ROI")
    assert (view.matches_now, view.new_since_opened, view.alerts_enabled, view.email_enabled) == (1, 0, True, True)
    everything = svc.create_saved_search(user.id, "Everything", "sort=newest")
    assert (everything.summary, everything.matches_now) == ("All leads · sorted by Newest", 2)
    searches, criteria = _table_rows()
    assert [(s.name_key, s.criteria_groups) for s in searches] == [("austin probate", 1), ("everything", 0)]
    assert [(c.grp, c.value) for c in criteria] == [("type", "Probate")]
    # Leads a refresh adds after the search was saved count as new since opened; others do not.
    run = _run()
    add_lead(lead_type="Probate", roi=40.0, refresh_run_id=run)
    add_lead(lead_type="Vacancy", roi=40.0, refresh_run_id=run)
    add_lead(lead_type="Probate", roi=40.0)  # seeded, not from a refresh
    rebuild_facets_now()
    listed = svc.list_saved_searches(user.id)
    assert [(v.name, v.matches_now, v.new_since_opened) for v in listed] == [("Everything", 5, 2),
                                                                            ("Austin probate", 3, 1)]
    svc.open_saved_search(user.id, listed[1].id)
    assert [v.new_since_opened for v in svc.list_saved_searches(user.id)] == [2, 0]
    assert svc.list_saved_searches(new_user().id) == []


def test_names_are_unique_per_user_whatever_the_case(db_url, new_user):
    user, other = new_user(), new_user()
    svc.create_saved_search(user.id, "Austin probate", "")
    with pytest.raises(UserError) as err:
        svc.create_saved_search(user.id, "AUSTIN PROBATE", "type=Auction")
    assert _err(err) == ("Name Taken", "You already have a saved search named 'AUSTIN PROBATE'.")
    svc.create_saved_search(other.id, "Austin probate", "")  # another user may
    with pytest.raises(UserError) as err:
        svc.create_saved_search(user.id, "   ", "")
    assert _err(err) == ("Name Required", "Enter a name for this search.")
    assert len(_table_rows()[0]) == 2


def test_at_most_25_searches(db_url, new_user):
    user = new_user()
    for n in range(25):
        svc.create_saved_search(user.id, f"Search {n}", f"roi=gt30&tag=new" if n % 2 else "")
    with pytest.raises(UserError) as err:
        svc.create_saved_search(user.id, "One more", "")
    assert _err(err) == ("Saved Search Limit", "You can save up to 25 searches. Delete one to save another.")
    listed = svc.list_saved_searches(user.id)
    assert len(listed) == 25 and listed[0].name == "Search 24"
    svc.delete_saved_search(user.id, listed[0].id)
    assert svc.create_saved_search(user.id, "One more", "").name == "One more"


def test_concurrent_saves_never_pass_the_limit(db_url, new_user):
    user = new_user()
    for n in range(23):
        svc.create_saved_search(user.id, f"Search {n}", "")
    outcomes = []

    def save(n):
        try:
            svc.create_saved_search(user.id, f"Racing {n}", "")
            outcomes.append("saved")
        except UserError as exc:
            outcomes.append(exc.title)

    threads = [threading.Thread(target=save, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["Saved Search Limit", "Saved Search Limit", "saved", "saved"]
    assert len(svc.list_saved_searches(user.id)) == 25


def test_rename_delete_toggles_and_open(db_url, new_user):
    user = new_user()
    first = svc.create_saved_search(user.id, "Austin probate", "type=Probate&sort=newest")
    svc.create_saved_search(user.id, "Hot", "roi=gt30")
    renamed = svc.rename_saved_search(user.id, first.id, " austin PROBATE ")  # its own name, another case
    assert renamed.name == "austin PROBATE"
    with pytest.raises(UserError) as err:
        svc.rename_saved_search(user.id, first.id, "hot")
    assert _err(err) == ("Name Taken", "You already have a saved search named 'hot'.")
    assert svc.set_alerts(user.id, first.id, False).alerts_enabled is False
    assert svc.set_email(user.id, first.id, False).email_enabled is False
    again = svc.set_alerts(user.id, first.id, True)
    assert (again.alerts_enabled, again.email_enabled) == (True, False)
    before = utcnow()
    assert svc.open_saved_search(user.id, first.id) == "/marketplace?type=Probate&sort=newest"
    with session_scope() as s:
        assert s.get(SavedSearch, first.id).last_opened_at >= before
    svc.delete_saved_search(user.id, first.id)
    assert [v.name for v in svc.list_saved_searches(user.id)] == ["Hot"]
    with session_scope() as s:
        assert s.execute(sa.select(sa.func.count()).select_from(SavedSearchCriterion)).scalar_one() == 1


def test_another_users_or_a_missing_search_is_not_found(db_url, new_user):
    owner, other = new_user(), new_user()
    mine = svc.create_saved_search(owner.id, "Mine", "type=Probate")
    calls = [
        lambda sid: svc.rename_saved_search(other.id, sid, "Stolen"),
        lambda sid: svc.delete_saved_search(other.id, sid),
        lambda sid: svc.set_alerts(other.id, sid, False),
        lambda sid: svc.set_email(other.id, sid, False),
        lambda sid: svc.open_saved_search(other.id, sid),
    ]
    for call in calls:
        for sid in (mine.id, mine.id + 1000, "1", None, True, -1):
            with pytest.raises(UserError) as err:
                call(sid)
            assert _err(err) == ("Saved Search Not Found", "This saved search no longer exists.")
    [still] = svc.list_saved_searches(owner.id)
    assert (still.name, still.alerts_enabled, still.email_enabled) == ("Mine", True, True)
    with session_scope() as s:
        assert s.get(SavedSearch, mine.id).last_opened_at is None


def _run(key: str = "r1") -> int:
    with session_scope() as s:
        run = LeadRefreshRun(run_key=key, run_date=date(2026, 11, 21), status="completed")
        s.add(run)
        s.flush()
        return run.id


def test_unlocked_tag_counts_the_users_unlocks(db_url, new_user):
    from marketplace.features.unlock import service as unlocks

    user, other = new_user(credits=5000), new_user(credits=5000)
    mine_new = add_lead(lead_type="Probate", is_new=True, roi=35.0)
    mine_old = add_lead(lead_type="Auction", is_new=False, roi=12.0)
    add_lead(lead_type="Probate", is_new=True, roi=5.0)
    add_lead(lead_type="Probate", is_new=False, roi=5.0)
    theirs = add_lead(lead_type="Auction", is_new=False, roi=40.0)
    rebuild_facets_now()
    unlocks.unlock_lead(user.id, mine_new)
    unlocks.unlock_lead(user.id, mine_old)
    unlocks.unlock_lead(other.id, theirs)
    queries = {"tag=unlocked": 2, "tag=unlocked&tag=new": 3, "type=Probate&tag=unlocked&tag=new": 2,
               "type=Auction&tag=unlocked": 1, "roi=gt30&tag=unlocked&tag=high_roi": 1, "tag=new": 2}
    for n, query in enumerate(queries):
        svc.create_saved_search(user.id, f"S{n}", query)
    counted = {v.query: v.matches_now for v in svc.list_saved_searches(user.id)}
    assert counted == queries
    # The same as the marketplace's own count over the leads.
    with get_engine().connect() as conn:
        for query in queries:
            assert count_leads(conn, Filters.from_query(query), user.id) == queries[query]
    assert svc.list_saved_searches(user.id)[-1].summary == "Unlocked · sorted by Highest ROI"


def test_place_and_price_searches_store_their_range_and_count_over_the_leads(db_url, new_user):
    """Issue 24 #8: a search with a state, city, ZIP or price range keeps the range in its row and
    its places as criteria (a city in lower case), and counts like the marketplace does."""
    from marketplace.features.unlock import service as unlocks

    user = new_user(credits=5000)
    austin = add_lead(state="TX", city="Austin", zip_code="78701", asking_price=150000, lead_type="Probate")
    add_lead(state="TX", city="AUSTIN", zip_code="78702", asking_price=90000, lead_type="Auction")
    add_lead(state="TX", city="Dallas", zip_code="75201", asking_price=200000, lead_type="Probate")
    add_lead(state="TX", city="Austin", zip_code="78701", asking_price=None, lead_type="Probate")  # N/A price
    add_lead(state="OK", city="Austin", zip_code="74001", asking_price=120000, lead_type="Probate")
    add_lead(state="TX", city="Austin", zip_code="78701", asking_price=160000, is_active=False)
    rebuild_facets_now()
    unlocks.unlock_lead(user.id, austin)
    queries = {
        "state=TX": 4, "state=TX&city=austin": 3, "city=Austin": 4, "zip=78701&zip=75201": 3,
        "min_price=100000&max_price=200000": 3, "state=TX&min_price=100000": 2, "max_price=100000": 1,
        "type=Probate&state=TX&city=Austin&min_price=0": 1, "state=TX&tag=unlocked": 1,
        "state=OK&tag=unlocked": 0, "type=Probate": 4,
    }
    for n, query in enumerate(queries):
        svc.create_saved_search(user.id, f"S{n}", query)
    listed = {v.query: v for v in svc.list_saved_searches(user.id)}
    assert {q: v.matches_now for q, v in listed.items()} == {
        Filters.from_query(q).to_query(): n for q, n in queries.items()}
    with get_engine().connect() as conn:
        for query, expected in queries.items():
            assert count_leads(conn, Filters.from_query(query), user.id) == expected
    assert listed["type=Probate&state=TX&city=Austin&min_price=0"].summary == (
        "Probate · TX · Austin · Asking price from $0 · sorted by Highest ROI")
    searches, criteria = _table_rows()
    by_query = {s.query: s for s in searches}
    ranged = by_query["min_price=100000&max_price=200000"]
    assert (ranged.min_price, ranged.max_price, ranged.criteria_groups) == (100000, 200000, 1)
    mixed = by_query["state=TX&city=austin"]
    assert (mixed.min_price, mixed.max_price, mixed.criteria_groups) == (None, None, 2)
    assert sorted((c.grp, c.value) for c in criteria if c.saved_search_id == mixed.id) == [
        ("city", "austin"), ("state", "TX")]
    # New since opened: the leads a refresh adds, with the same conditions.
    run = _run()
    add_lead(state="TX", city="austin", asking_price=110000, refresh_run_id=run)
    add_lead(state="CA", city="Fresno", asking_price=110000, refresh_run_id=run)
    new = {v.query: v.new_since_opened for v in svc.list_saved_searches(user.id)}
    assert (new["state=TX&city=austin"], new["min_price=100000&max_price=200000"], new["state=TX&min_price=100000"],
            new["max_price=100000"]) == (1, 2, 1, 0)


def test_ten_long_cities_fit_a_saved_search(db_url, new_user):
    user = new_user()
    cities = [f"Ciudad {n} " + "ñ" * 90 for n in range(10)]
    query = "&".join(f"city={c}" for c in cities) + "&" + "&".join(f"state={s}" for s in ("TX", "CA", "NY"))
    view = svc.create_saved_search(user.id, "Long", query)
    assert len(view.query) > 1000 and Filters.from_query(view.query).cities == tuple(cities)
