"""Rules of the dashboard's Settings tab: names, a password change, the
delete-account confirmation. Pure: no database, no Reflex.

Messages are (title, description) pairs from ``marketplace.platform.texts``; only
the name messages, built from the field label, are made here.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from marketplace.features.accounts.rules import ValidationError, validate_password_pair
from marketplace.platform.limits import NAME_MAX_LENGTH
from marketplace.platform.texts import CURRENT_PASSWORD_REQUIRED, PASSWORD_UNCHANGED

__all__ = [
    "NAME_INVALID_CHARACTERS",
    "Names",
    "ValidationError",
    "clean_name",
    "delete_confirmation_matches",
    "validate_names",
    "validate_new_password",
]


def _name_messages(label: str) -> dict[str, tuple[str, str]]:
    return {
        "missing": ("Missing Information", f"{label} is required."),
        "long": ("Name Too Long", f"{label} must be at most {NAME_MAX_LENGTH} characters long."),
        "control": ("Invalid Name", f"{label} cannot contain line breaks, tabs or other control characters."),
    }


NAME_INVALID_CHARACTERS = _name_messages("First name")["control"]


def _has_control_character(text: str) -> bool:
    # Cc: C0/C1 controls (newline, tab, NUL...); Cf: invisible format characters
    # (bidi overrides, zero-width joiners) that can disguise a name; Zl/Zp: line
    # and paragraph separators.
    return any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in text)


def clean_name(value: object, label: str) -> str:
    """One name field trimmed; ``ValidationError`` when empty, over 100
    characters or holding a control character."""
    messages = _name_messages(label)
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise ValidationError(*messages["missing"])
    if len(text) > NAME_MAX_LENGTH:
        raise ValidationError(*messages["long"])
    if _has_control_character(text):
        raise ValidationError(*messages["control"])
    return text


@dataclass(frozen=True)
class Names:
    first_name: str
    last_name: str


def validate_names(first_name: object, last_name: object) -> Names:
    """Both names, trimmed and checked (first name's error first)."""
    return Names(clean_name(first_name, "First name"), clean_name(last_name, "Last name"))


def validate_new_password(current: object, new: object, confirm: object) -> str:
    """The new password, checked in the sign-up's order: mismatch, then length
    (SPEC 5 texts). The current password must be given."""
    current = current if isinstance(current, str) else ""
    new = new if isinstance(new, str) else ""
    confirm = confirm if isinstance(confirm, str) else ""
    if not current:
        raise ValidationError(*CURRENT_PASSWORD_REQUIRED)
    validate_password_pair(new, confirm)
    if new == current:
        raise ValidationError(*PASSWORD_UNCHANGED)
    return new


def delete_confirmation_matches(typed: object, email: str) -> bool:
    """The e-mail typed to confirm a deletion, compared without case or outer spaces."""
    if not isinstance(typed, str) or not email:
        return False
    return typed.strip().casefold() == email.strip().casefold()


def tombstone_email(user_hex: str) -> str:
    """The e-mail a deleted account's row keeps: unique, never deliverable
    (.invalid is reserved, RFC 2606), refused by sign-up's address check."""
    return f"deleted-{user_hex.lower()}@deleted.invalid"


def shown_sessions(sessions: list, expanded: bool) -> tuple[list, int]:
    """(the sessions the Settings tab lists, how many it keeps behind 'N more'): the current session first,
    then the others in their order (most recently used first); collapsed, the current one alone (or the
    most recent when none is this browser's), the rest counted, not listed."""
    ordered = sorted(sessions, key=lambda s: not getattr(s, "current", False))  # stable: order kept
    if expanded:
        return ordered, 0
    return ordered[:1], max(0, len(ordered) - 1)
