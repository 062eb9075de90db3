"""How many investors hold a lead (pure): the count's wording, its filter bands and their bounds.

The count is ``leads.unlock_count``: the distinct live accounts with an unlock record of the lead
(``user_leads``: an unlock or a bulk-scrape delivery), kept by ``unlock.service_counts`` in the
transaction of every write that adds or removes one. A count, never a name: nothing here or on any
page says who holds a lead.
"""

from __future__ import annotations

from marketplace.features.unlock import texts_holders as text

# Filter options (value, label): the URL's ``held=`` values.
HELD_BANDS = (
    ("none", "Nobody yet"),
    ("1-2", "1-2 investors"),
    ("3plus", "3 or more investors"),
)
# (lowest, highest) count of each band, both included; None = unbounded.
HELD_BAND_BOUNDS = {
    "none": (0, 0),
    "1-2": (1, 2),
    "3plus": (3, None),
}
HELD_SORT = "held_asc"


def held_band(count: int | None) -> str:
    """The band of a count (a missing or negative count is nobody)."""
    count = max(0, int(count or 0))
    for band, (low, high) in HELD_BAND_BOUNDS.items():
        if count >= low and (high is None or count <= high):
            return band
    return "none"  # unreachable: the bands cover every count


def held_text(count: int | None, you: bool = False) -> str:
    """'Nobody has unlocked this yet', 'Unlocked by 1 investor', 'Unlocked by 2 investors'; for a
    viewer who holds the lead, the count includes them and says so ('Unlocked by 3 investors (you and
    2 others)'). Never a name."""
    count = max(0, int(count or 0))
    if you:
        count = max(count, 1)  # the viewer's own unlock is one of them
        if count == 1:
            return text.HELD_ONLY_YOU
        others = count - 1
        return text.HELD_YOU_AND_OTHERS.format(count=count, others=others, s="" if others == 1 else "s")
    if count == 0:
        return text.HELD_NOBODY
    return text.HELD_ONE if count == 1 else text.HELD_MANY.format(count=count)


def held_chip(band: str) -> str:
    """The chip (and saved-search summary) of a band: 'Unlocked by nobody yet', 'Unlocked by 1-2 investors'."""
    label = dict(HELD_BANDS).get(band, band)
    return text.HELD_CHIP.format(band=label[0].lower() + label[1:])


# --------------------------------------------------------------------------- the cap (LEAD_MAX_HOLDERS)
# A lead is held by at most ``cap`` investors (``config.Settings.lead_max_holders``; 0 = no cap). An
# exclusive unlock (``leads.exclusive``) takes every spot left: the lead is then full whatever the cap.
# ``unlock_count`` stays the number of holders (one per account), so "Unlocked by N investors" and the
# holders filter keep meaning what they say; spots are the cap less the holders.
SPOTS_FILTER = "open"  # the one option of the "Spots left" filter (``spots=open`` in the URL)


def spots_left(count: int | None, cap: int, exclusive: bool = False) -> int | None:
    """Spots a lead has left: None without a cap (and no exclusive holder), else 0 or more."""
    if exclusive:
        return 0
    if cap <= 0:
        return None
    return max(0, cap - max(0, int(count or 0)))


def sold_out(count: int | None, cap: int, exclusive: bool = False) -> bool:
    return spots_left(count, cap, exclusive) == 0


def spots_text(count: int | None, cap: int, exclusive: bool = False, you: bool = False) -> str:
    """'3 of 5 spots left', 'Sold out', or 'Exclusive' for a viewer who is the only holder of a full lead
    (an exclusive unlock, or the one spot of a cap of 1); '' without a cap."""
    left = spots_left(count, cap, exclusive)
    if left is None:
        return ""
    if left == 0:
        return text.EXCLUSIVE if you and max(0, int(count or 0)) <= 1 else text.SOLD_OUT
    return text.SPOTS_LEFT.format(left=left, cap=cap)


def cap_sentence(cap: int) -> str:
    """'At most 5 investors can hold a lead.'; '' without a cap."""
    return text.CAP_SENTENCE.format(cap=cap) if cap > 0 else ""


def spots_chip(_value: str) -> str:
    return text.SPOTS_CHIP


def cap_faq(cap: int) -> str:
    """The pricing FAQ's answer: the cap in one sentence, then how spots and exclusive unlocks work."""
    return cap_sentence(cap) + text.CAP_FAQ_MORE if cap > 0 else text.NO_CAP_FAQ
