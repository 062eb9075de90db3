"""The Settings tab's signed-in devices: the current session, then the others behind "N more"; the state
holds only the rows it shows (a user with 19 sessions once got all 19 listed, and held, at once)."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone

from marketplace.features.accounts.rules_settings import shown_sessions
from marketplace.features.accounts.service_settings import SessionInfo
from marketplace.features.accounts.state_settings import SettingsState

START = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)


def sessions(count: int, current: int | None) -> list[SessionInfo]:
    """``count`` sessions, most recently used first (the service's order); ``current`` is this browser's."""
    return [SessionInfo(uuid.UUID(int=n + 1), f"Device {n}", "203.0.113.9", START, START - timedelta(hours=n),
                        n == current) for n in range(count)]


class Tab:
    """The parts of the SettingsState that list the sessions, on a plain object."""

    _show_sessions = SettingsState._show_sessions

    def __init__(self, expanded: bool):
        self.sessions_expanded, self.sessions, self.sessions_total, self.sessions_hidden = expanded, [], 0, 0

    def _zone(self) -> str:
        return "UTC"


def test_the_current_session_first_the_others_counted():
    rows = sessions(19, current=7)
    shown, hidden = shown_sessions(rows, expanded=False)
    assert ([s.device for s in shown], hidden) == (["Device 7"], 18)
    shown, hidden = shown_sessions(rows, expanded=True)
    assert [s.device for s in shown] == ["Device 7", *[f"Device {n}" for n in range(19) if n != 7]]
    assert hidden == 0
    # None of them this browser's: the most recent alone; one session: nothing behind "more".
    assert [s.device for s in shown_sessions(sessions(3, None), False)[0]] == ["Device 0"]
    assert shown_sessions(sessions(1, 0), False)[1] == 0 and shown_sessions([], False) == ([], 0)


def test_the_state_holds_only_the_rows_it_shows():
    tab = Tab(expanded=False)
    tab._show_sessions(sessions(19, current=3))
    assert [r["device"] for r in tab.sessions] == ["Device 3"] and tab.sessions[0]["current"] == "yes"
    assert (tab.sessions_total, tab.sessions_hidden) == (19, 18)
    tab.sessions_expanded = True
    tab._show_sessions(sessions(19, current=3))
    assert len(tab.sessions) == 19 and tab.sessions[0]["device"] == "Device 3"
    assert (tab.sessions_total, tab.sessions_hidden) == (19, 0)
