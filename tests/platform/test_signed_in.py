"""``platform.ui.state_signed_in``: the user resolved once per event and passed in, Reflex's view
of the handler unchanged but for ``user_id``, and every failure one toast.

The handlers run on a stand-in for the state (the real ``AuthState`` methods the
decorator calls, bound to a plain object): Reflex's own wiring is proven by the
browser tests of the converted pages; here, what the decorator decides."""

from __future__ import annotations

import inspect
import logging
import uuid

import pytest

from marketplace.platform.errors import UserError
from marketplace.platform.db import session_scope
from marketplace.platform.texts import ACCESS_DENIED, UNEXPECTED_ERROR, UNLOCK_AUTH_REQUIRED
from marketplace.platform.models import SuperAdmin
from marketplace.platform.ui.state_auth import AuthState
from marketplace.platform.ui.state_signed_in import signed_in
from tests import aio

FAILED = ("Error", "Failed to do the thing.")


class Tab:
    """The parts of an AuthState the decorator uses; ``user`` is who the session resolves to."""

    _error_text = AuthState._error_text
    _error_toast = AuthState._error_toast
    _access_denied = AuthState._access_denied

    def __init__(self, user: uuid.UUID | None):
        self.user, self.resolved, self.saving, self.calls = user, 0, False, []

    async def _current_user_id(self):
        self.resolved += 1
        return self.user

    @signed_in(FAILED, signed_out=UNLOCK_AUTH_REQUIRED)
    async def act(self, user_id: uuid.UUID, lead_id: str, count: int = 1):
        self.calls.append((user_id, lead_id, count))
        if lead_id == "refused":
            raise UserError("Nope", "Not this one.")
        if lead_id == "broken":
            raise RuntimeError("database down")
        return "done"

    @signed_in(FAILED, signed_out="/auth", busy="saving")
    async def save(self, user_id: uuid.UUID, what: str):
        yield "busy" if self.saving else "not busy"
        if what == "broken":
            raise RuntimeError("disk full")
        yield f"saved {what} for {user_id}"

    @signed_in(FAILED, after_error=lambda state: "reload")
    async def change(self, user_id: uuid.UUID, ok: bool):
        if not ok:
            raise UserError("Nope", "Not this one.")
        return "changed"

    @signed_in(super_admin=True)
    async def admin_only(self, user_id: uuid.UUID):
        return f"admin {user_id}"


def run(coro):
    return aio.run(coro)


def collect(gen) -> list:
    async def _all():
        return [item async for item in gen]
    return aio.run(_all())


def test_reflex_sees_the_event_arguments_only_and_the_same_kind_of_function():
    assert list(inspect.signature(Tab.act).parameters) == ["self", "lead_id", "count"]
    assert Tab.act.__annotations__ == {"lead_id": "str", "count": "int"}
    assert inspect.iscoroutinefunction(Tab.act) and not inspect.isasyncgenfunction(Tab.act)
    assert inspect.isasyncgenfunction(Tab.save) and list(inspect.signature(Tab.save).parameters) == ["self", "what"]
    assert Tab.act.__name__ == "act" and Tab.save.__name__ == "save"


def test_the_user_is_resolved_once_and_passed_in():
    me = uuid.uuid4()
    tab = Tab(me)
    assert run(tab.act("lead-1", count=2)) == "done"
    assert tab.calls == [(me, "lead-1", 2)] and tab.resolved == 1


def test_signed_out_answers_without_calling_the_handler():
    tab = Tab(None)
    event = run(tab.act("lead-1"))
    assert tab.calls == [] and "Authentication Required" in str(event) and UNLOCK_AUTH_REQUIRED[1] in str(event)
    (redirect,) = collect(Tab(None).save("x"))
    assert "/auth" in str(redirect)


def test_a_user_error_is_its_own_toast_and_anything_else_the_fallback(caplog):
    tab = Tab(uuid.uuid4())
    refused = str(run(tab.act("refused")))
    assert "Nope" in refused and "Not this one." in refused
    with caplog.at_level(logging.ERROR, logger="marketplace.auth"):
        broken = str(run(tab.act("broken")))
    assert FAILED[1] in broken and "database down" not in broken
    assert "Tab.act for" in caplog.text and "database down" in caplog.text


def test_busy_is_set_while_running_cleared_after_and_a_second_click_ignored():
    me = uuid.uuid4()
    tab = Tab(me)
    assert collect(tab.save("name")) == ["busy", f"saved name for {me}"] and tab.saving is False
    updates = collect(tab.save("broken"))
    assert updates[0] == "busy" and FAILED[1] in str(updates[1]) and tab.saving is False
    tab.saving = True  # a click while the first one runs
    assert collect(tab.save("name")) == [] and tab.resolved == 2


def test_super_admin_only(new_user):
    user = new_user()
    denied = run(Tab(user.id).admin_only())
    assert ACCESS_DENIED in str(denied[0]) and '"/"' in str(denied[1])
    assert "Access Denied" not in str(run(Tab(None).admin_only()))  # signed out: home, no toast
    with session_scope() as s:
        s.add(SuperAdmin(user_id=user.id))
    assert run(Tab(user.id).admin_only()) == f"admin {user.id}"


def test_a_handler_without_user_id_is_refused_at_import():
    with pytest.raises(TypeError):
        signed_in()(lambda self: None)


def test_after_error_events_follow_the_toast_only_on_failure():
    tab = Tab(uuid.uuid4())
    assert run(tab.change(True)) == "changed"
    toast, then = run(tab.change(False))
    assert "Not this one." in str(toast) and then == "reload"


def test_reflex_registers_a_decorated_handler_with_its_event_arguments():
    from marketplace.features.explorer.state_leads import ExplorerLeadsState
    from marketplace.features.marketplace.state import MarketplaceState

    unlock = MarketplaceState.event_handlers["unlock"]
    assert list(inspect.signature(unlock.fn).parameters) == ["self", "lead_id"]
    assert unlock._type_hints == {"lead_id": str} and inspect.isasyncgenfunction(unlock.fn)
    assert len(MarketplaceState.unlock("lead-1").args) == 1  # one event argument: lead_id
    page = ExplorerLeadsState.event_handlers["leads_go_to_page"]
    assert page._type_hints == {"number": int} and page._is_coroutine_function


def test_a_malformed_event_gets_the_areas_refusal_and_one_log_line(caplog):
    """Issue 40, item 5: ``unlock`` sent by hand with ``{}`` or an extra argument: the area's toast, one
    warning line naming the handler and what was wrong, no traceback, the handler never called."""
    tab = Tab(uuid.uuid4())
    with caplog.at_level(logging.WARNING):
        missing = run(tab.act())
        extra = run(tab.act("L1", 2, "extra"))
        unknown = run(tab.act(lead_id="L1", evil=True))
        streamed = collect(tab.save())
    for toast in (missing, extra, unknown, streamed[0]):
        assert "Failed to do the thing." in str(toast)
    assert len(streamed) == 1 and tab.calls == []
    assert [r.getMessage() for r in caplog.records] == [
        "malformed event Tab.act refused: missing a required argument: 'lead_id'",
        "malformed event Tab.act refused: too many positional arguments",
        "malformed event Tab.act refused: got an unexpected keyword argument 'evil'",
        "malformed event Tab.save refused: missing a required argument: 'what'",
    ]
    assert all(r.exc_info is None for r in caplog.records) and "Traceback" not in caplog.text
