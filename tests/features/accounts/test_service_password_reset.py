"""Password reset ("Forgot password?", issue 24 #7): the request never tells whether an
address is registered and is throttled; the link sets a password once, within 30
minutes, signs every other session out and confirms an unconfirmed address."""

import threading
import uuid
from datetime import timedelta

import pytest
from sqlmodel import func, select

from marketplace.platform.config import reload_settings
from marketplace.platform.db import session_scope
from marketplace.platform.models import AuthSession, EmailOutbox, LoginAttempt, User, utcnow
from marketplace.features.accounts import (
    service as accounts,
    service_password_reset as password_reset,
    service_throttle as throttle,
)
from marketplace.platform import sessions as auth_sessions
from marketplace.features.accounts.service import AuthError
from marketplace.features.accounts.service_password_reset import ResetLinkInvalid

RESET_SUBJECT = "Reset your password"
NEW_PASSWORD = "brand-new-pw"


def _mails(email: str) -> list[EmailOutbox]:
    with session_scope() as s:
        return list(s.exec(select(EmailOutbox).where(EmailOutbox.to_address == email).order_by(EmailOutbox.id)))


def _reset_token(email: str) -> str:
    mail = [m for m in _mails(email) if m.subject == RESET_SUBJECT][-1]
    return mail.body.split("/auth/reset?token=", 1)[1].split()[0]


def _user(email: str) -> User:
    with session_scope() as s:
        return s.exec(select(User).where(User.email == email)).one()


def _live_sessions(user_id: uuid.UUID) -> int:
    with session_scope() as s:
        return len(auth_sessions.live_sessions(s, user_id))


def _open_session(user_id: uuid.UUID) -> auth_sessions.TokenPair:
    with session_scope() as s:
        return auth_sessions.create_session(s, user_id)


def _reset_rows() -> int:
    with session_scope() as s:
        return s.exec(select(func.count()).select_from(LoginAttempt)
                      .where(LoginAttempt.kind == throttle.RESET_REQUEST)).one()


# --------------------------------------------------------------------------- request


def test_request_answers_the_same_for_a_known_and_an_unknown_address(new_user, db_url):
    user = new_user(email="known@example.com", confirmed=True)
    assert password_reset.request_password_reset("Known@Example.com ", ip_address="10.1.0.1") is None
    assert password_reset.request_password_reset("nobody@example.com", ip_address="10.1.0.2") is None

    mails = _mails(user.email)
    assert [m.subject for m in mails] == [RESET_SUBJECT]
    assert "/auth/reset?token=" in mails[0].body
    assert "valid for 30 minutes" in mails[0].body
    assert _mails("nobody@example.com") == []  # an unknown address is sent nothing
    assert _reset_rows() == 2  # both requests count in the throttle alike


def test_request_link_is_built_from_site_url_not_the_request(new_user, db_url, monkeypatch):
    monkeypatch.setenv("SITE_URL", "https://leads.example.org")
    reload_settings()
    user = new_user(email="site@example.com", confirmed=True)
    password_reset.request_password_reset(user.email, ip_address="10.1.0.3")
    assert "\n\nhttps://leads.example.org/auth/reset?token=" in _mails(user.email)[-1].body


def test_malformed_address_is_refused_and_records_nothing(db_url):
    with pytest.raises(AuthError) as exc:
        password_reset.request_password_reset("not-an-address", ip_address="10.1.0.4")
    assert (exc.value.title, exc.value.message) == ("Reset Failed", "Enter the e-mail address you signed up with.")
    with pytest.raises(AuthError):
        password_reset.request_password_reset(None, ip_address="10.1.0.4")
    assert _reset_rows() == 0


@pytest.mark.parametrize("known", [True, False], ids=["known", "unknown"])
def test_request_is_throttled_per_address(new_user, db_url, known):
    email = "throttled@example.com"
    if known:
        new_user(email=email, confirmed=True)
    for i in range(throttle.RESET_MAX_PER_ADDRESS):
        password_reset.request_password_reset(email, ip_address=f"10.2.0.{i + 1}")  # other networks too
    with pytest.raises(AuthError) as exc:
        password_reset.request_password_reset(email, ip_address="10.2.1.1")
    assert exc.value.title == "Reset Failed"
    assert exc.value.message == "Too many reset requests. Please try again in 60 minutes."
    assert len(_mails(email)) == (throttle.RESET_MAX_PER_ADDRESS if known else 0)
    assert _reset_rows() == throttle.RESET_MAX_PER_ADDRESS  # a refused request is not recorded
    # An hour later the address may ask again.
    later = utcnow() + throttle.RESET_WINDOW + timedelta(seconds=1)
    password_reset.request_password_reset(email, ip_address="10.2.1.1", now=later)


def test_request_is_throttled_per_ip(db_url):
    for i in range(throttle.RESET_MAX_PER_IP):
        password_reset.request_password_reset(f"probe{i}@example.com", ip_address="10.3.0.1")
    with pytest.raises(AuthError) as exc:
        password_reset.request_password_reset("probe-last@example.com", ip_address="10.3.0.1")
    assert exc.value.message.startswith("Too many reset requests.")
    password_reset.request_password_reset("probe-last@example.com", ip_address="10.3.0.2")  # another network


def test_reset_requests_do_not_count_as_failed_sign_ins(new_user, db_url):
    user = new_user(email="mixed@example.com", confirmed=True)
    for _ in range(throttle.RESET_MAX_PER_ADDRESS):
        password_reset.request_password_reset(user.email, ip_address="10.4.0.1")
    with session_scope() as s:
        assert throttle.throttle_wait(s, user.email, "10.4.0.1") == 0


def test_a_deleted_account_is_sent_nothing(new_user, db_url):
    user = new_user(email="gone@example.com", confirmed=True)
    with session_scope() as s:
        row = s.get(User, user.id)
        row.deleted_at = utcnow()
        s.add(row)
    password_reset.request_password_reset(user.email, ip_address="10.5.0.1")
    assert _mails(user.email) == []


# --------------------------------------------------------------------------- reset


def test_reset_sets_the_password_signs_out_every_session_and_signs_this_browser_in(new_user, db_url):
    user = new_user(email="reset@example.com", password="old-secret", confirmed=True)
    others = [_open_session(user.id), _open_session(user.id)]
    password_reset.request_password_reset(user.email, ip_address="10.6.0.1")
    token = _reset_token(user.email)
    assert password_reset.password_reset_link_ok(token)

    user_id, pair = password_reset.reset_password(token, NEW_PASSWORD, NEW_PASSWORD, user_agent="pytest",
                                            ip_address="10.6.0.1")
    assert user_id == user.id
    with session_scope() as s:
        for old in others:
            assert auth_sessions.validate_access_token(s, old.access_token) is None
        assert auth_sessions.validate_access_token(s, pair.access_token) == user.id
        assert s.exec(select(AuthSession).where(AuthSession.user_id == user.id,
                                                AuthSession.revoked == False)).one().user_agent == "pytest"  # noqa: E712
    assert _live_sessions(user.id) == 1
    # The new password signs in, the old one is refused.
    assert accounts.sign_in_user(user.email, NEW_PASSWORD, ip_address="10.6.0.2")[0] == user.id
    with pytest.raises(AuthError):
        accounts.sign_in_user(user.email, "old-secret", ip_address="10.6.0.3")
    # Single use.
    assert not password_reset.password_reset_link_ok(token)
    with pytest.raises(ResetLinkInvalid) as exc:
        password_reset.reset_password(token, "third-password", "third-password")
    assert (exc.value.title, exc.value.message) == ("Link Expired", "This link has expired or was already used")
    assert accounts.sign_in_user(user.email, NEW_PASSWORD, ip_address="10.6.0.4")[0] == user.id


@pytest.mark.parametrize("password,confirm,title,message", [
    ("abcdef", "abcdeg", "Password Mismatch", "Passwords do not match. Please try again."),
    ("abc", "abc", "Password Too Short", "Password must be at least 6 characters long."),
    ("x" * 129, "x" * 129, "Password Too Long", "Password must be at most 128 characters long."),
    (None, None, "Password Too Short", "Password must be at least 6 characters long."),
])
def test_refused_password_changes_nothing_and_keeps_the_link(new_user, db_url, password, confirm, title, message):
    user = new_user(email="rules@example.com", password="old-secret", confirmed=True)
    kept = _open_session(user.id)
    password_reset.request_password_reset(user.email, ip_address="10.7.0.1")
    token = _reset_token(user.email)
    with pytest.raises(AuthError) as exc:
        password_reset.reset_password(token, password, confirm)
    assert (exc.value.title, exc.value.message) == (title, message)
    assert _user(user.email).password_hash == user.password_hash
    with session_scope() as s:
        assert auth_sessions.validate_access_token(s, kept.access_token) == user.id
    assert password_reset.password_reset_link_ok(token)


def test_link_expires_after_30_minutes(new_user, db_url):
    user = new_user(email="late@example.com", password="old-secret", confirmed=True)
    password_reset.request_password_reset(user.email, ip_address="10.8.0.1", now=utcnow() - timedelta(minutes=31))
    token = _reset_token(user.email)
    assert not password_reset.password_reset_link_ok(token)
    with pytest.raises(ResetLinkInvalid):
        password_reset.reset_password(token, NEW_PASSWORD, NEW_PASSWORD)
    assert _user(user.email).password_hash == user.password_hash
    # Still valid 29 minutes in.
    password_reset.request_password_reset(user.email, ip_address="10.8.0.1", now=utcnow() - timedelta(minutes=29))
    assert password_reset.password_reset_link_ok(_reset_token(user.email))


@pytest.mark.parametrize("token", ["", "garbage", "a.b", None, 42, "x" * 600])
def test_forged_or_malformed_links_are_refused(new_user, db_url, token):
    assert not password_reset.password_reset_link_ok(token)
    with pytest.raises(ResetLinkInvalid):
        password_reset.reset_password(token, NEW_PASSWORD, NEW_PASSWORD)


def test_a_confirmation_link_is_not_a_reset_link(new_user, db_url):
    from marketplace.features.accounts import service_mail as account_mail

    user = new_user(email="kinds@example.com", confirmed=True)
    token = account_mail.make_confirmation_token(user.id, user.password_hash)
    with pytest.raises(ResetLinkInvalid):
        password_reset.reset_password(token, NEW_PASSWORD, NEW_PASSWORD)


def test_a_password_change_meanwhile_voids_the_link(new_user, db_url):
    user = new_user(email="changed@example.com", password="old-secret", confirmed=True)
    password_reset.request_password_reset(user.email, ip_address="10.9.0.1")
    token = _reset_token(user.email)
    from marketplace.features.accounts import service_settings as account_settings

    account_settings.change_password(user.id, "old-secret", "other-secret", "other-secret")
    with pytest.raises(ResetLinkInvalid):
        password_reset.reset_password(token, NEW_PASSWORD, NEW_PASSWORD)


def test_two_tabs_submitting_one_link_at_once_set_one_password(new_user, db_url, monkeypatch):
    """Both submissions pass the link check and hash their password before either writes:
    the conditional UPDATE lets exactly one through."""
    user = new_user(email="race@example.com", password="old-secret", confirmed=True)
    password_reset.request_password_reset(user.email, ip_address="10.10.0.1")
    token = _reset_token(user.email)
    barrier = threading.Barrier(2, timeout=30)
    real_hash = password_reset.hash_password

    def hash_then_wait(password):
        hashed = real_hash(password)
        barrier.wait()  # both tabs have read the old hash and checked the link
        return hashed

    monkeypatch.setattr(password_reset, "hash_password", hash_then_wait)
    outcomes: dict[str, object] = {}

    def tab(password):
        try:
            outcomes[password] = password_reset.reset_password(token, password, password)
        except ResetLinkInvalid as exc:
            outcomes[password] = exc

    threads = [threading.Thread(target=tab, args=(pw,)) for pw in ("first-tab-pw", "second-tab-pw")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    winners = [pw for pw, result in outcomes.items() if not isinstance(result, ResetLinkInvalid)]
    assert len(outcomes) == 2 and len(winners) == 1
    monkeypatch.setattr(accounts, "hash_password", real_hash)
    assert accounts.sign_in_user(user.email, winners[0], ip_address="10.10.0.2")[0] == user.id
    assert _live_sessions(user.id) == 2  # the winner's session and this sign-in


def test_reset_confirms_an_unconfirmed_address(new_user, db_url):
    user = new_user(email="unconfirmed@example.com", password="old-secret", confirmed=False)
    with pytest.raises(AuthError):  # unconfirmed: sign-in refused
        accounts.sign_in_user(user.email, "old-secret", ip_address="10.11.0.1")
    password_reset.request_password_reset(user.email, ip_address="10.11.0.1")
    password_reset.reset_password(_reset_token(user.email), NEW_PASSWORD, NEW_PASSWORD)
    assert _user(user.email).email_confirmed_at is not None
    assert accounts.sign_in_user(user.email, NEW_PASSWORD, ip_address="10.11.0.2")[0] == user.id


def test_reset_keeps_an_earlier_confirmation_time(new_user, db_url):
    user = new_user(email="confirmed@example.com", password="old-secret", confirmed=True)
    before = _user(user.email).email_confirmed_at
    password_reset.request_password_reset(user.email, ip_address="10.12.0.1")
    password_reset.reset_password(_reset_token(user.email), NEW_PASSWORD, NEW_PASSWORD)
    assert _user(user.email).email_confirmed_at == before


def test_a_slow_mail_server_does_not_tell_a_known_address_from_an_unknown_one(new_user, db_url, monkeypatch):
    """The reset mail is delivered on a thread of its own: the request of a registered
    address answers without waiting for SMTP (its timing would tell the address is known)."""
    import time

    from tests.fakes.smtp import smtp_server

    user = new_user(email="slowmail@example.com", confirmed=True)
    with smtp_server(greeting_delay=2.0) as (url, received):
        monkeypatch.setenv("SMTP_URL", url)
        reload_settings()
        started = time.monotonic()
        password_reset.request_password_reset(user.email, ip_address="10.13.0.1")
        assert time.monotonic() - started < 1.5
        deadline = time.monotonic() + 20
        while not received and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(received) == 1 and "/auth/reset?token=" in received[0]
        while not all(m.sent_at for m in _mails(user.email)) and time.monotonic() < deadline:
            time.sleep(0.05)  # the delivery thread records it before the test's database goes
        assert [m.sent_at is not None for m in _mails(user.email)] == [True]
