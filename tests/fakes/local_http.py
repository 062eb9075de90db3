"""The plumbing every HTTP fake shares: a real server on 127.0.0.1 (random port) in one daemon thread.

A fake subclasses ``LocalFake`` and implements ``respond(method, path, headers, body)`` -> (status, extra
headers, body bytes); headers arrive lower-cased, the body raw. Use it as a context manager.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

Answer = tuple[int, dict[str, str], bytes]  # status, extra headers, body


class LocalFake:
    def __init__(self, name: str) -> None:
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.fake = self
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, name=name, daemon=True
        )

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}"

    def start(self) -> Self:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # cuts scripted delays short
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def respond(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Answer:
        raise NotImplementedError


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    fake: LocalFake

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Quiet: a client that timed out and left is expected here."""


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_GET(self) -> None:  # the http.server names
        self._answer("GET")

    def do_POST(self) -> None:
        self._answer("POST")

    def _answer(self, method: str) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        headers = {key.lower(): value for key, value in self.headers.items()}
        status, extra_headers, body = self.server.fake.respond(method, self.path, headers, raw)
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for key, value in extra_headers.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout)

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output clean."""
