"""Real tabs of the app's page states, for state tests without a browser.

``open_tab(StateClass, user)`` is what Reflex holds for a new browser tab: the app's root ``State`` with every
substate (``State(_reflex_internal_init=True)``, as Reflex's memory state manager makes it), given a page's
router data (path, query, headers, a client token of its own) as Reflex's event processor gives it
(``_update_router_vars``), and answers the instance of ``StateClass`` in it. Handlers are called on it as
Reflex calls them: ``tab.load()`` is the handler's function bound to the instance (Reflex's
``EventHandler.__get__``); a background task's function is called with the instance
(``background(tab, "name", *args)``; ``async with self`` is then the instance itself). ``get_state`` is
Reflex's own, within the tab's one tree (``substate(tab, cls)`` from a test).

A ``user`` tab holds a real session (``platform.sessions.create_session``, on the test database): every
handler resolves it the real way; ``end_session`` revokes it on the server, ``sign_in`` puts another
user's session in the tab. Unit tests without a database take ``sessions_in_memory(monkeypatch)``: the
tokens a tab was given then resolve to its user from memory, and the header's account is the one the tab
was opened with (``resolve_session`` and ``load_account`` are the two things answered).
``resolutions(monkeypatch)`` counts the session resolutions per tab (``AuthState._current_user_id``, called
through).

``answer`` gives what a handler answers as given, ``run`` as a flat list of events; ``describe``/``seen``
what the user would see of them: ('redirect', path), ('toast', kind, title, text), ('download', url),
('event', 'State.handler').
"""

from __future__ import annotations

import collections
import importlib
import inspect
import pkgutil
import uuid
from urllib.parse import parse_qsl, urlencode
from datetime import datetime, timedelta, timezone

import reflex as rx
from reflex.event import EventHandler
from reflex_base import constants

import marketplace
from marketplace.platform import account_status, sessions as auth_sessions
from marketplace.platform.ui.state_auth import AuthState
from tests import aio

CLIENT_TOKEN = "t" * 32
DEVICE_ID = "d" * 32
CLIENT_IP = "203.0.113.7"


def _import_states() -> None:
    """Every state module of the app, so that the root state has every substate a handler may ask for."""
    for info in pkgutil.walk_packages(marketplace.__path__, "marketplace."):
        if info.name.rsplit(".", 1)[-1].startswith("state"):
            importlib.import_module(info.name)


_import_states()


def router_data(path: str = "/", query: dict | str | None = None, ip: str = CLIENT_IP,
                token: str = CLIENT_TOKEN) -> dict:
    """The router data Reflex's event processor gives an event of a tab at ``path`` (``query``: the
    parameters, or the query string as typed, repeated keys and all)."""
    text = query if isinstance(query, str) else urlencode(dict(query or {}))
    return {
        constants.RouteVar.PATH: path,
        constants.RouteVar.ORIGIN: path + ("?" + text if text else ""),
        constants.RouteVar.QUERY: dict(parse_qsl(text)),
        constants.RouteVar.CLIENT_TOKEN: token,
        constants.RouteVar.SESSION_ID: "s" * 20,
        constants.RouteVar.CLIENT_IP: ip,
        constants.RouteVar.HEADERS: {"origin": "http://localhost:3000", "host": "localhost:3000",
                                     "user-agent": "pytest", "asgi-scope-client": ip},
    }


def navigate(tab, path: str = "/", query: dict | str | None = None) -> None:
    """The tab's next events come from ``path`` (``query``), as after a navigation."""
    root = tab._get_root_state()
    token = root.router.session.client_token or uuid.uuid4().hex
    root.router_data = root._update_router_vars(router_data(path, query, token=token), root.router_data)


class _DbSessions:
    """Real sessions in the test database."""

    def issue(self, user_id: uuid.UUID, credits: int) -> auth_sessions.TokenPair:
        from marketplace.platform.db import session_scope

        with session_scope() as session:
            return auth_sessions.create_session(session, user_id, user_agent="pytest", device_id=DEVICE_ID)

    def revoke(self, access_token: str, refresh_token: str) -> None:
        from marketplace.platform.db import session_scope

        with session_scope() as session:
            auth_sessions.revoke_session(session, access_token, refresh_token)


_sessions = _DbSessions()


class _MemorySessions:
    """A unit test's sessions and accounts: the tokens issued here resolve to their user, any other to
    nobody; the user's account (the header's data) is the one the tab was opened with."""

    def __init__(self):
        self.users: dict[str, uuid.UUID] = {}
        self.accounts: dict[uuid.UUID, account_status.CurrentUser] = {}

    def issue(self, user_id: uuid.UUID, credits: int) -> auth_sessions.TokenPair:
        now = datetime.now(timezone.utc)
        pair = auth_sessions.TokenPair(access_token=uuid.uuid4().hex, refresh_token=uuid.uuid4().hex,
                                       access_expires_at=now + timedelta(hours=1),
                                       refresh_expires_at=now + timedelta(days=30))
        self.users[pair.access_token] = user_id
        self.accounts[user_id] = account_status.CurrentUser(
            id=user_id, email=f"{user_id.hex[:10]}@example.com", first_name="Test", last_name="User",
            credits=credits, email_confirmed=True, is_super_admin=False)
        return pair

    def revoke(self, access_token: str, refresh_token: str) -> None:
        self.users.pop(access_token, None)

    def resolve(self, access_token: str, refresh_token: str) -> auth_sessions.SessionCheck:
        return auth_sessions.SessionCheck(self.users.get(access_token))

    def load_account(self, user_id: uuid.UUID):
        return self.accounts.get(user_id), None


def sessions_in_memory(monkeypatch) -> None:
    """For unit tests (no database): the tabs' sessions and accounts are answered from memory
    (``platform.sessions.resolve_session`` and ``platform.account_status.load_account``)."""
    memory = _MemorySessions()
    monkeypatch.setitem(globals(), "_sessions", memory)
    monkeypatch.setattr(auth_sessions, "resolve_session", memory.resolve)
    monkeypatch.setattr(account_status, "load_account", memory.load_account)


def resolutions(monkeypatch):
    """Counts the session resolutions (``AuthState._current_user_id``, called through) per tab:
    ``resolved = resolutions(monkeypatch)``, then ``resolved(tab)``."""
    counts = collections.Counter()
    real = AuthState._current_user_id

    async def counted(self):
        counts[self.router.session.client_token] += 1
        return await real(self)

    monkeypatch.setattr(AuthState, "_current_user_id", counted)
    return lambda tab: counts[tab.router.session.client_token]


def open_tab(state_cls: type, user: uuid.UUID | None = None, *, credits: int = 0, path: str = "/",
             query: dict | str | None = None, time_zone: str = "UTC", tokens: auth_sessions.TokenPair | None = None):
    """A fresh tab at ``path`` (``query``) holding ``user``'s session (``tokens``, or a new one; none without a
    user), and its ``state_cls``."""
    root = rx.State(_reflex_internal_init=True)
    navigate(root, path, query)
    tab = root._get_state_from_cache(state_cls)
    auth = root._get_state_from_cache(AuthState)
    auth.time_zone, auth.device_id = time_zone, DEVICE_ID
    if user is not None:
        sign_in(tab, user, credits=credits, tokens=tokens)
    return tab


def sign_in(tab, user: uuid.UUID, *, credits: int = 0, tokens: auth_sessions.TokenPair | None = None) -> None:
    """``user`` signs in in this tab: a session's tokens (``tokens``, or a new session's) in its storage, the
    header's user and balance."""
    auth = tab._get_root_state()._get_state_from_cache(AuthState)
    pair = tokens or _sessions.issue(user, credits)
    auth.access_token, auth.refresh_token = pair.access_token, pair.refresh_token
    auth.access_expires_at = pair.access_expires_at.isoformat()
    auth.user_id, auth.credits = str(user), credits


def end_session(tab) -> None:
    """The tab's session ends elsewhere (signed out on another device): the server revokes it; the tab still
    holds its tokens until its next event finds out."""
    auth = tab._get_root_state()._get_state_from_cache(AuthState)
    _sessions.revoke(auth.access_token, auth.refresh_token)


def substate(tab, state_cls: type):
    """The tab's instance of ``state_cls`` (Reflex's ``get_state``, within the tab)."""
    return aio.run(tab.get_state(state_cls))


def background(tab, name: str, *args):
    """A background task's function called on the tab (Reflex runs it so; ``async with self`` is the tab)."""
    return getattr(type(tab), name).fn(tab, *args)


def answer(handler_result):
    """What a handler answers, as given: a coroutine's value (None too), an async generator's yields (a
    list, a bare ``yield``'s None included), a plain handler's value."""
    async def go():
        if inspect.isasyncgen(handler_result):
            return [event async for event in handler_result]
        return await handler_result if inspect.isawaitable(handler_result) else handler_result
    return aio.run(go())


def run(handler_result) -> list:
    """What a handler answers as a flat list of events."""
    value = answer(handler_result)
    flat = []
    for item in value if inspect.isasyncgen(handler_result) else [value]:
        if isinstance(item, list):
            flat.extend(item)
        elif item is not None:
            flat.append(item)
    return flat


def _toast(spec) -> tuple | None:
    ret = getattr(spec.args[0][1], "_return_expr", None)
    func = getattr(ret, "_func", None)
    key = getattr(getattr(func, "_original", None), "_key", None)
    if ret is None or key is None:
        return None
    args = list(ret._args)
    title = args[0] if args and isinstance(args[0], str) else ""
    props = next((getattr(a, "_var_value", None) for a in args if isinstance(getattr(a, "_var_value", None), dict)),
                 {}) or {}
    return ("toast", key._var_value, title, props.get("description", ""))


def describe(events) -> list[tuple]:
    """What the user would see of the events: ('redirect', path), ('toast', kind, title, text),
    ('download', url), ('event', 'State.handler'), ('script',) or ('other', repr)."""
    out = []
    for event in events if isinstance(events, list) else [events]:
        if event is None:
            continue
        if isinstance(event, EventHandler):
            out.append(("event", event.fn.__qualname__))
            continue
        handler = getattr(event, "handler", None)
        name = getattr(getattr(handler, "fn", None), "__qualname__", "").split(".")[0]
        args = dict((str(k), getattr(v, "_var_value", v)) for k, v in getattr(event, "args", ()))
        if name == "_redirect":
            out.append(("redirect", args.get("path")))
        elif name == "_download":
            out.append(("download", args.get("url")))
        elif name == "_call_function":
            toast = _toast(event)
            out.append(toast if toast is not None else ("script",))
        elif name == "_call_script":
            out.append(("script",))
        elif handler is not None and getattr(handler, "state_full_name", ""):
            out.append(("event", handler.fn.__qualname__))
        else:
            out.append(("other", repr(event)[:200]))
    return out


def seen(handler_result) -> list[tuple]:
    """``describe(run(...))`` for a handler result."""
    return describe(run(handler_result))


def toasts(described: list[tuple]) -> list[tuple]:
    return [d[1:] for d in described if d[0] == "toast"]
