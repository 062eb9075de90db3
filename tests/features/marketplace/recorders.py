"""The marketplace's services answered by recorders, for its state tests without a database (the
states themselves are real: ``tests/platform/tabs.py``); and ``market``, a real tab of /marketplace."""

from __future__ import annotations

import uuid

from marketplace.features.marketplace.service import LeadCard, MarketplacePage
from marketplace.features.marketplace.state import MarketplaceState
from tests.platform.tabs import open_tab


def lead_card(lead_id: str | None = None, unlocked: bool = False, images: tuple[str, ...] = ()) -> LeadCard:
    return LeadCard(id=lead_id or str(uuid.uuid4()), address="•••• Main St", unlocked=unlocked, city="Austin",
                    state="TX", zip_code="78701", lead_type="Probate", asking_price=200_000, zestimate=None,
                    arv=None, rehab_estimate=None, roi=12.0, beds=3, baths=2.0, square_footage=1500,
                    confidence=80, credit_cost=10, is_new=False, is_high_roi=False, images=list(images))


def value(arg):
    """``arg`` itself, not Reflex's proxy of it (a state's dataclass var is read through one)."""
    return getattr(arg, "__wrapped__", arg)


class Calls:
    """A service stand-in: records each call's arguments (the values, not proxies), answers ``answer(*args)``."""

    def __init__(self, answer):
        self.answer, self.calls = answer, []

    def __call__(self, *args):
        self.calls.append(tuple(value(arg) for arg in args))
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer(*args)


def page_of(cards: list[LeadCard], total: int | None = None, pages: int = 1):
    """A ``query_page`` stand-in answering these cards for whatever filters it is given."""
    return lambda filters, _user: MarketplacePage(cards=cards, total=len(cards) if total is None else total,
                                                  page=min(filters.page, pages), pages=pages, filters=filters)


def market(user: uuid.UUID | None = None, credits: int = 0, query: str = "") -> MarketplaceState:
    """A real tab of /marketplace?``query`` (its map and location substates in its tree)."""
    return open_tab(MarketplaceState, user, credits=credits, path="/marketplace", query=query)
