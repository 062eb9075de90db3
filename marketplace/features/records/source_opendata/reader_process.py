"""A file read in a process of its own while the import writes (``read_ahead(read)``): the rows of a
``FileRead`` are read, mapped and digested in a child process, one chunk ahead of the ingestion, which
gets the same items in the same order, then the read's ``incomplete`` and ``replaced_rows``. On a machine
of two cores the CSV parsing and mapping no longer wait for the database writes, nor they for them.

- The child is forked at the first item asked for, after the ingestion set ``known`` (the row digests its
  dataset's open signals hold), and only when none are known: a first import maps every row, a re-import
  passes over most of them (their pickling would cost the ingestion more than their reading). It touches
  no database and no file but the one it reads; it ends with the read, or when the ingestion stops asking
  (its pipe closes).
- Chunks of ``CHUNK`` items go through a pipe, pickled; the child blocks while one chunk waits, so memory
  holds about two chunks whatever the file's size.
- A reader's error (``DatasetError``) is raised in the ingestion after the items read before it, as the
  reader raises it in process; any other failure of the child is a ``RuntimeError`` naming it (with its
  traceback), and so is a child that dies without a word (killed).
- Files under ``MIN_BYTES`` are read in process: a fork costs more than their read.
"""

from __future__ import annotations

import multiprocessing
import pickle
import traceback
from pathlib import Path
from typing import Any, Iterator

from marketplace.features.records.source_opendata.errors import DatasetError

CHUNK = 5000
MIN_BYTES = 2_000_000  # about 4,000 rows of a wide CSV export


def read_ahead(read: Any) -> Any:
    """``read`` (a ``FileRead``) read in a child process when its file is large (module docstring)."""
    try:
        large = Path(read.path).stat().st_size >= MIN_BYTES
    except OSError:
        large = False  # the reader says why it cannot open it, inside the ingestion
    return ReadAhead(read) if large else read


class ReadAhead:
    """The items of a ``FileRead``, read by a child process unless the dataset's stored rows are known
    (module docstring)."""

    def __init__(self, read: Any) -> None:
        self._read = read
        self._items: Iterator[Any] | None = None
        self._end: tuple[str | None, int] | None = None  # how the child's read ended

    @property
    def known(self) -> Any:
        return self._read.known

    @known.setter
    def known(self, value: Any) -> None:
        self._read.known = value

    @property
    def incomplete(self) -> str | None:
        return self._end[0] if self._end is not None else self._read.incomplete

    @property
    def replaced_rows(self) -> int:
        return self._end[1] if self._end is not None else self._read.replaced_rows

    def __iter__(self) -> "ReadAhead":
        return self

    def __next__(self) -> Any:
        if self._items is None:
            # A re-import passes over most rows (their digests are known): little to map, and the items'
            # way through the pipe would cost more than the reading it takes off the ingestion.
            self._items = iter(self._read) if self._read.known else self._receive()
        return next(self._items)

    def _receive(self) -> Iterator[Any]:
        context = multiprocessing.get_context("fork")
        receiving, sending = context.Pipe(duplex=False)
        child = context.Process(target=_produce, args=(self._read, sending), daemon=True,
                                name=f"read {Path(self._read.path).name}")
        child.start()
        sending.close()
        try:
            while True:
                try:
                    kind, payload = pickle.loads(receiving.recv_bytes())
                except EOFError:
                    child.join(5)
                    raise RuntimeError(f"{self._read.dataset.id}: the reader of {Path(self._read.path).name} "
                                       f"stopped (exit code {child.exitcode})") from None
                if kind == "items":
                    yield from payload
                elif kind == "end":
                    self._end = payload
                    return
                else:
                    raise _error(self._read.dataset.id, payload)
        finally:
            receiving.close()  # a child still sending gets a broken pipe and ends
            child.join(5)
            if child.is_alive():
                child.kill()
                child.join()


def _produce(read: Any, sending: Any) -> None:
    """The child: every item of ``read`` in chunks, then how the read ended, or its error after the items
    read before it."""
    def send(message: tuple) -> None:
        sending.send_bytes(pickle.dumps(message, pickle.HIGHEST_PROTOCOL))

    chunk: list[Any] = []
    try:
        try:
            for item in read:
                chunk.append(item)
                if len(chunk) >= CHUNK:
                    send(("items", chunk))
                    chunk = []
            end = ("end", (read.incomplete, read.replaced_rows))
        except (BrokenPipeError, ConnectionResetError):
            return  # the ingestion stopped asking
        except BaseException as exc:  # noqa: BLE001 - told to the ingestion, which raises it
            end = ("error", ("dataset", exc.problem) if isinstance(exc, DatasetError)
                   else ("other", f"{type(exc).__name__}: {exc}", traceback.format_exc()))
        if chunk:
            send(("items", chunk))
        send(end)
    except OSError:
        pass  # the ingestion stopped asking (its end of the pipe closed)
    finally:
        sending.close()


def _error(dataset_id: str, failure: tuple) -> Exception:
    """The reader's error as the ingestion would have met it in process: a ``DatasetError`` again; anything
    else a ``RuntimeError`` with the child's traceback (a fault of the code, not of the file)."""
    if failure[0] == "dataset":
        return DatasetError(dataset_id, failure[1])
    return RuntimeError(f"{dataset_id}: the file's reader failed: {failure[1]}\n{failure[2]}")
