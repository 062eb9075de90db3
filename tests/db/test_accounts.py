"""Accounts, sessions, token expiry and refresh, revocation, throttling, confirmation."""

from datetime import timedelta

import pytest
from sqlmodel import func, select

from marketplace.db import session_scope
from marketplace.models import AuthSession, EmailOutbox, LoginAttempt, Profile, Subscription, User, utcnow
from marketplace.services import accounts, ledger


def _sign_up(**overrides):
    data = dict(first_name="Ann", last_name="Lee", email="Ann@Example.com", password="secret1",
                confirm_password="secret1", user_agent="pytest", ip_address="10.0.0.1")
    data.update(overrides)
    with session_scope() as s:
        return accounts.sign_up(s, **data)


def test_sign_up_creates_user_profile_subscription_session_and_confirmation_mail(db_url):
    user, pair = _sign_up()
    with session_scope() as s:
        stored = s.get(User, user.id)
        assert stored.email == "ann@example.com"
        assert stored.password_hash.startswith("$argon2id$")
        assert stored.email_confirmed_at is None
        profile = s.get(Profile, user.id)
        assert (profile.first_name, profile.last_name, profile.credits_remaining) == ("Ann", "Lee", 0)
        assert 1 <= len(profile.referral_code) <= 15
        sub = s.get(Subscription, user.id)
        assert (sub.subscribed, sub.subscription_type, sub.leads_remaining) == (False, "none", 0)
        assert accounts.validate_access_token(s, pair.access_token) == user.id
        mail = s.exec(select(EmailOutbox)).one()
        assert mail.to_address == "ann@example.com" and "/auth/callback?token=" in mail.body
        session_row = s.exec(select(AuthSession)).one()
        assert session_row.access_token_hash != pair.access_token  # only hashes are stored
        assert (session_row.user_agent, session_row.ip_address) == ("pytest", "10.0.0.1")


def test_duplicate_email_any_case_is_refused_and_nothing_is_added(db_url):
    _sign_up()
    with pytest.raises(accounts.AuthError) as err:
        _sign_up(email="ANN@example.com")
    assert (err.value.title, err.value.message) == ("Sign Up Failed", "User already registered")
    with session_scope() as s:
        assert s.exec(select(func.count()).select_from(User)).one() == 1


@pytest.mark.parametrize(
    ("overrides", "title", "message"),
    [({"confirm_password": "other1"}, "Password Mismatch", "Passwords do not match. Please try again."),
     ({"password": "12345", "confirm_password": "12345"}, "Password Too Short",
      "Password must be at least 6 characters long.")],
)
def test_sign_up_validation_writes_nothing(db_url, overrides, title, message):
    with pytest.raises(accounts.AuthError) as err:
        _sign_up(**overrides)
    assert (err.value.title, err.value.message) == (title, message)
    with session_scope() as s:
        assert s.exec(select(func.count()).select_from(User)).one() == 0
        assert s.exec(select(func.count()).select_from(EmailOutbox)).one() == 0


def test_referral_code_at_sign_up_binds_the_referrer(db_url):
    referrer, _ = _sign_up(email="ref@example.com")
    with session_scope() as s:
        code = s.get(Profile, referrer.id).referral_code
    user, _ = _sign_up(email="new@example.com", referral_code=code.lower())
    with session_scope() as s:
        assert s.get(Profile, user.id).referred_by == referrer.id


def test_wrong_password_and_unknown_email_get_the_same_message(db_url):
    _sign_up()
    for email, password in (("ann@example.com", "wrong-pw"), ("nobody@example.com", "secret1")):
        with pytest.raises(accounts.AuthError) as err:
            with session_scope() as s:
                accounts.sign_in(s, email, password)
        assert (err.value.title, err.value.message) == ("Sign In Failed", "Invalid login credentials")
    with session_scope() as s:
        assert s.exec(select(func.count()).select_from(LoginAttempt)).one() == 2  # failures are kept


def test_access_token_expires_and_refresh_rotates_both_tokens(db_url):
    user, pair = _sign_up()
    later = utcnow() + timedelta(hours=2)
    with session_scope() as s:
        assert accounts.validate_access_token(s, pair.access_token, now=later) is None
        new = accounts.refresh_session(s, pair.refresh_token, now=later)
        assert new is not None and new.access_token != pair.access_token
        assert accounts.validate_access_token(s, new.access_token, now=later) == user.id
        # the old refresh token was rotated away
        assert accounts.refresh_session(s, pair.refresh_token, now=later) is None
    far = utcnow() + timedelta(days=31)
    with session_scope() as s:
        assert accounts.refresh_session(s, new.refresh_token, now=far) is None


def test_sign_out_revokes_both_tokens_at_once(db_url):
    user, pair = _sign_up()
    with session_scope() as s:
        assert accounts.revoke_session(s, pair.access_token, pair.refresh_token)
    with session_scope() as s:
        assert accounts.validate_access_token(s, pair.access_token) is None
        assert accounts.refresh_session(s, pair.refresh_token) is None
        row = s.exec(select(AuthSession)).one()
        assert row.revoked and row.revoked_at is not None


def test_throttle_slows_repeated_failures_per_email(db_url):
    _sign_up()
    start = utcnow()
    for i in range(5):
        with pytest.raises(accounts.AuthError) as err:
            with session_scope() as s:
                accounts.sign_in(s, "ann@example.com", "bad", ip_address=f"10.1.0.{i}", now=start)
        assert err.value.message == "Invalid login credentials"
    # 6th attempt within 30 s: refused without checking the password, even a right one
    with pytest.raises(accounts.AuthError) as err:
        with session_scope() as s:
            accounts.sign_in(s, "ann@example.com", "secret1", now=start + timedelta(seconds=10))
    assert err.value.message == "Too many failed sign-in attempts. Please wait 20 seconds and try again."
    assert err.value.retry_after == 20
    # after the wait the right password works and clears the count
    with session_scope() as s:
        user, _ = accounts.sign_in(s, "ann@example.com", "secret1", now=start + timedelta(seconds=31))
    with session_scope() as s:
        assert accounts.throttle_wait(s, "ann@example.com", "", now=start + timedelta(seconds=32)) == 0


def test_throttle_backs_off_exponentially(db_url):
    start = utcnow()
    with session_scope() as s:
        for i in range(7):
            s.add(LoginAttempt(email="x@example.com", ip_address="", succeeded=False,
                               created_at=start + timedelta(seconds=i)))
    with session_scope() as s:
        # 7 failures: 30 * 2^(7-5) = 120 s after the last one (t=6)
        assert accounts.throttle_wait(s, "x@example.com", "", now=start + timedelta(seconds=6)) == 120
        assert accounts.throttle_wait(s, "x@example.com", "", now=start + timedelta(seconds=126)) == 0


def test_throttle_per_ip_across_many_emails(db_url):
    start = utcnow()
    with session_scope() as s:
        for i in range(20):
            s.add(LoginAttempt(email=f"v{i}@example.com", ip_address="203.0.113.9", succeeded=False, created_at=start))
    with session_scope() as s:
        assert accounts.throttle_wait(s, "fresh@example.com", "203.0.113.9", now=start) == 30
        assert accounts.throttle_wait(s, "fresh@example.com", "198.51.100.1", now=start) == 0


def test_confirmation_link_confirms_and_signs_in(db_url):
    user, _ = _sign_up()
    token = accounts.make_confirmation_token(user.id)
    with session_scope() as s:
        result = accounts.confirm_email(s, token)
    assert result is not None
    confirmed_user, pair = result
    with session_scope() as s:
        assert s.get(User, user.id).email_confirmed_at is not None
        assert accounts.validate_access_token(s, pair.access_token) == user.id


def test_forged_or_stale_confirmation_links_are_refused(db_url):
    user, _ = _sign_up()
    token = accounts.make_confirmation_token(user.id)
    payload, sig = token.split(".")
    with session_scope() as s:
        assert accounts.confirm_email(s, payload + "." + sig[:-2] + "AA") is None
        assert accounts.confirm_email(s, "garbage") is None
    stale = accounts.make_confirmation_token(user.id, now=utcnow() - timedelta(days=4))
    with session_scope() as s:
        assert accounts.confirm_email(s, stale) is None
        assert s.get(User, user.id).email_confirmed_at is None


def test_create_user_with_credits_books_them_through_the_ledger(db_url):
    with session_scope() as s:
        user = accounts.create_user(s, "rich@example.com", "secret1", "R", "Ich", credits=250, admin=True)
    with session_scope() as s:
        assert ledger.balance(s, user.id) == 250 == ledger.ledger_sum(s, user.id)
        assert accounts.is_super_admin(s, user.id)


def test_a_confirmation_link_signs_in_only_once(db_url):
    user, _ = _sign_up()
    token = accounts.make_confirmation_token(user.id)
    with session_scope() as s:
        assert accounts.confirm_email(s, token) is not None
    with session_scope() as s:
        assert accounts.confirm_email(s, token) is None


def test_smtp_mail_is_sent_after_commit_and_not_on_rollback(db_url, monkeypatch):
    """A tiny SMTP server on loopback receives the confirmation e-mail."""
    import socketserver
    import threading

    received: list[str] = []

    class Handler(socketserver.StreamRequestHandler):
        def handle(self):
            self.wfile.write(b"220 test ESMTP\r\n")
            data = False
            lines: list[str] = []
            while True:
                line = self.rfile.readline().decode()
                if not line:
                    return
                if data:
                    if line == ".\r\n":
                        data = False
                        received.append("".join(lines))
                        self.wfile.write(b"250 OK\r\n")
                    else:
                        lines.append(line)
                    continue
                cmd = line[:4].upper()
                if cmd in ("EHLO", "HELO"):
                    self.wfile.write(b"250 test\r\n")
                elif cmd == "DATA":
                    data = True
                    self.wfile.write(b"354 go\r\n")
                elif cmd == "QUIT":
                    self.wfile.write(b"221 bye\r\n")
                    return
                else:
                    self.wfile.write(b"250 OK\r\n")

    server = socketserver.TCPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # The test server offers no STARTTLS, so the message goes in plain text.
    monkeypatch.setenv("SMTP_URL", f"smtp://127.0.0.1:{server.server_address[1]}")
    try:
        with pytest.raises(RuntimeError):
            with session_scope() as s:
                accounts.sign_up(s, first_name="Ann", last_name="Lee", email="ann@example.com",
                                 password="secret1", confirm_password="secret1")
                raise RuntimeError("rolled back")
        assert received == []
        _sign_up()
        assert len(received) == 1 and "/auth/callback?token=" in received[0]
        with session_scope() as s:
            assert s.exec(select(EmailOutbox)).one().sent_at is not None
    finally:
        server.shutdown()
        server.server_close()

