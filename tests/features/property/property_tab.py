"""A real tab of /property/{id} for state tests without a browser (``tests/platform/tabs.py``).

``open_tab`` is Reflex's tree of states for a tab at /property/{lead_id} holding the user's real session;
``section`` is one of its section states (Reflex's ``get_state`` in that tree: a section's inherited vars,
``_lead_id``, ``loaded_for``, ``credits``..., are the page's, as Reflex gives them). ``bell_opens`` counts
the header bell's page opens (``NotificationsState._page_opened``, called through). Handlers run against the
test database; the services are the real ones.
"""

from __future__ import annotations

import inspect
import uuid
from datetime import datetime, timezone

import marketplace.features.property.page  # noqa: F401 - registers the sections
from marketplace.platform.db import session_scope
from marketplace.platform.models import UserLead
from marketplace.features.marketplace.state_notifications import NotificationsState
from marketplace.features.property.state import PropertyState
from tests import aio
from tests.factories import add_lead
from tests.platform import tabs


def open_tab(user: uuid.UUID | None, lead_id: str, credits: int = 0) -> PropertyState:
    """A fresh tab at /property/{lead_id} holding ``user``'s session (none for None)."""
    return tabs.open_tab(PropertyState, user, credits=credits, path=f"/property/{lead_id}")


def section(page: PropertyState, cls: type):
    """The page's section state ``cls`` (Reflex's own instance in the tab)."""
    return tabs.substate(page, cls)


def bell_opens(monkeypatch):
    """The header bell's page opens per tab: ``opened = bell_opens(monkeypatch)``, then ``opened(tab)``, the
    user ids it was opened for."""
    opened: dict[str, list] = {}
    real = NotificationsState._page_opened

    async def counted(self, user_id):
        opened.setdefault(self.router.session.client_token, []).append(user_id)
        return await real(self, user_id)

    monkeypatch.setattr(NotificationsState, "_page_opened", counted)
    return lambda tab: opened.get(tab.router.session.client_token, [])


def run_events(handler_result) -> list:
    """What a handler answers: a coroutine's value or an async generator's events, as a list."""
    async def go():
        if inspect.isasyncgen(handler_result):
            return [event async for event in handler_result]
        value = await handler_result if inspect.isawaitable(handler_result) else handler_result
        return [] if value is None else [value]
    return aio.run(go())


def open_page(tab: PropertyState) -> list:
    """The page's one on_load, run to its end; the events it sent."""
    return run_events(tab.load())


CREATED = datetime(2026, 11, 20, 15, 0, tzinfo=timezone.utc)


def demo_lead(**fields) -> uuid.UUID:
    """A generated lead: the built-in comps provider answers for it (no network)."""
    values = dict(address="4821 Juniper Hollow Ln", city="Austin", state="TX", zip_code="78704",
                  latitude=30.2431, longitude=-97.7702, square_footage=1_600, beds=3, baths=2.0,
                  raw_data={"generated": True}, created_at=CREATED)
    return add_lead(**{**values, **fields})


def unlock(user_id, lead_id) -> None:
    with session_scope() as session:
        session.add(UserLead(user_id=user_id, lead_id=lead_id, credit_cost=120, purchase_type="credits"))
