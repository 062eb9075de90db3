"""The dashboard's Pipeline tab (``features/property/state_pipeline_board.py``), its real handlers on a real tab against the test
database: signed out, every handler sends the tab to /auth and shows nothing; a junk id, an unknown stage or a
lead the user has not unlocked moves nothing; a move calls the service once and the board shows it."""

from __future__ import annotations

import sqlalchemy as sa

from marketplace.platform import routes
from marketplace.platform.db import get_engine
from marketplace.platform.models import PipelineEntry
from marketplace.platform import downloads
from marketplace.features.unlock import service as unlocks
from marketplace.features.property.state_pipeline_board import PipelineState
from tests.factories import add_lead
from tests.platform.tabs import open_tab, seen, toasts


def _entries() -> list[tuple]:
    t = PipelineEntry.__table__
    with get_engine().connect() as conn:
        return [(str(r.lead_id), r.stage, r.dead_reason) for r in conn.execute(sa.select(t.c.lead_id, t.c.stage,
                                                                                              t.c.dead_reason))]


def _counts(tab) -> dict:
    return {c.stage: c.count for c in tab.columns}


def _board(new_user, unlocked: int = 2):
    user = new_user(credits=1_000)
    ids = [str(add_lead(address=f"{n + 1} Elm St", city="Dallas", credit_cost=10)) for n in range(unlocked)]
    for lead_id in ids:
        unlocks.unlock_lead(user.id, lead_id)
    tab = open_tab(PipelineState, user.id, path="/dashboard", query={"tab": "pipeline"})
    return user, ids, tab


def test_signed_out_every_handler_goes_to_sign_in_and_shows_nothing(db_url):
    tab = open_tab(PipelineState, None, path="/dashboard")
    assert seen(tab.load()) == [("redirect", "/auth")]
    assert seen(tab.show_more("new")) == [("redirect", "/auth")]
    assert seen(tab.move(str(add_lead()), "contacted")) == [("redirect", "/auth")]
    assert seen(tab.confirm_dead({"reason": "sold"})) == [("redirect", "/auth")]
    assert seen(tab.export_csv()) == [("redirect", "/auth")]
    assert (tab.columns, tab.total, tab.loaded_for, tab.moving, _entries()) == ([], 0, "", False, [])


def test_the_board_shows_each_stage_with_its_count(db_url, new_user):
    user, ids, tab = _board(new_user, unlocked=2)
    add_lead(address="9 Locked Rd")  # not unlocked: never on the board
    assert seen(tab.load()) == []
    assert [c.label for c in tab.columns] == ["New", "Contacted", "Offer Made", "Under Contract", "Closed", "Dead"]
    assert _counts(tab) == {"new": 2, "contacted": 0, "offer_made": 0, "under_contract": 0, "closed": 0, "dead": 0}
    new = tab.columns[0]
    assert sorted(c.address for c in new.cards) == ["1 Elm St", "2 Elm St"] and not new.has_more
    assert new.cards[0].place == "Dallas, TX 78701" and new.cards[0].href == f"/property/{new.cards[0].lead_id}"
    assert (tab.total, tab.summary, tab.loaded_for, tab.loading) == (2, "2 leads in your pipeline", str(user.id), False)


def test_a_move_calls_the_service_once_and_the_board_follows(db_url, new_user):
    user, ids, tab = _board(new_user, unlocked=2)
    seen(tab.load())
    events = seen(tab.move(ids[0], "contacted"))
    assert ("toast", "success", "Moved to Contacted", "1 Elm St") in events
    assert events[-1] == ("event", "PipelineState.load") and tab.moving is False
    assert _entries() == [(ids[0], "contacted", None)]
    seen(tab.load())
    assert (_counts(tab)["new"], _counts(tab)["contacted"]) == (1, 1)
    assert tab.columns[1].cards[0].address == "1 Elm St"
    assert seen(tab.move(ids[0], "contacted")) == [] and _entries() == [(ids[0], "contacted", None)]  # no move


def test_junk_unknown_stages_and_locked_leads_move_nothing(db_url, new_user):
    user, ids, tab = _board(new_user, unlocked=1)
    seen(tab.load())
    assert seen(tab.move("not-a-uuid", "contacted")) == []
    assert seen(tab.move(ids[0], "won")) == []
    locked = str(add_lead(address="9 Locked Rd"))
    events = seen(tab.move(locked, "contacted"))
    assert toasts(events) == [("error", "Lead Locked", "Unlock this lead to track it in your pipeline.")]
    assert events[-1] == ("event", "PipelineState.load")  # the board is re-read
    assert _entries() == [] and tab.moving is False and _counts(tab)["new"] == 1


def test_dead_asks_why_first_and_an_empty_reason_is_refused(db_url, new_user):
    user, ids, tab = _board(new_user, unlocked=1)
    seen(tab.load())
    assert seen(tab.move(ids[0], "dead")) == []
    assert (tab.dead_open, tab.dead_address, tab._dead_lead, _entries()) == (True, "1 Elm St", ids[0], [])
    events = seen(tab.confirm_dead({"reason": "   "}))
    assert toasts(events) == [("error", "Reason Required", "Say why this lead is dead.")]
    assert tab.dead_open and _entries() == []
    events = seen(tab.confirm_dead({"reason": "Owner sold to a neighbour"}))
    assert ("toast", "success", "Moved to Dead", "1 Elm St") in events
    assert (tab.dead_open, tab._dead_lead, tab.dead_saving) == (False, "", False)
    assert _entries() == [(ids[0], "dead", "Owner sold to a neighbour")]
    assert seen(tab.confirm_dead({"reason": "again"})) == []  # the dialog's lead is gone: nothing


def test_filters_reload_and_the_summary_says_matches(db_url, new_user):
    user, ids, tab = _board(new_user, unlocked=2)
    assert tab.set_filter("colour", "red") is None and not tab.filters_active
    tab.search({"city": "Dallas", "q": "1 Elm"})
    seen(tab.load())
    assert (tab.total, tab.summary) == (1, "1 lead matches your filters")
    tab.clear_filters()
    seen(tab.load())
    assert (tab.total, tab.summary) == (2, "2 leads in your pipeline")


def test_the_csv_is_a_signed_link_for_this_user(db_url, new_user):
    user, ids, tab = _board(new_user, unlocked=1)
    (kind, url), = seen(tab.export_csv())
    prefix = f"{routes.API_PIPELINE_CSV}?token="
    assert kind == "download" and url.startswith(prefix)
    assert downloads.read_token(url[len(prefix):], downloads.PIPELINE_CSV, downloads.PIPELINE_ALL) == user.id
