"""/purchase-credits (``features/billing/state.py``), its real handlers on a real tab against the test database:
signed out, Purchase says 'Please log in to purchase credits' and opens nothing; an unknown pack is never
selected; Purchase opens one pending checkout for the chosen pack and sends the browser to it."""

from __future__ import annotations

import sqlalchemy as sa

from marketplace.platform.db import get_engine
from marketplace.platform.models import CreditPurchase
from marketplace.features.billing.state import PurchaseState
from tests.platform.tabs import open_tab, seen, toasts


def _purchases() -> list[tuple]:
    t = CreditPurchase.__table__
    with get_engine().connect() as conn:
        return [tuple(r) for r in conn.execute(sa.select(t.c.user_id, t.c.bundle, t.c.credits, t.c.amount_cents,
                                                         t.c.status, t.c.provider_session_id))]


def test_signed_out_purchase_is_refused_and_opens_nothing(db_url):
    tab = open_tab(PurchaseState, None, path="/purchase-credits")
    seen(tab.load())
    assert (tab.selected_pack, tab.pack_name, tab.pack_price) == ("pro", "Pro", "$270")
    events = seen(tab.purchase())
    assert toasts(events) == [("error", "Authentication Required", "Please log in to purchase credits")]
    assert (tab.busy, tab.checkout_url, tab.checkout_pending, _purchases()) == (False, "", False, [])


def test_the_address_preselects_a_pack_and_junk_is_ignored(db_url, new_user):
    user = new_user(credits=40)
    tab = open_tab(PurchaseState, user.id, path="/purchase-credits", query={"pack": "enterprise", "canceled": "1"})
    seen(tab.load())
    assert (tab.selected_pack, tab.canceled, tab.credits, tab.balance_label) == ("enterprise", True, 40, "40 credits")
    assert (tab.pack_credits, tab.pack_price, tab.pack_per_credit, tab.pack_breakdown) == (
        "5,000", "$750", "$0.15", "3,571 + 1,429 bonus (40%)")
    tab.select_pack("mega")
    assert tab.selected_pack == "enterprise"
    junk = open_tab(PurchaseState, user.id, path="/purchase-credits", query={"pack": "mega"})
    seen(junk.load())
    assert (junk.selected_pack, junk.canceled) == ("pro", False)


def test_an_invalid_stored_referral_code_is_cleared_on_load(db_url, new_user):
    user = new_user()
    tab = open_tab(PurchaseState, user.id, path="/purchase-credits")
    tab.referral_code = "NOSUCHCODE"
    seen(tab.load())
    assert (tab.referral_code, tab.referral_valid, tab.bonus_shown, tab.pack_bonus) == ("", False, False, "")


def test_purchase_opens_one_pending_checkout_for_the_chosen_pack(db_url, new_user):
    user = new_user()
    tab = open_tab(PurchaseState, user.id, path="/purchase-credits")
    seen(tab.load())
    tab.select_pack("starter")
    events = seen(tab.purchase())
    (row,) = _purchases()
    assert row[:5] == (user.id, "starter", 500, 10_000, "pending")
    assert events == [("redirect", tab.checkout_url)] and tab.checkout_url
    assert (tab.busy, tab.checkout_pending, tab._pending_checkout) == (False, True, row[5])
    assert tab.credits == 0  # nothing credited before the checkout is paid


def test_the_packs_take_no_click_before_the_load_that_would_undo_it(db_url, new_user):
    """A pack chosen before the page's load was undone by it (Starter seen, Pro charged): the packs are
    disabled in the prerendered page and a choice sent before the load is refused; after it, a choice
    is the one bought."""
    from marketplace.features.billing.page import pack_selection

    assert PurchaseState.get_fields()["packs_ready"].default is False  # the prerendered page: disabled
    rendered = str(pack_selection())
    assert "packs_ready" in rendered[rendered.index("disabled"):][:200]
    user = new_user()
    tab = open_tab(PurchaseState, user.id, path="/purchase-credits")
    tab.select_pack("starter")
    assert tab.selected_pack == "pro"  # not taken: the control was not ready
    seen(tab.load())
    assert tab.packs_ready is True
    tab.select_pack("starter")
    seen(tab.purchase())
    (row,) = _purchases()
    assert row[1:3] == ("starter", 500)
