"""The one error model for refusals a user sees.

Every refusal the UI shows is a ``UserError`` (or a subclass named after its
area: ``AuthError``, ``UnlockError``, ``PurchaseError``, ...): a ``title`` and a
``message``, always in that order, which the states turn into
``rx.toast.error(title, description=message)`` through
``AuthState._error_toast``. Extra facts travel as keyword arguments on the
subclass (``retry_after`` for throttles, ``status`` for the webhook API).
A database outage is a ``DatabaseUnavailable`` (``offloop.run_blocking`` turns
the driver's connection errors into one): the user reads the area's title with
``messages.DATABASE_UNAVAILABLE``, the log gets one line. Anything else is a
bug: it is logged and the user sees the SPEC's generic wording instead.
"""

from __future__ import annotations


class UserError(Exception):
    """A refusal shown to the user as ``title: message`` (SPEC 8 wording)."""

    def __init__(self, title: str, message: str):
        super().__init__(message)
        self.title = title
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.title!r}, {self.message!r})"


class DatabaseUnavailable(Exception):
    """The database could not be reached (refused, down, a dropped connection) while a handler's blocking
    work ran: nothing was done. Not a ``UserError``: it has no text of its own (the user reads the area's
    title with ``messages.DATABASE_UNAVAILABLE``) and a refusal-catching ``except UserError`` never takes it
    for a business refusal. The driver's error is its ``__cause__``; its message is that error's first line."""
