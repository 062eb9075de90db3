"""The owner flags of public-record leads where users meet them: the marketplace's tags (a flag's filter never
matches an unknown owner), the cards' chips, saved-search facets, and the webhook's includeBankOwned drawing
bank-owned (REO) leads from the public-record inventory."""

from __future__ import annotations

from datetime import date

import sqlalchemy as sa

from marketplace.features.marketplace import rules_cards as lead_cards
from marketplace.features.marketplace import rules
from marketplace.features.marketplace import rules_saved_searches as saved_searches
from marketplace.features.scrape import rules_webhook as webhook
from marketplace.platform.db import get_engine
from marketplace.platform.models import Lead
from marketplace.features.records import service_imports as record_imports
from marketplace.features.marketplace.service import query_page
from marketplace.features.records.service_inventory import PublicRecordInventory
from tests.features.records.test_owner_flags_samples import BALTIMORE, BALTIMORE_DAY


def _leads(url: str) -> list:
    with get_engine(url).connect() as conn:
        return conn.execute(sa.select(Lead.__table__).where(Lead.__table__.c.is_active == sa.true())).all()


class _All:
    def __init__(self, cards, total):
        self.cards, self.total = cards, total


def _page(url: str, *tags: str) -> _All:
    """Every page of the marketplace with these tags."""
    cards, number = [], 1
    while True:
        page = query_page(rules.Filters(tags=tags, page_size=100, page=number), None, database_url=url)
        cards.extend(page.cards)
        if number >= page.pages:
            return _All(cards, page.total)
        number += 1


def test_flag_filters_never_match_an_unknown_owner_and_cards_say_unknown(db_url):
    record_imports.import_file("bal-tax-sale-bidbaltimore", BALTIMORE, today=BALTIMORE_DAY,
                               database_url=db_url)
    leads = _leads(db_url)
    absentee = {str(lead.id) for lead in leads if lead.absentee_owner is True}
    unknown = {str(lead.id) for lead in leads if lead.absentee_owner is None}
    out_of_state = {str(lead.id) for lead in leads if lead.out_of_state_owner is True}
    assert absentee and unknown and out_of_state
    page = _page(db_url, "absentee")
    assert {card.id for card in page.cards} == absentee and page.total == len(absentee)
    assert {card.id for card in _page(db_url, "out_of_state").cards} == out_of_state
    everyone = _page(db_url).cards
    chips = {card.id: lead_cards.card_data(card)["owner_flags"] for card in everyone}
    for lead_id in unknown:
        assert chips[lead_id] == "Owner mailing address unknown"
    for lead_id in absentee:
        assert "Absentee owner" in chips[lead_id] and "unknown" not in chips[lead_id]
    # Saved-search alerts: an unknown owner offers no owner tag.
    facets = saved_searches.lead_facets("Auction", None, None, False, False, 1, None, None, bank_owned=None)
    assert not {("tag", "absentee"), ("tag", "out_of_state"), ("tag", "bank_owned")} & facets
    assert ("tag", "bank_owned") in saved_searches.lead_facets("Auction", None, None, False, False, 1, True, True,
                                                               bank_owned=True)


def test_bank_owned_tag_and_the_webhooks_include_bank_owned(db_url):
    record_imports.import_file("bal-tax-sale-bidbaltimore", BALTIMORE, today=BALTIMORE_DAY,
                               database_url=db_url)
    leads = _leads(db_url)
    bank = {str(lead.id) for lead in leads if lead.bank_owned is True}
    assert len(bank) == 2  # LIENLOGIC REO F1, LLC's two houses
    page = _page(db_url, "bank_owned")
    assert {card.id for card in page.cards} == bank
    assert all("Bank-owned (REO)" in lead_cards.card_data(card)["owner_flags"] for card in page.cards)
    # The webhook body: includeBankOwned alone draws only bank-owned leads, never Make Me Move ones.
    request = webhook.validate_body({"leadCount": 25, "location": "MD", "includeBankOwned": True}).to_request()
    found = PublicRecordInventory().search(request.criteria())
    assert {str(row["id"]) for row in found} == bank
    # With another flag: that flag's lead types or bank-owned leads.
    request = webhook.validate_body({"leadCount": 250, "location": "MD", "includeBankOwned": True,
                                          "includeDistressed": True}).to_request()
    types = {row["lead_type"] for row in PublicRecordInventory().search(request.criteria())}
    assert "Make Me Move" not in types
    auction_only = webhook.validate_body({"leadCount": 250, "location": "MD", "includePreForeclosure": True}).to_request()
    assert PublicRecordInventory().search(auction_only.criteria()) == []


def test_a_webhook_scrape_with_include_bank_owned_buys_only_bank_owned_leads(db_url, monkeypatch, new_user):
    from marketplace.features.scrape import service as scrapes

    record_imports.import_file("bal-tax-sale-bidbaltimore", BALTIMORE, today=BALTIMORE_DAY,
                               database_url=db_url)
    monkeypatch.setenv("OPEN_DATA_DATASETS", "bal-tax-sale-bidbaltimore")
    bank = {str(lead.id) for lead in _leads(db_url) if lead.bank_owned is True}
    user = new_user(credits=10_000)
    request = webhook.validate_body({"leadCount": 5, "location": "Baltimore, MD", "includeBankOwned": True}).to_request()
    result = scrapes.run_scrape(user.id, request)
    assert {row["id"] for row in result.leads} == bank and result.leads_generated == 2
    assert all(row["lead_type"] != "Make Me Move" for row in result.leads)
