"""/explorerdev: the developer explorer, super admins only (SPEC 6).

``access_granted`` is set only by ``load`` after the server has checked the
session and the ``super_admins`` table; the page renders nothing of the
explorer until then. ``granted_for`` ties the grant to the user it was given
to, so signing out (or in as someone else) hides it at once.
"""

from __future__ import annotations

import asyncio
import logging

import reflex as rx

from marketplace import routes
from marketplace.db import session_scope
from marketplace.services import accounts, dashboard, lead_ops
from marketplace.services.images import fetch_property_images
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
    refresh_runs: list[dict[str, str]] = []
    operation_running: str = ""  # "", "refresh" or "images"

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
        self._load_runs()
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

    def _admin_id(self):
        """The signed-in super admin's id, re-checked on the server; None otherwise."""
        user_id = self._require_user_id()
        if user_id is None:
            return None
        with session_scope() as session:
            return user_id if accounts.is_super_admin(session, user_id) else None

    def _deny(self):
        self._revoke()
        if not self.user_id:
            return rx.redirect(routes.HOME, replace=True)
        return [rx.toast.error(ACCESS_DENIED), rx.redirect(routes.HOME, replace=True)]

    @rx.event
    def refresh_overview(self):
        """Re-check the grant on the server before reading anything."""
        if self._admin_id() is None:
            return self._deny()
        self._load_runs()
        return self._load_overview()

    def _load_runs(self) -> None:
        with session_scope() as session:
            runs = lead_ops.recent_refresh_runs(session, limit=5)
        self.refresh_runs = [
            {
                "key": run.run_key,
                "trigger": run.trigger,
                "status": run.status,
                "started": run.started_at.strftime("%Y-%m-%d %H:%M UTC"),
                "added": f"{run.leads_added:,}",
                "archived": f"{run.leads_archived:,}",
                "error": run.error or "",
            }
            for run in runs
        ]

    @rx.event(background=True)
    async def run_lead_refresh(self):
        """fetch-leads: pull a fresh batch of leads into the database now."""
        async with self:
            if self._admin_id() is None:
                return self._deny()
            if self.operation_running:
                return None
            self.operation_running = "refresh"
        try:
            result = await asyncio.to_thread(lead_ops.refresh_now)
        finally:
            async with self:
                self.operation_running = ""
        async with self:
            self._load_runs()
            self._load_overview()
        if result["status"] == "failed":
            return rx.toast.error("Refresh Failed", description=result.get("error") or "The lead source failed.")
        return rx.toast.success(
            "Leads Refreshed",
            description=f"{result['leads_added']:,} leads added, {result['leads_archived']:,} archived.",
        )

    @rx.event(background=True)
    async def fetch_images(self):
        """fetch-property-images: find pictures for leads still waiting for them."""
        async with self:
            if self._admin_id() is None:
                return self._deny()
            if self.operation_running:
                return None
            self.operation_running = "images"
        try:
            counts = await asyncio.to_thread(fetch_property_images)
        except Exception:  # noqa: BLE001
            log.exception("fetch-property-images failed")
            counts = None
        finally:
            async with self:
                self.operation_running = ""
        if counts is None:
            return rx.toast.error("Image Fetch Failed", description="Could not fetch property images.")
        return rx.toast.success(
            "Images Checked",
            description=f"{counts['checked']:,} leads checked: {counts['success']:,} with images, "
            f"{counts['no_images']:,} without, {counts['failed']:,} failed.",
        )
