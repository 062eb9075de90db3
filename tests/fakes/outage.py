"""Outages a test can cause without touching the shared servers.

``TcpProxy`` forwards a port of its own to a real server (PostgreSQL, the app) from one daemon thread
running an asyncio loop. ``refuse()`` closes its listening socket and cuts every open connection, so a
client gets "connection refused" exactly as if the server were down; ``restore()`` listens again on the
same port. ``OwnRedis`` runs a redis-server of its own (a free port, no persistence) that a test stops and
starts again on the same port. Both are context managers.
"""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import threading
import time
from typing import Self


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(port: int, up: bool, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                if up:
                    return
        except OSError:
            if not up:
                return
        time.sleep(0.05)
    raise TimeoutError(f"port {port} did not come {'up' if up else 'down'} in {timeout}s")


class TcpProxy:
    """127.0.0.1:``port`` -> ``target_host``:``target_port``, refusable."""

    def __init__(self, target_port: int, target_host: str = "127.0.0.1", port: int | None = None) -> None:
        self.target = (target_host, target_port)
        self.port = port or free_port()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=f"tcp-proxy-{self.port}", daemon=True)
        self._server: asyncio.base_events.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    def _call(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout=10)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self._writers.update((writer, up_writer))
        try:
            await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))
        finally:
            self._writers.difference_update((writer, up_writer))

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._client, "127.0.0.1", self.port, reuse_address=True)

    async def _close(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._writers):
            transport = writer.transport
            if transport is not None:
                transport.abort()  # a reset, as a server that went away
        self._writers.clear()

    def start(self) -> Self:
        self._thread.start()
        self._call(self._listen())
        return self

    def refuse(self) -> None:
        """Down: new connections are refused and open ones are cut."""
        self._call(self._close())
        _wait_for_port(self.port, up=False)

    def restore(self) -> None:
        """Up again on the same port."""
        self._call(self._listen())

    def stop(self) -> None:
        self._call(self._close())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


class OwnRedis:
    """A redis-server of this test's own on a free port: ``stop()`` it (down) and ``start()`` it again."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._proc: subprocess.Popen | None = None

    def start(self) -> Self:
        server = shutil.which("redis-server") or "/usr/bin/redis-server"
        self._proc = subprocess.Popen(
            [server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--protected-mode", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        _wait_for_port(self.port, up=True)
        return self

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            self._proc.wait(timeout=10)
            self._proc = None
        _wait_for_port(self.port, up=False)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
