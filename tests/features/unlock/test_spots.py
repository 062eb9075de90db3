"""Scarce by design (issue 38, item 4): the cap on holders in words, the card's action and its exclusive offer."""

import pytest

from marketplace.features.unlock.rules_holders import cap_faq, cap_sentence, sold_out, spots_left, spots_text
from marketplace.features.marketplace.rules_cards import card_data, with_action
from marketplace.features.unlock.rules import exclusive_price, quote_exclusive, quote_unlock
from tests.features.marketplace.test_lead_cards import lead


@pytest.mark.parametrize(("count", "cap", "exclusive", "you", "text"), [
    (2, 5, False, False, "3 of 5 spots left"),
    (0, 5, False, False, "5 of 5 spots left"),
    (4, 5, False, False, "1 of 5 spots left"),
    (5, 5, False, False, "Sold out"),
    (7, 5, False, False, "Sold out"),  # the cap was lowered: full, never a negative count
    (1, 5, True, False, "Sold out"),  # an exclusive holder fills the lead for everyone else
    (1, 5, True, True, "Exclusive"),  # ... and reads "Exclusive" to that holder
    (3, 5, True, True, "Sold out"),  # exclusive bought while 2 others held it: the holder is not alone
    (1, 1, False, True, "Exclusive"),  # a cap of 1: the one holder is alone
    (5, 5, False, True, "Sold out"),
    (3, 0, False, False, ""),  # no cap: no line
    (1, 0, True, True, "Exclusive"),  # bought under a cap, the cap turned off since: still exclusive
    (1200, 2000, False, False, "800 of 2,000 spots left"),
])
def test_spots_in_words(count, cap, exclusive, you, text):
    assert spots_text(count, cap, exclusive, you) == text


def test_spots_left_and_sold_out():
    assert [spots_left(n, 5) for n in (None, -1, 0, 4, 5, 9)] == [5, 5, 5, 1, 0, 0]
    assert spots_left(3, 0) is None and not sold_out(300, 0)
    assert spots_left(0, 5, exclusive=True) == 0 and sold_out(1, 0, exclusive=True)


def test_the_cap_in_one_sentence():
    assert cap_sentence(5) == "At most 5 investors can hold a lead."
    assert cap_sentence(0) == ""
    assert cap_faq(5).startswith("At most 5 investors can hold a lead. ")
    assert cap_faq(0) == "There is no cap on this site: any number of investors can unlock a lead."


def test_a_full_lead_offers_no_unlock_but_its_holder_still_views_it():
    full = quote_unlock(signed_in=True, unlocked=False, credit_cost=150, balance=10_000, spots_left=0)
    assert (full.kind, full.label, full.href, full.credits) == ("sold_out", "Sold out", "", 0)
    # Not even a visitor is invited to sign in for it, nor a subscriber to spend a lead on it.
    assert quote_unlock(signed_in=False, unlocked=False, credit_cost=150, balance=0, spots_left=0).kind == "sold_out"
    assert quote_unlock(signed_in=True, unlocked=False, credit_cost=150, balance=0, subscribed=True,
                        subscription_leads=3, spots_left=0).kind == "sold_out"
    held = quote_unlock(signed_in=True, unlocked=True, credit_cost=150, balance=0, spots_left=0, lead_id="x")
    assert (held.kind, held.label, held.href) == ("view", "View Details", "/property/x")
    # Spots left, or no cap: the SPEC's texts as always.
    for left in (1, None):
        assert quote_unlock(signed_in=True, unlocked=False, credit_cost=150, balance=150,
                            spots_left=left).label == "Unlock for 150 credits"
        assert quote_unlock(signed_in=True, unlocked=False, credit_cost=150, balance=149,
                            spots_left=left).label == "Insufficient Credits - Buy More"
        assert quote_unlock(signed_in=False, unlocked=False, credit_cost=150, balance=0, spots_left=left).label == "Login"


def test_exclusive_is_every_spot_left_at_the_leads_price():
    assert exclusive_price(4, 150) == 600
    assert exclusive_price(3, None) == 255  # 85 a spot when the lead has no cost
    quote = quote_exclusive(signed_in=True, unlocked=False, credit_cost=150, balance=1_000, spots_left=4)
    assert (quote.offered, quote.label, quote.spots, quote.each, quote.credits) == (
        True, "Unlock exclusively for 600 credits", 4, 150, 600)
    assert (quote.balance_before, quote.balance_after) == (1_000, 400)
    assert quote_exclusive(signed_in=True, unlocked=False, credit_cost=500, balance=2_500,
                           spots_left=5).label == "Unlock exclusively for 2,500 credits"


@pytest.mark.parametrize(("signed_in", "unlocked", "balance", "left"), [
    (False, False, 10_000, 4),  # a visitor
    (True, True, 10_000, 4),  # holds it already
    (True, False, 10_000, None),  # no cap: nothing to be exclusive about
    (True, False, 10_000, 0),  # full
    (True, False, 10_000, 1),  # one spot: the ordinary unlock takes it (same price, same effect)
    (True, False, 599, 4),  # the credits do not cover every spot: not shown
])
def test_exclusive_is_offered_only_when_it_can_be_bought(signed_in, unlocked, balance, left):
    quote = quote_exclusive(signed_in=signed_in, unlocked=unlocked, credit_cost=150, balance=balance, spots_left=left)
    assert not quote.offered and quote.label == ""


def test_the_card_says_its_spots_and_offers_exclusive_beside_the_unlock():
    card = card_data(lead(unlock_count=1, max_holders=5))
    view = with_action(card, signed_in=True, credits=1_000)
    assert (view.spots, view.spots_left) == ("4 of 5 spots left", 4)
    assert (view.action_kind, view.action_label) == ("unlock", "Unlock for 150 credits")
    assert view.exclusive_label == "Unlock exclusively for 600 credits"
    assert with_action(card, signed_in=True, credits=599).exclusive_label == ""  # not covered: not shown
    assert with_action(card, signed_in=False, credits=0).exclusive_label == ""


def test_a_sold_out_card_has_no_unlock_and_reads_exclusive_to_its_holder():
    full = with_action(card_data(lead(unlock_count=5, max_holders=5)), signed_in=True, credits=10_000)
    assert (full.spots, full.action_kind, full.action_label, full.exclusive_label) == (
        "Sold out", "sold_out", "Sold out", "")
    taken = card_data(lead(unlock_count=1, max_holders=5, exclusive=True))
    other = with_action(taken, signed_in=True, credits=10_000)
    assert (other.spots, other.action_kind) == ("Sold out", "sold_out")
    mine = with_action({**card_data(lead(unlock_count=1, max_holders=5, exclusive=True, unlocked=True))},
                       signed_in=True, credits=0)
    assert (mine.spots, mine.action_kind, mine.action_label) == ("Exclusive", "view", "View Details")
    assert mine.held_by == "Unlocked by 1 investor (you)"  # the count stays the number of holders


def test_no_cap_and_sample_cards_have_no_spots_line():
    assert card_data(lead(unlock_count=9, max_holders=0))["spots"] == ""
    sample = with_action(card_data(lead(max_holders=5), is_sample=True), signed_in=True, credits=10_000)
    assert (sample.spots, sample.exclusive_label, sample.action_kind) == ("", "", "sample")
