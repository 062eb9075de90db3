"""Owner contact rules: the price, hits, phone numbers, marking a number wrong, when a miss is searched again,
how a bulk selection splits."""

import uuid
from datetime import datetime, timedelta, timezone

import pytest

from marketplace.platform.config import ConfigError, skip_trace_price, skip_trace_settings
from marketplace.features.property.rules_owner_contact import (
    BULK_MAX_LEADS,
    bulk_plan,
    clean_email,
    format_number,
    is_hit,
    mark_wrong,
    needs_search,
    phone,
    retry_after,
    same_number,
)
from marketplace.features.property import texts_owner_contact as text

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=timezone.utc)


def test_the_price_of_a_hit_is_a_setting_default_two_credits(monkeypatch):
    monkeypatch.delenv("SKIP_TRACE_CREDITS_PER_HIT", raising=False)
    assert skip_trace_price() == 2 == skip_trace_settings().credits_per_hit
    assert text.priced(text.FIND_BUTTON, 2) == (
        "Find owner phone and e-mail (2 credits, charged only if a contact is found)")
    monkeypatch.setenv("SKIP_TRACE_CREDITS_PER_HIT", "3")
    assert skip_trace_price() == 3
    for bad in ("0", "-1", "1001"):
        monkeypatch.setenv("SKIP_TRACE_CREDITS_PER_HIT", bad)
        with pytest.raises(ConfigError, match="SKIP_TRACE_CREDITS_PER_HIT must be 1-1000"):
            skip_trace_price()


def test_a_miss_is_searched_again_after_30_days_a_hit_never():
    assert needs_search(None, None, NOW)
    assert not needs_search("miss", NOW - timedelta(days=29, hours=23), NOW)
    assert needs_search("miss", NOW - timedelta(days=30), NOW)
    assert not needs_search("found", NOW - timedelta(days=400), NOW)
    assert retry_after(datetime(2026, 11, 1)) == datetime(2026, 12, 1, tzinfo=timezone.utc)  # naive = UTC


def test_bulk_plan_splits_the_selection():
    a, b, c, d, e = (str(uuid.uuid4()) for _ in range(5))
    stored = {b: ("found", NOW - timedelta(days=90)), c: ("miss", NOW - timedelta(days=3)),
              d: ("miss", NOW - timedelta(days=31))}
    search, done, refused = bulk_plan([a, b, c, d, e, a, 7, "", a.upper()], {a, b, c, d}, stored, NOW)
    assert (search, done, refused) == ([a, d], [b, c], [e])
    many = [str(uuid.uuid4()) for _ in range(BULK_MAX_LEADS + 5)]
    assert len(bulk_plan(many, set(many), {}, NOW)[0]) == BULK_MAX_LEADS


def test_what_counts_as_a_hit():
    assert is_hit([{"number": "x"}], []) and is_hit([], ["a@example.com"])
    assert not is_hit([], [])


def test_phone_numbers():
    assert format_number("+1 (512) 555-0142") == "(512) 555-0142"
    assert format_number("5125550142") == "(512) 555-0142"
    assert format_number("5550142") == "5550142"
    assert format_number("12") is None and format_number(None) is None
    assert same_number("(512) 555-0142", "1-512-555-0142") and not same_number("", "")
    assert phone("5125550142", "Mobile", True) == {"number": "(512) 555-0142", "type": "Mobile", "dnc": True,
                                                   "wrong": False}
    assert phone("5125550142", 7, "no")["type"] is None and phone("5125550142")["dnc"] is None


def test_emails():
    assert clean_email(" Jane.Doe@Example.COM ") == "jane.doe@example.com"
    assert clean_email("nope") is None and clean_email("a@b") is None and clean_email(None) is None


def test_mark_wrong():
    phones = [phone("5125550142"), phone("5125550177")]
    marked = mark_wrong(phones, "512-555-0177")
    assert [p["wrong"] for p in marked] == [False, True] and phones[1]["wrong"] is False  # a copy
    assert [p["wrong"] for p in mark_wrong(marked, "5125550177", wrong=False)] == [False, False]
    assert mark_wrong(phones, "5125550100") is None


def test_every_listed_number_carries_its_do_not_call_status():
    """The card once showed a number with no DNC status unless it was on the registry (only the CSV said
    No or Unknown): every row now says yes, no or unknown."""
    from marketplace.features.property.rules_owner_contact import phone_rows

    rows = phone_rows([{"number": "(512) 555-0142", "type": "Mobile", "dnc": True},
                       {"number": "(512) 555-0177", "type": None, "dnc": False},
                       {"number": "(512) 555-0199", "type": "Land Line"}], text.TYPE_UNKNOWN)
    assert [(r["dnc"], r["type"]) for r in rows] == [("yes", "Mobile"), ("no", text.TYPE_UNKNOWN),
                                                     ("unknown", "Land Line")]
