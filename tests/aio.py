"""Running a coroutine from a synchronous test.

In a full run, Playwright's sync API (the browser tests) keeps an event loop running in the main
thread, where ``asyncio.run()`` is refused: the coroutine runs on a thread of its own instead, in a copy of
the caller's context (as ``asyncio.to_thread``: Reflex's registration context is a context variable)."""

from __future__ import annotations

import asyncio
import contextvars
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Coroutine


def run(coro: Coroutine[Any, Any, Any]) -> Any:
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(contextvars.copy_context().run, asyncio.run, coro).result()
