"""A tiny SMTP server on 127.0.0.1 (random port, no STARTTLS: messages go in plain text).

    with smtp_server(greeting_delay=0) as (url, received):
        monkeypatch.setenv("SMTP_URL", url)
        ...  # ``received`` fills with each message's raw text (headers and body)

``greeting_delay`` seconds pass before each connection is greeted: a slow mail server.
"""

from __future__ import annotations

import contextlib
import socketserver
import threading
import time
from collections.abc import Iterator


@contextlib.contextmanager
def smtp_server(greeting_delay: float = 0.0) -> Iterator[tuple[str, list[str]]]:
    received: list[str] = []

    class Handler(socketserver.StreamRequestHandler):
        def handle(self):
            time.sleep(greeting_delay)
            self.wfile.write(b"220 test ESMTP\r\n")
            data, lines = False, []
            while line := self.rfile.readline().decode():
                if data:
                    if line == ".\r\n":
                        data = False
                        received.append("".join(lines))
                        self.wfile.write(b"250 OK\r\n")
                    else:
                        lines.append(line)
                    continue
                command = line[:4].upper()
                if command in ("EHLO", "HELO"):
                    self.wfile.write(b"250 test\r\n")
                elif command == "DATA":
                    data = True
                    self.wfile.write(b"354 go\r\n")
                elif command == "QUIT":
                    self.wfile.write(b"221 bye\r\n")
                    return
                else:
                    self.wfile.write(b"250 OK\r\n")

    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"smtp://127.0.0.1:{server.server_address[1]}", received
    finally:
        server.shutdown()
        server.server_close()
