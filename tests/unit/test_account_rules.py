"""Sign-up validation texts (SPEC 5) and referral-code syntax."""

import pytest

from marketplace.core import accounts as rules


def test_password_mismatch_message():
    with pytest.raises(rules.ValidationError) as err:
        rules.validate_sign_up("Ann", "Lee", "ann@example.com", "secret1", "secret2")
    assert (err.value.title, err.value.message) == ("Password Mismatch", "Passwords do not match. Please try again.")


def test_password_too_short_message():
    with pytest.raises(rules.ValidationError) as err:
        rules.validate_sign_up("Ann", "Lee", "ann@example.com", "12345", "12345")
    assert (err.value.title, err.value.message) == (
        "Password Too Short", "Password must be at least 6 characters long.")


def test_six_characters_is_enough_and_email_is_lower_cased():
    assert rules.validate_sign_up("Ann", "Lee", " Ann@Example.COM ", "123456", "123456") == "ann@example.com"


@pytest.mark.parametrize(
    ("first", "last", "email", "message"),
    [("", "Lee", "a@example.com", "First name is required."),
     ("Ann", " ", "a@example.com", "Last name is required."),
     ("Ann", "Lee", "", "Email is required."),
     ("", "", "", "First name, Last name, Email are required.")],
)
def test_required_fields(first, last, email, message):
    with pytest.raises(rules.ValidationError) as err:
        rules.validate_sign_up(first, last, email, "secret1", "secret1")
    assert err.value.title == "Missing Information"
    assert err.value.message == message


def test_malformed_email_is_refused_with_a_readable_reason():
    with pytest.raises(rules.ValidationError) as err:
        rules.validate_sign_up("Ann", "Lee", "not-an-address", "secret1", "secret1")
    assert err.value.title == "Sign Up Failed"
    assert "@" in err.value.message


@pytest.mark.parametrize(("code", "ok"), [("A", True), ("abc123XYZ", True), ("A" * 15, True), ("A" * 16, False),
                                          ("", False), ("abc-1", False), ("ab c", False), ("ñandu", False)])
def test_referral_code_syntax(code, ok):
    assert rules.is_valid_referral_code(code) is ok


def test_generated_referral_codes_are_valid_and_varied():
    codes = {rules.generate_referral_code() for _ in range(200)}
    assert len(codes) == 200
    assert all(rules.is_valid_referral_code(c) for c in codes)
