"""``AuthState.refresh_balance``: a tab follows a checkout it opened (issue 24 item 12).

Runs the real handler on a stand-in for the state (as ``test_signed_in`` does) against
the test database: the balance and the first-purchase fact arrive, the watch ends when
the checkout is paid or canceled or after ``CHECKOUT_WATCH_SECONDS``, and checks closer
together than ``BALANCE_CHECK_MIN_SECONDS`` read nothing."""

from __future__ import annotations

import uuid

import pytest

from marketplace.features.billing import service_demo_checkout as demo_checkout, service as purchases
from marketplace.platform.ui import state_auth as auth
from marketplace.platform.ui.state_auth import AuthState
from tests import aio


class Tab:
    _load_buyer = AuthState._load_buyer
    _forget_checkout = AuthState._forget_checkout
    _watch_checkout = AuthState._watch_checkout
    _session_ended_toast = AuthState._session_ended_toast
    refresh = AuthState.refresh_balance.fn

    def __init__(self, user: uuid.UUID):
        self.user, self.user_id, self.resolved = user, str(user), 0
        self.credits, self.first_purchase_done, self._session_ended = 0, False, False
        self.checkout_pending, self._pending_checkout, self._pending_since, self._balance_checked = False, "", 0.0, 0.0

    async def _current_user_id(self):
        self.resolved += 1
        return self.user


@pytest.fixture
def clock(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(auth.time, "monotonic", lambda: now[0])
    monkeypatch.delenv("PAYMENTS", raising=False)
    monkeypatch.delenv("STRIPE_SECRET_KEY", raising=False)
    return now


def test_a_paid_checkout_updates_the_tab_and_ends_the_watch(new_user, clock):
    buyer = new_user(credits=40)
    tab = Tab(buyer.id)
    checkout = purchases.start_purchase(buyer.id, "pro")
    tab._watch_checkout(checkout.id)
    assert aio.run(tab.refresh()) is None
    assert (tab.credits, tab.first_purchase_done, tab.checkout_pending) == (40, False, True)

    demo_checkout.finish(checkout.id, buyer.id, pay=True)
    clock[0] += 1  # too soon after the last check: nothing is read
    assert aio.run(tab.refresh()) is None and tab.resolved == 1 and tab.credits == 40
    clock[0] += auth.BALANCE_CHECK_MIN_SECONDS
    toast = aio.run(tab.refresh())
    assert (tab.credits, tab.first_purchase_done, tab.checkout_pending) == (1540, True, False)
    assert "Your balance is now 1,540 credits." in str(toast)


def test_the_watch_ends_on_cancel_and_after_its_time(new_user, clock):
    buyer = new_user()
    tab = Tab(buyer.id)
    canceled = purchases.start_purchase(buyer.id, "starter")
    tab._watch_checkout(canceled.id)
    demo_checkout.finish(canceled.id, buyer.id, pay=False)
    aio.run(tab.refresh())
    assert not tab.checkout_pending and tab._pending_checkout == ""

    left_open = purchases.start_purchase(buyer.id, "starter")
    tab._watch_checkout(left_open.id)
    clock[0] += auth.CHECKOUT_WATCH_SECONDS - 1
    aio.run(tab.refresh())
    assert tab.checkout_pending  # still pending and within its time
    clock[0] += 2
    aio.run(tab.refresh())
    assert not tab.checkout_pending and tab.first_purchase_done is False
