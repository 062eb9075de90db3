"""Sign-up validation texts (SPEC 5) and referral-code syntax."""

import pytest

from marketplace.platform import routes
from marketplace.features.accounts import rules
from marketplace.platform.devices import clean_device_id, new_device_id


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
    assert routes.is_valid_referral_code(code) is ok


def test_generated_referral_codes_are_valid_and_varied():
    codes = {rules.generate_referral_code() for _ in range(200)}
    assert len(codes) == 200
    assert all(routes.is_valid_referral_code(c) for c in codes)


# --------------------------------------------------------------------------- field ceilings


@pytest.mark.parametrize(
    ("first", "last", "email", "password", "title", "message"),
    [("A" * 101, "Lee", "a@example.com", "secret1", "Name Too Long", "First name must be at most 100 characters long."),
     ("Ann", "L" * 101, "a@example.com", "secret1", "Name Too Long", "Last name must be at most 100 characters long."),
     ("Ann", "Lee", "a" * 243 + "@example.com", "secret1", "Email Too Long",
      "Email must be at most 254 characters long."),
     ("Ann", "Lee", "a@example.com", "p" * 129, "Password Too Long", "Password must be at most 128 characters long.")],
)
def test_overlong_fields_are_refused(first, last, email, password, title, message):
    with pytest.raises(rules.ValidationError) as err:
        rules.validate_sign_up(first, last, email, password, password)
    assert (err.value.title, err.value.message) == (title, message)


def test_longest_fields_pass_and_names_count_after_trimming():
    email = "a" * 64 + "@" + "b" * 60 + ".example.com"
    assert rules.validate_sign_up("  " + "F" * 100 + "  ", "L" * 100, email, "p" * 128, "p" * 128) == email


# --------------------------------------------------------------------------- mailbox identity


@pytest.mark.parametrize(("a", "b"), [
    ("John.Doe@gmail.com", "johndoe+promo@googlemail.com"),
    ("ann@outlook.com", "ANN+x@outlook.com"),
    ("ann@hotmail.co.uk", "ann+x@hotmail.co.uk"),
    ("ann@yahoo.com", "ann-shopping@yahoo.com"),
    ("ann@icloud.com", "ann+1@icloud.com"),
    ("ann@fastmail.com", "ann+1@fastmail.com"),
    ("ann@proton.me", "ann+1@proton.me"),
])
def test_same_mailbox(a, b):
    assert rules.mailbox_identity(a) == rules.mailbox_identity(b)


@pytest.mark.parametrize(("a", "b"), [
    ("a.nn@outlook.com", "ann@outlook.com"),
    ("ann@example.com", "ann+x@example.com"),
    ("ann@gmail.com", "bob@gmail.com"),
    ("ann-x@example.com", "ann@example.com"),
])
def test_different_mailboxes(a, b):
    assert rules.mailbox_identity(a) != rules.mailbox_identity(b)


# --------------------------------------------------------------------------- route names and devices


@pytest.mark.parametrize("code", ["PRICING", "pricing", "Marketplace", "about", "legal", "auth", "dashboard",
                                  "contact", "bulkscraper", "explorerdev", "property", "api", "functions", "404",
                                  "index"])
def test_route_names_are_reserved(code):
    assert routes.is_reserved_referral_code(code)


def test_ordinary_codes_are_not_reserved():
    assert not routes.is_reserved_referral_code("FLIPPER42")
    assert not routes.is_reserved_referral_code("PRICING2")


def test_a_generated_code_is_never_a_route_name(monkeypatch):
    letters = iter("PRICING" + "ABCDEFG")
    monkeypatch.setattr(rules.secrets, "choice", lambda _alphabet: next(letters))
    assert rules.generate_referral_code(7) == "ABCDEFG"


def test_device_ids():
    made = new_device_id()
    assert clean_device_id(made) == made and made != new_device_id()
    for bad in ("", "short", "x" * 65, "<script>alert(1)</script>", None, 42):
        assert clean_device_id(bad) == ""


@pytest.mark.parametrize("password,confirm,expected", [
    ("abcdef", "abcdeg", ("Password Mismatch", "Passwords do not match. Please try again.")),
    ("abc", "abd", ("Password Mismatch", "Passwords do not match. Please try again.")),  # mismatch first
    ("abc", "abc", ("Password Too Short", "Password must be at least 6 characters long.")),
    (None, 42, ("Password Too Short", "Password must be at least 6 characters long.")),
    ("p" * 129, "p" * 129, ("Password Too Long", "Password must be at most 128 characters long.")),
])
def test_validate_password_pair_refuses_in_the_sign_up_order(password, confirm, expected):
    with pytest.raises(rules.ValidationError) as exc:
        rules.validate_password_pair(password, confirm)
    assert (exc.value.title, exc.value.message) == expected


def test_validate_password_pair_returns_the_password():
    assert rules.validate_password_pair("secret1", "secret1") == "secret1"
