"""Motivation score and lead type of a public-record property, defined once.

A property's distress signals (``records.rules.SIGNAL_KINDS``) become one ``SignalFacts`` each. The
motivation score (0-100, higher = the owner is more likely to sell) is the sum of the points below, capped
at 100. Every part that scores adds one plain reason naming its number and date; the reasons are listed
strongest first (most points; on a tie, in the order of this list).

1. Amount owed. The largest ``amount_owed`` among the signals (a tax delinquency and the tax sale of the
   same debt are not added together):
   - with a market value: 1 point per full percent of the market value owed, at most 30
     ("Owes $12,400 in property tax, 31% of the market value" -> 30);
   - without one: 1 point per full $1,000 owed, at most 15 (the debt cannot be weighed against a value).
2. Years owed. 3 points per tax year owed (the largest ``years_owed``), at most 15.
3. Days to a sale date. The nearest ``sale_date`` of a ``sale_list`` signal that is today or later:
   0-30 days -> 30, 31-90 -> 20, 91-180 -> 10, later -> 5. A sale list without a published date -> 10.
   A sale date in the past (the sale was held) scores nothing: such a signal is closed by ingestion.
4. Foreclosure. 20 points for a ``foreclosure`` signal (dated by its ``notice_date``, else ``as_of``).
5. Probate. 15 points for a ``probate`` signal: the owner inherited the property (BatchData's "inherited"
   list, a deed-based probate proxy, dated by the inheritance deed: ``notice_date``, else ``as_of``). Fewer
   points than a foreclosure: it is a proxy, not a court filing.
6. Vacancy. 10 points for a ``vacant`` signal ("Vacant since Mar 7, 2011 (15 years)"; "Vacant (no date on
   record)" without a notice date: the list's day, ``as_of``, is not the day the building became vacant).
7. Time open. The status item open longest (``records.rules_open_since.longest_open``: a vacancy notice or an open
   violation by its ``notice_date``, a tax delinquency by its first tax year owed, ``delinquent_since``):
   2 points per full year open, at most 10, so an item open 5 years or more is a strong reason (10 points,
   as much as a vacancy itself). One item only: the parcel's longest-open one, whatever else is open. When
   it is a vacancy, its points join the vacancy's reason (10 + 10 = 20 for a building vacant since 2009:
   "Vacant since Mar 4, 2009 (17 years)"); otherwise its own reason ("Delinquent since tax year 1978
   (48 years)", "Open since Mar 1, 2019 (7 years)"). A delinquency's years owed (rule 2) count tax years
   with a balance; this counts how long the oldest has stood: a parcel owing one year from 1978 and one
   owing 1978-2015 differ in rule 2, not here.
8. Code violations. 5 points per ``code_violation`` signal, at most 10.
9. Number of signals. 5 points per stacked signal beyond the first, at most 20 ("3 distress signals" ->
   10). A stacked signal is one list the parcel is on: a distinct (kind, ``source``) pair, so a Cook County
   parcel on the annual tax sale and on the scavenger sale stacks two sale-list signals ("2 distress
   signals: on a sale list (Treasurer - Annual Tax Sale); on a sale list (Treasurer - Scavenger Tax
   Sale)"); several records of one list (its years) are one. Without sources, one per distinct kind.

Adding a signal or a larger debt never lowers the score (every part takes the maximum, the earliest or
the count, and the caps only stop growth).

Lead type: the strongest lead-making signal, in ``LEAD_TYPE_ORDER`` (a sale list -> "Auction", then
foreclosure -> "Pre-Foreclosure", probate -> "Probate", tax delinquency -> "Tax Delinquent", vacancy ->
"Vacancy"). A code
violation is a supporting signal: it counts in the score and shows as a chip, but alone it does not make a
lead (``lead_type_for`` gives None).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Iterable, Sequence

from marketplace.features.records import rules_open_since as open_since
from marketplace.features.marketplace import usd
from marketplace.features.records.rules import SALE_LABELS, SIGNAL_KINDS
from marketplace.platform.times import format_date

MAX_SCORE = 100
OWED_SHARE_CAP = 30          # points: 1 per full percent of the market value owed
OWED_DOLLARS_CAP = 15        # points without a market value: 1 per full $1,000 owed
OWED_DOLLARS_STEP = 1_000
YEARS_OWED_POINTS = 3
YEARS_OWED_CAP = 15
SALE_DAY_POINTS = ((30, 30), (90, 20), (180, 10))   # (at most this many days away, points)
SALE_LATER_POINTS = 5
SALE_UNDATED_POINTS = 10
FORECLOSURE_POINTS = 20
PROBATE_POINTS = 15
VACANT_POINTS = 10
OPEN_YEAR_POINTS = 2         # per full year the longest-open status item has been open
OPEN_CAP = 10                # reached at 5 years: a strong reason
CODE_VIOLATION_POINTS = 5
CODE_VIOLATION_CAP = 10
EXTRA_SIGNAL_POINTS = 5
EXTRA_SIGNAL_CAP = 20

# (signal kind, lead type), strongest first. code_violation is deliberately absent (supporting only).
LEAD_TYPE_ORDER: tuple[tuple[str, str], ...] = (
    ("sale_list", "Auction"),
    ("foreclosure", "Pre-Foreclosure"),
    ("probate", "Probate"),
    ("tax_delinquent", "Tax Delinquent"),
    ("vacant", "Vacancy"),
)
SUPPORTING_KINDS = ("code_violation",)

_DEBT_WORDS = {
    "tax_delinquent": "in property tax",
    "sale_list": "per the sale list",
    "foreclosure": "on the foreclosed debt",
}
_KIND_WORDS = {
    "tax_delinquent": "tax delinquent",
    "sale_list": "on a sale list",
    "foreclosure": "foreclosure",
    "vacant": "vacant",
    "code_violation": "code violation",
    "probate": "inherited (probate proxy)",
}


@dataclass(frozen=True)
class SignalFacts:
    """What the score needs from one distress signal (one ``records.rules`` signal record)."""

    kind: str                       # one of records.rules.SIGNAL_KINDS
    as_of: date | None
    amount_owed: int | None = None
    years_owed: int | None = None
    sale_date: date | None = None
    sale_type: str | None = None
    notice_date: date | None = None
    delinquent_since: date | None = None  # tax_delinquent: the first tax year owed (records.rules_open_since)
    source: str = ""                # the list (dataset title) it comes from: each list stacks (rule 8)


@dataclass(frozen=True)
class Motivation:
    score: int                      # 0-100
    reasons: tuple[str, ...]        # plain sentences, strongest first


def lead_type_for(kinds: Iterable[str]) -> str | None:
    """The lead type of the strongest lead-making kind present; None when there is none."""
    present = set(kinds)
    for kind, lead_type in LEAD_TYPE_ORDER:
        if kind in present:
            return lead_type
    return None


def _day(value: date) -> str:
    return format_date(value, "UTC")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _owed_part(signals: Sequence[SignalFacts], market_value: int | None) -> tuple[int, str] | None:
    owing = [s for s in signals if s.amount_owed is not None and s.amount_owed > 0]
    if not owing:
        return None
    top = max(owing, key=lambda s: s.amount_owed)
    amount = top.amount_owed
    words = f"Owes {usd(amount)} {_DEBT_WORDS.get(top.kind, 'on record')}"
    if market_value and market_value > 0:
        share = amount * 100 // market_value
        return min(OWED_SHARE_CAP, share), f"{words}, {share}% of the market value"
    return min(OWED_DOLLARS_CAP, amount // OWED_DOLLARS_STEP), f"{words} (no market value to compare)"


def _years_part(signals: Sequence[SignalFacts]) -> tuple[int, str] | None:
    years = max((s.years_owed for s in signals if s.years_owed), default=0)
    if years <= 0:
        return None
    return min(YEARS_OWED_CAP, years * YEARS_OWED_POINTS), f"Property tax owed for {_plural(years, 'year')}"


def _sale_points(days: int) -> int:
    for limit, points in SALE_DAY_POINTS:
        if days <= limit:
            return points
    return SALE_LATER_POINTS


def _sale_part(signals: Sequence[SignalFacts], today: date) -> tuple[int, str] | None:
    listed = [s for s in signals if s.kind == "sale_list"]
    upcoming = [s for s in listed if s.sale_date is not None and s.sale_date >= today]
    if upcoming:
        nearest = min(upcoming, key=lambda s: s.sale_date)
        days = (nearest.sale_date - today).days
        when = "today" if days == 0 else f"in {_plural(days, 'day')}"
        name = SALE_LABELS.get(nearest.sale_type or "", "Sale")
        return _sale_points(days), f"{name} on {_day(nearest.sale_date)}, {when}"
    undated = [s for s in listed if s.sale_date is None]
    if undated:
        name = SALE_LABELS.get(undated[0].sale_type or "", "A sale").lower()
        return SALE_UNDATED_POINTS, f"Listed for {name}, no sale date published"
    return None  # only past sales: held, no longer a reason


def _dated(signal: SignalFacts) -> date | None:
    return signal.notice_date or signal.as_of


def _foreclosure_part(signals: Sequence[SignalFacts]) -> tuple[int, str] | None:
    cases = [s for s in signals if s.kind == "foreclosure"]
    if not cases:
        return None
    dates = [d for d in map(_dated, cases) if d is not None]
    text = f"Foreclosure on record since {_day(min(dates))}" if dates else "Foreclosure on record (undated)"
    return FORECLOSURE_POINTS, text


def _probate_part(signals: Sequence[SignalFacts]) -> tuple[int, str] | None:
    inherited = [s for s in signals if s.kind == "probate"]
    if not inherited:
        return None
    dates = [d for d in map(_dated, inherited) if d is not None]
    if not dates:
        return PROBATE_POINTS, "Inherited: the owner acquired it by inheritance (deed date not published; " \
                               "deed-based probate proxy)"
    return PROBATE_POINTS, (f"Inherited: the owner acquired it by inheritance on {_day(min(dates))} "
                            "(deed-based probate proxy)")


def _open_points(since: date, today: date) -> int:
    return min(OPEN_CAP, OPEN_YEAR_POINTS * open_since.full_years(since, today))


def _vacant_part(signals: Sequence[SignalFacts], today: date,
                 longest: tuple[SignalFacts, date] | None) -> tuple[int, str] | None:
    vacancies = [s for s in signals if s.kind == "vacant"]
    if not vacancies:
        return None
    if longest is not None and longest[0].kind == "vacant":  # the time open joins the vacancy's reason
        return VACANT_POINTS + _open_points(longest[1], today), open_since.since_line("vacant", longest[1], today)
    oldest = open_since.longest_open(vacancies, today)
    if oldest is None:
        return VACANT_POINTS, "Vacant (no date on record)"
    return VACANT_POINTS, open_since.since_line("vacant", oldest[1], today)


def _open_part(today: date, longest: tuple[SignalFacts, date] | None) -> tuple[int, str] | None:
    if longest is None or longest[0].kind == "vacant":
        return None  # a vacancy's time open is in its own reason (rule 6)
    return _open_points(longest[1], today), open_since.since_line(longest[0].kind, longest[1], today)


def _violation_part(signals: Sequence[SignalFacts]) -> tuple[int, str] | None:
    violations = [s for s in signals if s.kind == "code_violation"]
    if not violations:
        return None
    dates = [d for d in map(_dated, violations) if d is not None]
    text = _plural(len(violations), "code violation")
    if dates:
        text += f", the latest on {_day(max(dates))}"
    return min(CODE_VIOLATION_CAP, CODE_VIOLATION_POINTS * len(violations)), text[0].upper() + text[1:]


def _count_part(signals: Sequence[SignalFacts]) -> tuple[int, str] | None:
    stacks = sorted({(SIGNAL_KINDS.index(s.kind), s.source) for s in signals})
    if len(stacks) < 2:
        return None
    points = min(EXTRA_SIGNAL_CAP, EXTRA_SIGNAL_POINTS * (len(stacks) - 1))
    if not any(source for _, source in stacks):
        return points, f"{len(stacks)} distress signals ({', '.join(_KIND_WORDS[SIGNAL_KINDS[k]] for k, _ in stacks)})"
    items = [_KIND_WORDS[SIGNAL_KINDS[k]] + (f" ({source})" if source else "") for k, source in stacks]
    return points, f"{len(stacks)} distress signals: {'; '.join(items)}"


def motivation(signals: Sequence[SignalFacts], *, market_value: int | None, today: date) -> Motivation:
    """The score (0-100) and its reasons, strongest first (see the module docstring for every weight)."""
    unknown = sorted({s.kind for s in signals} - set(SIGNAL_KINDS))
    if unknown:
        raise ValueError(f"not a signal kind: {', '.join(unknown)}")
    longest = open_since.longest_open(signals, today)
    parts = [
        _owed_part(signals, market_value),
        _years_part(signals),
        _sale_part(signals, today),
        _foreclosure_part(signals),
        _probate_part(signals),
        _vacant_part(signals, today, longest),
        _open_part(today, longest),
        _violation_part(signals),
        _count_part(signals),
    ]
    scored = [(points, order, text) for order, part in enumerate(parts)
              if part is not None for points, text in [part] if points > 0]
    scored.sort(key=lambda item: (-item[0], item[1]))
    score = min(MAX_SCORE, sum(points for points, _, _ in scored))
    return Motivation(score=score, reasons=tuple(text for _, _, text in scored))
