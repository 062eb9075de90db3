"""/explorerdev: the developer explorer, super admins only (SPEC 6).

``access_granted`` is set only by ``load`` after the server has checked the
session and the ``super_admins`` table; the page renders nothing of the
explorer until then. ``granted_for`` ties the grant to the user it was given
to, so signing out (or in as someone else) hides it at once.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timezone

import reflex as rx

from marketplace.platform import admins
from marketplace.features.marketplace import PACIFIC, next_refresh
from marketplace.platform.times import format_datetime
from marketplace.features.records import jobs_lead_ops as lead_ops
from marketplace.features.records import scheduler_enabled
from marketplace.features.explorer.texts import (
    IMAGES_CHECKED,
    IMAGE_FETCH_FAILED,
    LEADS_REFRESHED,
    OVERVIEW_LOAD_FAILED,
    REFRESH_FAILED,
    SCHEDULER_OFF,
)
from marketplace.platform.offloop import run_blocking
from marketplace.features.explorer import service as admin
from marketplace.features.marketplace import fetch_property_images
from marketplace.platform.ui.state_auth import AuthState, error_toast
from marketplace.platform.ui.state_signed_in import signed_in

log = logging.getLogger("marketplace.explorer")


def next_run_label(now: datetime, enabled: bool, zone_name: str = PACIFIC.key) -> tuple[str, str]:
    """(when, relative) of the scheduler's next run (8:00 AM Pacific) in ``zone_name``, the
    browser's: ('Jun 4, 2025, 8:00 AM PDT', 'in 3h 12m'), or ('Scheduler off', '') when
    LEAD_REFRESH_SCHEDULER disables it."""
    if not enabled:
        return SCHEDULER_OFF, ""
    target = next_refresh(now)
    hours, minutes = divmod(max(0, int((target - now).total_seconds())) // 60, 60)
    return format_datetime(target, zone_name), f"in {hours}h {minutes}m"


# The event that reads each section of the page again ("leads", "webhook"), put
# here by the section's own substate module when it loads: this base state never
# imports its subclasses.
SECTION_RELOADS: dict[str, rx.EventHandler] = {}


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
    next_run: str = ""
    next_run_in: str = ""

    def _revoke(self) -> None:
        self.access_granted = False
        self.granted_for = ""
        self.overview_loaded = False

    def _access_denied(self, signed_in: bool):
        """Anyone but a super admin (``signed_in(super_admin=True)``): the grant is gone too."""
        self._revoke()
        return super()._access_denied(signed_in)

    @rx.event
    @signed_in(OVERVIEW_LOAD_FAILED, super_admin=True)
    async def load(self, user_id: uuid.UUID):
        self.access_granted = True
        self.granted_for = str(user_id)
        return await self._load_overview()

    async def _load_overview(self):
        """The headline counts and the recent refresh runs; the toast when they fail."""
        try:
            overview = await run_blocking(admin.overview)
            runs = await run_blocking(admin.recent_refresh_runs, 5)
        except Exception as exc:  # noqa: BLE001 - also run inside the background tasks below, which
            # signed_in does not wrap; the page keeps its other sections
            return self._error_toast(exc, OVERVIEW_LOAD_FAILED, "explorer overview")
        self.total_users = f"{overview.users:,}"
        self.total_leads = f"{overview.leads:,}"
        self.active_leads = f"{overview.active_leads:,}"
        self.total_unlocks = f"{overview.unlocks:,}"
        zone = self._zone()
        self.refresh_runs = [
            {
                "key": run.run_key,
                "trigger": run.trigger,
                "status": run.status,
                "started": format_datetime(run.started_at, zone),
                "added": f"{run.leads_added:,}",
                "archived": f"{run.leads_archived:,}",
                "error": run.error or "",
            }
            for run in runs
        ]
        self.next_run, self.next_run_in = next_run_label(datetime.now(timezone.utc), scheduler_enabled(), zone)
        self.overview_loaded = True
        return None

    async def _admin_id(self):
        """The signed-in super admin's id, re-checked on the server; None otherwise."""
        user_id = await self._current_user_id()
        if user_id is None:
            return None
        return user_id if await run_blocking(admins.is_super_admin, user_id) else None

    def _deny(self):
        """The background tasks' refusal (they check with ``_admin_id`` inside ``async with self``)."""
        return self._access_denied(signed_in=bool(self.user_id))

    @rx.event
    @signed_in(OVERVIEW_LOAD_FAILED, super_admin=True)
    async def refresh_overview(self, user_id: uuid.UUID):
        """Reload: the overview, the leads table and the webhook log (the grant re-checked first)."""
        problem = await self._load_overview()
        if problem is not None:
            return problem
        return list(SECTION_RELOADS.values())

    @rx.event(background=True)
    async def run_lead_refresh(self):
        """fetch-leads: pull a fresh batch of leads into the database now."""
        async with self:
            if await self._admin_id() is None:
                return self._deny()
            if self.operation_running:
                return None
            self.operation_running = "refresh"
        try:
            result = await run_blocking(lead_ops.refresh_now)
        finally:
            async with self:
                self.operation_running = ""
        async with self:
            await self._load_overview()
        if result["status"] == "failed":
            return error_toast(REFRESH_FAILED[0], result.get("error") or REFRESH_FAILED[1])
        added = LEADS_REFRESHED[1].format(added=f"{result['leads_added']:,}", archived=f"{result['leads_archived']:,}")
        return [rx.toast.success(LEADS_REFRESHED[0], description=added), SECTION_RELOADS["leads"]]

    @rx.event(background=True)
    async def fetch_images(self):
        """fetch-property-images: find pictures for leads still waiting for them."""
        async with self:
            if await self._admin_id() is None:
                return self._deny()
            if self.operation_running:
                return None
            self.operation_running = "images"
        try:
            counts = await run_blocking(fetch_property_images)
        except Exception:  # noqa: BLE001 - a background task (not wrapped by signed_in): SPEC 8's failure toast
            log.exception("fetch-property-images failed")
            counts = None
        finally:
            async with self:
                self.operation_running = ""
        if counts is None:
            return error_toast(IMAGE_FETCH_FAILED[0], IMAGE_FETCH_FAILED[1])
        return rx.toast.success(IMAGES_CHECKED[0], description=IMAGES_CHECKED[1].format(
            **{key: f"{counts[key]:,}" for key in ("checked", "success", "no_images", "failed")}))
