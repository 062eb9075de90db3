"""Owner contact rules: the price, hits, phone numbers, marking a number wrong."""

from marketplace.core.owner_contact import (SKIP_TRACE_CREDITS, clean_email, format_number, is_hit, mark_wrong,
                                            phone, same_number)


def test_price_and_what_counts_as_a_hit():
    assert SKIP_TRACE_CREDITS == 25
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
