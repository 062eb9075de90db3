"""A thread that takes timed samples back to back while a benchmark's load runs (``with Sampler(): ...``):
a subclass's ``_run`` loops until ``_stop`` is set and appends milliseconds to ``samples``."""

from __future__ import annotations

import threading


class Sampler:
    def __init__(self) -> None:
        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self):
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        raise NotImplementedError

    def __exit__(self, *exc):
        self._stop.set()
        if self._thread:
            self._thread.join()
