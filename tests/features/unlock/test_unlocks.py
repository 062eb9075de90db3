"""Unlocking: one charge per lead, never an overdraft, exact messages."""

import threading
import uuid

import pytest
from sqlmodel import func, select

from marketplace.platform.db import session_scope
from marketplace.platform.models import Lead, UserLead
from marketplace.platform import ledger
from marketplace.features.property import service as property_desk
from marketplace.features.unlock import service as unlocks
from tests import factories


def _lead(cost=None, active=True):
    return factories.add_lead(credit_cost=cost, is_active=active)


def _invariant(user_id):
    with session_scope() as s:
        assert ledger.balance(s, user_id) == ledger.ledger_sum(s, user_id)


def test_unlock_charges_the_leads_cost_and_records_it(new_user):
    user = new_user(credits=200)
    lead_id = _lead(cost=120)
    result = unlocks.unlock_lead(user.id, lead_id)
    assert (result.credits_deducted, result.remaining_credits, result.purchase_type) == (120, 80, "credits")
    with session_scope() as s:
        row = s.exec(select(UserLead)).one()
        assert (row.user_id, row.lead_id, row.credit_cost, row.purchase_type) == (user.id, lead_id, 120, "credits")
    _invariant(user.id)


def test_missing_cost_defaults_to_85(new_user):
    user = new_user(credits=85)
    assert unlocks.unlock_lead(user.id, _lead(cost=None)).remaining_credits == 0


@pytest.mark.parametrize(
    ("setup", "message"),
    [("signed_out", "Please log in to unlock leads."),
     ("unknown", "This lead no longer exists."),
     ("garbage", "This lead no longer exists."),
     ("inactive", "This lead has been archived and can no longer be unlocked."),
     ("poor", "You have 50 credits but need 85."),
     ("twice", "You have already unlocked this lead.")],
)
def test_refusals_change_nothing(new_user, setup, message):
    user = new_user(credits=50 if setup == "poor" else 300)
    lead_id = _lead(active=setup != "inactive")
    if setup == "twice":
        unlocks.unlock_lead(user.id, lead_id)
    target = {"unknown": uuid.uuid4(), "garbage": "not-a-uuid"}.get(setup, lead_id)
    with session_scope() as s:
        before = (ledger.balance(s, user.id), s.exec(select(func.count()).select_from(UserLead)).one())
    with pytest.raises(unlocks.UnlockError) as err:
        unlocks.unlock_lead(None if setup == "signed_out" else user.id, target)
    assert err.value.message == message
    if setup == "signed_out":
        assert err.value.title == "Authentication Required"
    with session_scope() as s:
        assert (ledger.balance(s, user.id), s.exec(select(func.count()).select_from(UserLead)).one()) == before
    _invariant(user.id)


def _parallel(fn, args_list):
    barrier = threading.Barrier(len(args_list))
    results = []

    def run(args):
        barrier.wait()
        try:
            results.append(fn(*args))
        except unlocks.UnlockError as exc:
            results.append(exc)

    threads = [threading.Thread(target=run, args=(a,)) for a in args_list]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_twenty_parallel_unlocks_with_credits_for_three(new_user):
    user = new_user(credits=3 * 85 + 40)
    lead_ids = [_lead(cost=85) for _ in range(20)]
    results = _parallel(unlocks.unlock_lead, [(user.id, lid) for lid in lead_ids])
    ok = [r for r in results if isinstance(r, unlocks.UnlockResult)]
    refused = [r for r in results if isinstance(r, unlocks.UnlockError)]
    assert len(ok) == 3 and len(refused) == 17
    assert all(r.message.startswith("You have ") for r in refused)
    with session_scope() as s:
        assert ledger.balance(s, user.id) == 40
        assert s.exec(select(func.count()).select_from(UserLead).where(UserLead.user_id == user.id)).one() == 3
    _invariant(user.id)


def test_two_parallel_unlocks_of_the_same_lead_charge_once(new_user):
    user = new_user(credits=500)
    lead_id = _lead(cost=120)
    results = _parallel(unlocks.unlock_lead, [(user.id, lead_id), (user.id, lead_id)])
    assert sorted(type(r).__name__ for r in results) == ["UnlockError", "UnlockResult"]
    error = next(r for r in results if isinstance(r, unlocks.UnlockError))
    assert error.message == "You have already unlocked this lead."
    with session_scope() as s:
        assert ledger.balance(s, user.id) == 380
    _invariant(user.id)


def test_archived_unlocked_lead_stays_readable(new_user):
    user = new_user(credits=100)
    lead_id = _lead(cost=30)
    unlocks.unlock_lead(user.id, lead_id)
    with session_scope() as s:
        lead = s.get(Lead, lead_id)
        lead.is_active = False
        s.add(lead)
    desk = property_desk.load(user.id, str(lead_id))
    assert desk.access == "shown" and desk.lead.address == "12 Oak St"
    assert property_desk.load(new_user().id, str(lead_id)).access == "denied"
    assert property_desk.load(None, str(lead_id)).access == "signed_out"


def test_a_subscriber_spends_a_subscription_lead_instead_of_credits(new_user):
    from marketplace.platform import subscriptions

    user = new_user(credits=100)
    with session_scope() as s:
        subscriptions.grant(s, user.id, "Pro", leads=1, days=30)
    first = unlocks.unlock_lead(user.id, _lead(cost=120))
    assert (first.purchase_type, first.credits_deducted, first.remaining_credits,
            first.subscription_leads_remaining) == ("subscription", 0, 100, 0)
    second = unlocks.unlock_lead(user.id, _lead(cost=60))  # no subscription leads left: credits again
    assert (second.purchase_type, second.credits_deducted, second.remaining_credits) == ("credits", 60, 40)
    with session_scope() as s:
        types = s.exec(select(UserLead.purchase_type, UserLead.credit_cost).order_by(UserLead.id)).all()
        assert [tuple(t) for t in types] == [("subscription", 0), ("credits", 60)]
    _invariant(user.id)


def test_an_expired_subscription_is_not_used(new_user):
    from datetime import timedelta

    from marketplace.platform.models import utcnow
    from marketplace.platform import subscriptions

    user = new_user(credits=100)
    with session_scope() as s:
        subscriptions.grant(s, user.id, "Pro", leads=5, days=1, now=utcnow() - timedelta(days=2))
        assert subscriptions.check_subscription(s, user.id).subscribed is False
    assert unlocks.unlock_lead(user.id, _lead(cost=30)).purchase_type == "credits"
