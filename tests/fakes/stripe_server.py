"""A local fake of the Stripe API's Checkout Session endpoints.

The real ``stripe`` library talks to it (``STRIPE_API_BASE``); tests script it:
mark a session paid, or take the whole API down (HTTP 500 / refused).
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl


class FakeStripe:
    def __init__(self) -> None:
        self.sessions: dict[str, dict] = {}
        self.requests: list[tuple[str, str, dict]] = []
        self.down = False
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def _send(self, status: int, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                form = dict(parse_qsl(self.rfile.read(length).decode()))
                fake.requests.append(("POST", self.path, form))
                if fake.down:
                    return self._send(500, {"error": {"type": "api_error", "message": "Stripe is down"}})
                if self.path == "/v1/checkout/sessions":
                    return self._send(200, fake._create(form))
                return self._send(404, {"error": {"type": "invalid_request_error", "message": "No such route"}})

            def do_GET(self):
                fake.requests.append(("GET", self.path, {}))
                if fake.down:
                    return self._send(500, {"error": {"type": "api_error", "message": "Stripe is down"}})
                match = re.fullmatch(r"/v1/checkout/sessions/([^/?]+)", self.path.split("?")[0])
                if match and match.group(1) in fake.sessions:
                    return self._send(200, fake.sessions[match.group(1)])
                return self._send(404, {"error": {"type": "invalid_request_error",
                                                  "message": "No such checkout.session"}})

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def _create(self, form: dict) -> dict:
        session_id = "cs_test_" + secrets.token_hex(12)
        metadata = {k[len("metadata["):-1]: v for k, v in form.items() if k.startswith("metadata[")}
        session = {
            "id": session_id,
            "object": "checkout.session",
            "mode": form.get("mode"),
            "url": f"https://checkout.stripe.test/pay/{session_id}",
            "payment_status": "unpaid",
            "status": "open",
            "amount_total": int(form.get("line_items[0][price_data][unit_amount]", "0")),
            "currency": form.get("line_items[0][price_data][currency]"),
            "client_reference_id": form.get("client_reference_id"),
            "metadata": metadata,
            "success_url": form.get("success_url"),
            "cancel_url": form.get("cancel_url"),
        }
        self.sessions[session_id] = session
        return session

    def pay(self, session_id: str) -> dict:
        self.sessions[session_id].update(payment_status="paid", status="complete")
        return self.sessions[session_id]

    def __enter__(self) -> FakeStripe:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
