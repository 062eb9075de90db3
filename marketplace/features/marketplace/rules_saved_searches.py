"""Saved searches and new-lead alerts: pure rules.

A saved search is a marketplace ``Filters`` query string (without page and
page size) under a name. Its filter options are also kept as (group, value)
criteria rows so that the alert job can match a refresh's new leads set-wise:
a lead matches when, for every constrained group, one of its facet values is
among the search's options (options OR within a group, groups AND, exactly as
the marketplace filters). This module holds the name rules, the normalised
query, the criteria, a lead's facet values, the readable summary, the
notification and digest texts and the signed one-click unsubscribe token.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import uuid
from dataclasses import dataclass, replace
from datetime import date
from functools import cached_property

from marketplace.platform import texts as messages, routes
from marketplace.features.marketplace import rules as marketplace_rules
from marketplace.features.records import display_city, display_street
from marketplace.platform.errors import UserError
from marketplace.features.marketplace.rules_filter_values import price_range_label
from marketplace.platform.text_keys import city_key
from marketplace.features.unlock import held_chip, spots_chip
from marketplace.platform.limits import MAX_SAVED_SEARCHES, SAVED_SEARCH_NAME_MAX_LENGTH
from marketplace.platform.pricing import unlock_cost

NAME_MAX_LENGTH = SAVED_SEARCH_NAME_MAX_LENGTH
DIGEST_MAX_MATCHES = 20  # lead lines in one digest e-mail
NOTIFICATION_LEAD_IDS = 20  # lead ids kept with a notification
# Criteria groups: the marketplace's set-wise groups by URL key (type, roi, size, tag, state, city, zip);
# the asking-price range is the group PRICE, kept as the search's min_price/max_price columns.
GROUPS = tuple(spec.key for spec in marketplace_rules.FILTERS)
_GROUP_FIELDS = {spec.key: spec.field for spec in marketplace_rules.FILTERS}
PRICE = "price"
# Groups whose facet a lead offers only when some search asks for its value (marketplace.service_alerts).
PLACE_GROUPS = tuple(spec.key for spec in marketplace_rules.FILTERS if spec.place)


# --------------------------------------------------------------------------- names and queries


def clean_name(raw: object) -> str:
    """The name as stored: trimmed, inner whitespace runs made one space, 1-60 characters."""
    name = re.sub(r"\s+", " ", raw if isinstance(raw, str) else "").strip()
    if not name:
        raise UserError(*messages.SAVED_SEARCH_NAME_REQUIRED)
    if len(name) > NAME_MAX_LENGTH:
        raise UserError(*messages.SAVED_SEARCH_NAME_TOO_LONG)
    return name


def name_key(name: str) -> str:
    """What makes two names the same for one user: case does not count."""
    return name.lower()


def name_taken(name: str) -> UserError:
    title, message = messages.SAVED_SEARCH_NAME_TAKEN
    return UserError(title, message.format(name=name))


def stored_filters(query: str | dict) -> marketplace_rules.Filters:
    """The filters a saved search keeps: the query's filters and sort, page 1, the default page size."""
    filters = marketplace_rules.Filters.from_query(query if isinstance(query, (str, dict)) else "")
    return replace(filters, page=1, page_size=marketplace_rules.DEFAULT_PAGE_SIZE)


def criterion_value(group: str, value: str) -> str:
    """A criterion as stored and matched: a city in lower case (cities match whatever their case)."""
    return city_key(value) if group == "city" else value


def criteria(filters: marketplace_rules.Filters) -> list[tuple[str, str]]:
    """The (group, value) rows of a search's set-wise options (the price range is not one of them)."""
    return [(group, criterion_value(group, value)) for group in GROUPS
            for value in getattr(filters, _GROUP_FIELDS[group])]


def criteria_groups(filters: marketplace_rules.Filters) -> int:
    """How many groups the search constrains, the price range included; 0 matches every lead."""
    return sum(1 for group in GROUPS if getattr(filters, _GROUP_FIELDS[group])) + (1 if filters.has_price else 0)


def place_groups(filters: marketplace_rules.Filters) -> int:
    """How many of those groups are places (state, city, ZIP) or the price range: the alert
    matching checks them against the leads' place cells, the others against their kind cells."""
    return sum(1 for group in PLACE_GROUPS if getattr(filters, _GROUP_FIELDS[group])) + (1 if filters.has_price else 0)


def lead_facets(lead_type: str, roi: float | None, square_footage: int | None, is_new: bool,
                is_high_roi: bool, signal_count: int = 0, absentee_owner: bool | None = None,
                out_of_state_owner: bool | None = None, sale_date: date | None = None,
                today: date | None = None, unlock_count: int = 0,
                bank_owned: bool | None = None) -> frozenset[tuple[str, str]]:
    """The (group, value) pairs a lead offers to the criteria: each filter's values that hold for
    it (``marketplace.rules.FILTERS``; a lead of unknown size offers no size, 'Auction Soon' needs
    ``today``, a new lead is held by nobody yet and never 'Unlocked'). Places: ``place_facets``."""
    lead = {"lead_type": lead_type, "roi": roi, "square_footage": square_footage, "is_new": is_new,
            "is_high_roi": is_high_roi, "signal_count": signal_count, "absentee_owner": absentee_owner,
            "out_of_state_owner": out_of_state_owner, "sale_date": sale_date, "unlock_count": unlock_count or 0,
            "bank_owned": bank_owned}
    return _offered(lead, today, place=False)


def _offered(lead: dict, today: date | None, place: bool) -> frozenset[tuple[str, str]]:
    return frozenset((spec.key, value) for spec in marketplace_rules.FILTERS if spec.place == place
                     for value in spec.offered(lead, today))


def place_facets(state: str, city: str, zip_code: str) -> frozenset[tuple[str, str]]:
    """The location pairs a lead offers: its state, its city (lower case) and its five-digit ZIP."""
    return _offered({"state": state, "city": city, "zip_code": zip_code}, None, place=True)


def price_matches(filters: marketplace_rules.Filters, asking_price: int | None) -> bool:
    """The price group: no range matches every lead; a range never matches a lead without a price."""
    if not filters.has_price:
        return True
    if asking_price is None:
        return False
    return ((filters.min_price is None or asking_price >= filters.min_price)
            and (filters.max_price is None or asking_price <= filters.max_price))


def matches(filters: marketplace_rules.Filters, facets: frozenset[tuple[str, str]], asking_price: int | None = None) -> bool:
    """The reference rule the SQL matching implements: every constrained group has a hit."""
    wanted = criteria(filters)
    return price_matches(filters, asking_price) and all(
        any((g, v) in facets for g, v in wanted if g == group) for group in {g for g, _ in wanted})


# --------------------------------------------------------------------------- readable summary


def _label(options: tuple, value: str) -> str:
    return dict(options).get(value, value)


def summary(filters: marketplace_rules.Filters) -> str:
    """'Probate or Auction · ROI over 30% · New · sorted by Highest ROI'; 'All leads' without filters."""
    parts = []
    if filters.lead_types:
        parts.append(" or ".join(filters.lead_types))
    if filters.roi_ranges:
        labels = [_label(marketplace_rules.ROI_BANDS, v) for v in filters.roi_ranges]
        parts.append("ROI " + " or ".join(label[0].lower() + label[1:] for label in labels))
    if filters.sizes:
        labels = [_label(marketplace_rules.SIZE_BANDS, v) for v in filters.sizes]
        text = " or ".join(label[0].lower() + label[1:] for label in labels)
        parts.append(text[0].upper() + text[1:])
    if filters.tags:
        parts.append(" or ".join(_label(marketplace_rules.TAGS, v) for v in filters.tags))
    parts.extend(place_summary(filters))
    if filters.held:
        parts.append(" or ".join(held_chip(v) for v in filters.held))
    if filters.spots:
        parts.append(spots_chip(filters.spots[0]))
    if filters.has_price:
        label = price_range_label(filters.min_price, filters.max_price)
        parts.append(messages.SUMMARY_PRICE.format(range=label[0].lower() + label[1:]))
    if not parts:
        parts.append(messages.SUMMARY_ALL_LEADS)
        if filters.sort == marketplace_rules.DEFAULT_SORT:
            return parts[0]
    parts.append(messages.SUMMARY_SORTED_BY.format(sort=_label(marketplace_rules.SORTS, filters.sort)))
    return " · ".join(parts)


def place_summary(filters: marketplace_rules.Filters) -> list[str]:
    """'TX or OK', 'Austin or Dallas', 'ZIP 78701 or 78702': the location parts of the summary."""
    parts = []
    if filters.states:
        parts.append(" or ".join(filters.states))
    if filters.cities:
        parts.append(" or ".join(filters.cities))
    if filters.zips:
        parts.append("ZIP " + " or ".join(filters.zips))
    return parts


def query_summary(query: str) -> str:
    return summary(stored_filters(query))


# --------------------------------------------------------------------------- notification texts


def alert_title(lead_count: int) -> str:
    return messages.ALERT_TITLE_ONE if lead_count == 1 else messages.ALERT_TITLE_MANY.format(count=f"{lead_count:,}")


def alert_body(searches: list[tuple[str, int]]) -> str:
    """'Austin probate: 3 · ROI over 30%: 2' (name, new matches) in the order given."""
    return " · ".join(f"{name}: {count:,}" for name, count in searches)


# --------------------------------------------------------------------------- the digest e-mail


@dataclass(frozen=True)
class DigestLead:
    address: str
    city: str
    state: str
    zip_code: str
    lead_type: str
    credit_cost: int | None
    roi: float | None
    demo: bool = False  # made up by the built-in generator: the line says so

    @cached_property
    def line(self) -> str:
        """'•••• •••• St, Austin, TX 78701 · Probate · 120 credits · ROI 18.4%' (the address masked), and
        ' · demo data' after a generated lead's estimated ROI."""
        street = marketplace_rules.mask_address(display_street(self.address))
        place = f"{street}, {display_city(self.city)}, {self.state} {self.zip_code}"
        return (f"{place} · {self.lead_type} · {unlock_cost(self.credit_cost)} credits to unlock · "
                f"ROI {marketplace_rules.percent(self.roi)}" + (f" · {messages.DEMO_LEAD_MARK}" if self.demo else ""))


@dataclass(frozen=True)
class DigestSection:
    """One saved search in the digest: its new matches (best first) and its own unsubscribe link."""

    name: str
    query: str
    count: int
    leads: tuple[DigestLead, ...]
    unsubscribe_url: str


def digest_text(sections: list[DigestSection], lead_count: int, base_url: str,
                unsubscribe_all_url: str) -> tuple[str, str]:
    """(subject, plain-text body): at most ``DIGEST_MAX_MATCHES`` lead lines over all sections,
    'and N more' where a section is cut, links to each search and to the saved-searches tab."""
    base = base_url.rstrip("/")
    subject = alert_title(lead_count)
    lines = [f"{subject}.", ""]
    if any(lead.demo for section in sections for lead in section.leads):
        lines += [messages.DEMO_DATA_BANNER, ""]
    budget = DIGEST_MAX_MATCHES
    for section in sections:
        noun = "lead" if section.count == 1 else "leads"
        lines.append(messages.DIGEST_SECTION.format(name=section.name, count=f"{section.count:,}", leads=noun))
        shown = section.leads[:max(0, budget)]
        budget -= len(shown)
        lines.extend(f"  - {lead.line}" for lead in shown)
        if section.count > len(shown):
            lines.append("  " + messages.DIGEST_MORE.format(count=f"{section.count - len(shown):,}"))
        lines.append("  " + messages.DIGEST_OPEN.format(url=base + routes.marketplace_url(section.query)))
        lines.append("  " + messages.DIGEST_STOP.format(url=section.unsubscribe_url))
        lines.append("")
    lines.append(messages.DIGEST_MANAGE.format(url=base + routes.saved_searches_url()))
    lines.append("")
    lines.append(messages.DIGEST_FOOTER.format(url=unsubscribe_all_url))
    return subject, "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- one-click unsubscribe


_TOKEN = re.compile(r"^([0-9a-f]{32})\.([0-9]{1,18}(?:-[0-9]{1,18}){0,%d})\.([A-Za-z0-9_-]{43})$"
                    % (MAX_SAVED_SEARCHES - 1))


def _signature(secret: str, user_id: uuid.UUID, ids: str) -> str:
    mac = hmac.new(secret.encode(), f"alerts-unsubscribe:{user_id.hex}:{ids}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


def unsubscribe_token(secret: str, user_id: uuid.UUID, search_ids: list[int] | tuple[int, ...]) -> str:
    """A signed token turning e-mail off for these searches of this user (HMAC-SHA256 with the app secret).

    It does not expire: a link in an old e-mail keeps working while the search exists."""
    ids = "-".join(str(i) for i in sorted(set(search_ids)))
    if not ids:
        raise ValueError("an unsubscribe token names at least one search")
    return f"{user_id.hex}.{ids}.{_signature(secret, user_id, ids)}"


def read_unsubscribe_token(secret: str, token: object) -> tuple[uuid.UUID, tuple[int, ...]] | None:
    """(user id, search ids) of a genuine token; None for anything else (constant-time signature check)."""
    match = _TOKEN.match(token) if isinstance(token, str) else None
    if match is None:
        return None
    user_id, ids = uuid.UUID(match.group(1)), match.group(2)
    if not hmac.compare_digest(_signature(secret, user_id, ids), match.group(3)):
        return None
    return user_id, tuple(int(i) for i in ids.split("-"))
