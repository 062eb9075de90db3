"""The address a browser is on, taken from request headers and never trusted blindly.

``valid_origin`` accepts exactly ``http(s)://host[:port]``: a DNS name, an IPv4
address or a bracketed IPv6 address, an optional port 1-65535, and nothing
else (no user info, path, query, fragment, spaces or control characters).
Anything else is ``None``; callers then fall back to a configured address.
"""

from __future__ import annotations

import ipaddress
import re

MAX_LENGTH = 300
_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
_ORIGIN = re.compile(r"(https?)://(\[[0-9a-f:.]+\]|[^\[\]/:?#@\s\\]+)(?::(\d{1,5}))?")


def _valid_host(host: str) -> bool:
    if host.startswith("["):
        try:
            return isinstance(ipaddress.ip_address(host[1:-1]), ipaddress.IPv6Address)
        except ValueError:
            return False
    if len(host) > 253:
        return False
    labels = host.split(".")
    if all(label.isdigit() for label in labels):  # looks like IPv4: must be one
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            return False
        return True
    return all(_LABEL.match(label) for label in labels)


def valid_origin(value: object) -> str | None:
    """``scheme://host[:port]`` in lower case, or None when ``value`` is anything else."""
    if not isinstance(value, str) or not value or len(value) > MAX_LENGTH:
        return None
    match = _ORIGIN.fullmatch(value.lower())
    if match is None:
        return None
    scheme, host, port = match.groups()
    if not _valid_host(host):
        return None
    if port is not None:
        number = int(port)
        if not 1 <= number <= 65535:
            return None
        default = {"http": 80, "https": 443}[scheme]
        return f"{scheme}://{host}" if number == default else f"{scheme}://{host}:{number}"
    return f"{scheme}://{host}"


def origin_from_headers(origin: object, host: object = None) -> str | None:
    """The browser's origin: the Origin header, else ``http://`` + the Host header
    (browsers always send Origin on the websocket; Host is the last resort)."""
    found = valid_origin(origin)
    if found is not None:
        return found
    if isinstance(host, str) and host:
        return valid_origin(f"http://{host}")
    return None
