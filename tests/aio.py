"""Running a coroutine from a synchronous test.

In a full run, Playwright's sync API (the browser tests) keeps an event loop running in the main
thread, where ``asyncio.run()`` is refused: the coroutine runs on a thread of its own instead."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Coroutine


def run(coro: Coroutine[Any, Any, Any]) -> Any:
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()
