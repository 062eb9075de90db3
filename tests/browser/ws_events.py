"""Speak to Reflex's websocket by hand (what a tampering browser can do).

``EventChannel`` routes a page's event socket through the test (Playwright's
WebSocket routing), records every frame both ways, and ``emit``s any event by
its full handler name with a payload of the test's choosing, on the page's own
connection (so with the page's client token and session).

Frames are socket.io text packets on Reflex's namespace: ``42/_event,["event", {...}]``. The server's updates
are ``{"delta": {state full name: {var: value}}, "events": [...], "final": ...}``.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Iterator
from typing import Any

import reflex as rx
from playwright.sync_api import Page

from tests.browser.helpers import wait_until

CONNECT_PACKET = re.compile(r"^40(/[^,{]*,)(\{.*\})$", re.S)
EVENT_PACKET = re.compile(r"^42(/[^,\[]*,)?(\d*)(\[.*\])$", re.S)


def _packet(message: str) -> Any | None:
    """The ``[name, data]`` of a socket.io event packet, or None for other frames."""
    match = EVENT_PACKET.match(message) if isinstance(message, str) else None
    if not match:
        return None
    try:
        return json.loads(match.group(3))
    except ValueError:
        return None


class EventChannel:
    def __init__(self, page: Page):
        self.page = page
        self.sent: list[str] = []
        self.received: list[str] = []
        self._server = None
        self._namespace = ""
        self.rewrite = None  # outgoing frame -> the frame sent instead (a tampering browser)
        page.route_web_socket(re.compile(r".*/_event.*"), self._route)

    def _route(self, ws) -> None:
        server = ws.connect_to_server()
        self._server = server

        def outgoing(message):
            if self.rewrite is not None:
                message = self.rewrite(message)
            self.sent.append(message)
            match = EVENT_PACKET.match(message) if isinstance(message, str) else None
            if match and match.group(1):
                self._namespace = match.group(1)
            server.send(message)

        def incoming(message):
            self.received.append(message)
            ws.send(message)

        ws.on_message(outgoing)
        server.on_message(incoming)

    # ------------------------------------------------------------------ sending

    def _template(self) -> dict:
        """The newest event the page itself sent (its router data is reused)."""
        for message in reversed(self.sent):
            packet = _packet(message)
            if packet and packet[0] == "event":
                data = packet[1]
                return json.loads(data) if isinstance(data, str) else dict(data)
            connect = CONNECT_PACKET.match(message) if isinstance(message, str) else None
            if connect:  # the namespace's connect packet carries the page's first event
                self._namespace = self._namespace or connect.group(1)
                event = json.loads(connect.group(2)).get("event")
                if isinstance(event, dict):
                    return {k: v for k, v in event.items() if k != "payload"}
        raise AssertionError(f"the page has not sent any event yet: {[m[:80] for m in self.sent]}")

    def emit(self, name: str, payload: dict | None = None) -> int:
        """Send event ``name`` (full handler name) with ``payload``; returns the index of
        the first received frame that can be its answer."""
        assert self._server is not None, "no websocket yet"
        event = {**self._template(), "name": name, "payload": payload or {}}
        mark = len(self.received)
        self._server.send(f"42{self._namespace}" + json.dumps(["event", event]))
        return mark

    def settle(self) -> None:
        """Wait until the server has handled every event sent so far (the page's and ``emit``'s):
        a tab's events are handled in order, so the answer to one sent now comes after theirs. The
        one sent sets Reflex's own hydrated flag to true again (it is true on a loaded page): nothing
        changes, and its answer carries the flag."""
        mark = self.emit(f"{rx.State.get_full_name()}.set_is_hydrated", {"value": True})
        assert self.wait_for(lambda text: "is_hydrated_rx_state_" in text, mark), "the server did not answer"

    # ------------------------------------------------------------------ reading

    def updates(self, start: int = 0) -> Iterator[dict]:
        for message in self.received[start:]:
            packet = _packet(message)
            if packet and packet[0] == "event" and len(packet) > 1:
                data = packet[1]
                if isinstance(data, str):
                    try:
                        data = json.loads(data)
                    except ValueError:
                        continue
                if isinstance(data, dict):
                    yield data

    def text_since(self, start: int) -> str:
        return "\n".join(m for m in self.received[start:] if isinstance(m, str))

    def wait_for(self, predicate, start: int, timeout_ms: int = 15000) -> bool:
        """Let Playwright deliver frames until ``predicate(text since start)`` holds."""
        try:
            return bool(wait_until(lambda: predicate(self.text_since(start)), timeout=timeout_ms / 1000,
                                   page=self.page))
        except AssertionError:
            return False


# ---------------------------------------------------------------------- introspection


def state_tree(state_cls) -> list:
    """``state_cls`` and all its substates, depth first."""
    out = [state_cls]
    for sub in sorted(state_cls.get_substates(), key=lambda c: c.get_full_name()):
        out.extend(state_tree(sub))
    return out


def own_handlers(state_cls) -> dict[str, Any]:
    """The handlers ``state_cls`` defines itself (plus Reflex's ``setvar``), by name."""
    return {name: handler for name, handler in state_cls.event_handlers.items()
            if name == "setvar" or handler.fn.__qualname__.split(".")[0] == state_cls.__name__}


def parameters(handler) -> list[inspect.Parameter]:
    return list(inspect.signature(handler.fn).parameters.values())[1:]


def var_defaults(state_cls) -> dict[str, Any]:
    """The state's own base vars and their default values."""
    fields = state_cls.get_fields()
    defaults = {}
    for name in state_cls.base_vars:
        field = fields[name]
        factory = getattr(field, "default_factory", None)
        defaults[name] = factory() if callable(factory) else field.default
    return defaults
