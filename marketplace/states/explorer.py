"""/explorerdev: the developer explorer, super admins only (SPEC 6).

``access_granted`` is set only by ``load`` after the server has checked the
session and the ``super_admins`` table; the page renders nothing of the
explorer until then. ``granted_for`` ties the grant to the user it was given
to, so signing out (or in as someone else) hides it at once.
"""

from __future__ import annotations

import logging

import reflex as rx

from marketplace import routes
from marketplace.db import session_scope
from marketplace.services import accounts, dashboard
from marketplace.states.auth import AuthState

log = logging.getLogger("marketplace.explorer")

ACCESS_DENIED = "Access Denied: You don't have super admin privileges"
LOAD_FAILED = ("Load Failed", "Could not load the platform overview.")


class ExplorerState(AuthState):
    access_granted: bool = False
    granted_for: str = ""

    # Display strings ("1,500"), computed on the server.
    total_users: str = "0"
    total_leads: str = "0"
    active_leads: str = "0"
    total_unlocks: str = "0"
    overview_loaded: bool = False

    def _revoke(self) -> None:
        self.access_granted = False
        self.granted_for = ""
        self.overview_loaded = False

    @rx.event
    def load(self):
        self._revoke()
        user_id = self._require_user_id()
        if user_id is None:
            return rx.redirect(routes.HOME, replace=True)
        with session_scope() as session:
            allowed = accounts.is_super_admin(session, user_id)
        if not allowed:
            return [rx.toast.error(ACCESS_DENIED), rx.redirect(routes.HOME, replace=True)]
        self.access_granted = True
        self.granted_for = str(user_id)
        return self._load_overview()

    def _load_overview(self):
        try:
            with session_scope() as session:
                overview = dashboard.platform_overview(session)
        except Exception:  # noqa: BLE001
            log.exception("explorer overview failed")
            return rx.toast.error(LOAD_FAILED[0], description=LOAD_FAILED[1])
        self.total_users = f"{overview.users:,}"
        self.total_leads = f"{overview.leads:,}"
        self.active_leads = f"{overview.active_leads:,}"
        self.total_unlocks = f"{overview.unlocks:,}"
        self.overview_loaded = True
        return None

    @rx.event
    def refresh_overview(self):
        """Re-check the grant on the server before reading anything."""
        user_id = self._require_user_id()
        if user_id is None:
            self._revoke()
            return rx.redirect(routes.HOME, replace=True)
        with session_scope() as session:
            allowed = accounts.is_super_admin(session, user_id)
        if not allowed:
            self._revoke()
            return [rx.toast.error(ACCESS_DENIED), rx.redirect(routes.HOME, replace=True)]
        return self._load_overview()
