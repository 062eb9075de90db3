"""/dashboard: the signed-in user's numbers, unlocks, scrapes, referrals, account."""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timezone

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.config import get_settings
from marketplace.features.unlock import rules_guarantee as guarantee
from marketplace.features.marketplace import rules_sale_dates as sale_dates
from marketplace.features.property import archived_from_marketplace
from marketplace.features.marketplace import percent
from marketplace.platform.times import format_date
from marketplace.platform.texts import CODE_UPDATE_FAILED, CODE_UPDATED, CODE_UPDATED_TEXT, DASHBOARD_LOAD_FAILED
from marketplace.platform.offloop import run_blocking
from marketplace.features.dashboard import service as dashboard
from marketplace.platform import downloads
from marketplace.features.billing import service_referrals as referrals
from marketplace.platform.ui.state_auth import AuthState, success_toast
from marketplace.platform.ui.state_browser import browser_origin
from marketplace.platform.ui.state_signed_in import signed_in

log = logging.getLogger("marketplace.dashboard")

TABS = ("unlocked", routes.PIPELINE_TAB, "scrapes", "referrals", routes.SAVED_SEARCHES_TAB, "settings")
DEFAULT_TAB = "unlocked"
CODE_MAX_LENGTH = 15


def unlocked_row(row: dashboard.UnlockedLeadRow, zone_name: str) -> dict[str, str]:
    """One Unlocked Leads row as display strings (its date in the browser's zone)."""
    return {
        "lead_id": str(row.lead_id),
        "href": routes.property_url(str(row.lead_id)),
        "address": row.address,
        "place": f"{row.city}, {row.state} {row.zip_code}".strip(),
        "lead_type": row.lead_type,
        "roi": percent(row.roi),
        "has_roi": "yes" if row.roi is not None else "",
        "credit_cost": f"{row.credit_cost:,}",
        "unlocked_at": format_date(row.unlocked_at, zone_name),
        # Closed by the county within the guarantee: the badge replaces Archived, with the county's reason
        # and the credits back ('the vacancy notice at ... left ... on Nov 28, 2026', '120 credits back').
        "closed": "yes" if row.refunded_at else "",
        "closed_reason": row.closed_reason,
        "credits_back": guarantee.credits_back(row.credits_back) if row.refunded_at else "",
        "archived": "yes" if not row.refunded_at and archived_from_marketplace(row.is_active, row.bought_in_scrape)
        else "",
        "provenance": row.provenance,  # 'Demo data (generated)', as on the card and the property page
        # 'Sale date: Dec 12, 2026 (in 17 days)' and 'Demo date' / 'Sheriff sale date from ...' ('' without one)
        "sale": sale_dates.date_line(row.sale_date, sale_dates.local_today(datetime.now(timezone.utc))),
        "sale_source": row.sale_source,
    }


def _to_sign_in(state: "DashboardState"):
    """Signed out on load (``signed_in``'s answer): nothing of a previous user stays; to /auth."""
    state._start_over()
    return rx.redirect(routes.AUTH, replace=True)


def _close_code_dialog(state: "DashboardState"):
    state.code_dialog_open = False
    return rx.redirect(routes.AUTH, replace=True)


class DashboardState(AuthState):
    # The user these numbers belong to: content renders only when it matches
    # the signed-in user, so nothing from a previous session can show.
    loaded_for: str = ""
    load_failed: bool = False
    tab: str = DEFAULT_TAB
    # The tab set_tab just moved to: the navigation it starts only shows that tab (no reload).
    _tab_switch: str = ""

    # Display strings ("1,500"), computed on the server.
    leads_unlocked: str = "0"
    avg_roi: str = "N/A"
    this_month: str = "0"

    unlocked: list[dict[str, str]] = []
    unlocked_total: int = 0
    loading_more: bool = False
    scrapes: list[dict[str, str]] = []
    # Referrals tab (display strings, like the stat cards).
    my_referral_code: str = ""
    referred_users: str = "0"
    referral_purchases: str = "0"
    referral_earned: str = "0"
    # The "Edit code" dialog.
    code_dialog_open: bool = False
    code_input: str = ""
    code_saving: bool = False

    last_name: str = ""
    member_since: str = ""
    greeting: str = "Welcome back"  # "Welcome" on the first sign-in
    # Where share links point: SITE_URL, else the address this browser is on.
    site_base: str = ""

    def _clear_data(self) -> None:
        """Forget every number and row (a failed load must not show stale or foreign data)."""
        self.leads_unlocked = "0"
        self.avg_roi = "N/A"
        self.this_month = "0"
        self.unlocked = []
        self.unlocked_total = 0
        self.scrapes = []
        self.my_referral_code = ""
        self.referred_users = "0"
        self.referral_purchases = "0"
        self.referral_earned = "0"
        self.code_dialog_open = False
        self.code_input = ""
        self.code_saving = False
        self.last_name = ""
        self.member_since = ""

    def _start_over(self) -> None:
        self.loaded_for = ""
        self.load_failed = False
        self.loading_more = False
        self._clear_data()
        self.tab = self._url_tab()

    def _url_tab(self) -> str:
        """Every tab has an address (?tab=saved, ?tab=settings, ...); none or an unknown one is the first."""
        wanted = self.router.url.query_parameters.get("tab", "")
        return wanted if isinstance(wanted, str) and wanted in TABS else DEFAULT_TAB

    @rx.event
    @signed_in((DASHBOARD_LOAD_FAILED, ""), signed_out=_to_sign_in)
    async def load(self, user_id: uuid.UUID):
        """on_load: server-side session check, then every number in one go. A tab
        switch (``set_tab``'s own navigation) only shows the tab; Back and Forward
        between tabs load afresh (each is a page load of its address)."""
        switched, self._tab_switch = self._tab_switch, ""
        if switched and switched == self._url_tab() and self.loaded_for == str(user_id) and not self.load_failed:
            self.tab = switched
            return None
        self._start_over()
        # Until both reads succeed: a failure shows the SPEC's load failure over empty data.
        self.load_failed, self.loaded_for = True, str(user_id)
        data = await run_blocking(dashboard.load_dashboard, user_id)
        stats, unlocked, scrapes, account = data.stats, data.unlocked, data.scrapes, data.account
        referral = await run_blocking(referrals.stats, user_id)
        self.load_failed = False
        self.leads_unlocked = f"{stats.leads_unlocked:,}"
        self.credits = stats.credits_remaining  # the header badge follows the same balance
        self.avg_roi = percent(stats.avg_roi)
        self.this_month = f"{stats.this_month:,}"
        self.unlocked = [unlocked_row(row, self._zone()) for row in unlocked]
        self.unlocked_total = stats.leads_unlocked
        self.scrapes = [
            {
                "id": str(row.id),
                "created_at": format_date(row.created_at, self._zone()),
                "lead_count": f"{row.lead_count:,}",
                "leads_generated": f"{row.leads_generated:,}",
                "credits_used": f"{row.credits_used:,}",
                "status": row.status.capitalize(),
            }
            for row in scrapes
        ]
        self._show_referrals(referral)
        self.first_name = account.first_name
        self.last_name = account.last_name
        self.member_since = format_date(account.member_since, self._zone())
        self.email_confirmed = account.email_confirmed
        self.greeting = "Welcome back" if account.returning else "Welcome"
        self.site_base = get_settings().base_url(browser_origin(self))
        self.loaded_for = str(user_id)
        return None

    @rx.event
    @signed_in((DASHBOARD_LOAD_FAILED, ""), signed_out=routes.AUTH, busy="loading_more")
    async def load_more_unlocked(self, user_id: uuid.UUID):
        """The next page of Unlocked Leads."""
        if self.loaded_for != str(user_id):
            yield DashboardState.load  # another user's (or no) list is loaded: start over
            return
        yield
        more = await run_blocking(dashboard.more_unlocked, user_id, len(self.unlocked))
        seen = {row["lead_id"] for row in self.unlocked}
        zone = self._zone()
        self.unlocked = [*self.unlocked, *(unlocked_row(row, zone) for row in more if str(row.lead_id) not in seen)]
        if not more:
            self.unlocked_total = len(self.unlocked)
        self.loading_more = False

    @rx.var
    def unlocked_has_more(self) -> bool:
        return len(self.unlocked) < self.unlocked_total

    @rx.var
    def unlocked_summary(self) -> str:
        total = self.unlocked_total
        return f"Showing {len(self.unlocked):,} of {total:,} unlocked lead{'' if total == 1 else 's'}, newest first"

    def _show_referrals(self, referral: referrals.ReferralStats) -> None:
        self.my_referral_code = referral.code
        self.referred_users = f"{referral.people_referred:,}"
        self.referral_purchases = f"{referral.purchases:,}"
        self.referral_earned = f"{referral.credits_earned:,}"

    # ---------------------------------------------------------------- edit code dialog

    @rx.event
    def set_code_dialog_open(self, is_open: bool):
        """Open (pre-filled with the current code) or close; never closes mid-update."""
        if self.code_saving or not isinstance(is_open, bool):
            return
        self.code_dialog_open = is_open
        if is_open:
            self.code_input = self.my_referral_code

    @rx.event
    def set_code_input(self, value: str):
        self.code_input = value[:CODE_MAX_LENGTH] if isinstance(value, str) else ""

    @rx.event
    @signed_in(CODE_UPDATE_FAILED, signed_out=_close_code_dialog, busy="code_saving")
    async def save_code(self, user_id: uuid.UUID, form_data: dict | None = None):
        """Save: 'Updating...', then close with the new code and link, or a toast and stay open
        (a ReferralCodeError's text, else the SPEC's update failure)."""
        if isinstance(form_data, dict) and isinstance(form_data.get("code"), str) \
                and form_data["code"][:CODE_MAX_LENGTH] != self.code_input:
            # the form's own value (the input's on_change is debounced); assigned only when it differs,
            # so that no echo of it overwrites what the user types next after a refusal
            self.code_input = form_data["code"][:CODE_MAX_LENGTH]
        yield
        code = await run_blocking(referrals.change_code, user_id, self.code_input)
        self.code_saving = False
        self.code_dialog_open = False
        self.code_input = code
        if self.loaded_for != str(user_id):
            # Another account is signed in now than the one on screen: reload everything.
            yield success_toast(CODE_UPDATED, CODE_UPDATED_TEXT.format(code=code))
            yield DashboardState.load
            return
        self.my_referral_code = code
        try:
            self._show_referrals(await run_blocking(referrals.stats, user_id))
        except Exception:  # noqa: BLE001 - the code did change; only the numbers' refresh failed
            log.exception("referral stats reload failed for %s", user_id)
        yield success_toast(CODE_UPDATED, CODE_UPDATED_TEXT.format(code=code))

    @rx.event
    @signed_in(signed_out=routes.AUTH)
    async def export_scrape(self, user_id: uuid.UUID, scrape_id: str):
        """CSV of one stored scrape, named from its lead count and timestamp (SPEC 9):
        a signed five-minute link for this user's own scrape."""
        if not isinstance(scrape_id, str) or scrape_id not in {row["id"] for row in self.scrapes}:
            return None
        token = downloads.make_token(downloads.SCRAPE_CSV, user_id, scrape_id)
        return rx.download(url=routes.scrape_csv_url(scrape_id, token, "stored"))

    @rx.var
    def code_save_disabled(self) -> bool:
        return self.code_saving or not self.code_input.strip()

    @rx.event
    def set_tab(self, tab: str):
        """Show ``tab`` and put it in the address (a history entry: Back returns to the previous tab)."""
        if isinstance(tab, str) and tab in TABS and tab != self.tab:
            self.tab = tab
            self._tab_switch = tab
            return rx.redirect(routes.dashboard_tab_url(tab))
        return None

    @rx.var
    def referral_link(self) -> str:
        return f"{self.site_base}/{self.my_referral_code}" if self.my_referral_code else ""

    @rx.var
    def referral_base(self) -> str:
        """The share link up to its code ('https://host/')."""
        return f"{self.site_base}/" if self.my_referral_code else ""

    @rx.var
    def credits_stat(self) -> str:
        """Credits Remaining: the header's balance, which follows a purchase paid in another tab."""
        return f"{self.credits:,}"

    @rx.var
    def credits_label(self) -> str:
        return f"{self.credits:,} credit{'' if self.credits == 1 else 's'}"

