"""A browser's device id (kept in its localStorage): made here, and checked when it comes back."""

import re
import secrets


DEVICE_ID_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


def new_device_id() -> str:
    """A random id for one browser (kept in its localStorage)."""
    return secrets.token_urlsafe(18)


def clean_device_id(value: object) -> str:
    """The device id the browser sent, or "" when it is not one we could have made."""
    return value if isinstance(value, str) and DEVICE_ID_RE.fullmatch(value) else ""
