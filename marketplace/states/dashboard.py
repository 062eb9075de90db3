"""/dashboard: the signed-in user's numbers, unlocks, scrapes, referrals, account."""

from __future__ import annotations

import logging

import reflex as rx

from marketplace import routes
from marketplace.config import get_settings
from marketplace.db import session_scope
from marketplace.services import dashboard
from marketplace.states.auth import AuthState

log = logging.getLogger("marketplace.dashboard")

LOAD_FAILED = "Failed to load dashboard data."
TABS = ("unlocked", "scrapes", "referrals", "settings")


def format_roi(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}%"


def format_date(value) -> str:
    return value.strftime("%b %-d, %Y")


class DashboardState(AuthState):
    # The user these numbers belong to: content renders only when it matches
    # the signed-in user, so nothing from a previous session can show.
    loaded_for: str = ""
    load_failed: bool = False
    tab: str = "unlocked"

    # Display strings ("1,500"), computed on the server.
    leads_unlocked: str = "0"
    credits_remaining: str = "0"
    avg_roi: str = "—"
    this_month: str = "0"

    unlocked: list[dict[str, str]] = []
    scrapes: list[dict[str, str]] = []
    my_referral_code: str = ""
    referred_users: str = "0"

    last_name: str = ""
    member_since: str = ""

    @rx.event
    def load(self):
        """on_load: server-side session check, then every number in one go."""
        self.loaded_for = ""
        self.load_failed = False
        user_id = self._require_user_id()
        if user_id is None:
            return rx.redirect(routes.AUTH, replace=True)
        try:
            with session_scope() as session:
                stats = dashboard.summary(session, user_id)
                unlocked = dashboard.unlocked_leads(session, user_id)
                scrapes = dashboard.bulk_scrapes(session, user_id)
                referral = dashboard.referrals(session, user_id)
                account = dashboard.account_details(session, user_id)
        except Exception:  # noqa: BLE001 - shown as the SPEC's load failure
            log.exception("dashboard load failed for %s", user_id)
            self.load_failed = True
            self.loaded_for = str(user_id)
            return rx.toast.error(LOAD_FAILED)
        self.leads_unlocked = f"{stats.leads_unlocked:,}"
        self.credits_remaining = f"{stats.credits_remaining:,}"
        self.credits = stats.credits_remaining  # the header badge follows the same balance
        self.avg_roi = format_roi(stats.avg_roi)
        self.this_month = f"{stats.this_month:,}"
        self.unlocked = [
            {
                "lead_id": str(row.lead_id),
                "href": routes.property_url(str(row.lead_id)),
                "address": row.address,
                "place": f"{row.city}, {row.state} {row.zip_code}".strip(),
                "lead_type": row.lead_type,
                "roi": format_roi(row.roi),
                "credit_cost": str(row.credit_cost),
                "unlocked_at": format_date(row.unlocked_at),
            }
            for row in unlocked
        ]
        self.scrapes = [
            {
                "id": str(row.id),
                "created_at": format_date(row.created_at),
                "lead_count": str(row.lead_count),
                "leads_generated": str(row.leads_generated),
                "credits_used": f"{row.credits_used:,}",
                "status": row.status.capitalize(),
            }
            for row in scrapes
        ]
        self.my_referral_code = referral.referral_code
        self.referred_users = f"{referral.referred_users:,}"
        self.first_name = account.first_name
        self.last_name = account.last_name
        self.member_since = format_date(account.member_since)
        self.email_confirmed = account.email_confirmed
        self.loaded_for = str(user_id)
        return None

    @rx.event
    def set_tab(self, tab: str):
        if tab in TABS:
            self.tab = tab

    @rx.var
    def referral_link(self) -> str:
        return f"{get_settings().site_url}/{self.my_referral_code}" if self.my_referral_code else ""

    @rx.var
    def credits_label(self) -> str:
        return f"{self.credits:,} credit{'' if self.credits == 1 else 's'}"

    @rx.var
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()
