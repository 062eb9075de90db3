"""One way for a handler to act for the signed-in user,
the way FastAPI's ``Depends(CurrentUser)`` does for a route.

    @rx.event
    @signed_in(SAVE_FAILED, signed_out=routes.AUTH, busy="saving")
    async def save(self, user_id: uuid.UUID, form: dict):
        yield                                   # 'Saving...' reaches the browser
        saved = await run_blocking(service.save, user_id, form)
        yield success_toast(*SAVED)

Per event, the decorator:

1. ignores a repeated click while ``busy`` (a bool var) is set, and sets it;
2. resolves the session on the server once (``AuthState._current_user_id``,
   off the event loop) and, with ``super_admin=True``, the role
   (``platform.admins.is_super_admin``);
3. without a session answers ``signed_out`` (nothing, a ``(title, message)``
   error toast, a route to go to, or a function of the state returning the
   events) and never calls the handler; a signed-in
   user who is not a super admin gets ``AuthState._access_denied`` (SPEC 6:
   'Access Denied: ...' and back to /);
4. calls the handler with the user's id as its first argument after ``self``;
5. answers an event whose arguments do not fit the handler (a hand-made ``{}``, an extra argument) with
   ``fallback``'s toast and one log line, without calling it (no traceback: a malformed event is input,
   not a bug);
6. turns what the handler (or the session check) raises into the one error
   toast (``AuthState._error_toast``): a ``UserError``'s own title and message,
   the database unreachable (``DatabaseUnavailable``) as ``fallback``'s title
   with ``DATABASE_UNAVAILABLE`` in one log line, any other exception logged
   with its traceback and shown as ``fallback`` (the SPEC's generic wording
   for the area), followed by ``after_error(state)``'s events when given (not
   after a failed session check); and clears ``busy`` whatever happened.

Reflex reads a handler's signature (its parameters are the event's
arguments, their annotations convert the payload) and calls a coroutine
function or iterates an async generator (a handler that ``yield``s deltas).
The wrapper is the same kind as the handler, keeps its name and docstring
(``functools.wraps``) and shows Reflex the handler's signature without
``user_id`` (``__signature__``, ``__annotations__``). ``@rx.event`` goes
on top. Background tasks (``@rx.event(background=True)``) change state only
inside ``async with self`` and are not wrapped: they resolve the user there.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable
from typing import Any

import reflex as rx

from marketplace.platform import admins
from marketplace.platform.texts import UNEXPECTED_ERROR
from marketplace.platform.offloop import run_blocking
from marketplace.platform.ui.state_auth import error_toast

SignedOut = tuple[str, str] | str | Callable[[Any], Any] | None

log = logging.getLogger("marketplace.events")


def _malformed(signature: inspect.Signature, state, args: tuple, kwargs: dict) -> str | None:
    """Why the event's arguments do not fit the handler (``signature``: with ``user_id``), or None."""
    try:
        signature.bind(state, None, *args, **kwargs)
    except TypeError as exc:
        return str(exc)
    return None


def _refuse_malformed(state, fallback: tuple[str, str], what: str, problem: str):
    """The area's refusal for a malformed event, logged in one line."""
    log.warning("malformed event %s refused: %s", what, problem)
    return error_toast(*fallback)


def _signed_out_events(state, signed_out: SignedOut):
    """What a handler answers without a session: nothing, an error toast, a redirect, or
    what ``signed_out(state)`` returns (for a page that also forgets what it showed)."""
    if signed_out is None:
        return None
    if isinstance(signed_out, str):
        return rx.redirect(signed_out, replace=True)
    if callable(signed_out):
        return signed_out(state)
    return error_toast(*signed_out)


async def _resolve(state, signed_out: SignedOut, super_admin: bool):
    """(user_id, None) to go on; (None, events) to stop with ``events``."""
    user_id = await state._current_user_id()
    if user_id is None:
        if super_admin:
            return None, state._access_denied(signed_in=False)
        return None, _signed_out_events(state, signed_out)
    if super_admin and not await run_blocking(admins.is_super_admin, user_id):
        return None, state._access_denied(signed_in=True)
    return user_id, None


def signed_in(fallback: tuple[str, str] = UNEXPECTED_ERROR, *, signed_out: SignedOut = None, busy: str = "",
              super_admin: bool = False,
              after_error: Callable[[Any], Any] | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorate ``async def handler(self, user_id, *event_args)`` (a coroutine or an async
    generator) of an ``AuthState`` subclass; see the module docstring. ``after_error(state)``
    returns events sent after the error toast (a list re-read from the server, say)."""

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        params = list(inspect.signature(fn).parameters.values())
        if len(params) < 2:
            raise TypeError(f"{fn.__qualname__} must take (self, user_id, ...)")
        user_param = params[1].name
        what = fn.__qualname__
        signature = inspect.signature(fn)

        def refused(state) -> bool:
            return bool(busy) and bool(getattr(state, busy))

        def begin(state) -> None:
            if busy:
                setattr(state, busy, True)

        def end(state) -> None:
            if busy:
                setattr(state, busy, False)

        if inspect.isasyncgenfunction(fn):
            @functools.wraps(fn)
            async def handler(self, *args, **kwargs):
                if refused(self):
                    return
                problem = _malformed(signature, self, args, kwargs)
                if problem is not None:
                    yield _refuse_malformed(self, fallback, what, problem)
                    return
                try:
                    user_id, stop = await _resolve(self, signed_out, super_admin)
                except Exception as exc:  # noqa: BLE001 - the session could not be checked (an outage)
                    yield self._error_toast(exc, fallback, f"{what} (session check)")
                    return
                if user_id is None:
                    if stop is not None:
                        yield stop
                    return
                begin(self)
                try:
                    async for update in fn(self, user_id, *args, **kwargs):
                        yield update
                # The one place a handler's failure becomes the user's toast: a UserError's
                # text, anything else logged and shown as ``fallback``.
                except Exception as exc:  # noqa: BLE001
                    yield self._error_toast(exc, fallback, f"{what} for {user_id}")
                    if after_error is not None:
                        yield after_error(self)
                finally:
                    end(self)
        else:
            @functools.wraps(fn)
            async def handler(self, *args, **kwargs):
                if refused(self):
                    return None
                problem = _malformed(signature, self, args, kwargs)
                if problem is not None:
                    return _refuse_malformed(self, fallback, what, problem)
                try:
                    user_id, stop = await _resolve(self, signed_out, super_admin)
                except Exception as exc:  # noqa: BLE001 - as above
                    return self._error_toast(exc, fallback, f"{what} (session check)")
                if user_id is None:
                    return stop
                begin(self)
                try:
                    result = fn(self, user_id, *args, **kwargs)
                    return await result if inspect.isawaitable(result) else result
                except Exception as exc:  # noqa: BLE001 - the one toast, as above
                    toast = self._error_toast(exc, fallback, f"{what} for {user_id}")
                    return toast if after_error is None else [toast, after_error(self)]
                finally:
                    end(self)

        # What Reflex reads: the handler's own parameters, without the user id.
        handler.__signature__ = inspect.signature(fn).replace(parameters=[params[0], *params[2:]])
        handler.__annotations__ = {k: v for k, v in fn.__annotations__.items() if k != user_param}
        return handler

    return decorate
