"""/auth (sign in, sign up) and /auth/callback (e-mail confirmation link).

Every refusal ('Sign In Failed' / 'Sign Up Failed' and the server's message,
SPEC 8) is shown once, in the callout above the submit button of the form it
came from (role alert), scrolled into view: it stays readable and is never
repeated by a toast. Sign-up's outcome is the "Check your e-mail" panel,
likewise without a toast.
"""

from __future__ import annotations

import logging

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.texts import CALLBACK_FAILED
from marketplace.platform.offloop import run_blocking
from marketplace.features.accounts import service as accounts
from marketplace.platform import sessions as auth_sessions
from marketplace.features.billing import service_referrals as referrals
from marketplace.platform.ui.state_auth import AuthState, error_toast, reveal

log = logging.getLogger("marketplace.account")

SIGN_IN_TAB = "signin"
SIGN_UP_TAB = "signup"
AUTH_ERROR_ID = "auth-error"  # the refusal callout of either form


def _field(form: dict, name: str) -> str:
    value = form.get(name)
    return value if isinstance(value, str) else ""


class AuthPageState(AuthState):
    """The sign-in and sign-up forms."""

    tab: str = SIGN_IN_TAB
    signin_busy: bool = False
    signup_busy: bool = False
    # The most recent refusal, shown under the form it came from.
    error_tab: str = ""
    error_title: str = ""
    error_message: str = ""
    # After a sign-up: the address the link went to, and why a referral code
    # that came with it was not applied ("" when it was, or none came).
    signup_sent_to: str = ""
    referral_refused_message: str = ""

    def _clear_error(self) -> None:
        self.error_tab = ""
        self.error_title = ""
        self.error_message = ""

    def _fail(self, tab: str, exc: Exception, what: str):
        """The refusal, shown in the callout above ``tab``'s submit button (and nowhere else),
        scrolled into view: the event to yield."""
        self.error_tab = tab
        self.error_title, self.error_message = self._error_text(exc, what=what)
        return reveal(AUTH_ERROR_ID)

    @rx.event
    async def load(self):
        """Signed in already: straight to the dashboard (server-side check)."""
        self._clear_error()
        self.signin_busy = False
        self.signup_busy = False
        self.signup_sent_to = ""
        self.referral_refused_message = ""
        wanted = self.router.url.query_parameters.get("tab", "")
        self.tab = wanted if wanted in (SIGN_IN_TAB, SIGN_UP_TAB) else SIGN_IN_TAB
        if await self._current_user_id() is not None:
            return rx.redirect(routes.DASHBOARD, replace=True)
        return None

    @rx.event
    def set_tab(self, tab: str):
        if tab in (SIGN_IN_TAB, SIGN_UP_TAB):
            self.tab = tab
            self._clear_error()

    @rx.event
    def sign_up_again(self):
        """Back to an empty sign-up form (another address)."""
        self.signup_sent_to = ""
        self.referral_refused_message = ""
        self._clear_error()

    @rx.event
    async def sign_in(self, form: dict):
        if self.signin_busy:
            return
        self.signin_busy = True
        self._clear_error()
        yield
        try:
            try:
                user_id, pair = await run_blocking(
                    accounts.sign_in_user,
                    _field(form, "email"),
                    _field(form, "password"),
                    user_agent=self._user_agent(),
                    ip_address=self._client_ip(),
                    device_id=self._device_id(),
                )
            except Exception as exc:  # noqa: BLE001 - AuthError's text, else the generic error
                yield self._fail(SIGN_IN_TAB, exc, "sign-in")
                return
            await self._start_session(user_id, pair)
            yield rx.redirect(routes.DASHBOARD)
        finally:
            self.signin_busy = False

    @rx.event
    async def sign_up(self, form: dict):
        """Always ends on "Check your e-mail" (the same for a taken address);
        nobody is signed in until the link in the e-mail is opened."""
        if self.signup_busy:
            return
        self.signup_busy = True
        self._clear_error()
        yield
        code = self.referral_code if isinstance(self.referral_code, str) else ""
        try:
            try:
                result = await run_blocking(
                    accounts.sign_up_user,
                    first_name=_field(form, "first_name"),
                    last_name=_field(form, "last_name"),
                    email=_field(form, "email"),
                    password=_field(form, "password"),
                    confirm_password=_field(form, "confirm_password"),
                    referral_code=code or None,
                    user_agent=self._user_agent(),
                    ip_address=self._client_ip(),
                    device_id=self._device_id(),
                )
            except Exception as exc:  # noqa: BLE001 - AuthError's text, else the generic error
                yield self._fail(SIGN_UP_TAB, exc, "sign-up")
                return
            self.signup_sent_to = result.email  # the "Check your e-mail" panel replaces the form
            if result.referral_refused:
                self.referral_refused_message = referrals.not_applied_message(code)
                self.referral_code = ""  # not offered again at the first purchase
        finally:
            self.signup_busy = False


class CallbackState(AuthState):
    """The page a confirmation e-mail links to: ``/auth/callback?token=...``."""

    # "working" while checking, "welcome" once signed in.
    status: str = "working"

    @rx.event
    async def load(self):
        self.status = "working"
        yield
        token = self.router.url.query_parameters.get("token", "")
        if token:
            try:
                result = await run_blocking(
                    accounts.confirm_email_link, token, user_agent=self._user_agent(),
                    ip_address=self._client_ip(), device_id=self._device_id(),
                )
            except Exception:  # noqa: BLE001 - no user yet (not a signed_in handler): any failure is SPEC 8's
                # 'Authentication Failed' and back to /auth
                log.exception("e-mail confirmation failed unexpectedly")
                result = None
            if result is None:
                yield error_toast(*CALLBACK_FAILED)
                yield rx.redirect(routes.AUTH, replace=True)
                return
            user_id, pair = result
            if self.access_token or self.refresh_token:
                # The link replaces whatever session this browser held: end that one.
                await run_blocking(auth_sessions.end_session, self.access_token, self.refresh_token)
            await self._start_session(user_id, pair)
        else:
            user_id = await self._current_user_id()
            if user_id is None or not await self._load_user(user_id):
                yield rx.redirect(routes.AUTH, replace=True)
                return
        # 'Welcome!' (SPEC 2) stays on screen while the dashboard opens; no pause of its own
        # (a pause was 1.2 s, then 0.2 s, of the confirmation link's time to the dashboard).
        self.status = "welcome"
        yield
        yield rx.redirect(routes.DASHBOARD, replace=True)
