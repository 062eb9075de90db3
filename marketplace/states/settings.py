"""The dashboard's Settings tab: profile, e-mail, password, sessions, webhook
key, account deletion (services in ``services.account_settings``).

Every handler re-checks the session on the server and runs the database and
Argon2 work off the event loop. Passwords never enter a state var: they come
in the submitted form and go straight to the service.
"""

from __future__ import annotations


import reflex as rx

from marketplace import routes
from marketplace.core import account_settings as rules
from marketplace.core.limits import NAME_MAX_LENGTH
from marketplace.core.times import format_date, format_datetime
from marketplace.core.unlock_confirm import DEFAULT_THRESHOLD
from marketplace.messages import (
    ACCOUNT_DELETED,
    ALREADY_CONFIRMED,
    CONFIRMATION_SENT,
    PASSWORD_CHANGED,
    PROFILE_SAVED,
    SESSION_SIGNED_OUT,
    SETTINGS_LOAD_FAILED,
    SIGNED_OUT_EVERYWHERE,
    THIS_DEVICE_SIGNED_OUT,
    UNLOCK_CONFIRM_SAVED,
)
from marketplace.offloop import run_blocking
from marketplace.services import account_settings as svc
from marketplace.services import unlock_prefs
from marketplace.states.auth import AuthState, success_toast
from marketplace.states.browser import browser_origin


WEBHOOK_HREF = routes.bulk_scraper_webhook_url()
PASSWORD_FIELDS = ("settings-current-password", "settings-new-password", "settings-confirm-password")
def session_row(info: svc.SessionInfo, zone_name: str) -> dict[str, str]:
    """One signed-in device; its times in the browser's zone (``core.times``)."""
    return {
        "id": str(info.id),
        "device": info.device,
        "ip": info.ip_address or "Unknown",
        "created": format_datetime(info.created_at, zone_name),
        "last_used": format_datetime(info.last_used_at, zone_name),
        "current": "yes" if info.current else "",
    }


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

    sessions: list[dict[str, str]] = []
    sessions_busy: bool = False

    has_webhook_key: bool = False
    webhook_key_hint: str = ""

    # Unlock confirmation (services.unlock_prefs): the switch and the threshold in credits.
    unlock_confirm_on: bool = True
    unlock_confirm_threshold: str = str(DEFAULT_THRESHOLD)
    unlock_confirm_saving: bool = False

    credits_forfeit: str = "0"
    delete_confirm: str = ""
    deleting: bool = False

    # ------------------------------------------------------------------ helpers

    async def _require_user(self):
        user_id = await self._current_user_id()
        if user_id is None:
            self.loaded_for = ""
        return user_id

    async def _begin(self, busy_flag: str):
        """Start a write: (user_id, None), with ``busy_flag`` set; (None, None) when that
        action is already running; (None, redirect) when the session is gone."""
        if getattr(self, busy_flag):
            return None, None
        user_id = await self._require_user()
        if user_id is None:
            return None, rx.redirect(routes.AUTH, replace=True)
        setattr(self, busy_flag, True)
        return user_id, None

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
        self.sessions = [session_row(s, self._zone()) for s in data.sessions]

    async def _dashboard_last_name(self, last_name: str) -> None:
        from marketplace.states.dashboard import DashboardState

        dashboard = await self.get_state(DashboardState)
        dashboard.last_name = last_name

    async def _leave_signed_out(self, title: str, message: str):
        """Forget this tab's user and everything the dashboard held; home, with a toast."""
        from marketplace.states.dashboard import DashboardState

        dashboard = await self.get_state(DashboardState)
        dashboard.loaded_for = ""
        dashboard._clear_data()
        self._clear_user()
        self.reset()
        return [rx.redirect(routes.HOME, replace=True), *success_toast(title, message)]

    # ------------------------------------------------------------------ load

    @rx.event
    async def load(self):
        """When the tab opens: everything it shows, in one read."""
        user_id = await self._require_user()
        if user_id is None:
            return rx.redirect(routes.AUTH, replace=True)
        try:
            data = await run_blocking(svc.load_settings, user_id, self.access_token, self.refresh_token)
        except svc.SettingsError:
            self._clear_user()
            return rx.redirect(routes.AUTH, replace=True)
        except Exception as exc:  # noqa: BLE001
            self.load_failed = True
            return self._error_toast(exc, SETTINGS_LOAD_FAILED, f"settings load for {user_id}")
        self._show(data)
        try:
            self._show_unlock_confirm(await run_blocking(unlock_prefs.get_preference, user_id))
        except Exception as exc:  # noqa: BLE001
            self.load_failed = True
            return self._error_toast(exc, SETTINGS_LOAD_FAILED, f"unlock confirmation load for {user_id}")
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
    async def save_profile(self, form: dict | None = None):
        user_id, leave = await self._begin("profile_saving")
        if user_id is None:
            yield leave  # the redirect; None (nothing) when this action is already running
            return
        first = _field(form, "first_name") if isinstance(form, dict) and "first_name" in form else self.first_name_input
        last = _field(form, "last_name") if isinstance(form, dict) and "last_name" in form else self.last_name_input
        yield
        try:
            names = await run_blocking(svc.update_names, user_id, first, last)
        except Exception as exc:  # noqa: BLE001 - a SettingsError's text, else the generic error
            yield self._error_toast(exc, what=f"saving names for {user_id}")
            return
        finally:
            self.profile_saving = False
        self.first_name = names.first_name  # the greeting and the header follow at once
        self.first_name_input = names.first_name
        self.last_name_input = names.last_name
        await self._dashboard_last_name(names.last_name)
        yield success_toast(PROFILE_SAVED[0], PROFILE_SAVED[1])

    # ------------------------------------------------------------------ e-mail

    @rx.event
    async def resend_confirmation(self):
        user_id, leave = await self._begin("resend_busy")
        if user_id is None:
            yield leave  # the redirect; None (nothing) when this action is already running
            return
        yield
        try:
            email = await run_blocking(svc.resend_confirmation, user_id, browser_origin(self))
        except Exception as exc:  # noqa: BLE001 - a SettingsError's text, else the generic error
            if isinstance(exc, svc.SettingsError) and exc.title == ALREADY_CONFIRMED[0]:
                self.email_confirmed = True
            yield self._error_toast(exc, what=f"resending the confirmation for {user_id}")
            return
        finally:
            self.resend_busy = False
        yield success_toast(CONFIRMATION_SENT[0], CONFIRMATION_SENT[1].format(email=email))

    # ------------------------------------------------------------------ password

    @rx.event
    async def change_password(self, form: dict):
        user_id, leave = await self._begin("password_saving")
        if user_id is None:
            yield leave  # the redirect; None (nothing) when this action is already running
            return
        yield
        try:
            revoked = await run_blocking(
                svc.change_password, user_id, _field(form, "current_password"), _field(form, "new_password"),
                _field(form, "confirm_password"), access_token=self.access_token, refresh_token=self.refresh_token,
                ip_address=self._client_ip(),
            )
        except Exception as exc:  # noqa: BLE001 - a SettingsError's text, else the generic error
            yield self._error_toast(exc, what=f"password change for {user_id}")
            return
        finally:
            self.password_saving = False
        others = "No other device was signed in." if revoked == 0 else (
            f"{revoked} other device{'' if revoked == 1 else 's'} signed out.")
        yield [rx.set_value(field_id, "") for field_id in PASSWORD_FIELDS]
        yield success_toast(PASSWORD_CHANGED, f"Your password was changed. {others}")
        yield SettingsState.refresh_sessions

    # ------------------------------------------------------------------ sessions

    @rx.event
    async def refresh_sessions(self):
        user_id = await self._require_user()
        if user_id is None:
            return rx.redirect(routes.AUTH, replace=True)
        try:
            rows = await run_blocking(svc.list_sessions, user_id, self.access_token, self.refresh_token)
        except Exception as exc:  # noqa: BLE001
            return self._error_toast(exc, SETTINGS_LOAD_FAILED, f"listing sessions for {user_id}")
        self.sessions = [session_row(s, self._zone()) for s in rows]
        return None

    @rx.event
    async def revoke_session(self, session_id: str):
        """Sign out one of this user's devices (ownership checked on the server)."""
        user_id, leave = await self._begin("sessions_busy")
        if user_id is None:
            yield leave  # the redirect; None (nothing) when this action is already running
            return
        session_id = session_id if isinstance(session_id, str) else ""  # junk ids match no session
        yield
        try:
            result = await run_blocking(svc.revoke_session, user_id, session_id, self.access_token,
                                        self.refresh_token)
        except Exception as exc:  # noqa: BLE001
            yield self._error_toast(exc, what=f"revoking a session for {user_id}")
            return
        finally:
            self.sessions_busy = False
        if result.was_current:
            yield await self._leave_signed_out(*THIS_DEVICE_SIGNED_OUT)
            return
        if result.revoked:
            yield success_toast(SESSION_SIGNED_OUT[0], SESSION_SIGNED_OUT[1])
        yield SettingsState.refresh_sessions

    @rx.event
    async def sign_out_everywhere(self):
        user_id, leave = await self._begin("sessions_busy")
        if user_id is None:
            yield leave  # the redirect; None (nothing) when this action is already running
            return
        yield
        try:
            await run_blocking(svc.revoke_all_sessions, user_id)
        except Exception as exc:  # noqa: BLE001
            self.sessions_busy = False
            yield self._error_toast(exc, what=f"sign out everywhere for {user_id}")
            return
        yield await self._leave_signed_out(*SIGNED_OUT_EVERYWHERE)

    # ------------------------------------------------------------------ unlock confirmation

    def _show_unlock_confirm(self, preference) -> None:
        self.unlock_confirm_on = preference.enabled
        self.unlock_confirm_threshold = str(preference.threshold)

    async def _save_unlock_confirm(self, enabled: object, threshold: object):
        """Store the switch and threshold (validated by the service: a forged value is
        refused and the section shows what is stored)."""
        user_id, leave = await self._begin("unlock_confirm_saving")
        if user_id is None:
            return leave
        try:
            saved = await run_blocking(unlock_prefs.set_preference, user_id, enabled, threshold)
        except Exception as exc:  # noqa: BLE001 - a UserError's text, else the generic error
            return self._error_toast(exc, what=f"unlock confirmation for {user_id}")
        finally:
            self.unlock_confirm_saving = False
        self._show_unlock_confirm(saved)
        return success_toast(*UNLOCK_CONFIRM_SAVED)

    @rx.event
    async def set_unlock_confirm_on(self, value: bool):
        return await self._save_unlock_confirm(value, self.unlock_confirm_threshold)

    @rx.event
    async def set_unlock_confirm_threshold(self, value: str):
        return await self._save_unlock_confirm(self.unlock_confirm_on, value)

    # ------------------------------------------------------------------ delete account

    @rx.event
    def set_delete_confirm(self, value: str):
        self.delete_confirm = value[:320] if isinstance(value, str) else ""

    @rx.var
    def delete_ready(self) -> bool:
        return rules.delete_confirmation_matches(self.delete_confirm, self.user_email)

    @rx.event
    async def delete_account(self, form: dict | None = None):
        user_id, leave = await self._begin("deleting")
        if user_id is None:
            yield leave  # the redirect; None (nothing) when this action is already running
            return
        typed = _field(form, "confirm_email") if isinstance(form, dict) and "confirm_email" in form \
            else self.delete_confirm
        yield
        try:
            await run_blocking(svc.delete_account, user_id, typed)
        except Exception as exc:  # noqa: BLE001 - a SettingsError's text, else the generic error
            self.deleting = False
            yield self._error_toast(exc, what=f"account deletion for {user_id}")
            return
        yield await self._leave_signed_out(*ACCOUNT_DELETED)
