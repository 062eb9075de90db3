"""Saved searches: names, stored queries, summaries, criteria, digest text and the unsubscribe token."""

import uuid
from datetime import date

import pytest

from marketplace.features.marketplace import rules_saved_searches as rules
from marketplace.platform.errors import UserError
from marketplace.features.marketplace.rules import Filters

USER = uuid.UUID("12345678-1234-5678-1234-567812345678")


def test_names_are_trimmed_and_limited():
    assert rules.clean_name("  Austin   probate \n") == "Austin probate"
    assert rules.clean_name("x" * 60) == "x" * 60
    for blank in ("", "   ", None, 5):
        with pytest.raises(UserError) as err:
            rules.clean_name(blank)
        assert (err.value.title, err.value.message) == ("Name Required", "Enter a name for this search.")
    with pytest.raises(UserError) as err:
        rules.clean_name("x" * 61)
    assert (err.value.title, err.value.message) == (
        "Name Too Long", "A saved search name must be at most 60 characters long.")
    assert rules.name_key("Austin Probate") == rules.name_key("austin PROBATE")
    taken = rules.name_taken("Austin probate")
    assert (taken.title, taken.message) == ("Name Taken", "You already have a saved search named 'Austin probate'.")
    assert rules.MAX_SAVED_SEARCHES == 25


def test_the_stored_query_drops_page_size_and_junk():
    assert rules.stored_filters("page=3&per_page=50&type=Probate&roi=gt30&bogus=1&type=Nope").to_query() == "type=Probate&roi=gt30"
    assert rules.stored_filters("sort=newest&tag=new&type=Auction&page=2").to_query() == "type=Auction&tag=new&sort=newest"
    assert rules.stored_filters("").to_query() == ""
    assert rules.stored_filters("sort=roi_desc").to_query() == ""  # the default sort is implied


def test_summary_reads_like_the_filter_bar():
    filters = Filters(lead_types=("Probate", "Auction"), roi_ranges=("gt30",), tags=("new",))
    assert rules.summary(filters) == "Probate or Auction · ROI over 30% · New · sorted by Highest ROI"
    assert rules.summary(Filters()) == "All leads"
    assert rules.summary(Filters(sort="newest")) == "All leads · sorted by Newest"
    assert rules.query_summary("roi=20-30&roi=unknown&size=small&size=large&tag=high_roi&tag=vacant&sort=price_asc") == (
        "ROI 20% - 30% or unknown · Up to 1,000 sqft or over 2,000 sqft · High ROI or Vacant · sorted by Lowest Price")


def test_criteria_and_matching_follow_the_marketplace_filters():
    filters = Filters(lead_types=("Probate", "Auction"), roi_ranges=("gt30",), tags=("new", "unlocked"))
    assert rules.criteria(filters) == [("type", "Probate"), ("type", "Auction"), ("roi", "gt30"), ("tag", "new"),
                                       ("tag", "unlocked")]
    assert rules.criteria_groups(filters) == 3
    assert rules.criteria_groups(Filters(sort="newest")) == 0
    probate_hot = rules.lead_facets("Probate", 31.0, 900, True, True)
    assert probate_hot == {("type", "Probate"), ("roi", "gt30"), ("size", "small"), ("tag", "new"),
                           ("tag", "high_roi"), ("held", "none"), ("spots", "open")}  # nobody holds it yet
    assert rules.matches(filters, probate_hot)
    assert not rules.matches(filters, rules.lead_facets("Probate", 30.0, 900, True, False))  # 30 is 20-30
    assert not rules.matches(filters, rules.lead_facets("Probate", 31.0, 900, False, True))  # not new, never unlocked
    assert rules.matches(Filters(), rules.lead_facets("Vacancy", None, None, False, False))
    vacant = rules.lead_facets("Vacancy", None, None, True, False)
    assert ("tag", "vacant") in vacant and ("roi", "unknown") in vacant and not any(g == "size" for g, _ in vacant)
    # "Auction Soon" is a sale date within 30 days of today, whatever the lead type (tests/features/marketplace/test_rules_sale_dates.py).
    assert rules.matches(Filters(tags=("auction_soon",)), rules.lead_facets(
        "Auction", 5, 1500, False, False, sale_date=date(2026, 12, 1), today=date(2026, 11, 25)))
    assert not rules.matches(Filters(tags=("auction_soon",)), rules.lead_facets("Auction", 5, 1500, False, False))
    assert not rules.matches(Filters(tags=("unlocked",)), probate_hot)


def test_notification_texts():
    assert rules.alert_title(1) == "1 new lead matches your saved searches"
    assert rules.alert_title(1234) == "1,234 new leads match your saved searches"
    assert rules.alert_body([("Austin probate", 3), ("ROI over 30%", 2)]) == "Austin probate: 3 · ROI over 30%: 2"


def _lead(n: int, roi=18.4) -> rules.DigestLead:
    return rules.DigestLead(address=f"{n} Maple Ridge Dr", city="Austin", state="TX", zip_code="78701",
                            lead_type="Probate", credit_cost=120, roi=roi)


def test_digest_lists_twenty_masked_matches_with_links():
    first = rules.DigestSection(name="Austin probate", query="type=Probate", count=15,
                                leads=tuple(_lead(i) for i in range(15)), unsubscribe_url="https://x.test/u1")
    second = rules.DigestSection(name="Hot", query="roi=gt30", count=9,
                                 leads=tuple(_lead(i, roi=None) for i in range(9)), unsubscribe_url="https://x.test/u2")
    subject, body = rules.digest_text([first, second], lead_count=22, base_url="https://leadvault.test/",
                                      unsubscribe_all_url="https://x.test/all")
    assert subject == "22 new leads match your saved searches"
    lines = body.splitlines()
    assert lines[0] == "22 new leads match your saved searches."
    assert lines[2] == "Austin probate: 15 new leads"
    assert lines[3] == "  - •••• •••• •••• Dr, Austin, TX 78701 · Probate · 120 credits to unlock · ROI 18.4%"
    listed = [line for line in lines if line.startswith("  - ")]
    assert len(listed) == 20  # 15 + 5 of the second search
    assert "Maple" not in body and "0 Maple" not in body
    assert "  and 4 more" in lines
    assert "  - •••• •••• •••• Dr, Austin, TX 78701 · Probate · 120 credits to unlock · ROI N/A" in lines
    assert "  Open this search: https://leadvault.test/marketplace?type=Probate" in lines
    assert "  Stop e-mails for this search: https://x.test/u1" in lines
    assert "  Stop e-mails for this search: https://x.test/u2" in lines
    assert "Manage your saved searches: https://leadvault.test/dashboard?tab=saved" in lines
    assert lines[-1] == ("You receive this e-mail because e-mail alerts are on for these saved searches. "
                         "Stop all of them with one click: https://x.test/all")
    one = rules.DigestSection(name="One", query="", count=1, leads=(_lead(1),), unsubscribe_url="u")
    assert rules.digest_text([one], 1, "https://a.test", "u")[1].splitlines()[2] == "One: 1 new lead"


def test_unsubscribe_token_is_signed_and_checked():
    token = rules.unsubscribe_token("secret", USER, [7, 3, 7])
    assert token.startswith(f"{USER.hex}.3-7.")
    assert rules.read_unsubscribe_token("secret", token) == (USER, (3, 7))
    assert rules.read_unsubscribe_token("other-secret", token) is None
    forged = token.replace(".3-7.", ".3-8.")
    assert rules.read_unsubscribe_token("secret", forged) is None
    other_user = uuid.uuid4().hex + token[32:]
    assert rules.read_unsubscribe_token("secret", other_user) is None
    for junk in ("", "abc", None, 12, token + "x", token[:-1], f"{USER.hex}..{token.split('.')[2]}"):
        assert rules.read_unsubscribe_token("secret", junk) is None
    with pytest.raises(ValueError):
        rules.unsubscribe_token("secret", USER, [])


def test_public_record_tags_are_facets_of_the_leads_that_have_them():
    facets = rules.lead_facets("Tax Delinquent", None, None, False, False, 2, True, False)
    assert rules.matches(Filters(tags=("two_signals",)), facets)
    assert rules.matches(Filters(tags=("absentee",)), facets)
    assert not rules.matches(Filters(tags=("out_of_state",)), facets)
    assert not rules.matches(Filters(tags=("two_signals",)), rules.lead_facets("Vacancy", None, None, False, False, 1))
    assert rules.summary(Filters(tags=("two_signals", "out_of_state"))).startswith("2+ signals or Out-of-state owner")


def test_a_digest_of_generated_leads_says_they_are_demo_data():
    demo = rules.DigestLead(address="1 Maple Ridge Dr", city="Austin", state="TX", zip_code="78701",
                            lead_type="Probate", credit_cost=120, roi=121.6, demo=True)
    section = rules.DigestSection(name="All", query="", count=2, leads=(demo, _lead(2)), unsubscribe_url="u")
    lines = rules.digest_text([section], 2, "https://a.test", "u")[1].splitlines()
    assert lines[:4] == ["2 new leads match your saved searches.", "",
                         "Demo install: the leads on this site are generated demo data, not public records.", ""]
    assert lines[5] == ("  - •••• •••• •••• Dr, Austin, TX 78701 · Probate · 120 credits to unlock · ROI 121.6%"
                        " · demo data")
    assert lines[6].endswith("ROI 18.4%")  # a real lead's line carries no mark
    real = rules.digest_text([rules.DigestSection(name="All", query="", count=1, leads=(_lead(1),),
                                                  unsubscribe_url="u")], 1, "https://a.test", "u")[1]
    assert "demo" not in real.lower()
