"""The credit ledger: atomic, append-only, always equal to the balance."""

import threading

import pytest
import sqlalchemy as sa
from sqlmodel import select

from marketplace.features.scrape import rules as scrape_rules
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import CreditLedger, Profile
from marketplace.platform import ledger
from marketplace.platform.texts import shortfall_message


def _assert_invariant(user_id):
    with session_scope() as s:
        assert ledger.balance(s, user_id) == ledger.ledger_sum(s, user_id)


def test_grants_and_spends_keep_balance_equal_to_ledger_sum(new_user):
    user = new_user(credits=100)
    with session_scope() as s:
        assert ledger.apply_credits(s, user.id, -30, "unlock", "lead-1") == 70
        assert ledger.apply_credits(s, user.id, 500, "purchase", "cs_1") == 570
        assert ledger.apply_credits(s, user.id, 10, "refund", "lead-1") == 580
    with session_scope() as s:
        rows = s.exec(select(CreditLedger).where(CreditLedger.user_id == user.id).order_by(CreditLedger.id)).all()
        assert [(r.delta, r.reason, r.balance_after) for r in rows] == [
            (100, "admin_grant", 100), (-30, "unlock", 70), (500, "purchase", 570), (10, "refund", 580)]
    _assert_invariant(user.id)


def test_overspend_is_refused_and_changes_nothing(new_user):
    user = new_user(credits=50)
    with pytest.raises(ledger.InsufficientCredits) as err:
        with session_scope() as s:
            ledger.apply_credits(s, user.id, -51, "unlock", "lead-x")
    assert str(err.value) == "You have 50 credits but need 51."
    with pytest.raises(ledger.InsufficientCredits) as err:
        with session_scope() as s:
            ledger.apply_credits(s, user.id, -5_915, "bulk_scrape", "scrape-x")
    # One sentence (SPEC 8), one number format wherever it is shown (issue 22, finding 13).
    assert str(err.value) == "You have 50 credits but need 5,915." == shortfall_message(50, 5_915)
    with session_scope() as s:
        assert ledger.balance(s, user.id) == 50
        assert len(s.exec(select(CreditLedger).where(CreditLedger.user_id == user.id)).all()) == 1
    _assert_invariant(user.id)


def test_a_failure_later_in_the_transaction_rolls_the_spend_back(new_user):
    user = new_user(credits=100)
    with pytest.raises(RuntimeError):
        with session_scope() as s:
            ledger.apply_credits(s, user.id, -40, "unlock", "lead-y")
            raise RuntimeError("boom")
    with session_scope() as s:
        assert ledger.balance(s, user.id) == 100
    _assert_invariant(user.id)


def test_same_reference_cannot_be_booked_twice(new_user):
    user = new_user(credits=0)
    with session_scope() as s:
        ledger.apply_credits(s, user.id, 500, "purchase", "cs_same")
    with pytest.raises(sa.exc.IntegrityError):
        with session_scope() as s:
            ledger.apply_credits(s, user.id, 500, "purchase", "cs_same")
    with session_scope() as s:
        assert ledger.balance(s, user.id) == 500
    _assert_invariant(user.id)


def test_bad_reason_and_zero_delta_are_refused(new_user):
    user = new_user()
    with session_scope() as s:
        with pytest.raises(ValueError):
            ledger.apply_credits(s, user.id, 5, "gift")
        with pytest.raises(ValueError):
            ledger.apply_credits(s, user.id, 0, "admin_grant")


def test_database_refuses_a_negative_balance_even_without_the_service(new_user):
    user = new_user(credits=5)
    with pytest.raises(sa.exc.IntegrityError):
        with get_engine().begin() as conn:
            conn.execute(sa.update(Profile.__table__).where(Profile.__table__.c.user_id == user.id)
                         .values(credits_remaining=-1))


def test_concurrent_spends_never_overdraw(new_user, db_url):
    """10 threads each spend 30 from a balance of 100: exactly 3 succeed."""
    user = new_user(credits=100)
    results: list[str] = []
    barrier = threading.Barrier(10)

    def spend(i: int):
        barrier.wait()
        try:
            with session_scope() as s:
                ledger.apply_credits(s, user.id, -30, "unlock", f"lead-{i}")
            results.append("ok")
        except ledger.InsufficientCredits:
            results.append("refused")

    threads = [threading.Thread(target=spend, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count("ok") == 3 and results.count("refused") == 7
    with session_scope() as s:
        assert ledger.balance(s, user.id) == 10
    _assert_invariant(user.id)
