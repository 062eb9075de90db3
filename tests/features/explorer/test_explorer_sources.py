"""The Sources panel on /explorerdev (``features/explorer/state_sources.py``), its real handlers on a real tab
against the test database: anyone but a super admin is refused and queues nothing; an unknown dataset is
refused with the service's words; the panel holds one page of rows."""

from __future__ import annotations

import sqlalchemy as sa

from marketplace.platform.db import get_engine
from marketplace.platform.models import RecordJob
from marketplace.features.records import service_jobs as record_jobs
from marketplace.features.explorer.state_sources import PAGE_SIZE
from marketplace.features.explorer.state_sources import ExplorerSourcesState
from tests.platform.tabs import open_tab, seen, toasts

DENIED = "Access Denied: You don't have super admin privileges"


def _jobs() -> int:
    with get_engine().connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(RecordJob.__table__)).scalar_one()


def test_anyone_but_a_super_admin_is_refused_and_queues_nothing(db_url, new_user):
    member = new_user()
    tab = open_tab(ExplorerSourcesState, member.id, path="/explorerdev")
    dataset = record_jobs.panel_rows("UTC")[0]["id"]
    assert seen(tab.run_now(dataset)) == [("toast", "error", DENIED, ""), ("redirect", "/")]
    assert seen(tab.load_sources()) == [("toast", "error", DENIED, ""), ("redirect", "/")]
    assert seen(open_tab(ExplorerSourcesState, None).run_now(dataset)) == [("redirect", "/")]
    assert (tab.source_rows, tab.sources_loaded, _jobs()) == ([], False, 0)


def test_the_panel_holds_one_page_and_an_unknown_dataset_is_refused(db_url, new_user):
    admin = new_user(admin=True)
    tab = open_tab(ExplorerSourcesState, admin.id, path="/explorerdev")
    assert seen(tab.load_sources()) == []
    every = record_jobs.panel_rows("UTC")
    assert (tab.sources_loaded, tab.sources_total) == (True, len(every))
    assert [row["id"] for row in tab.source_rows] == [row["id"] for row in every[:PAGE_SIZE]]
    assert tab.sources_pages == max(1, -(-len(every) // PAGE_SIZE))
    seen(tab.sources_page_by(7))  # junk step: nothing moves
    assert tab.sources_page == 0
    assert toasts(seen(tab.run_now("no-such-dataset"))) == [("error", "Could not queue the run", "Unknown dataset.")]
    assert _jobs() == 0
    idle = next(row for row in every if row["kind"] == "dataset")  # none is configured to run in tests: why is said
    assert idle["can_run"] is False
    ((kind, title, message),) = toasts(seen(tab.run_now(idle["id"])))
    assert (kind, title) == ("error", "Could not queue the run") and message.startswith(f"{idle['title']}: ")
    assert _jobs() == 0
