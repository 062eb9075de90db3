"""The county-record guarantee (issue 38, item 5): when the county's own next record contradicts a lead
within ``GUARANTEE_DAYS`` of a purchase, that purchase's credits come back. Pure: the rules and the
sentences; ``unlock.service_refunds`` reads the rows and moves the credits.

What a refund needs (``refund_due``), for one purchase (a ``user_leads`` row: an unlock, or a lead a bulk
scrape or the webhook delivered) made at ``unlocked_at``:

1. The signals that made the lead then: the lead-making signals of its property (``records.rules_motivation``'s
   kinds; a code violation never makes a lead) first seen at or before the purchase, not closed before it,
   and current on its day (``records.rules_signal_currency``: not a held sale, not older than the dataset's maximum
   age). None: nothing to contradict (no refund).
2. Every one of them is now **closed** by a record of the county, at a moment after the purchase and at
   most ``days`` days after it. The closings that count are the county's: the record left its dataset's
   list in a full read ("no longer in the dataset as of ...": a notice left the open list, the taxes were
   paid, a sale was taken off its list), the sale was held ("sale held on ..."), or a recorded sale shows a
   new owner (``sold_after``, "sold on ... (recorded sale)").
3. A signal that is still open but no longer current (its dataset's snapshot aged past the maximum age
   because nobody pulled it) is **not** a contradiction: the lead was archived for our own lack of a
   fresh record, not for anything the county said, and such a purchase is not refunded. Leads archived by
   an operator, and the generated and commercial leads ``LEAD_MAX_AGE_DAYS`` archives, have no signals and
   are never refunded.

"A recorded sale shows a new owner" (``sold_after``): a sale recorded for the property's parcel (or its
street address and ZIP) for a real price (at least ``records.rules_arms_length.TOKEN_PRICE``: a $0 or $10 deed into
a trust or between spouses is not a new owner who bought), dated no later than today and strictly after
both of the signal's own dates: its notice (or filing) date and its as-of date (the day of the newest list
that carried it). A sale before the day of the list that still carries the item does not close it: the
county listed it as open after the sale.

The signal whose closing completed the contradiction (the last to close) names the refund's reason:
``reason_sentence`` ('the vacancy notice at 123 Main St left Baltimore City's open list on Nov 28, 2026').
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, Callable, Iterable

from marketplace.features.records import TOKEN_PRICE
from marketplace.features.records import LEAD_TYPE_ORDER
from marketplace.features.records import SALE_LABELS
from marketplace.features.records import closes_because
from marketplace.platform.times import format_date
from marketplace.features.unlock import texts_guarantee as text

LEAD_KINDS = frozenset(kind for kind, _ in LEAD_TYPE_ORDER)
SOLD_PREFIX = "sold on "
SOLD_SUFFIX = " (recorded sale)"
# What a signal is, as the refund's sentence names it ('the vacancy notice at 123 Main St').
KIND_NOUNS = {"vacant": "vacancy notice", "tax_delinquent": "tax delinquency", "foreclosure": "foreclosure filing",
              "probate": "inheritance deed", "code_violation": "code violation"}

MaxAges = Callable[[str], "int | None"]


PUBLIC_RECORD_PREFIX = "Public record:"  # how marketplace.rules_leads.provenance_line starts for a public-record lead


def covers(provenance: str) -> bool:
    """Whether a lead (by its card's provenance line) is one the guarantee can apply to: only a public-record
    lead has a county record to be contradicted by (a generated demo lead or a commercial listing never is:
    the confirm step does not promise it for them)."""
    return isinstance(provenance, str) and provenance.startswith(PUBLIC_RECORD_PREFIX)


def promise(days: int) -> str:
    """The one sentence the unlock confirm step states ('If the county's next record contradicts ...')."""
    return text.PROMISE.format(days=days)


def faq_answer(days: int) -> str:
    return text.FAQ_ANSWER.format(days=days)


def _day(value: Any) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    return value if isinstance(value, date) else None


def held_at(signals: Iterable[Any], unlocked_at: datetime, max_ages: MaxAges) -> list[Any]:
    """Rule 1: the lead-making signals that made the lead when it was bought."""
    day = unlocked_at.date()
    return [s for s in signals
            if s.kind in LEAD_KINDS and s.first_seen_at <= unlocked_at
            and (s.status == "open" or (s.closed_at is not None and s.closed_at > unlocked_at))
            and closes_because(s, max_ages(s.dataset_id), day) is None]


def refund_due(signals: Iterable[Any], unlocked_at: datetime, max_ages: MaxAges, days: int) -> Any | None:
    """The signal whose closing contradicted the lead within ``days`` of ``unlocked_at`` (rules 1-3), or
    None when the purchase is not refunded. ``signals``: every signal of the lead's property, open and
    closed (rows with kind, dataset_id, status, first_seen_at, closed_at, as_of, notice_date, sale_date)."""
    made = held_at(signals, unlocked_at, max_ages)
    if not made:
        return None
    limit = unlocked_at + timedelta(days=days)
    if any(s.status != "closed" or s.closed_at is None or not unlocked_at < s.closed_at <= limit for s in made):
        return None
    return max(made, key=lambda s: (s.closed_at, s.id))


def sold_after(signal: Any, sales: Iterable[Any], today: date) -> Any | None:
    """The first recorded sale that shows the signal's property has a new owner (module docstring), or None.
    ``sales``: the property's recorded sales (``records.rules_recorded_comps.SaleRecord``)."""
    dates = [d for d in (_day(getattr(signal, "notice_date", None)), _day(signal.as_of)) if d is not None]
    if not dates:
        return None  # an undated record cannot be shown to precede the sale
    since = max(dates)
    after = [s for s in sales if s.price is not None and s.price >= TOKEN_PRICE and since < s.sale_date <= today]
    return min(after, key=lambda s: (s.sale_date, s.sale_id)) if after else None


def sold_reason(sale_date: date) -> str:
    """The closing reason a recorded sale gives ('sold on 2026-11-20 (recorded sale)')."""
    return f"{SOLD_PREFIX}{sale_date.isoformat()}{SOLD_SUFFIX}"


_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_WRITTEN = re.compile(r"([A-Z][a-z]{2}) (\d{1,2}), (\d{4})")


def reason_date(reason: str, closed_at: datetime | None) -> date | None:
    """The day a closing reason names ('... as of 2026-11-28', '... open list of Nov 28, 2026'), else the
    day the signal closed."""
    found = _ISO.search(reason or "")
    if found:
        try:
            return date(*(int(part) for part in found.groups()))
        except ValueError:
            pass
    found = _WRITTEN.search(reason or "")
    if found:
        try:
            return datetime.strptime(" ".join(found.groups()), "%b %d %Y").date()
        except ValueError:
            pass
    return _day(closed_at)


def signal_noun(signal: Any) -> str:
    if signal.kind == "sale_list":
        return SALE_LABELS.get(signal.sale_type or "", "Sale").lower()
    return KIND_NOUNS.get(signal.kind, signal.kind.replace("_", " "))


def reason_sentence(signal: Any, address: str, place: str) -> str:
    """What the county's record said, for the bell, the e-mail and the dashboard: 'the vacancy notice at 123
    Main St left Baltimore City's open list on Nov 28, 2026'. ``place``: the county (or publisher) whose list
    it is."""
    reason = signal.closed_reason or ""
    day = reason_date(reason, signal.closed_at)
    when = format_date(day, "UTC") if day else "an unknown date"
    what = f"the {signal_noun(signal)} at {address}"
    if reason.startswith(SOLD_PREFIX):
        return text.SOLD.format(address=address, date=when)
    if reason.startswith("sale held"):
        return text.SALE_HELD.format(what=what, date=when)
    if reason.startswith("no longer"):
        pattern = text.LEFT_SALE_LIST if signal.kind == "sale_list" else text.LEFT_OPEN_LIST
        return pattern.format(what=what, place=place, date=when)
    return text.CLOSED_OTHER.format(what=what, date=when, reason=reason)


def refund_line(credits: int, reason: str) -> str:
    """'120 credits back: the vacancy notice at 123 Main St left Baltimore City's open list on Nov 28, 2026'."""
    return text.REFUND_LINE.format(credits=credits, reason=reason)


def credits_back(credits: int) -> str:
    return text.CREDITS_BACK.format(credits=credits)
