"""A lead's next sale or auction date and the "Auction Soon" rule. Pure.

- The date is ``leads.sale_date``, one column for every lead: a public-record lead's is the earliest sale
  date of its open sale-list signals still ahead (``records.service_leads``), a generated (demo) Auction or
  Pre-Foreclosure lead's a date 1-90 days after it was made (``demo_sale_date``, deterministic from the lead's
  id); listing leads (RentCast) and the other demo leads have none.
- "Auction Soon" (the marketplace tag, saved searches and their alerts, the bulk scraper's result filter)
  means: a sale date from today to ``AUCTION_SOON_DAYS`` days ahead, both ends included. A lead without a
  date, or whose date has passed, never carries it, whatever its lead type.
- "Today" is the calendar day in the app's zone, the one of the daily refresh (8:00 AM Pacific,
  ``marketplace.rules.PACIFIC``): every viewer sees the same tag on the same lead.
- Where the date comes from (``raw_data[SOURCE_KEY]`` of a public-record lead, the demo flag of a generated
  one) is said next to it wherever the full date is shown.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from marketplace.platform.leads import is_generated
from marketplace.platform.times import format_date
from marketplace.features.marketplace import texts_sale_dates as text

AUCTION_SOON_DAYS = 30
PACIFIC = ZoneInfo("America/Los_Angeles")  # the app's zone: the 8:00 AM Pacific refresh (SPEC 2)
AUCTION_SOON_TAG = "auction_soon"
# The generator's leads that get a demo sale date, and how far ahead of their making it falls.
DATED_DEMO_TYPES = ("Auction", "Pre-Foreclosure")
DEMO_SALE_DAYS = (1, 90)
# raw_data key of a public-record lead: {"label", "title", "retrieved"} of the signal that gives the date.
SOURCE_KEY = "sale_date_source"


def local_today(now: datetime) -> date:
    """The calendar day of ``now`` (aware) in the app's zone (8:00 AM Pacific refresh)."""
    return now.astimezone(PACIFIC).date()


def soon_window(today: date) -> tuple[date, date]:
    """The dates that make a lead "Auction Soon" today: ``today`` .. ``today + AUCTION_SOON_DAYS`` inclusive."""
    return today, today + timedelta(days=AUCTION_SOON_DAYS)


def is_auction_soon(sale_date: date | None, today: date) -> bool:
    if sale_date is None:
        return False
    first, last = soon_window(today)
    return first <= sale_date <= last


def parse_date(value: Any) -> date | None:
    """A stored date (a ``date``, or ISO text from a JSON row); None for anything else."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str) and value:
        try:
            return date.fromisoformat(value[:10])
        except ValueError:
            return None
    return None


def days_until(sale_date: date | None, today: date) -> int | None:
    return None if sale_date is None else (sale_date - today).days


def sale_in_text(sale_date: date | None, today: date) -> str:
    """'Sale in 17 days' / 'Sale tomorrow' / 'Sale today'; 'Sale date passed'; '' without a date.
    What a locked card shows (record_views' privacy note says why the day count may be shown)."""
    days = days_until(sale_date, today)
    if days is None:
        return ""
    if days < 0:
        return text.SALE_DATE_PASSED
    if days == 0:
        return text.SALE_TODAY
    if days == 1:
        return text.SALE_TOMORROW
    return text.SALE_IN_DAYS.format(days=days)


def demo_sale_date(lead_id: object, made_on: date) -> date:
    """A generated lead's demo sale date: 1-90 days after ``made_on``, the same for the same lead id
    (its own random stream: the generator's other draws are unchanged)."""
    days = random.Random(f"sale-date:{lead_id}").randint(*DEMO_SALE_DAYS)
    return made_on + timedelta(days=days)


def record_source(label: str, title: str, retrieved: datetime | date | None) -> dict[str, str | None]:
    """What a public-record lead keeps of the signal its date comes from (``raw_data[SOURCE_KEY]``)."""
    day = retrieved.date() if isinstance(retrieved, datetime) else retrieved
    return {"label": label, "title": title, "retrieved": day.isoformat() if day else None}


def source_text(raw_data: dict | None) -> str:
    """Where the date comes from: 'Sheriff sale date from <dataset>, retrieved <date>' or 'Demo date'."""
    if is_generated(raw_data):
        return text.SALE_DATE_DEMO
    raw = raw_data if isinstance(raw_data, dict) else {}
    source = raw.get(SOURCE_KEY)
    if not isinstance(source, dict) or not source.get("title"):
        return text.SALE_DATE_NO_SOURCE
    label = str(source.get("label") or "Sale")
    retrieved = parse_date(source.get("retrieved"))
    if retrieved is None:
        return text.SALE_DATE_FROM_RECORD_UNDATED.format(label=label, title=source["title"])
    return text.SALE_DATE_FROM_RECORD.format(label=label, title=source["title"],
                                             retrieved=format_date(retrieved, "UTC"))


def date_line(sale_date: date | None, today: date) -> str:
    """'Sale date: Dec 12, 2026 (in 17 days)' for a viewer who unlocked the lead; '' without a date."""
    if sale_date is None:
        return ""
    days = (sale_date - today).days
    when = ("passed" if days < 0 else "today" if days == 0 else "tomorrow" if days == 1 else f"in {days} days")
    return text.SALE_DATE_LINE.format(date=format_date(sale_date, "UTC"), when=when)
