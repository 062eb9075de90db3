"""Saved searches: the marketplace's "Save search" dialog (``SaveSearchState``) and
the dashboard's Saved Searches tab (``SavedSearchesState``).

The filters to save come from the browser (``MarketplaceState.shown_query`` as
an event argument): they are only a suggestion. The summary shown in the dialog
is parsed here with ``marketplace.rules.Filters.from_query`` and the service
re-parses the query before it stores anything. Every handler re-checks the
session and runs the service off the event loop; the tab keeps its one page of
rows (at most ``MAX_SAVED_SEARCHES``) as display values.
"""

from __future__ import annotations

import dataclasses
import logging
import uuid

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.limits import MAX_SAVED_SEARCHES, SAVED_SEARCH_NAME_MAX_LENGTH as NAME_MAX_LENGTH
from marketplace.features.marketplace.rules_saved_searches import query_summary
from marketplace.platform.times import format_date
from marketplace.platform.texts import (
    SAVED_SEARCH_DELETED,
    SAVED_SEARCH_RENAMED,
    SAVED_SEARCH_SAVE_FAILED,
    SAVED_SEARCH_SAVED,
    SAVED_SEARCH_UPDATE_FAILED,
    SUMMARY_ALL_LEADS,
    SUMMARY_SORTED_BY,
)
from marketplace.platform.offloop import run_blocking
from marketplace.features.marketplace import service_saved_searches as service
from marketplace.platform.ui.state_auth import AuthState, success_toast
from marketplace.platform.ui.state_signed_in import signed_in

log = logging.getLogger("marketplace.saved_searches")

SUMMARY_JOINER = " · "  # between the parts of marketplace.rules_saved_searches.summary
QUERY_MAX_LENGTH = 2000  # a marketplace query is far shorter; anything longer is junk


def _query_arg(value: object) -> str:
    return value if isinstance(value, str) and len(value) <= QUERY_MAX_LENGTH else ""


def _search_id(value: object) -> int | None:
    """A row id from an event: digits within range, else None (junk is ignored)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and value.isdigit() and len(value) <= 12:
        number = int(value)
    else:
        return None
    return number if 0 < number < 2**62 else None


def default_name(summary_text: str) -> str:
    """The dialog's suggested name: the summary without its 'sorted by' part (when it has
    filters), shortened to fit the name's limit."""
    parts = summary_text.split(SUMMARY_JOINER)
    sorted_by = SUMMARY_SORTED_BY.split("{", 1)[0]
    if len(parts) > 1 and parts[-1].startswith(sorted_by) and parts[0] != SUMMARY_ALL_LEADS:
        parts = parts[:-1]
    text = " ".join(SUMMARY_JOINER.join(parts).split())
    return text if len(text) <= NAME_MAX_LENGTH else text[: NAME_MAX_LENGTH - 1].rstrip(" ,;·") + "…"


@dataclasses.dataclass
class SavedSearchRow:
    """One saved search as the tab shows it: display strings and flags."""

    id: str = ""
    name: str = ""
    summary: str = ""
    matches: str = ""  # '1,234 matches now'
    new_label: str = ""  # '3 new' ('' when none)
    created: str = ""  # 'Saved Mar 4, 2026'
    alerts: bool = False
    email: bool = False


def search_row(view: service.SavedSearchView, zone_name: str) -> SavedSearchRow:
    return SavedSearchRow(
        id=str(view.id),
        name=view.name,
        summary=view.summary,
        matches=f"{view.matches_now:,} match{'' if view.matches_now == 1 else 'es'} now",
        new_label=f"{view.new_since_opened:,} new" if view.new_since_opened > 0 else "",
        created=f"Saved {format_date(view.created_at, zone_name)}",
        alerts=view.alerts_enabled,
        email=view.email_enabled,
    )


# --------------------------------------------------------------------------- the marketplace's dialog


def _to_sign_in(state):
    return rx.redirect(routes.AUTH)


def _close_save(state: "SaveSearchState"):
    state.save_open = False
    return rx.redirect(routes.AUTH)


def _forget_rows(state: "SavedSearchesState"):
    """Signed out: the tab's rows and dialogs are forgotten; to /auth."""
    state._forget()
    return rx.redirect(routes.AUTH, replace=True)


def _reload_rows(state: "SavedSearchesState"):
    """After a failed change: the rows as the server has them."""
    return SavedSearchesState.load


def _close_delete(state: "SavedSearchesState"):
    state.delete_open = False
    return SavedSearchesState.load


class SaveSearchState(AuthState):
    """"Save search" on /marketplace: a name (prefilled from the filters' summary), then Save."""

    save_open: bool = False
    save_name: str = ""
    save_summary: str = ""  # what will be saved, in words
    saving: bool = False
    _save_query: str = ""  # the query the dialog was opened with (re-parsed by the service)

    @rx.event
    @signed_in(SAVED_SEARCH_SAVE_FAILED, signed_out=_to_sign_in)
    async def open_save(self, user_id: uuid.UUID, query: str):
        """The Save search button, with the filters the grid shows."""
        if self.saving:
            return None
        self._save_query = _query_arg(query)
        self.save_summary = query_summary(self._save_query)
        self.save_name = default_name(self.save_summary)
        self.save_open = True
        return None

    @rx.event
    def set_save_open(self, is_open: bool):
        """Escape, the overlay or Cancel close it; it never closes mid-save (and opens only via open_save)."""
        if is_open is False and not self.saving:
            self.save_open = False

    @rx.event
    def set_save_name(self, value: str):
        self.save_name = value[:NAME_MAX_LENGTH] if isinstance(value, str) else ""

    @rx.var
    def save_disabled(self) -> bool:
        return self.saving or not self.save_name.strip()

    @rx.event
    @signed_in(SAVED_SEARCH_SAVE_FAILED, signed_out=_close_save, busy="saving")
    async def save(self, user_id: uuid.UUID, form_data: dict | None = None):
        """Save: 'Saving...', then close with a toast; a refusal (limit, name taken) keeps it open."""
        if not self.save_open:
            return
        if isinstance(form_data, dict) and isinstance(form_data.get("name"), str):
            self.save_name = form_data["name"][:NAME_MAX_LENGTH]  # the form's own value (inputs are debounced)
        yield
        view = await run_blocking(service.create_saved_search, user_id, self.save_name, self._save_query)
        self.saving = False
        self.save_open = False
        yield success_toast(SAVED_SEARCH_SAVED[0], SAVED_SEARCH_SAVED[1].format(name=view.name))


# --------------------------------------------------------------------------- the dashboard's tab


class SavedSearchesState(AuthState):
    """The dashboard tab: the user's saved searches, loaded when the tab opens."""

    searches: list[SavedSearchRow] = []
    loaded_for: str = ""  # the user these rows belong to
    load_failed: bool = False
    busy_id: str = ""  # the row whose switch or Open is in flight

    rename_open: bool = False
    rename_id: str = ""
    rename_name: str = ""
    renaming: bool = False

    delete_open: bool = False
    delete_id: str = ""
    delete_name: str = ""
    deleting: bool = False

    @rx.var
    def count_label(self) -> str:
        return f"{len(self.searches)} of {MAX_SAVED_SEARCHES}"

    @rx.var
    def at_limit(self) -> bool:
        return len(self.searches) >= MAX_SAVED_SEARCHES

    def _forget(self) -> None:
        self.searches = []
        self.loaded_for = ""
        self.busy_id = ""
        self.rename_open = self.delete_open = False
        self.rename_id = self.rename_name = self.delete_id = self.delete_name = ""

    def _replace(self, view: service.SavedSearchView) -> None:
        row = search_row(view, self._zone())
        self.searches = [row if r.id == row.id else r for r in self.searches]

    def _name_of(self, search_id: str) -> str | None:
        return next((r.name for r in self.searches if r.id == search_id), None)

    @rx.event
    async def on_page_load(self):
        """/dashboard load: nothing from a previous visit or user stays; the tab loads when shown."""
        self._forget()
        self.load_failed = False
        from marketplace.features.dashboard import DashboardState  # the page's state, not imported at module load

        dashboard = await self.get_state(DashboardState)
        if dashboard.tab == routes.SAVED_SEARCHES_TAB:
            return SavedSearchesState.load
        return None

    @rx.event
    async def load(self):
        user_id = await self._current_user_id()
        if user_id is None:
            self._forget()
            yield rx.redirect(routes.AUTH, replace=True)
            return
        self.load_failed = False
        try:
            views = await run_blocking(service.list_saved_searches, user_id)
        except Exception:  # noqa: BLE001 - shown as a load failure with Try again
            log.exception("saved searches load failed for %s", user_id)
            self._forget()
            self.load_failed = True
            return
        zone = self._zone()
        self.searches = [search_row(view, zone) for view in views[:MAX_SAVED_SEARCHES]]
        self.loaded_for = str(user_id)

    # ---------------------------------------------------------------- open, switches

    @rx.event
    @signed_in(SAVED_SEARCH_UPDATE_FAILED, signed_out=_forget_rows, after_error=_reload_rows)
    async def open_search(self, user_id: uuid.UUID, search_id: str):
        """Open: marks it opened (its 'new' count restarts) and shows its filters on the marketplace."""
        number = _search_id(search_id)
        if number is None or self.busy_id or self._name_of(str(number)) is None:
            return
        if self.loaded_for != str(user_id):  # another user's rows on screen: start over
            yield SavedSearchesState.load
            return
        self.busy_id = str(number)
        yield
        try:
            url = await run_blocking(service.open_saved_search, user_id, number)
        finally:
            self.busy_id = ""
        yield rx.redirect(url)

    async def _switch(self, user_id: uuid.UUID, search_id: str, enabled: bool, fn):
        number = _search_id(search_id)
        if number is None or not isinstance(enabled, bool) or self.busy_id or self._name_of(str(number)) is None:
            return
        if self.loaded_for != str(user_id):
            yield SavedSearchesState.load
            return
        self.busy_id = str(number)
        yield
        try:
            self._replace(await run_blocking(fn, user_id, number, enabled))
        finally:
            self.busy_id = ""

    @rx.event
    @signed_in(SAVED_SEARCH_UPDATE_FAILED, signed_out=_forget_rows, after_error=_reload_rows)
    async def set_alerts(self, user_id: uuid.UUID, search_id: str, enabled: bool):
        async for update in self._switch(user_id, search_id, enabled, service.set_alerts):
            yield update

    @rx.event
    @signed_in(SAVED_SEARCH_UPDATE_FAILED, signed_out=_forget_rows, after_error=_reload_rows)
    async def set_email(self, user_id: uuid.UUID, search_id: str, enabled: bool):
        async for update in self._switch(user_id, search_id, enabled, service.set_email):
            yield update

    # ---------------------------------------------------------------- rename

    @rx.event
    def open_rename(self, search_id: str):
        name = self._name_of(search_id) if isinstance(search_id, str) else None
        if name is None or self.renaming:
            return
        self.rename_id = search_id
        self.rename_name = name
        self.rename_open = True

    @rx.event
    def set_rename_open(self, is_open: bool):
        if is_open is False and not self.renaming:
            self.rename_open = False

    @rx.event
    def set_rename_name(self, value: str):
        self.rename_name = value[:NAME_MAX_LENGTH] if isinstance(value, str) else ""

    @rx.var
    def rename_disabled(self) -> bool:
        return self.renaming or not self.rename_name.strip()

    @rx.event
    @signed_in(SAVED_SEARCH_UPDATE_FAILED, signed_out=_forget_rows, busy="renaming")
    async def rename(self, user_id: uuid.UUID, form_data: dict | None = None):
        """Rename: a refusal (name taken or empty) is the toast and the dialog stays open."""
        number = _search_id(self.rename_id)
        if not self.rename_open or number is None:
            return
        if self.loaded_for != str(user_id):  # another user's rows on screen: start over
            self.rename_open = False
            yield SavedSearchesState.load
            return
        if isinstance(form_data, dict) and isinstance(form_data.get("name"), str):
            self.rename_name = form_data["name"][:NAME_MAX_LENGTH]
        yield
        view = await run_blocking(service.rename_saved_search, user_id, number, self.rename_name)
        self._replace(view)
        self.renaming = False
        self.rename_open = False
        yield success_toast(SAVED_SEARCH_RENAMED[0], SAVED_SEARCH_RENAMED[1].format(name=view.name))

    # ---------------------------------------------------------------- delete

    @rx.event
    def open_delete(self, search_id: str):
        name = self._name_of(search_id) if isinstance(search_id, str) else None
        if name is None or self.deleting:
            return
        self.delete_id = search_id
        self.delete_name = name
        self.delete_open = True

    @rx.event
    def set_delete_open(self, is_open: bool):
        if is_open is False and not self.deleting:
            self.delete_open = False

    @rx.event
    @signed_in(SAVED_SEARCH_UPDATE_FAILED, signed_out=_forget_rows, busy="deleting", after_error=_close_delete)
    async def delete(self, user_id: uuid.UUID):
        number = _search_id(self.delete_id)
        if not self.delete_open or number is None:
            return
        if self.loaded_for != str(user_id):
            self.delete_open = False
            yield SavedSearchesState.load
            return
        yield
        await run_blocking(service.delete_saved_search, user_id, number)
        name = self.delete_name
        self.searches = [r for r in self.searches if r.id != str(number)]
        self.deleting = False
        self.delete_open = False
        yield success_toast(SAVED_SEARCH_DELETED[0], SAVED_SEARCH_DELETED[1].format(name=name))
