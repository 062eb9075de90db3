"""Accounts: sign-up (that never tells whether an address is taken), sign-in,
field ceilings, e-mail confirmation, the mail log in production."""

import inspect
import logging
from datetime import timedelta

import pytest
from sqlmodel import func, select

from marketplace.platform.admins import is_super_admin
from marketplace.platform.config import reload_settings
from marketplace.platform.db import session_scope
from marketplace.platform.models import AuthSession, EmailOutbox, LoginAttempt, Profile, Subscription, User, utcnow
from marketplace.features.accounts import (
    service_mail as account_mail,
    service_settings as account_settings,
    service as accounts,
)
from marketplace.features.accounts import service_users as users
from marketplace.platform import sessions as auth_sessions, ledger

INVALID_CREDENTIALS = "Invalid login credentials. Signed up recently? Confirm your e-mail first with the link we sent you."

PASSWORD = "secret1"


def _sign_up(**overrides):
    data = dict(first_name="Ann", last_name="Lee", email="Ann@Example.com", password=PASSWORD,
                confirm_password=PASSWORD, user_agent="pytest", ip_address="10.0.0.1")
    data.update(overrides)
    with session_scope() as s:
        return accounts.sign_up(s, **data)


def _user(email="ann@example.com"):
    with session_scope() as s:
        return s.exec(select(User).where(User.email == email)).one()


def _mails(email="ann@example.com"):
    with session_scope() as s:
        return list(s.exec(select(EmailOutbox).where(EmailOutbox.to_address == email).order_by(EmailOutbox.id)))


def _link_token(mail: EmailOutbox) -> str:
    return mail.body.split("/auth/callback?token=", 1)[1].split()[0]


def _count(model, *where):
    with session_scope() as s:
        return s.exec(select(func.count()).select_from(model).where(*where)).one()


def _sign_in(email, password, **kw):
    return accounts.sign_in_user(email, password, **kw)


def _confirm(mail):
    with session_scope() as s:
        result = accounts.confirm_email(s, _link_token(mail))
        return None if result is None else (result[0].id, result[1])


# --------------------------------------------------------------------------- sign-up


def test_sign_up_creates_user_profile_subscription_and_confirmation_mail_but_no_session(db_url):
    result = _sign_up()
    assert result == accounts.SignUpResult(email="ann@example.com", referral_refused=False)
    user = _user()
    with session_scope() as s:
        assert user.password_hash.startswith("$argon2id$")
        assert user.email_confirmed_at is None
        profile = s.get(Profile, user.id)
        assert (profile.first_name, profile.last_name, profile.credits_remaining) == ("Ann", "Lee", 0)
        assert 1 <= len(profile.referral_code) <= 15
        sub = s.get(Subscription, user.id)
        assert (sub.subscribed, sub.subscription_type, sub.leads_remaining) == (False, "none", 0)
        assert s.exec(select(func.count()).select_from(AuthSession)).one() == 0  # the link signs in
    [mail] = _mails()
    assert mail.subject == "Confirm your e-mail address" and "/auth/callback?token=" in mail.body


def test_the_confirmation_link_signs_in_once(db_url):
    _sign_up(user_agent="ua", ip_address="10.0.0.1")
    [mail] = _mails()
    user_id, pair = _confirm(mail)
    with session_scope() as s:
        assert s.get(User, user_id).email_confirmed_at is not None
        assert auth_sessions.validate_access_token(s, pair.access_token) == user_id
        row = s.exec(select(AuthSession)).one()
        assert row.access_token_hash != pair.access_token  # only hashes are stored
    assert _confirm(mail) is None  # single use


def test_sign_up_with_a_confirmed_address_answers_the_same_and_changes_nothing(db_url):
    first = _sign_up()
    _confirm(_mails()[0])
    before = _user()
    again = _sign_up(email="ANN@example.com", first_name="Mallory", last_name="X", password="other-pw",
                     confirm_password="other-pw")
    assert again == first  # the caller cannot tell the two apart
    after = _user()
    assert (after.id, after.password_hash, after.email_confirmed_at) == (
        before.id, before.password_hash, before.email_confirmed_at)
    with session_scope() as s:
        assert s.get(Profile, after.id).first_name == "Ann"
    assert _count(User) == 1
    notice = _mails()[-1]
    assert notice.subject == "Someone tried to sign up with your e-mail address"
    assert "/auth/callback" not in notice.body and "sign in instead" in notice.body
    _sign_in("ann@example.com", PASSWORD)  # the owner's password still works
    with pytest.raises(accounts.AuthError):
        _sign_in("ann@example.com", "other-pw", ip_address="10.9.9.9")


def test_sign_up_again_with_an_unconfirmed_address_the_newest_link_and_password_win(db_url):
    _sign_up()  # someone (maybe not the owner) signed up first
    first_link = _mails()[0]
    _sign_up(password="owner-pw", confirm_password="owner-pw")
    assert _count(User) == 1
    second_link = _mails()[-1]
    assert second_link.subject == "Confirm your e-mail address"
    assert _confirm(first_link) is None  # its password was replaced: the link is dead
    user_id, _ = _confirm(second_link)
    assert _sign_in("ann@example.com", "owner-pw")[0] == user_id
    with pytest.raises(accounts.AuthError):
        _sign_in("ann@example.com", PASSWORD, ip_address="10.9.9.8")


def test_an_unconfirmed_address_cannot_sign_in_with_its_password_and_gets_a_new_link(db_url):
    _sign_up()
    for password in (PASSWORD, "wrong-pw"):
        with pytest.raises(accounts.AuthError) as err:
            _sign_in("ann@example.com", password)
        assert (err.value.title, err.value.message) == ("Sign In Failed", INVALID_CREDENTIALS)
    assert _count(AuthSession) == 0
    # Just one confirmation so far (sent moments ago): no second one yet.
    assert len(_mails()) == 1
    with session_scope() as s:
        s.exec(select(EmailOutbox)).one().created_at = utcnow() - timedelta(minutes=11)
    with pytest.raises(accounts.AuthError):
        _sign_in("ann@example.com", PASSWORD)
    mails = _mails()
    assert len(mails) == 2 and mails[-1].subject == "Confirm your e-mail address"
    assert _confirm(mails[-1]) is not None


@pytest.mark.parametrize(
    ("overrides", "title", "message"),
    [({"confirm_password": "other1"}, "Password Mismatch", "Passwords do not match. Please try again."),
     ({"password": "12345", "confirm_password": "12345"}, "Password Too Short",
      "Password must be at least 6 characters long."),
     ({"first_name": "A" * 101}, "Name Too Long", "First name must be at most 100 characters long."),
     ({"first_name": "A" * 900_000}, "Name Too Long", "First name must be at most 100 characters long."),
     ({"last_name": "L" * 101}, "Name Too Long", "Last name must be at most 100 characters long."),
     ({"email": "a" * 250 + "@example.com"}, "Email Too Long", "Email must be at most 254 characters long."),
     ({"password": "p" * 129, "confirm_password": "p" * 129}, "Password Too Long",
      "Password must be at most 128 characters long."),
     ({"password": "p" * 10_000_000, "confirm_password": "p" * 10_000_000}, "Password Too Long",
      "Password must be at most 128 characters long.")],
    ids=["mismatch", "short", "first-101", "first-900k", "last-101", "email-262", "password-129", "password-10M"],
)
def test_sign_up_validation_writes_nothing(db_url, overrides, title, message, monkeypatch):
    from marketplace.features.accounts import service as account_service
    hashed = []  # what reaches Argon2 (the real function, watched): refused before any hashing
    real = account_service.hash_password
    monkeypatch.setattr(account_service, "hash_password", lambda password: hashed.append(password) or real(password))
    with pytest.raises(accounts.AuthError) as err:
        _sign_up(**overrides)
    assert hashed == []
    assert (err.value.title, err.value.message) == (title, message)
    assert _count(User) == 0 and _count(Profile) == 0
    assert _count(EmailOutbox) == 0 and _count(LoginAttempt) == 0


def test_longest_allowed_fields_are_stored_whole(db_url):
    email = "a" * 64 + "@" + "b" * 60 + ".example.com"
    _sign_up(first_name="F" * 100, last_name="L" * 100, email=email, password="p" * 128, confirm_password="p" * 128)
    user = _user(email)
    with session_scope() as s:
        profile = s.get(Profile, user.id)
        assert (len(profile.first_name), len(profile.last_name)) == (100, 100)


@pytest.mark.parametrize(
    ("args", "message"),
    [(("x@example.com", "secret1", "F" * 101, "L"), "First name must be at most 100 characters long."),
     (("x@example.com", "p" * 129, "F", "L"), "Password must be at most 128 characters long."),
     (("x@example.com", "12345", "F", "L"), "Password must be at least 6 characters long."),
     (("x" * 300 + "@example.com", "secret1", "F", "L"), "Email must be at most 254 characters long.")],
)
def test_create_user_refuses_overlong_fields(db_url, args, message):
    with pytest.raises(ValueError, match=message):
        with session_scope() as s:
            accounts.create_user(s, *args)
    assert _count(User) == 0


def test_sign_up_is_throttled_per_ip(db_url, monkeypatch):
    monkeypatch.setenv("SIGNUP_MAX_PER_HOUR", "3")
    reload_settings()
    for i in range(3):
        _sign_up(email=f"p{i}@example.com", ip_address="198.51.100.7")
    # a taken address counts the same as a new one
    with pytest.raises(accounts.AuthError) as err:
        _sign_up(email="p0@example.com", ip_address="198.51.100.7")
    assert (err.value.title, err.value.message) == (
        "Sign Up Failed", "Too many sign-ups from your network. Please try again in 60 minutes.")
    with pytest.raises(accounts.AuthError):
        _sign_up(email="p9@example.com", ip_address="198.51.100.7")
    assert _count(User, User.email == "p9@example.com") == 0
    assert _count(EmailOutbox, EmailOutbox.to_address.in_(["p0@example.com", "p9@example.com"])) == 1
    _sign_up(email="p9@example.com", ip_address="198.51.100.8")  # another network is not affected
    later = utcnow() + timedelta(minutes=61)
    with session_scope() as s:
        accounts.sign_up(s, first_name="A", last_name="B", email="p10@example.com", password=PASSWORD,
                         confirm_password=PASSWORD, ip_address="198.51.100.7", now=later)


def test_referral_code_at_sign_up_binds_the_referrer(db_url, new_user):
    referrer = new_user(email="ref@example.com")
    with session_scope() as s:
        code = s.get(Profile, referrer.id).referral_code
    assert _sign_up(email="new@example.com", referral_code=code.lower()).referral_refused is False
    with session_scope() as s:
        assert s.get(Profile, _user("new@example.com").id).referred_by == referrer.id


def test_an_unknown_referral_code_is_reported_not_applied(db_url):
    assert _sign_up(referral_code="NOSUCHCODE").referral_refused is True
    with session_scope() as s:
        assert s.get(Profile, _user().id).referred_by is None


# --------------------------------------------------------------------------- sign-in


def test_wrong_password_and_unknown_email_get_the_same_message(db_url, new_user, monkeypatch):
    new_user(email="ann@example.com", password=PASSWORD, confirmed=True)
    # What reaches Argon2 (the real hasher, watched): an oversized password is refused before any hash
    # work, and the rest cost one verify of a bounded password (a timed assert would only measure the shared machine's load).
    from marketplace.features.accounts import service as account_service
    hashed = []
    verify = account_service.verify_password
    monkeypatch.setattr(account_service, "verify_password",
                        lambda stored, password: hashed.append(len(password)) or verify(stored, password))
    for email, password in (("ann@example.com", "wrong-pw"), ("nobody@example.com", PASSWORD),
                            ("ann@example.com", "p" * 5_000_000), ("a" * 100_000, PASSWORD)):
        hashed.clear()
        with pytest.raises(accounts.AuthError) as err:
            _sign_in(email, password)
        assert (err.value.title, err.value.message) == ("Sign In Failed", INVALID_CREDENTIALS)
        # One verify of a password of bounded length (the 100,000-character e-mail's against the dummy hash).
        assert hashed == ([] if len(password) > 128 else [len(password)])
    assert _count(LoginAttempt) == 4  # failures are kept
    with session_scope() as s:
        assert max(len(a.email) for a in s.exec(select(LoginAttempt))) <= 320


def test_sign_in_records_the_browser(db_url, new_user):
    user = new_user(email="ann@example.com", password=PASSWORD, confirmed=True)
    _sign_in("ann@example.com", PASSWORD, user_agent="pytest", ip_address="10.0.0.1",
             device_id="dev-aaaaaaaaaaaaaaaaaaaa")
    _sign_in("ann@example.com", PASSWORD, device_id="<script>")  # not one we could have made
    with session_scope() as s:
        rows = s.exec(select(AuthSession).order_by(AuthSession.created_at)).all()
        assert [(r.user_id, r.device_id) for r in rows] == [(user.id, "dev-aaaaaaaaaaaaaaaaaaaa"), (user.id, "")]
        assert (rows[0].user_agent, rows[0].ip_address) == ("pytest", "10.0.0.1")


# --------------------------------------------------------------------------- confirmation links


def test_forged_stale_or_foreign_confirmation_links_are_refused(db_url):
    _sign_up()
    user = _user()
    token = account_mail.make_confirmation_token(user.id, user.password_hash)
    payload, sig = token.split(".")
    with session_scope() as s:
        assert accounts.confirm_email(s, payload + "." + sig[:-2] + "AA") is None
        assert accounts.confirm_email(s, "garbage") is None
        assert accounts.confirm_email(s, "x" * 100_000) is None
        assert accounts.confirm_email(s, account_mail.make_confirmation_token(user.id, "another hash")) is None
    stale = account_mail.make_confirmation_token(user.id, user.password_hash, now=utcnow() - timedelta(days=4))
    with session_scope() as s:
        assert accounts.confirm_email(s, stale) is None
    assert _user().email_confirmed_at is None


def test_create_user_with_credits_books_them_through_the_ledger(db_url):
    with session_scope() as s:
        user = accounts.create_user(s, "rich@example.com", PASSWORD, "R", "Ich", credits=250, admin=True)
    with session_scope() as s:
        assert ledger.balance(s, user.id) == 250 == ledger.ledger_sum(s, user.id)
        assert is_super_admin(user.id, s)


# --------------------------------------------------------------------------- mail


def test_mailed_links_point_at_site_url_else_the_local_address(db_url, monkeypatch):
    """Issue 22 #3: a link that is e-mailed (to whoever owns the address) is never built from
    the request. Without SITE_URL it is the address `make run` prints, with it SITE_URL."""
    monkeypatch.delenv("SITE_URL", raising=False)
    monkeypatch.setenv("PORT", "3000")
    reload_settings()
    _sign_up()
    [link] = _mails()
    assert link.body.count("http://") == 1 and "\n\nhttp://localhost:3000/auth/callback?token=" in link.body
    assert _confirm(link) is not None
    monkeypatch.setenv("SITE_URL", "https://leads.example.com/")
    reload_settings()
    _sign_up()  # the address is registered now: its owner gets the notice
    notice = _mails()[-1]
    assert notice.subject == "Someone tried to sign up with your e-mail address"
    assert "\n\nhttps://leads.example.com/auth\n\n" in notice.body and "localhost" not in notice.body


@pytest.mark.parametrize("mailer", [accounts.sign_up, accounts.sign_up_user, account_mail.send_confirmation_email,
                                    account_mail.send_existing_account_notice, account_settings.resend_confirmation])
def test_nothing_from_a_request_reaches_a_mailed_link(mailer):
    """The services that mail a link take no address from the caller: a sign-up sent with
    ``Origin: http://evil.example`` and ``Host: evil.example`` has no way to put it in a mail
    (before issue 22 they took the browser's origin and used it when SITE_URL was unset)."""
    parameters = set(inspect.signature(mailer).parameters)
    assert not {name for name in parameters if "origin" in name or "host" in name or "url" in name}
    if mailer is accounts.sign_up_user:  # it passes its fields on to sign_up
        with pytest.raises(TypeError):
            accounts.sign_up_user(first_name="A", last_name="B", email="a@example.com", password=PASSWORD,
                                  confirm_password=PASSWORD, browser_origin="http://evil.example")


def test_production_log_holds_no_link(db_url, monkeypatch, caplog, capsys):
    monkeypatch.delenv("SMTP_URL", raising=False)
    monkeypatch.setenv("APP_ENV", "production")
    reload_settings()
    with caplog.at_level(logging.DEBUG):
        _sign_up()
        _sign_up()  # the notice or a second link
    logged = caplog.text + capsys.readouterr().out
    assert "ann@example.com" in logged and "Confirm your e-mail address" in logged
    assert "token=" not in logged and "/auth/callback" not in logged
    assert "token=" in _mails()[0].body  # the outbox keeps the message


def test_development_log_shows_the_link(db_url, monkeypatch, capsys):
    monkeypatch.delenv("SMTP_URL", raising=False)
    monkeypatch.delenv("APP_ENV", raising=False)
    reload_settings()
    _sign_up()
    assert "/auth/callback?token=" in capsys.readouterr().out


def test_smtp_mail_is_sent_after_commit_and_not_on_rollback(db_url, monkeypatch):
    """A tiny SMTP server on loopback receives the confirmation e-mail."""
    from tests.fakes.smtp import smtp_server

    with smtp_server() as (url, received):
        monkeypatch.setenv("SMTP_URL", url)
        reload_settings()
        with pytest.raises(RuntimeError):
            with session_scope() as s:
                accounts.sign_up(s, first_name="Ann", last_name="Lee", email="ann@example.com",
                                 password=PASSWORD, confirm_password=PASSWORD)
                raise RuntimeError("rolled back")
        assert received == []
        _sign_up()
        assert len(received) == 1 and "/auth/callback?token=" in received[0]
        with session_scope() as s:
            assert s.exec(select(EmailOutbox)).one().sent_at is not None
