"""The Settings tab's Purchases card (``features/billing/state_history.py``), its real handlers on a real tab
against the test database: signed out, to /auth; the card lists only this user's purchases as display
strings; a receipt of another user's purchase, or a junk id, is 'Receipt not found' and opens nothing."""

from __future__ import annotations

import base64

from marketplace.features.billing import rules_receipts as receipts
from marketplace.features.billing.state_history import PurchaseHistoryState
from tests.factories import make_purchase
from tests.platform.tabs import open_tab, seen, toasts

NOT_FOUND = ("error", "Receipt not found", "That purchase is not in your account.")


def test_signed_out_the_card_goes_to_sign_in(db_url, new_user):
    purchase = make_purchase(new_user().id)
    tab = open_tab(PurchaseHistoryState, None, path="/dashboard")
    for result in (tab.load(), tab.open_receipt(str(purchase)), tab.download_receipt(str(purchase))):
        assert seen(result) == [("redirect", "/auth")]
    assert (tab.purchases, tab.receipt, tab.receipt_open) == ([], {}, False)


def test_the_card_lists_only_this_users_purchases(db_url, new_user):
    user, other = new_user(), new_user()
    mine = make_purchase(user.id, bundle="pro", credits=1_500, amount_cents=27_000, status="pending")
    make_purchase(other.id)
    tab = open_tab(PurchaseHistoryState, user.id, path="/dashboard")
    assert seen(tab.load()) == [] and tab.loaded
    (row,) = tab.purchases
    assert (row["id"], row["number"], row["pack"], row["price"], row["credits"]) == (
        str(mine), receipts.receipt_number(str(mine)), "Pro", "$270.00", "1,500")
    assert (row["status"], row["status_color"], row["paid_date"], row["payment"]) == (
        receipts.status_label("pending"), "amber", "", "Test checkout")


def test_a_receipt_of_another_users_purchase_is_not_found(db_url, new_user):
    user, other = new_user(), new_user()
    mine, theirs = make_purchase(user.id), make_purchase(other.id)
    tab = open_tab(PurchaseHistoryState, user.id, path="/dashboard")
    seen(tab.load())
    assert toasts(seen(tab.open_receipt(str(theirs)))) == [NOT_FOUND]
    assert toasts(seen(tab.open_receipt("not-a-uuid"))) == [NOT_FOUND]
    assert toasts(seen(tab.download_receipt(str(theirs)))) == [NOT_FOUND]
    assert (tab.receipt, tab.receipt_open) == ({}, False)
    assert seen(tab.open_receipt(str(mine))) == []
    assert (tab.receipt_open, tab.receipt["id"], tab.receipt["pack"]) == (True, str(mine), "Starter")
    (kind, url), = seen(tab.download_receipt(str(mine)))
    assert kind == "download" and url.startswith("data:text/plain;base64,")
    text = base64.b64decode(url.split(",", 1)[1]).decode()
    assert f"Receipt number: {receipts.receipt_number(str(mine))}" in text and str(theirs) not in text
