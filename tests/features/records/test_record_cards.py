"""Public-record leads in the marketplace grid and on the property page (issue 23, the UI's reads):
chips for a page of cards in one query, the owner flags and motivation score before the unlock (never
the owner), the 'Motivation (high to low)' sort, and the page's 'Public record' section after it."""

from __future__ import annotations

import sqlalchemy as sa

from marketplace.features.marketplace import rules_cards as lead_cards
from marketplace.features.marketplace import rules
from marketplace.features.property.rules import record_section
from marketplace.platform.db import get_engine
from marketplace.platform.models import Lead
from marketplace.features.records import service_views as record_views
from marketplace.features.unlock import service as unlocks
from marketplace.features.marketplace.service_map import map_card
from marketplace.features.marketplace.service import query_page
from tests.factories import add_lead, make_user
from tests.features.records.test_public_records import OWNER, SHERIFF, TAX, TITLES, ingest, rows, sheriff, tax

STREETS = ["1309 FRANKFORD AVE", "20 N 2ND ST", "400 MARKET ST", "77 PINE ST", "8 ELM ST", "19 OAK ST",
           "5 CEDAR AVE", "61 BIRCH RD", "90 ASH ST", "12 SPRUCE ST"]


def _import(count: int) -> None:
    ingest(TAX, [tax()] + [tax(str(100200300 + n), address=street, zip_code="19125")
                           for n, street in enumerate(STREETS[:count - 1])])
    ingest(SHERIFF, [sheriff()])  # the first property: tax delinquent and on the sheriff's list


def _statements(db_url, filters, user_id=None) -> tuple[list[str], object]:
    seen: list[str] = []
    engine = get_engine(db_url)

    def record(conn, cursor, statement, *args):
        seen.append(statement)

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        page = query_page(filters, user_id, database_url=db_url)
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)
    return seen, page


def test_a_page_of_cards_reads_its_chips_in_one_query(db_url):
    _import(10)
    add_lead(db_url)  # a demo lead on the same page: no chips
    small, page_small = _statements(db_url, rules.Filters(page_size=2, sort="motivation_desc"))
    big, page_big = _statements(db_url, rules.Filters(page_size=12, sort="motivation_desc"))
    assert len(page_small.cards) == 2 and len(page_big.cards) == 11
    # The same statements for 2 or 11 cards: chips come in one query for the whole page.
    assert len(big) == len(small) - 1  # the small page also prefetches the next page's pictures
    assert sum("property_signals" in s for s in big) == 1
    both = page_big.cards[0]  # the strongest motivation: two signals
    assert both.signals == ("Sheriff sale", "Tax delinquent")
    assert (both.absentee_owner, both.out_of_state_owner) == (True, True)
    assert [c.motivation_score for c in page_big.cards][:10] == sorted(
        (c.motivation_score for c in page_big.cards[:10]), reverse=True)
    demo = next(c for c in page_big.cards if c.motivation_score is None)
    assert (demo.signals, demo.absentee_owner) == ((), None)  # a generated lead has no owner on record
    # Locked: the owner and the record never reach a card.
    assert OWNER not in repr(page_big) and "OCEAN" not in repr(page_big) and "522145900" not in repr(page_big)
    assert both.address == rules.mask_address("5818 Woodcrest Avenue")


def test_a_public_record_card_shows_chips_flags_score_and_its_roi_basis(db_url):
    _import(1)
    (card,) = query_page(rules.Filters(), None, database_url=db_url).cards
    view = lead_cards.with_action(lead_cards.card_data(card), signed_in=False, credits=0)
    assert view.signals == "Sheriff sale|Tax delinquent"
    assert view.owner_flags == "Absentee owner|Out-of-state owner"
    lead = rows(db_url, Lead)[0]
    assert view.motivation == f"Motivation {lead.motivation_score}/100"
    assert view.asking == "N/A"
    assert view.provenance == "Public record: Philadelphia Sheriff's Office, Sheriff Sales (Bid4Assets)"
    assert map_card(card.id, database_url=db_url) == card  # a marker's card is the grid's, chips included


def test_the_property_page_section_after_the_unlock(db_url):
    _import(2)
    ingest(TAX, [tax()])  # the second property paid: its tax signal closes (no lead: archived)
    lead = next(r for r in rows(db_url, Lead) if r.address == "5818 WOODCREST AVENUE")
    user = make_user(db_url, credits=500)
    unlocks.unlock_lead(user.id, lead.id, database_url=db_url)
    panel = record_views.public_record_panel(lead.id, user.id, titles=TITLES, database_url=db_url)
    section = record_section(panel)
    assert section.shown and section.owner == {"name": OWNER, "mailing": "12 Ocean Dr, Miami, FL 33139"}
    assert section.flags == ["Absentee owner", "Out-of-state owner"]
    assert [(s["label"], s["record"], s["as_of"], s["url"]) for s in section.signals] == [
        ("Sheriff sale", "1275357", "Nov 1, 2026", "https://www.bid4assets.com/auction/index/1275357"),
        ("Tax delinquent", "522145900", "Oct 1, 2026", "")]
    assert section.signals[1]["source"] == "Public record: City of Philadelphia, Real Estate Tax Delinquencies"
    assert section.signals[0]["retrieved"] == "Nov 25, 2026, 12:00 PM UTC"
    # The page's source line and its signal rows show the one retrieval instant the same way, in the
    # viewer's zone (the line once read 'retrieved 2026-11-25', the UTC day, beside '7:00 AM EST').
    eastern = record_section(panel, "America/New_York")
    assert eastern.source_line.endswith(", retrieved Nov 25, 2026, 7:00 AM EST")
    assert eastern.source_line.rsplit(", retrieved ", 1)[1] in [s["retrieved"] for s in eastern.signals]
    assert section.motivation == f"{lead.motivation_score}/100" and section.reasons == lead.raw_data[
        "motivation_reasons"]
    basis = lead.raw_data["basis"]
    assert (section.hints["market_value_basis"], section.hints["arv_basis"], section.hints["rehab_basis"],
            section.hints["roi_basis"]) == (basis["market_value"], basis["arv"], basis["rehab"], basis["roi"])
    assert section.hints["asking_basis"] == "Public records carry no asking price"
    assert section.confidence_reasons == basis["confidence"]
    assert {"label": "Parcel ID", "value": "522145900"} in section.facts
    assert section.source_line.endswith(", record 1275357, retrieved Nov 25, 2026, 12:00 PM UTC")


def test_the_public_record_tags_filter_and_count_over_the_leads(db_url):
    _import(3)
    add_lead(db_url)
    page = lambda *tags: query_page(rules.Filters(tags=tags), None, database_url=db_url)  # noqa: E731
    two = page("two_signals")
    assert (two.total, [c.address for c in two.cards]) == (1, [rules.mask_address("5818 Woodcrest Avenue")])
    assert page("absentee").total == page("out_of_state").total == 3  # every sample owner lives in Miami, FL
    assert rules.Filters.from_query("tag=two_signals&tag=absentee&sort=motivation_desc") == rules.Filters(
        tags=("two_signals", "absentee"), sort="motivation_desc")
