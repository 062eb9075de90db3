"""A session's User-Agent as 'Browser on OS' (the Settings tab's session list)."""

import pytest

from marketplace.platform.web.user_agent import browser_name, describe_user_agent, os_name

UAS = {
    "chrome_linux": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
    "headless_linux": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36",
    "chrome_windows": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
    "edge_windows": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91",
    "opera_mac": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Safari/537.36 OPR/105.0.0.0",
    "safari_mac": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
    "safari_iphone": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1",
    "chrome_ipad": "Mozilla/5.0 (iPad; CPU OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1",
    "firefox_linux": "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0",
    "firefox_android": "Mozilla/5.0 (Android 14; Mobile; rv:121.0) Gecko/121.0 Firefox/121.0",
    "chrome_android": "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
    "samsung": "Mozilla/5.0 (Linux; Android 13; SM-S901B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36",
    "chromeos": "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
    "ie11": "Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko",
}


@pytest.mark.parametrize(("key", "expected"), [
    ("chrome_linux", "Chrome on Linux"),
    ("headless_linux", "Chrome on Linux"),
    ("chrome_windows", "Chrome on Windows"),
    ("edge_windows", "Edge on Windows"),
    ("opera_mac", "Opera on macOS"),
    ("safari_mac", "Safari on macOS"),
    ("safari_iphone", "Safari on iOS"),
    ("chrome_ipad", "Chrome on iOS"),
    ("firefox_linux", "Firefox on Linux"),
    ("firefox_android", "Firefox on Android"),
    ("chrome_android", "Chrome on Android"),
    ("samsung", "Samsung Internet on Android"),
    ("chromeos", "Chrome on ChromeOS"),
    ("ie11", "Internet Explorer on Windows"),
])
def test_common_browsers(key, expected):
    assert describe_user_agent(UAS[key]) == expected


@pytest.mark.parametrize("value", ["", None, 42, "\x00\x01garbage", "x" * 1_000_000])
def test_unknown_input_never_raises(value):
    assert describe_user_agent(value) == "Unknown browser"


def test_half_known():
    assert describe_user_agent("curl/8.4.0") == "curl on unknown system"
    assert describe_user_agent("SomeBot/1.0 (Windows NT 10.0)") == "Unknown browser on Windows"
    assert browser_name("python-httpx/0.27") == "Python"
    assert os_name("Mozilla/5.0 (Macintosh)") == "macOS"
