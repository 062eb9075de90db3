"""How many investors hold a lead, in words (unlock.rules_holders): a count, never a name."""

import pytest

from marketplace.features.unlock.rules_holders import HELD_BANDS, held_band, held_chip, held_text


@pytest.mark.parametrize(("count", "you", "text"), [
    (0, False, "Nobody has unlocked this yet"),
    (1, False, "Unlocked by 1 investor"),
    (2, False, "Unlocked by 2 investors"),
    (1234, False, "Unlocked by 1,234 investors"),
    (None, False, "Nobody has unlocked this yet"),
    (-1, False, "Nobody has unlocked this yet"),
    (1, True, "Unlocked by 1 investor (you)"),
    (0, True, "Unlocked by 1 investor (you)"),  # the viewer's own unlock is always one of them
    (2, True, "Unlocked by 2 investors (you and 1 other)"),
    (4, True, "Unlocked by 4 investors (you and 3 others)"),
])
def test_the_count_reads_as_investors(count, you, text):
    assert held_text(count, you) == text


def test_bands_cover_every_count_once():
    assert [held_band(n) for n in (None, -2, 0, 1, 2, 3, 40)] == ["none", "none", "none", "1-2", "1-2", "3plus",
                                                                  "3plus"]
    assert [held_chip(v) for v, _ in HELD_BANDS] == [
        "Unlocked by nobody yet", "Unlocked by 1-2 investors", "Unlocked by 3 or more investors"]
