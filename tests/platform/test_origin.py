"""Return addresses: SITE_URL when set, else the browser's own origin, validated."""

import pytest

from marketplace.platform.config import reload_settings
from marketplace.platform.web.origin import origin_from_headers, valid_origin


@pytest.mark.parametrize(("raw", "expected"), [
    ("http://127.0.0.1:3000", "http://127.0.0.1:3000"),
    ("http://192.168.1.20:8080", "http://192.168.1.20:8080"),
    ("https://Leads.Example.com", "https://leads.example.com"),
    ("https://leads.example.com:443", "https://leads.example.com"),
    ("http://localhost:80", "http://localhost"),
    ("http://[::1]:3000", "http://[::1]:3000"),
])
def test_valid_origins_are_normalised(raw, expected):
    assert valid_origin(raw) == expected


@pytest.mark.parametrize("raw", [
    None, "", 42, "null", "localhost:3000", "ftp://host", "javascript:alert(1)", "http://", "http://host/",
    "http://host/path", "http://host?x=1", "http://host#x", "http://user@host", "http://user:pw@host:1",
    "http://host:0", "http://host:65536", "http://host:port", "http://ho st", "http://host\n", " http://host",
    "http://evil.com\\@good.com", "http://-bad.com", "http://bad-.com", "http://a..b", "http://999.0.0.1",
    "http://[not-ipv6]", "http://[127.0.0.1]", "http://" + "a" * 300 + ".com", "http://exa_mple.com",
])
def test_junk_is_never_an_origin(raw):
    assert valid_origin(raw) is None


def test_origin_header_first_then_host():
    assert origin_from_headers("http://127.0.0.1:3000", "localhost:3000") == "http://127.0.0.1:3000"
    assert origin_from_headers("", "10.0.0.5:3000") == "http://10.0.0.5:3000"
    assert origin_from_headers("junk", "10.0.0.5:3000/x") is None
    assert origin_from_headers(None, None) is None


def test_base_url_prefers_site_url_then_the_browser(monkeypatch):
    monkeypatch.delenv("SITE_URL", raising=False)
    monkeypatch.setenv("PORT", "3000")
    settings = reload_settings()
    assert settings.base_url("http://127.0.0.1:3000") == "http://127.0.0.1:3000"
    assert settings.base_url("http://evil.example/phish") == "http://localhost:3000"
    assert settings.base_url(None) == "http://localhost:3000"
    monkeypatch.setenv("SITE_URL", "https://leads.example.com/")
    assert reload_settings().base_url("http://127.0.0.1:3000") == "https://leads.example.com"
