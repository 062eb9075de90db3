"""/auth/reset: "Forgot password?", a visitor's flow.

Without a token the page asks for the e-mail address and always ends on the
same panel (``RESET_SENT``), whether or not an account exists for it. The
e-mail's link, ``/auth/reset?token=...``, is checked on load: a usable link
shows the new-password form, anything else the page "This link has expired or
was already used" with a button back to the request form. Setting the password
signs this browser in (every other session of the account is signed out by the
service) and goes on to the dashboard. Refusals are shown in the form's callout
(role alert), scrolled into view, never as a toast.
"""

from __future__ import annotations

import logging

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.texts import RESET_DONE
from marketplace.platform.offloop import run_blocking
from marketplace.platform import sessions as auth_sessions
from marketplace.features.accounts import service_password_reset as password_reset
from marketplace.platform.ui.state_auth import AuthState, reveal, success_toast

log = logging.getLogger("marketplace.password_reset")

REQUEST = "request"  # the e-mail form
SENT = "sent"  # the same answer for every address
CHECKING = "checking"  # a link is being checked
NEW_PASSWORD = "new_password"  # the link works: choose a password
INVALID = "invalid"  # expired, used, superseded or forged
RESET_ERROR_ID = "reset-error"


def _text(form: dict, name: str) -> str:
    value = form.get(name) if isinstance(form, dict) else None
    return value if isinstance(value, str) else ""


class PasswordResetState(AuthState):
    view: str = REQUEST
    busy: bool = False
    error_title: str = ""
    error_message: str = ""
    _token: str = ""  # backend only: the link's token, from the URL at load

    def _clear_error(self) -> None:
        self.error_title = ""
        self.error_message = ""

    def _fail(self, exc: Exception, what: str):
        self.error_title, self.error_message = self._error_text(exc, what=what)
        return reveal(RESET_ERROR_ID)

    @rx.event
    async def load(self):
        self._clear_error()
        self.busy = False
        token = self.router.url.query_parameters.get("token", "")
        self._token = token if isinstance(token, str) else ""
        if not self._token:
            self.view = REQUEST
            return
        self.view = CHECKING
        yield
        try:
            usable = await run_blocking(password_reset.password_reset_link_ok, self._token)
        except Exception:  # noqa: BLE001 - a visitor's event: logged, and the page offers a new link
            log.exception("checking a password reset link failed")
            usable = False
        self.view = NEW_PASSWORD if usable else INVALID

    @rx.event
    def request_again(self):
        """From the "expired" page back to the request form."""
        self._token = ""
        self._clear_error()
        self.view = REQUEST

    @rx.event
    async def request_link(self, form: dict):
        if self.busy or self.view != REQUEST:
            return
        self.busy = True
        self._clear_error()
        yield
        try:
            await run_blocking(password_reset.request_password_reset, _text(form, "email"), ip_address=self._client_ip())
        except Exception as exc:  # noqa: BLE001 - a visitor's event: shown in the form's callout
            yield self._fail(exc, "password reset request")
            return
        finally:
            self.busy = False
        self.view = SENT

    @rx.event
    async def set_password(self, form: dict):
        if self.busy or self.view != NEW_PASSWORD:
            return
        self.busy = True
        self._clear_error()
        yield
        try:
            user_id, pair = await run_blocking(
                password_reset.reset_password, self._token, _text(form, "password"), _text(form, "confirm_password"),
                user_agent=self._user_agent(), ip_address=self._client_ip(), device_id=self._device_id(),
            )
        except password_reset.ResetLinkInvalid:
            self.view = INVALID
            return
        except Exception as exc:  # noqa: BLE001 - a visitor's event: shown in the form's callout
            yield self._fail(exc, "password reset")
            return
        finally:
            self.busy = False
        self._token = ""
        if self.access_token or self.refresh_token:
            # This browser held a session (maybe another account's): the new one replaces it.
            await run_blocking(auth_sessions.end_session, self.access_token, self.refresh_token)
        await self._start_session(user_id, pair)
        yield success_toast(*RESET_DONE)
        yield rx.redirect(routes.DASHBOARD, replace=True)
