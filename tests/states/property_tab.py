"""A stand-in tab of /property/{id} for state tests without a browser (as ``test_signed_in.py``'s ``Tab``).

``PageTab`` is ``PropertyState`` (its real methods and handlers, and the ``AuthState`` methods they call)
on a plain object; each section state (``desk_section``) is a ``SectionTab`` of its own, whose base vars
(``_lead_id``, ``loaded_for``, ``credits``...) are the page's, as a Reflex substate's are its parent's.
``get_state`` answers the page's sections and a stand-in bell. Counters: ``resolved`` (session
resolutions). Handlers run against the test database; the services are the real ones.
"""

from __future__ import annotations

import inspect
import uuid
from datetime import datetime, timezone
from types import SimpleNamespace

import marketplace.pages.property  # noqa: F401 - registers the sections
from marketplace.db import session_scope
from marketplace.models import UserLead
from marketplace.states.auth import AuthState
from marketplace.states.notifications import NotificationsState
from marketplace.states.property import SECTIONS, PropertyState
from tests import aio
from tests.factories import add_lead
from tests.states.stand_in import _defaults, _members

AUTH_METHODS = ("_error_text", "_error_toast", "_access_denied", "_zone", "_open_page", "_load_user",
                "_clear_user", "_reset_subscription", "_session_ended_toast")


class Bell:
    """The header's bell: counts how often a page open asked it."""

    def __init__(self):
        self.opened, self.cleared = [], 0

    async def _page_opened(self, user_id):
        self.opened.append(user_id)

    def _clear(self):
        self.cleared += 1


class PageTab:
    pass


for _name in AUTH_METHODS:
    setattr(PageTab, _name, getattr(AuthState, _name))
for _name, _value in _members(PropertyState).items():
    setattr(PageTab, _name, _value)


class SectionTab:
    """One section state: its own vars here, every other name the page's."""

    def __init__(self, page: "PageTab", state_cls: type):
        object.__setattr__(self, "_page", page)
        for name, value in _defaults(state_cls).items():
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        return getattr(self._page, name)

    def __setattr__(self, name, value):
        if name in self.__dict__ or name not in self._page.__dict__:
            object.__setattr__(self, name, value)
        else:
            setattr(self._page, name, value)


SECTION_TABS = {cls: type(f"{cls.__name__}Tab", (SectionTab,), _members(cls)) for cls in SECTIONS}


def open_tab(user: uuid.UUID | None, lead_id: str, credits: int = 0) -> "PageTab":
    """A fresh tab at /property/{lead_id} whose session resolves to ``user``."""
    page = PageTab()
    for cls in (AuthState, PropertyState):
        for name, value in _defaults(cls).items():
            setattr(page, name, value)
    page.time_zone, page.device_id, page.credits = "UTC", "d" * 32, credits
    page.user, page.resolved = user, 0
    page.router = SimpleNamespace(url=SimpleNamespace(path=f"/property/{lead_id}"),
                                  headers=SimpleNamespace(origin="http://localhost:3000", host="localhost:3000"),
                                  page=SimpleNamespace(host="http://localhost:3000"))
    page.bell = Bell()
    page.sections = {cls: SECTION_TABS[cls](page, cls) for cls in SECTIONS}

    async def resolve():
        page.resolved += 1
        return page.user

    async def get_state(cls):
        return page.bell if cls is NotificationsState else page.sections[cls]

    page._current_user_id = resolve
    page._device_id = lambda: page.device_id
    page.get_state = get_state
    return page


def section(page: "PageTab", cls: type):
    return page.sections[cls]


def run_events(handler_result) -> list:
    """What a handler answers: a coroutine's value or an async generator's events, as a list."""
    async def go():
        if inspect.isasyncgen(handler_result):
            return [event async for event in handler_result]
        value = await handler_result if inspect.isawaitable(handler_result) else handler_result
        return [] if value is None else [value]
    return aio.run(go())


def open_page(tab: "PageTab") -> list:
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
