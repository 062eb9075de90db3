"""A browser's User-Agent header as people say it: "Chrome on Linux".

Pure and forgiving: any string (empty, garbage, megabytes) gives a short label,
never an exception. Order matters: Edge and Opera also say "Chrome", Chrome also
says "Safari", Android also says "Linux", iOS also says "Mac OS X".
"""

from __future__ import annotations

import re

UNKNOWN_BROWSER = "Unknown browser"
UNKNOWN_OS = "unknown system"
_MAX_INPUT = 1024  # the header is stored at 512; read no more than this

# (label, pattern) checked in order; the first match names the browser.
_BROWSERS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Edge", re.compile(r"\b(?:Edg|EdgA|EdgiOS|Edge)/", re.I)),
    ("Opera", re.compile(r"\b(?:OPR|Opera|OPiOS)/|^Opera", re.I)),
    ("Samsung Internet", re.compile(r"\bSamsungBrowser/", re.I)),
    ("Vivaldi", re.compile(r"\bVivaldi/", re.I)),
    ("Yandex Browser", re.compile(r"\bYaBrowser/", re.I)),
    ("Firefox", re.compile(r"\b(?:Firefox|FxiOS)/", re.I)),
    ("Chrome", re.compile(r"\b(?:Chrome|Chromium|CriOS|HeadlessChrome)/", re.I)),
    ("Internet Explorer", re.compile(r"\bMSIE |\bTrident/", re.I)),
    ("Safari", re.compile(r"\bVersion/[\d.]+.*\bSafari/|\bMobile/\w+ Safari/|AppleWebKit/.*\bSafari/", re.I)),
    ("curl", re.compile(r"^curl/", re.I)),
    ("Python", re.compile(r"^(?:python-requests|python-httpx|Python-urllib)/", re.I)),
)

_SYSTEMS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("iOS", re.compile(r"\b(?:iPhone|iPad|iPod)\b|\bCPU (?:iPhone )?OS \d", re.I)),
    ("Android", re.compile(r"\bAndroid\b", re.I)),
    ("ChromeOS", re.compile(r"\bCrOS\b", re.I)),
    ("Windows", re.compile(r"\bWindows\b|\bWin(?:32|64)\b", re.I)),
    ("macOS", re.compile(r"\bMac OS X\b|\bMacintosh\b|\bmacOS\b", re.I)),
    ("Linux", re.compile(r"\bLinux\b|\bX11\b|\bUbuntu\b|\bFedora\b", re.I)),
)


def browser_name(user_agent: object) -> str:
    """The browser's family ("Chrome"), or ``UNKNOWN_BROWSER``."""
    text = user_agent[:_MAX_INPUT] if isinstance(user_agent, str) else ""
    for label, pattern in _BROWSERS:
        if pattern.search(text):
            return label
    return UNKNOWN_BROWSER


def os_name(user_agent: object) -> str:
    """The operating system ("Linux"), or ``UNKNOWN_OS``."""
    text = user_agent[:_MAX_INPUT] if isinstance(user_agent, str) else ""
    for label, pattern in _SYSTEMS:
        if pattern.search(text):
            return label
    return UNKNOWN_OS


def describe_user_agent(user_agent: object) -> str:
    """'Chrome on Linux', 'Safari on iOS', 'Firefox on unknown system',
    'Unknown browser on Windows'; 'Unknown browser' when nothing is known."""
    browser, system = browser_name(user_agent), os_name(user_agent)
    if browser == UNKNOWN_BROWSER and system == UNKNOWN_OS:
        return UNKNOWN_BROWSER
    return f"{browser} on {system}"
