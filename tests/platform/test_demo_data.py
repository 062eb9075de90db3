"""The demo-data banner's state (``platform/ui/state_demo_data.py``), its real handler on a real tab against the test
database: with a real lead source configured and no generated lead, the banner goes; a generated lead in the
marketplace brings it back; visitors and members get the same answer."""

from __future__ import annotations

import pytest

from marketplace.platform.config import reload_settings
from marketplace.platform import demo_data
from marketplace.platform.ui.state_demo_data import DemoDataState
from tests.factories import add_lead
from tests.platform.tabs import open_tab, seen


@pytest.fixture
def real_source(monkeypatch):
    for name in ("BATCHDATA_LISTS", "BATCHDATA_API_KEY", "BATCHDATA_LOCATION", "APP_ENV"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPEN_DATA_DATASETS", "chi-vacant-buildings-violations")
    reload_settings()
    demo_data.forget_demo_check()
    yield
    monkeypatch.undo()
    reload_settings()
    demo_data.forget_demo_check()


def test_the_banner_follows_the_data(db_url, real_source, new_user):
    visitor, member = open_tab(DemoDataState, None), open_tab(DemoDataState, new_user().id)
    visitor.demo_data = member.demo_data = True  # what a prerendered page may start with
    assert seen(visitor.check_demo_data()) == [] and seen(member.check_demo_data()) == []
    assert (visitor.demo_data, member.demo_data) == (False, False)
    add_lead(raw_data={"generated": True})
    demo_data.forget_demo_check()  # past the few seconds the answer is cached
    seen(visitor.check_demo_data())
    seen(member.check_demo_data())
    assert (visitor.demo_data, member.demo_data) == (True, True)
