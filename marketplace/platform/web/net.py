"""Which address a request came from, behind zero or more trusted proxies.

``X-Forwarded-For`` is written by whoever sends the request: a client can put
any address in it. Each reverse proxy appends the address it received the
request from, so with ``trusted_hops`` proxies of our own in front of the app
(``TRUSTED_PROXY_HOPS``), the client is the ``trusted_hops``-th entry from the
right; everything left of it is the client's own claim. With 0 hops the header
is ignored and the connection's peer is the client. A header with fewer
entries than expected (the request bypassed a proxy) or with a malformed entry
at that position is ignored too: the peer is used.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

MAX_IP_LENGTH = 64  # the width of the ip_address columns


def _clean(value: str) -> str | None:
    """A syntactically valid IPv4/IPv6 address (port and brackets dropped), else None."""
    text = (value or "").strip().strip('"')
    if text.startswith("["):  # "[2001:db8::1]:443"
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:  # "203.0.113.7:51234"
        text = text.split(":", 1)[0]
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None


def forwarded_chain(headers: str | Iterable[str] | None) -> list[str]:
    """The X-Forwarded-For entries, left to right; several headers are joined in order."""
    if not headers:
        return []
    values = [headers] if isinstance(headers, str) else list(headers)
    return [part.strip() for value in values for part in (value or "").split(",") if part.strip()]


def client_ip(peer: str | None, forwarded_for: str | Iterable[str] | None, trusted_hops: int) -> str:
    """The client's address: the peer, or the entry ``trusted_hops`` from the right
    of X-Forwarded-For when that many trusted proxies sit in front of the app."""
    fallback = (_clean(peer or "") or (peer or "").strip())[:MAX_IP_LENGTH]
    if trusted_hops <= 0:
        return fallback
    chain = forwarded_chain(forwarded_for)
    if len(chain) < trusted_hops:
        return fallback
    return (_clean(chain[-trusted_hops]) or fallback)[:MAX_IP_LENGTH]
