"""The client's address behind TRUSTED_PROXY_HOPS proxies (platform.web.net.client_ip)."""

import pytest

from marketplace.platform.web.net import client_ip


@pytest.mark.parametrize(("peer", "xff", "hops", "expected"), [
    ("198.51.100.4", "", 0, "198.51.100.4"),
    ("198.51.100.4", "1.2.3.4", 0, "198.51.100.4"),  # no trusted proxy: the header is the client's claim
    ("10.0.0.2", "203.0.113.7", 1, "203.0.113.7"),
    ("10.0.0.2", "6.6.6.6, 203.0.113.7", 1, "203.0.113.7"),  # the client's own entry is ignored
    ("10.0.0.2", "6.6.6.6, 203.0.113.7, 10.0.0.1", 2, "203.0.113.7"),
    ("10.0.0.2", ["6.6.6.6, 203.0.113.7", "10.0.0.1"], 2, "203.0.113.7"),  # several headers, in order
    ("10.0.0.2", "", 1, "10.0.0.2"),  # fewer entries than proxies: the peer
    ("10.0.0.2", "203.0.113.7", 2, "10.0.0.2"),
    ("10.0.0.2", "not-an-ip", 1, "10.0.0.2"),
    ("10.0.0.2", "203.0.113.7:51234", 1, "203.0.113.7"),
    ("10.0.0.2", "[2001:db8::1]:443", 1, "2001:db8::1"),
    ("10.0.0.2", "2001:DB8::1", 1, "2001:db8::1"),
    ("", "", 0, ""),
])
def test_client_ip(peer, xff, hops, expected):
    assert client_ip(peer, xff, hops) == expected


def test_result_fits_the_column():
    assert len(client_ip("x" * 500, "", 0)) == 64
