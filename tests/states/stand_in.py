"""A stand-in tab for any page state, for state tests without a browser (as ``property_tab.py``).

``open_tab(StateClass, user)`` is the state's real handlers (their functions), helpers and computed vars
(as properties), with those of every ``AuthState`` class above it, bound to a plain object holding the
vars' defaults. The session resolves to ``user`` (counted in ``resolved``); ``get_state`` answers a stand-in
of the asked state class sharing this tab's user, made once. The services are the real ones, on the test
database. ``run`` gives what a handler answers, as a list of events.
"""

from __future__ import annotations

import inspect
import types
import uuid
from types import SimpleNamespace

from reflex.event import EventHandler
from reflex.vars.base import ComputedVar

from marketplace.states.auth import AuthState
from tests import aio


def _members(state_cls: type) -> dict:
    out = {}
    for name, value in vars(state_cls).items():
        if isinstance(value, EventHandler):
            out[name] = value.fn
        elif isinstance(value, ComputedVar):
            out[name] = property(value.fget)
        elif inspect.isfunction(value) or isinstance(value, (staticmethod, classmethod)):
            out[name] = value
    return out


def _defaults(state_cls: type) -> dict:
    out = {}
    for name, value in vars(state_cls).items():
        if type(value).__name__ == "Field":
            default = value.default_factory() if value.default_factory is not None else value.default
            out[name] = str(default) if isinstance(default, str) else default
    return out


def _chain(state_cls: type) -> list[type]:
    """AuthState first, then each class below it down to ``state_cls``."""
    mro = list(state_cls.__mro__)
    return list(reversed(mro[: mro.index(AuthState) + 1]))


_TAB_CLASSES: dict[type, type] = {}


def _rebound(value, layer: type):
    """A function using ``super()`` gets ``layer`` as its class: ``super()`` then finds the layer below."""
    fn = value.fget if isinstance(value, property) else value
    if not inspect.isfunction(fn) or "__class__" not in fn.__code__.co_freevars:
        return value
    cells = tuple(types.CellType(layer) if name == "__class__" else cell
                  for name, cell in zip(fn.__code__.co_freevars, fn.__closure__))
    new = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, cells)
    new.__kwdefaults__, new.__dict__ = fn.__kwdefaults__, dict(fn.__dict__)
    return property(new) if isinstance(value, property) else new


def tab_class(state_cls: type) -> type:
    """One class per state class of the chain (AuthState's at the bottom), each holding that class's own
    members, so that a helper calling ``super()`` reaches the one below as in Reflex."""
    if state_cls not in _TAB_CLASSES:
        base: type = object
        for cls in _chain(state_cls):
            layer = type(f"{cls.__name__}Tab", (base,), {})
            for name, value in _members(cls).items():
                setattr(layer, name, _rebound(value, layer))
            base = layer
        base._current_user_id = _resolve
        base.get_state = _get_state
        base.reset = _reset
        base.__aenter__, base.__aexit__ = _enter, _exit  # a background task's ``async with self``
        _TAB_CLASSES[state_cls] = base
    return _TAB_CLASSES[state_cls]


async def _resolve(self):
    self.resolved += 1
    return self.user


def _reset(self):
    """``rx.State.reset``: the state's own vars (not its parent's) back to their defaults."""
    for name, value in _defaults(self._state_cls).items():
        setattr(self, name, value)


async def _enter(self):
    return self


async def _exit(self, *exc):
    return False


async def _get_state(self, cls):
    if cls not in self._others:
        other = open_tab(cls, self.user, credits=self.credits, path=self.router.url.path,
                         query=dict(self.router.url.query_parameters), others=self._others)
        self._others[cls] = other
    return self._others[cls]


def router(path: str = "/", query: dict | None = None, ip: str = "203.0.113.7") -> SimpleNamespace:
    headers = SimpleNamespace(origin="http://localhost:3000", host="localhost:3000", user_agent="pytest",
                              raw_headers={"asgi-scope-client": ip})
    return SimpleNamespace(url=SimpleNamespace(path=path, query_parameters=query or {}, query=""),
                           headers=headers, page=SimpleNamespace(host="http://localhost:3000"),
                           session=SimpleNamespace(client_ip=ip, client_token="t" * 32, session_id="s" * 20))


def open_tab(state_cls: type, user: uuid.UUID | None, *, credits: int = 0, path: str = "/",
             query: dict | None = None, others: dict | None = None):
    """A fresh tab of ``state_cls`` whose session resolves to ``user``."""
    tab = tab_class(state_cls)()
    for cls in _chain(state_cls):
        for name, value in _defaults(cls).items():
            setattr(tab, name, value)
    tab._state_cls = state_cls
    tab.user, tab.resolved, tab.credits = user, 0, credits
    tab.user_id = str(user) if user else ""
    tab.time_zone, tab.device_id = "UTC", "d" * 32
    tab.router = router(path, query)
    tab._others = {} if others is None else others
    tab._others.setdefault(state_cls, tab)
    return tab


def run(handler_result) -> list:
    """What a handler answers: a coroutine's value or an async generator's events, as a flat list."""
    async def go():
        if inspect.isasyncgen(handler_result):
            out = [event async for event in handler_result]
        else:
            value = await handler_result if inspect.isawaitable(handler_result) else handler_result
            out = [] if value is None else [value]
        flat = []
        for item in out:
            if isinstance(item, list):
                flat.extend(item)
            elif item is not None:
                flat.append(item)
        return flat
    return aio.run(go())


def text(events) -> str:
    return str(events)


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


def seen(tab_or_events) -> list[tuple]:
    """``describe(run(...))`` for a handler result."""
    return describe(run(tab_or_events))


def toasts(described: list[tuple]) -> list[tuple]:
    return [d[1:] for d in described if d[0] == "toast"]
