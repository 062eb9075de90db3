"""Issue 24 item 16: numbers in toasts carry thousands separators ('1,880 credits', never '1880')."""

from __future__ import annotations

from types import SimpleNamespace

from marketplace.features.scrape import rules as scrape
from marketplace.features.marketplace.state import unlock_message


def test_the_unlock_toast_separates_thousands():
    result = SimpleNamespace(purchase_type="credits", credits_deducted=1_200, remaining_credits=1_880)
    assert unlock_message(result) == "Lead unlocked for 1,200 credits. 1,880 credits remaining."
    small = SimpleNamespace(purchase_type="credits", credits_deducted=150, remaining_credits=390)
    assert unlock_message(small) == "Lead unlocked for 150 credits. 390 credits remaining."


def test_the_scrape_toast_separates_thousands():
    assert scrape.completed_message(1_000, 65_000) == "Successfully scraped 1,000 leads. 65,000 credits deducted."
