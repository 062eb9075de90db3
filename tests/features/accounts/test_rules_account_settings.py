"""Settings tab rules: names, a new password (SPEC 5 texts), the delete confirmation."""

import pytest

from marketplace.features.accounts import rules_settings as rules


def test_names_are_trimmed():
    assert rules.validate_names("  Ada ", "Lovelace ") == rules.Names("Ada", "Lovelace")


@pytest.mark.parametrize(("first", "last", "message"), [
    (" ", "Lee", "First name is required."),
    ("Ann", None, "Last name is required."),
    ("A" * 101, "Lee", "First name must be at most 100 characters long."),
    ("Ann\tB", "Lee", "First name cannot contain line breaks, tabs or other control characters."),
    ("Ann", "Le\u200be", "Last name cannot contain line breaks, tabs or other control characters."),
    ("Ann", "Le\u2028e", "Last name cannot contain line breaks, tabs or other control characters."),
])
def test_bad_names(first, last, message):
    with pytest.raises(rules.ValidationError) as err:
        rules.validate_names(first, last)
    assert err.value.message == message


def test_names_with_accents_and_hyphens_are_fine():
    assert rules.validate_names("José-María", "O'Brien Núñez").last_name == "O'Brien Núñez"


def test_new_password_messages_are_the_specs():
    with pytest.raises(rules.ValidationError) as err:
        rules.validate_new_password("old", "abcdef", "abcdeX")
    assert (err.value.title, err.value.message) == ("Password Mismatch", "Passwords do not match. Please try again.")
    with pytest.raises(rules.ValidationError) as err:
        rules.validate_new_password("old", "abcde", "abcde")
    assert (err.value.title, err.value.message) == ("Password Too Short", "Password must be at least 6 characters long.")
    with pytest.raises(rules.ValidationError) as err:
        rules.validate_new_password("", "abcdef", "abcdef")
    assert err.value.title == "Current Password Required"
    assert rules.validate_new_password("old", "abcdef", "abcdef") == "abcdef"
    with pytest.raises(rules.ValidationError) as err:
        rules.validate_new_password("secret123", "secret123", "secret123")
    assert (err.value.title, err.value.message) == (
        "Password Not Changed", "The new password is the same as your current one.")


@pytest.mark.parametrize(("typed", "ok"), [
    ("ann@example.com", True), ("  ANN@Example.com ", True), ("ann@example.co", False), ("", False), (None, False),
])
def test_delete_confirmation(typed, ok):
    assert rules.delete_confirmation_matches(typed, "ann@example.com") is ok


def test_tombstone_email_is_not_an_address_anyone_can_register():
    from marketplace.features.accounts.rules import normalize_email

    tomb = rules.tombstone_email("ABCDEF0123")
    assert tomb == "deleted-abcdef0123@deleted.invalid"
    with pytest.raises(ValueError):
        normalize_email(tomb)
