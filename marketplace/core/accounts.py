"""Sign-up validation and referral-code rules (SPEC sections 5 and 8)."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from email_validator import EmailNotValidError, validate_email

PASSWORD_MIN_LENGTH = 6
REFERRAL_CODE_MAX_LENGTH = 15
REFERRAL_CODE_RE = re.compile(r"^[A-Za-z0-9]{1,15}$")

# Messages, word for word from the SPEC. (title, description)
PASSWORD_MISMATCH = ("Password Mismatch", "Passwords do not match. Please try again.")
PASSWORD_TOO_SHORT = ("Password Too Short", "Password must be at least 6 characters long.")
UNEXPECTED_ERROR = ("Error", "An unexpected error occurred. Please try again.")
INVALID_CREDENTIALS = "Invalid login credentials"
ALREADY_REGISTERED = "User already registered"


@dataclass(frozen=True)
class ValidationError(Exception):
    title: str
    message: str

    def __str__(self) -> str:
        return f"{self.title}: {self.message}"


def normalize_email(email: str) -> str:
    """Check the syntax of an e-mail address and return it lower-cased.

    Raises ``ValueError`` with a readable message when it is not an address.
    """
    try:
        result = validate_email((email or "").strip(), check_deliverability=False)
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
        raise ValidationError("Missing Information", f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} required.")
    try:
        normalized = normalize_email(email)
    except ValueError as exc:
        raise ValidationError("Sign Up Failed", str(exc)) from exc
    if password != confirm:
        raise ValidationError(*PASSWORD_MISMATCH)
    if len(password or "") < PASSWORD_MIN_LENGTH:
        raise ValidationError(*PASSWORD_TOO_SHORT)
    return normalized


def is_valid_referral_code(code: str) -> bool:
    return bool(REFERRAL_CODE_RE.fullmatch(code or ""))


_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I look-alikes


def generate_referral_code(length: int = 8) -> str:
    return "".join(secrets.choice(_CODE_ALPHABET) for _ in range(length))
