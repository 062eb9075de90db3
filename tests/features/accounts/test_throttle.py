"""Sign-in throttle: per (e-mail, IP) and per IP; a success of the attacker's
own account buys no more guesses; a lockout from one network leaves the owner
free on another."""

from datetime import timedelta

import pytest
from sqlmodel import func, select

from marketplace.platform.db import session_scope
from marketplace.platform.models import LoginAttempt, utcnow
from marketplace.features.accounts import service as accounts, service_throttle as throttle

INVALID_CREDENTIALS = "Invalid login credentials. Signed up recently? Confirm your e-mail first with the link we sent you."

ATTACKER_IP = "203.0.113.9"


def _attempt(email, password, ip, now):
    user_id, _ = accounts.sign_in_user(email, password, ip_address=ip, now=now)
    return user_id


def _refused(email, password, ip, now) -> accounts.AuthError:
    with pytest.raises(accounts.AuthError) as err:
        _attempt(email, password, ip, now)
    return err.value


def _wait(email, ip, now):
    with session_scope() as s:
        return throttle.throttle_wait(s, email, ip, now=now)


def test_five_failures_slow_the_address_from_that_ip(db_url, new_user):
    new_user(email="ann@example.com", password="secret1", confirmed=True)
    start = utcnow()
    for _ in range(5):
        assert _refused("ann@example.com", "bad", "10.1.0.1", start).message == INVALID_CREDENTIALS
    # 6th attempt within 30 s: refused without checking the password, even a right one
    err = _refused("ann@example.com", "secret1", "10.1.0.1", start + timedelta(seconds=10))
    assert err.message == "Too many failed sign-in attempts. Please wait 20 seconds and try again."
    assert err.retry_after == 20
    # after the wait the right password works and clears that address's count from that IP
    _attempt("ann@example.com", "secret1", "10.1.0.1", start + timedelta(seconds=31))
    assert _wait("ann@example.com", "10.1.0.1", start + timedelta(seconds=32)) == 0


def test_a_locked_address_still_signs_in_from_another_network(db_url, new_user):
    user = new_user(email="ann@example.com", password="secret1", confirmed=True)
    start = utcnow()
    for _ in range(8):
        _refused("ann@example.com", "guess", ATTACKER_IP, start)
    assert _refused("ann@example.com", "secret1", ATTACKER_IP, start).retry_after > 0
    assert _attempt("ann@example.com", "secret1", "198.51.100.20", start) == user.id


def test_the_ip_limit_holds_after_a_success_of_the_attackers_own_account(db_url, new_user):
    """Measured before the fix: 57 guesses in 15 s, interleaving sign-ins to one's own account."""
    mine = new_user(email="mine@example.com", password="mine-pw", confirmed=True)
    start = utcnow()
    guesses = 0
    for i in range(25):
        now = start + timedelta(milliseconds=100 * i)
        if i < 20:  # the attacker's own account signs in ("resets" nothing any more)...
            assert _attempt("mine@example.com", "mine-pw", ATTACKER_IP, now) == mine.id
        else:  # ...until the IP has used its 20 failures: then it waits like any other
            own = _refused("mine@example.com", "mine-pw", ATTACKER_IP, now)
            assert own.message.startswith("Too many failed sign-in attempts"), own.message
        err = _refused(f"victim{i}@example.com", "password123", ATTACKER_IP, now)
        if err.message == INVALID_CREDENTIALS:
            guesses += 1
        else:
            assert err.message.startswith("Too many failed sign-in attempts")
    assert guesses == 20  # LOGIN_MAX_FAILURES x 4 per IP, then the wait
    assert _wait("someone-else@example.com", ATTACKER_IP, start + timedelta(seconds=3)) > 0
    assert _wait("someone-else@example.com", "198.51.100.1", start + timedelta(seconds=3)) == 0


def test_throttle_backs_off_exponentially(db_url):
    start = utcnow()
    with session_scope() as s:
        for i in range(7):
            s.add(LoginAttempt(email="x@example.com", ip_address="10.2.0.1", succeeded=False,
                               created_at=start + timedelta(seconds=i)))
    # 7 failures: 30 * 2^(7-5) = 120 s after the last one (t=6)
    assert _wait("x@example.com", "10.2.0.1", start + timedelta(seconds=6)) == 120
    assert _wait("x@example.com", "10.2.0.1", start + timedelta(seconds=126)) == 0


def test_throttle_per_ip_across_many_emails(db_url):
    start = utcnow()
    with session_scope() as s:
        for i in range(20):
            s.add(LoginAttempt(email=f"v{i}@example.com", ip_address=ATTACKER_IP, succeeded=False, created_at=start))
    assert _wait("fresh@example.com", ATTACKER_IP, start) == 30
    assert _wait("fresh@example.com", "198.51.100.1", start) == 0


def test_sign_ups_do_not_count_as_sign_in_successes(db_url):
    start = utcnow()
    with session_scope() as s:
        for i in range(5):
            s.add(LoginAttempt(email="x@example.com", ip_address="10.3.0.1", succeeded=False, created_at=start))
        s.add(LoginAttempt(email="x@example.com", ip_address="10.3.0.1", succeeded=True, kind="sign_up",
                           created_at=start + timedelta(seconds=1)))
    assert _wait("x@example.com", "10.3.0.1", start + timedelta(seconds=2)) == 28


def test_a_refused_attempt_is_not_recorded(db_url):
    start = utcnow()
    with session_scope() as s:
        for _ in range(5):
            s.add(LoginAttempt(email="x@example.com", ip_address="10.4.0.1", succeeded=False, created_at=start))
    _refused("x@example.com", "whatever", "10.4.0.1", start)
    with session_scope() as s:
        assert s.exec(select(func.count()).select_from(LoginAttempt)).one() == 5
