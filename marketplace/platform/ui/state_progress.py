"""Long work with a progress bar, for background event handlers (the bulk
scraper, the explorer's manual scrape): the work runs on the thread pool and
reports (done, total); the handler copies it into ``progress_done`` /
``progress_total`` a few times a second."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import reflex as rx

from marketplace.platform.offloop import run_blocking

POLL_SECONDS = 0.4


class Progress:
    """Progress written by the worker thread, read by the background task."""

    def __init__(self, total: int):
        self.lock = threading.Lock()
        self.done, self.total = 0, total

    def update(self, done: int, total: int) -> None:
        with self.lock:
            self.done, self.total = done, total


async def run_with_progress(state, fn: Callable[..., Any], *args: Any, total: int, **kwargs: Any) -> Any:
    """``fn(*args, progress=..., **kwargs)`` off the event loop; ``state`` (a background
    handler's state: entered with ``async with``) shows its progress meanwhile. Returns
    fn's result or raises its exception."""
    progress = Progress(total)
    task = asyncio.ensure_future(run_blocking(fn, *args, progress=progress.update, **kwargs))
    while not task.done():
        await asyncio.wait({task}, timeout=POLL_SECONDS)
        async with state:
            with progress.lock:
                state.progress_done, state.progress_total = progress.done, progress.total
    return task.result()


class ProgressVars(rx.State, mixin=True):
    """A progress bar's vars: ``run_with_progress`` fills them."""

    progress_done: int = 0
    progress_total: int = 0

    @rx.var
    def progress_percent(self) -> int:
        return int(100 * self.progress_done / self.progress_total) if self.progress_total else 0

    @rx.var
    def progress_label(self) -> str:
        return f"{self.progress_done:,} of {self.progress_total:,} leads"
