"""Sign-up validation, field lengths, e-mail identity and referral-code rules
(SPEC sections 5 and 8).

Every text field has a ceiling, checked before any other work on it: the
database (SQLite) does not enforce ``String(n)``, and Argon2 of a multi-megabyte
password is a denial of service.
"""

from __future__ import annotations

import secrets

from email_validator import EmailNotValidError, validate_email

from marketplace.platform.errors import UserError
from marketplace.platform.limits import EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH
from marketplace.platform.texts import (
    EMAIL_TOO_LONG,
    FIRST_NAME_TOO_LONG,
    LAST_NAME_TOO_LONG,
    MISSING_INFORMATION_TITLE,
    PASSWORD_MISMATCH,
    PASSWORD_TOO_LONG,
    PASSWORD_TOO_SHORT,
    REQUIRED_FIELDS,
    SIGN_UP_FAILED_TITLE,
)
from marketplace.platform.routes import is_reserved_referral_code


class ValidationError(UserError):
    """Refused input (``title``, ``message``); nothing was written."""

    def __str__(self) -> str:
        return f"{self.title}: {self.message}"


def normalize_email(email: str) -> str:
    """Check the syntax of an e-mail address and return it lower-cased.

    Raises ``ValueError`` with a readable message when it is not an address
    (an overlong one included, before any parsing).
    """
    text = (email or "").strip()
    if len(text) > EMAIL_MAX_LENGTH:
        raise ValueError(EMAIL_TOO_LONG[1])
    try:
        result = validate_email(text, check_deliverability=False)
    except EmailNotValidError as exc:
        raise ValueError(str(exc)) from exc
    return result.normalized.lower()


def validate_sign_up(first_name: str, last_name: str, email: str, password: str, confirm: str) -> str:
    """Validate the sign-up form; returns the normalized e-mail.

    Raises ``ValidationError`` carrying the SPEC's title and message.
    """
    missing = [label for label, value in (("First name", first_name), ("Last name", last_name), ("Email", email))
               if not (value or "").strip()]
    if missing:
        verb = "is" if len(missing) == 1 else "are"
        raise ValidationError(MISSING_INFORMATION_TITLE, REQUIRED_FIELDS.format(fields=", ".join(missing), verb=verb))
    check_lengths(first_name, last_name, email, password)
    try:
        normalized = normalize_email(email)
    except ValueError as exc:
        raise ValidationError(SIGN_UP_FAILED_TITLE, str(exc)) from exc
    if password != confirm:
        raise ValidationError(*PASSWORD_MISMATCH)
    if len(password or "") < PASSWORD_MIN_LENGTH:
        raise ValidationError(*PASSWORD_TOO_SHORT)
    return normalized


def check_lengths(first_name: str | None, last_name: str | None, email: str | None, password: str | None) -> None:
    """Refuse any field over its ceiling (``ValidationError``); names count after trimming."""
    if len((first_name or "").strip()) > NAME_MAX_LENGTH:
        raise ValidationError(*FIRST_NAME_TOO_LONG)
    if len((last_name or "").strip()) > NAME_MAX_LENGTH:
        raise ValidationError(*LAST_NAME_TOO_LONG)
    if len((email or "").strip()) > EMAIL_MAX_LENGTH:
        raise ValidationError(*EMAIL_TOO_LONG)
    if len(password or "") > PASSWORD_MAX_LENGTH:
        raise ValidationError(*PASSWORD_TOO_LONG)


def validate_password_pair(password: object, confirm: object) -> str:
    """A new password and its repetition, checked in the sign-up's order (SPEC 5
    texts): mismatch, then too short, then too long. Returns the password."""
    password = password if isinstance(password, str) else ""
    confirm = confirm if isinstance(confirm, str) else ""
    if password != confirm:
        raise ValidationError(*PASSWORD_MISMATCH)
    check_password(password)
    return password


def check_password(password: str | None) -> None:
    """6 to 128 characters (``ValidationError`` with the SPEC's or a clear message)."""
    if len(password or "") > PASSWORD_MAX_LENGTH:
        raise ValidationError(*PASSWORD_TOO_LONG)
    if len(password or "") < PASSWORD_MIN_LENGTH:
        raise ValidationError(*PASSWORD_TOO_SHORT)


# --------------------------------------------------------------------------- e-mail identity

# Providers that deliver ``name+anything@`` to ``name@`` (and for Gmail, ignore
# dots in the name): all of these are one mailbox, so one person.
_GMAIL = frozenset({"gmail.com", "googlemail.com"})
_PLUS_TAG_DOMAINS = frozenset({
    "outlook.com", "hotmail.com", "live.com", "msn.com", "outlook.co.uk", "hotmail.co.uk", "live.co.uk",
    "hotmail.fr", "outlook.fr", "live.fr", "hotmail.de", "outlook.de", "hotmail.it", "hotmail.es",
    "icloud.com", "me.com", "mac.com",
    "fastmail.com", "fastmail.fm",
    "proton.me", "protonmail.com", "protonmail.ch", "pm.me",
    "zoho.com", "gmx.com", "gmx.net", "gmx.de", "yandex.com", "yandex.ru",
})
# Yahoo's disposable addresses are ``base-keyword@``.
_DASH_TAG_DOMAINS = frozenset({
    "yahoo.com", "yahoo.co.uk", "yahoo.fr", "yahoo.de", "yahoo.it", "yahoo.es", "yahoo.ca", "yahoo.com.au",
    "ymail.com", "rocketmail.com",
})


def mailbox_identity(email: str) -> str:
    """The mailbox an address delivers to: lower-cased, and on providers that
    ignore them, without +tags (Yahoo: -keywords) and Gmail's dots, with
    googlemail.com read as gmail.com. Two addresses with the same identity
    belong to one person. Works on any string (no validation)."""
    text = (email or "").strip().lower()
    local, sep, domain = text.rpartition("@")
    if not sep:
        return text
    domain = domain.rstrip(".")
    if domain in _GMAIL:
        return local.split("+", 1)[0].replace(".", "") + "@gmail.com"
    if domain in _PLUS_TAG_DOMAINS:
        return local.split("+", 1)[0] + "@" + domain
    if domain in _DASH_TAG_DOMAINS:
        return local.split("+", 1)[0].split("-", 1)[0] + "@" + domain
    return local + "@" + domain


# --------------------------------------------------------------------------- devices


# --------------------------------------------------------------------------- referral codes



_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I look-alikes


def generate_referral_code(length: int = 8) -> str:
    """A random code; never a route name."""
    while True:
        code = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(length))
        if not is_reserved_referral_code(code):
            return code
