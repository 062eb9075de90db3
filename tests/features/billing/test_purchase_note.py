"""The purchase summary's payment note agrees with the pricing FAQ: with any pack chosen (Enterprise
included) it says credits never expire, never "on Starter and Pro" beside an FAQ that says they never do."""

from marketplace.platform import texts as messages
from marketplace.features.billing.page_pricing import FAQ
from marketplace.features.billing.page import order_summary


def test_the_payment_note_says_credits_never_expire_for_every_pack():
    rendered = str(order_summary())
    assert messages.PAYMENT_NOTE == "One-time payment. Credits never expire."
    assert messages.PAYMENT_NOTE in rendered
    assert "Starter and Pro" not in rendered


def test_the_faq_and_the_note_say_the_same():
    answer = dict(FAQ)["Do credits expire?"]
    assert answer.startswith("No. Credits never expire")
