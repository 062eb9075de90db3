"""A lead card's fields are defined once (``rules_cards.CARD_FIELDS``): the service's ``LeadCard``, the columns it
reads and its row reader follow that definition, and the card's view names its fields once; the last recorded sale
shows on an unlocked card only."""

from __future__ import annotations

import dataclasses
import uuid
from datetime import date
from types import SimpleNamespace

from marketplace.features.marketplace import rules_cards, service
from marketplace.features.marketplace.rules_cards import CARD_FIELD_NAMES, CARD_FIELDS, card_data

SALE = "Last sale: $45,000 on Apr 7, 2017, Warranty deed"


def test_lead_card_fields_are_the_definition():
    assert [f.name for f in dataclasses.fields(service.LeadCard)] == [name for name, _kind, _default in CARD_FIELDS]
    defaults = {f.name: f.default for f in dataclasses.fields(service.LeadCard)}
    assert defaults == {name: default for name, _kind, default in CARD_FIELDS}
    assert service.LeadCard.__module__ == service.__name__


def test_columns_are_derived_from_the_fields():
    names = [column.name for column in service.CARD_COLUMNS]
    assert len(names) == len(set(names))  # each column read once
    # A field of the leads column of its own name reads that column; the others say which they read.
    own = [name for name in CARD_FIELD_NAMES if name not in service._CARD_READERS]
    assert set(own) <= set(names)
    read = {column.name for columns, _reader in service._CARD_READERS.values() for column in columns}
    assert set(names) == set(own) | read
    assert "unlocked" not in names and "signals" not in names  # the query's, not a column
    assert list(service._CARD_FIELD_READERS) == list(CARD_FIELD_NAMES)


def _row(raw_data: dict) -> SimpleNamespace:
    """A page row with every card column (a lead of the grid's shape)."""
    values = {column.name: None for column in service.CARD_COLUMNS}
    values.update(id=uuid.uuid4(), address="12 Main St", city="Austin", state="TX", zip_code="78701",
                  lead_type="Probate", confidence_score=0.8, credit_cost=10, is_new=False, is_high_roi=False,
                  image_urls=[], source="county", raw_data=raw_data, property_id=uuid.uuid4())
    return SimpleNamespace(**values)


def test_row_reader_fills_every_field():
    row = _row({})
    card = service._card(row, unlocked=True, signals=("Vacant",), today=date(2026, 11, 28))
    assert card.id == str(row.id)
    assert card.address == "12 Main St" and card.unlocked is True and card.signals == ("Vacant",)
    assert card.public_record is True and card.city == "Austin" and card.zip_code == "78701"
    assert card.last_sale == "" and card.listed_place == "" and card.listed_status is False
    assert card.open_since is None and card.unlock_count == 0 and card.image_status == "no_images"


def test_last_sale_shows_on_unlocked_cards_only():
    assert rules_cards.shown_last_sale(SALE, unlocked=True) == SALE
    assert rules_cards.shown_last_sale(SALE, unlocked=False) == ""
    assert rules_cards.shown_last_sale(None, unlocked=True) == ""
    raw = {"last_sale": {"text": "$45,000 on Apr 7, 2017, Warranty deed"}}
    unlocked = service._card(_row(raw), unlocked=True, today=date(2026, 11, 28))
    locked = service._card(_row(raw), unlocked=False, today=date(2026, 11, 28))
    assert unlocked.last_sale == SALE and card_data(unlocked)["last_sale"] == SALE
    assert locked.last_sale == "" and card_data(locked)["last_sale"] == ""
    # A card that says it is locked never shows a sale it carries (a sample, a stale card).
    assert card_data(dataclasses.replace(unlocked, unlocked=False))["last_sale"] == ""


def test_view_fields_are_named_once():
    from marketplace.features.marketplace.view_lead_card import _FIELD_TYPES

    card = service._card(_row({}), unlocked=False, today=date(2026, 11, 28))
    data = card_data(card)
    assert sorted(data) == sorted(rules_cards.CARD_DATA_FIELDS)
    view = rules_cards.with_action(data, signed_in=False, credits=0)
    assert [f.name for f in dataclasses.fields(view)] == list(rules_cards.CARD_VIEW_FIELDS) == list(_FIELD_TYPES)
    # The fields shown as the card has them are the card's own: the address masked, flags as they are.
    assert view.address == card.address != "12 Main St" and view.id == card.id and view.unlocked is False
    assert {name: getattr(view, name) for name in rules_cards.SHOWN_FLAGS + rules_cards.SHOWN_TEXTS} == {
        name: getattr(card, name) for name in rules_cards.SHOWN_FLAGS + rules_cards.SHOWN_TEXTS}
