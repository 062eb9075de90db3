"""Blocking work off Reflex's event loop.

Reflex runs every event of every user on one asyncio loop. Anything that blocks
(a database round trip, Argon2, an HTTP call to a lead source or Stripe, a file,
a scrape) must not run on it, or every other user's clicks wait. Handlers are
``async`` and await ``run_blocking(fn, *args)``, which runs ``fn`` on a
bounded thread pool of its own (so a burst of sign-ins cannot starve the
default executor other libraries use) and hands back its result or exception.

A database outage (``db.is_outage``) comes back as ``platform.errors.DatabaseUnavailable``,
whatever the function was: the one exception the states turn into "We can't reach
the database right now" (``AuthState._error_text``, the app's backend exception handler).

Functions run this way never touch Reflex state: they take plain values and
return plain values; the handler applies the result to the state on the loop.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from marketplace.platform.errors import DatabaseUnavailable

T = TypeVar("T")

# Enough threads for the database pool (10 + 20 overflow on PostgreSQL) to stay
# busy; Argon2 and SQLite release the GIL while they work.
MAX_THREADS = 24
_executor: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        _executor = ThreadPoolExecutor(max_workers=MAX_THREADS, thread_name_prefix="lv-blocking")
    return _executor


async def run_blocking(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """Run ``fn(*args, **kwargs)`` on the blocking pool and await its result."""
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(_pool(), functools.partial(fn, *args, **kwargs))
    except DatabaseUnavailable:
        raise
    except Exception as exc:
        from marketplace.platform.db import is_outage  # the database layer, loaded only when something failed

        if is_outage(exc):
            first = (str(getattr(exc, "orig", None) or exc).strip().splitlines() or [type(exc).__name__])[0]
            raise DatabaseUnavailable(first) from exc
        raise
