"""The dashboard's Settings tab: profile, e-mail, password, sessions, webhook
key, account deletion (services in ``accounts.service_settings``).

Every handler is a ``platform.ui.state_signed_in`` handler: the session re-checked on the
server once per event (signed out: to /auth), a ``busy`` flag per action, a
refusal or failure shown as one toast; the database and Argon2 work runs off
the event loop. Passwords never enter a state var: they come
in the submitted form and go straight to the service.
"""

from __future__ import annotations

import uuid

import reflex as rx

from marketplace.platform import routes
from marketplace.features.accounts import rules_settings as settings_rules
from marketplace.platform.limits import NAME_MAX_LENGTH
from marketplace.platform.times import format_date, format_datetime
from marketplace.features.unlock import DEFAULT_THRESHOLD
from marketplace.platform.texts import (
    ACCOUNT_DELETED,
    ALREADY_CONFIRMED,
    CONFIRMATION_SENT,
    NO_OTHER_DEVICES,
    OTHER_DEVICES_SIGNED_OUT,
    PASSWORD_CHANGED,
    PASSWORD_CHANGED_TEXT,
    PROFILE_SAVED,
    SESSION_SIGNED_OUT,
    SETTINGS_LOAD_FAILED,
    SIGNED_OUT_EVERYWHERE,
    THIS_DEVICE_SIGNED_OUT,
    UNLOCK_CONFIRM_SAVED,
)
from marketplace.platform.offloop import run_blocking
from marketplace.features.accounts import service_settings as svc
from marketplace.features.unlock import service_prefs as unlock_prefs
from marketplace.platform.ui.state_auth import AuthState, success_toast
from marketplace.platform.ui.state_signed_in import signed_in


WEBHOOK_HREF = routes.bulk_scraper_webhook_url()
PASSWORD_FIELDS = ("settings-current-password", "settings-new-password", "settings-confirm-password")
def session_row(info: svc.SessionInfo, zone_name: str) -> dict[str, str]:
    """One signed-in device; its times in the browser's zone (``platform.times``)."""
    return {
        "id": str(info.id),
        "device": info.device,
        "ip": info.ip_address or "Unknown",
        "created": format_datetime(info.created_at, zone_name),
        "last_used": format_datetime(info.last_used_at, zone_name),
        "current": "yes" if info.current else "",
    }


def _to_sign_in(state: "SettingsState"):
    """Signed out (``signed_in``'s answer): the tab forgets it was loaded and goes to /auth."""
    state.loaded_for = ""
    return rx.redirect(routes.AUTH, replace=True)


def _field(form: object, name: str) -> str:
    value = form.get(name) if isinstance(form, dict) else None
    return value if isinstance(value, str) else ""


class SettingsState(AuthState):
    loaded_for: str = ""
    load_failed: bool = False

    first_name_input: str = ""
    last_name_input: str = ""
    profile_saving: bool = False
    member_since: str = ""

    resend_busy: bool = False
    password_saving: bool = False

    # Only the rows shown: the current session, the others once "N more" is opened (accounts.rules_settings).
    sessions: list[dict[str, str]] = []
    sessions_total: int = 0
    sessions_hidden: int = 0
    sessions_expanded: bool = False
    sessions_busy: bool = False

    has_webhook_key: bool = False
    webhook_key_hint: str = ""

    # Unlock confirmation (unlock.service_prefs): the switch and the threshold in credits.
    unlock_confirm_on: bool = True
    unlock_confirm_threshold: str = str(DEFAULT_THRESHOLD)
    unlock_confirm_saving: bool = False

    credits_forfeit: str = "0"
    delete_confirm: str = ""
    deleting: bool = False

    # ------------------------------------------------------------------ helpers

    def _show(self, data: svc.SettingsData) -> None:
        self.user_email = data.email
        self.email_confirmed = data.email_confirmed
        self.first_name = data.first_name
        self.first_name_input = data.first_name
        self.last_name_input = data.last_name
        self.member_since = format_date(data.member_since, self._zone())
        self.credits = data.credits
        self.credits_forfeit = f"{data.credits:,}"
        self.has_webhook_key = data.has_webhook_key
        self.webhook_key_hint = data.webhook_key_hint
        self._show_sessions(data.sessions)

    def _show_sessions(self, rows: list[svc.SessionInfo]) -> None:
        shown, self.sessions_hidden = settings_rules.shown_sessions(rows, self.sessions_expanded)
        self.sessions = [session_row(s, self._zone()) for s in shown]
        self.sessions_total = len(rows)

    async def _dashboard_last_name(self, last_name: str) -> None:
        from marketplace.features.dashboard import DashboardState

        dashboard = await self.get_state(DashboardState)
        dashboard.last_name = last_name

    async def _leave_signed_out(self, title: str, message: str):
        """Forget this tab's user and everything the dashboard held; home, with a toast."""
        from marketplace.features.dashboard import DashboardState

        dashboard = await self.get_state(DashboardState)
        dashboard.loaded_for = ""
        dashboard._clear_data()
        self._clear_user()
        self.reset()
        return [rx.redirect(routes.HOME, replace=True), *success_toast(title, message)]

    # ------------------------------------------------------------------ load

    @rx.event
    @signed_in(SETTINGS_LOAD_FAILED, signed_out=_to_sign_in)
    async def load(self, user_id: uuid.UUID):
        """When the tab opens: everything it shows, in one read."""
        self.load_failed = True  # until everything below is read: a failure leaves it set
        try:
            data = await run_blocking(svc.load_settings, user_id, self.access_token, self.refresh_token)
        except svc.SettingsError:  # the session ended meanwhile
            self.load_failed = False
            self._clear_user()
            return rx.redirect(routes.AUTH, replace=True)
        self._show(data)
        self._show_unlock_confirm(await run_blocking(unlock_prefs.get_preference, user_id))
        self.delete_confirm = ""
        self.load_failed = False
        self.loaded_for = str(user_id)
        return None

    # ------------------------------------------------------------------ profile

    @rx.event
    def set_first_name_input(self, value: str):
        self.first_name_input = value[: NAME_MAX_LENGTH + 20] if isinstance(value, str) else ""

    @rx.event
    def set_last_name_input(self, value: str):
        self.last_name_input = value[: NAME_MAX_LENGTH + 20] if isinstance(value, str) else ""

    @rx.event
    @signed_in(signed_out=_to_sign_in, busy="profile_saving")
    async def save_profile(self, user_id: uuid.UUID, form: dict | None = None):
        first = _field(form, "first_name") if isinstance(form, dict) and "first_name" in form else self.first_name_input
        last = _field(form, "last_name") if isinstance(form, dict) and "last_name" in form else self.last_name_input
        yield
        names = await run_blocking(svc.update_names, user_id, first, last)
        self.profile_saving = False
        self.first_name = names.first_name  # the greeting and the header follow at once
        self.first_name_input = names.first_name
        self.last_name_input = names.last_name
        await self._dashboard_last_name(names.last_name)
        yield success_toast(PROFILE_SAVED[0], PROFILE_SAVED[1])

    # ------------------------------------------------------------------ e-mail

    @rx.event
    @signed_in(signed_out=_to_sign_in, busy="resend_busy")
    async def resend_confirmation(self, user_id: uuid.UUID):
        yield
        try:
            email = await run_blocking(svc.resend_confirmation, user_id)
        except svc.SettingsError as exc:
            if exc.title == ALREADY_CONFIRMED[0]:
                self.email_confirmed = True
            raise
        self.resend_busy = False
        yield success_toast(CONFIRMATION_SENT[0], CONFIRMATION_SENT[1].format(email=email))

    # ------------------------------------------------------------------ password

    @rx.event
    @signed_in(signed_out=_to_sign_in, busy="password_saving")
    async def change_password(self, user_id: uuid.UUID, form: dict):
        yield
        revoked = await run_blocking(
            svc.change_password, user_id, _field(form, "current_password"), _field(form, "new_password"),
            _field(form, "confirm_password"), access_token=self.access_token, refresh_token=self.refresh_token,
            ip_address=self._client_ip(),
        )
        self.password_saving = False
        others = NO_OTHER_DEVICES if revoked == 0 else (
            OTHER_DEVICES_SIGNED_OUT.format(count=revoked, s="" if revoked == 1 else "s"))
        yield [rx.set_value(field_id, "") for field_id in PASSWORD_FIELDS]
        yield success_toast(PASSWORD_CHANGED, PASSWORD_CHANGED_TEXT.format(others=others))
        yield SettingsState.refresh_sessions

    # ------------------------------------------------------------------ sessions

    @rx.event
    @signed_in(SETTINGS_LOAD_FAILED, signed_out=_to_sign_in)
    async def refresh_sessions(self, user_id: uuid.UUID):
        rows = await run_blocking(svc.list_sessions, user_id, self.access_token, self.refresh_token)
        self._show_sessions(rows)
        return None

    @rx.event
    @signed_in(SETTINGS_LOAD_FAILED, signed_out=_to_sign_in)
    async def toggle_sessions(self, user_id: uuid.UUID):
        """'N more' lists every session (read again: the state held only the shown rows); 'Show fewer'
        keeps the current one."""
        self.sessions_expanded = not self.sessions_expanded
        rows = await run_blocking(svc.list_sessions, user_id, self.access_token, self.refresh_token)
        self._show_sessions(rows)

    @rx.event
    @signed_in(signed_out=_to_sign_in, busy="sessions_busy")
    async def revoke_session(self, user_id: uuid.UUID, session_id: str):
        """Sign out one of this user's devices (ownership checked on the server)."""
        session_id = session_id if isinstance(session_id, str) else ""  # junk ids match no session
        yield
        result = await run_blocking(svc.revoke_session, user_id, session_id, self.access_token, self.refresh_token)
        self.sessions_busy = False
        if result.was_current:
            yield await self._leave_signed_out(*THIS_DEVICE_SIGNED_OUT)
            return
        if result.revoked:
            yield success_toast(SESSION_SIGNED_OUT[0], SESSION_SIGNED_OUT[1])
        yield SettingsState.refresh_sessions

    @rx.event
    @signed_in(signed_out=_to_sign_in, busy="sessions_busy")
    async def sign_out_everywhere(self, user_id: uuid.UUID):
        yield
        await run_blocking(svc.revoke_all_sessions, user_id)
        yield await self._leave_signed_out(*SIGNED_OUT_EVERYWHERE)

    # ------------------------------------------------------------------ unlock confirmation

    def _show_unlock_confirm(self, preference) -> None:
        self.unlock_confirm_on = preference.enabled
        self.unlock_confirm_threshold = str(preference.threshold)

    async def _save_unlock_confirm(self, user_id: uuid.UUID, enabled: object, threshold: object):
        """Store the switch and threshold (validated by the service: a forged value is
        refused and the section shows what is stored)."""
        self._show_unlock_confirm(await run_blocking(unlock_prefs.set_preference, user_id, enabled, threshold))
        return success_toast(*UNLOCK_CONFIRM_SAVED)

    @rx.event
    @signed_in(signed_out=_to_sign_in, busy="unlock_confirm_saving")
    async def set_unlock_confirm_on(self, user_id: uuid.UUID, value: bool):
        return await self._save_unlock_confirm(user_id, value, self.unlock_confirm_threshold)

    @rx.event
    @signed_in(signed_out=_to_sign_in, busy="unlock_confirm_saving")
    async def set_unlock_confirm_threshold(self, user_id: uuid.UUID, value: str):
        return await self._save_unlock_confirm(user_id, self.unlock_confirm_on, value)

    # ------------------------------------------------------------------ delete account

    @rx.event
    def set_delete_confirm(self, value: str):
        self.delete_confirm = value[:320] if isinstance(value, str) else ""

    @rx.var
    def delete_ready(self) -> bool:
        return settings_rules.delete_confirmation_matches(self.delete_confirm, self.user_email)

    @rx.event
    @signed_in(signed_out=_to_sign_in, busy="deleting")
    async def delete_account(self, user_id: uuid.UUID, form: dict | None = None):
        typed = _field(form, "confirm_email") if isinstance(form, dict) and "confirm_email" in form \
            else self.delete_confirm
        yield
        await run_blocking(svc.delete_account, user_id, typed)
        yield await self._leave_signed_out(*ACCOUNT_DELETED)
