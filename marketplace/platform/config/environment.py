"""Reading one environment variable: a whole number, a number, a yes/no flag; ``ConfigError`` for a
setting the app cannot run with."""

from __future__ import annotations

import os


class ConfigError(Exception):
    """A setting is missing or wrong; the message is one line, fit to print and exit with."""


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError as exc:  # a misconfiguration should stop the app loudly
        raise ValueError(f"{name} must be a whole number, got {raw!r}") from exc


FALSE_WORDS = ("0", "off", "false", "no")


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError as exc:  # a misconfiguration should stop the app loudly
        raise ValueError(f"{name} must be a number of seconds, got {raw!r}") from exc


def _flag(name: str, default: bool) -> bool:
    raw = os.environ.get(name, "").strip().lower()
    return default if not raw else raw not in FALSE_WORDS
