"""The base state: who is signed in, re-checked on the server for every event.

Tokens live in the browser's localStorage (synced across tabs). Every handler
that reads or changes a user's data awaits ``self._current_user_id()``, which
validates the access token against ``auth_sessions`` and refreshes it when it
is expired or within ``REFRESH_MARGIN`` of expiry (the server's expiry decides;
see ``platform.sessions``); a client-side redirect is never the protection.
"""

from __future__ import annotations

import logging
import time
import uuid

import redis
import reflex as rx
from reflex.event import EventSpec
from reflex.istate.storage import ClientStorageBase

from marketplace.platform import routes
from marketplace.platform.config import get_settings
from marketplace.platform.devices import clean_device_id, new_device_id
from marketplace.platform.errors import DatabaseUnavailable, UserError
from marketplace.platform.web.net import client_ip
from marketplace.platform.times import clean_zone_name
from marketplace.platform.texts import (ACCESS_DENIED, CHECKOUT_PAID, DATABASE_DOWN, DATABASE_UNAVAILABLE,
                                        SERVER_UNAVAILABLE, SESSION_ENDED, UNEXPECTED_ERROR)
from marketplace.platform.offloop import run_blocking
from marketplace.platform import sessions as auth_sessions
from marketplace.platform.sessions import TokenPair
from marketplace.platform import account_status

log = logging.getLogger("marketplace.auth")

TIME_ZONE_STORAGE_KEY = "lv_tz"
# Queued from <head> before the app's scripts: the hydrate event reads localStorage after a network round
# trip, so times are formatted in the right zone from the first render (a tab without it is asked by
# ``TIME_ZONE_PROBE``). A task of its own, not part of parsing the page: the browser's first
# ``Intl.DateTimeFormat`` loads its zone data, 18-25 ms of main thread (70-100 ms on a phone's CPU), which
# made the page's parse one long task.
TIME_ZONE_SCRIPT = (
    "setTimeout(function(){try{localStorage.setItem('" + TIME_ZONE_STORAGE_KEY + "',"
    "Intl.DateTimeFormat().resolvedOptions().timeZone||'')}catch(e){}},0)"
)
TIME_ZONE_PROBE = "Intl.DateTimeFormat().resolvedOptions().timeZone"

# A checkout this tab opened is watched (``refresh_balance``) for at most this long.
CHECKOUT_WATCH_SECONDS = 15 * 60
BALANCE_CHECK_MIN_SECONDS = 2.0  # focus, visibility and the ticker together: one read per 2 s at most

# --------------------------------------------------------------------------- toasts
# Errors replace each other instead of piling up: every error toast carries the
# same sonner id (a new one updates the one on screen), and a success dismisses
# it (the problem it reported is over). Use these instead of rx.toast.error/success.
ERROR_TOAST_ID = "lv-error"


def error_toast(title: str, message: str | None = None):
    """The error toast: replaces an error toast still on screen."""
    props = {"description": message} if message else {}
    return rx.toast.error(title, id=ERROR_TOAST_ID, **props)


def unhandled_error(exception: Exception) -> EventSpec | None:
    """The app's backend exception handler: what an exception no handler caught becomes (an on_load
    outside ``platform.ui.state_signed_in``, the session store failing before any handler ran). The database down
    is said plainly (``DATABASE_DOWN``), the page-session store (Redis) down too (``SERVER_UNAVAILABLE``:
    the click was not carried out), each in one log line; anything else is logged with its traceback and
    shown as the SPEC's generic wording."""
    if isinstance(exception, DatabaseUnavailable):
        log.warning("event failed, database unreachable: %s", exception)
        return error_toast(*DATABASE_DOWN)
    if isinstance(exception, AttributeError) and "has no attribute 'set_" in str(exception):
        # A hand-made ``setvar`` of a var the page never sets (no setter): input, not a bug. One line, no
        # toast (the page never sends it; the refusal already on screen, e.g. Access Denied, stays).
        log.warning("forged setvar refused: %s", exception)
        return None
    if isinstance(exception, (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)):
        log.warning("event not carried out, session store unreachable: %s", exception)
        return error_toast(*SERVER_UNAVAILABLE)
    log.error("event failed", exc_info=exception)
    return error_toast(*UNEXPECTED_ERROR)


def success_toast(title: str, message: str | None = None) -> list:
    """A success toast, after dismissing an error toast still on screen."""
    props = {"description": message} if message else {}
    return [rx.toast.dismiss(ERROR_TOAST_ID), rx.toast.success(title, **props)]


# Scrolls an element into view once it is rendered (the state change that adds it
# reaches the page with this script; React renders it a frame or two later).
REVEAL_SCRIPT = (
    "(() => { let tries = 0; const go = () => { const el = document.getElementById(%r);"
    " if (el) { el.scrollIntoView({block: 'nearest'}); } else if (tries++ < 30) { requestAnimationFrame(go); } };"
    " requestAnimationFrame(go); })()"
)


def reveal(element_id: str):
    """Bring the element ``element_id`` (a form's refusal callout) into the window."""
    return rx.call_script(REVEAL_SCRIPT % element_id)


class AuthState(rx.State):
    """Session tokens and the signed-in user's header data."""

    access_token: str = rx.LocalStorage("", name="lv_access_token", sync=True)
    refresh_token: str = rx.LocalStorage("", name="lv_refresh_token", sync=True)
    access_expires_at: str = rx.LocalStorage("", name="lv_access_expires_at", sync=True)
    # A random id for this browser, made on its first visit: sessions record it,
    # and a referral from an account that signed in on the same browser is refused.
    device_id: str = rx.LocalStorage("", name="lv_device_id", sync=True)
    # The browser's IANA time zone, written by TIME_ZONE_SCRIPT in the page head
    # before the app starts (so the first event already carries it). It comes
    # from the client: every use goes through ``platform.times`` (unknown -> UTC).
    time_zone: str = rx.LocalStorage("", name=TIME_ZONE_STORAGE_KEY)
    # "1" once someone has signed in on this browser (no personal data): /auth then says
    # 'Welcome back', a first-time visitor a neutral heading.
    signed_in_here: str = rx.LocalStorage("", name="lv_signed_in_before", sync=True)
    # Referral code captured from a one-segment path or the pricing box.
    referral_code: str = rx.SessionStorage("", name="referral_code")

    auth_loading: bool = True
    # This page's load found the database unreachable: the shell shows DATABASE_DOWN in place of the page
    # (an empty page would read as "no data"); the next page load that reaches it clears it.
    db_down: bool = False
    _session_ended: bool = False  # backend only: the session ended while this tab held it
    user_id: str = ""
    user_email: str = ""
    first_name: str = ""
    credits: int = 0
    email_confirmed: bool = True
    is_super_admin: bool = False
    subscribed: bool = False
    subscription_type: str = "none"
    leads_remaining: int = 0
    subscription_end: str = ""
    # The account made a paid purchase: the referral first-purchase bonus is used up
    # (set by the pages that promise it, and by ``refresh_balance``).
    first_purchase_done: bool = False
    # A checkout this tab opened in another tab (``PurchaseState.purchase``): while it
    # is pending, the shell's ticker calls ``refresh_balance`` (platform.ui.balance_refresh).
    checkout_pending: bool = False
    _pending_checkout: str = ""
    _pending_since: float = 0.0
    _balance_checked: float = 0.0


    def __setattr__(self, name: str, value) -> None:
        """A plain var of this state (``QUIET_VARS``) given the value it already holds is left alone:
        not marked dirty, so neither it nor the computed vars that read it (a page's cards, which
        depend on the balance) are sent again. Every handler re-checks the session and re-reads the
        header's data; without this each one re-sent the whole header and a page's 24 cards."""
        if name in QUIET_VARS:
            held = getattr(self, name)
            if type(held) is type(value) and held == value:
                return
        super().__setattr__(name, value)

    @rx.var
    def is_authenticated(self) -> bool:
        return self.user_id != ""

    @rx.var
    def display_name(self) -> str:
        return self.first_name or self.user_email.split("@", 1)[0]

    # ------------------------------------------------------------------ helpers

    def _client_ip(self) -> str:
        """The client's address: the connection's peer, or behind TRUSTED_PROXY_HOPS
        proxies the matching X-Forwarded-For entry (``platform.web.net.client_ip``)."""
        headers = self.router.headers.raw_headers
        peer = headers.get("asgi-scope-client") or self.router.session.client_ip or ""
        return client_ip(peer, headers.get("x-forwarded-for", ""), get_settings().trusted_proxy_hops)

    def _zone(self) -> str:
        """The validated zone every time on the page is shown in ('UTC' when unknown)."""
        return clean_zone_name(self.time_zone)

    def _device_id(self) -> str:
        """This browser's id; made (and kept in its localStorage) when missing."""
        if not clean_device_id(self.device_id):
            self.device_id = new_device_id()
        return self.device_id

    def _user_agent(self) -> str:
        return (self.router.headers.user_agent or "")[:512]

    def _error_text(
        self, exc: BaseException, fallback: tuple[str, str] = UNEXPECTED_ERROR, what: str = "event"
    ) -> tuple[str, str]:
        """(title, message) for a failure caught in a handler.

        A ``UserError`` is a refusal meant for the user: its own title and message
        (``fallback``'s where one is empty). Anything else is a bug or an outage:
        logged with its traceback ("``what`` failed"), and the user reads
        ``fallback``, the SPEC's generic wording for the area."""
        if isinstance(exc, UserError):
            return exc.title or fallback[0], exc.message or fallback[1]
        if isinstance(exc, DatabaseUnavailable):  # an outage, not a bug: one line, and said plainly
            log.warning("%s failed, database unreachable: %s", what, exc)
            return fallback[0], DATABASE_UNAVAILABLE
        log.exception("%s failed", what, exc_info=exc)
        return fallback

    def _error_toast(self, exc: BaseException, fallback: tuple[str, str] = UNEXPECTED_ERROR, what: str = "event"):
        """The error toast for ``exc`` (see ``_error_text``). Handlers acting for the signed-in
        user get it from ``platform.ui.state_signed_in`` (``@signed_in(AREA_FAILED)``) instead of catching."""
        title, message = self._error_text(exc, fallback, what)
        return error_toast(title, message)

    def _access_denied(self, signed_in: bool):
        """A super-admin-only event from anyone else (``platform.ui.state_signed_in``, SPEC 6): the toast
        'Access Denied: ...' and back to /; signed out, straight to /."""
        home = rx.redirect(routes.HOME, replace=True)
        return [error_toast(ACCESS_DENIED), home] if signed_in else home

    def _store_tokens(self, pair: TokenPair) -> None:
        self.access_token = pair.access_token
        self.refresh_token = pair.refresh_token
        self.access_expires_at = pair.access_expires_at.isoformat()

    def _clear_user(self) -> None:
        self.access_token = ""
        self.refresh_token = ""
        self.access_expires_at = ""
        self.user_id = ""
        self.user_email = ""
        self.first_name = ""
        self.credits = 0
        self.email_confirmed = True
        self.is_super_admin = False
        self.first_purchase_done = False
        self._forget_checkout()
        self._reset_subscription()

    def _forget_checkout(self) -> None:
        self.checkout_pending = False
        self._pending_checkout = ""
        self._pending_since = 0.0

    def _watch_checkout(self, checkout_id: str) -> None:
        """A checkout this tab opened: watch it until it is paid or given up (bounded)."""
        self.checkout_pending = True
        self._pending_checkout = checkout_id
        self._pending_since = time.monotonic()

    async def _load_buyer(self, user_id: uuid.UUID) -> str:
        """Balance, the first-purchase fact and the watched checkout's status, in one read."""
        status = await run_blocking(account_status.buyer_status, user_id, self._pending_checkout)
        self.credits = status.balance
        self.first_purchase_done = status.has_paid
        return status.checkout_status

    def _reset_subscription(self) -> None:
        self.subscribed = False
        self.subscription_type = "none"
        self.leads_remaining = 0
        self.subscription_end = ""

    async def _current_user_id(self) -> uuid.UUID | None:
        """Validate (and if needed refresh) the session on the server; None when
        signed out. Every handler that reads or changes a user's data awaits it.
        The database work runs off the event loop."""
        if not self.access_token and not self.refresh_token:
            self._clear_user()
            return None
        check = await run_blocking(auth_sessions.resolve_session, self.access_token, self.refresh_token)
        if check.refreshed is not None:
            self._store_tokens(check.refreshed)
        elif check.current_expires_at is not None:
            # The server's expiry; for a pair another tab replaced a moment ago,
            # the new pair's (its tokens arrive via localStorage).
            expires = check.current_expires_at.isoformat()
            if self.access_expires_at != expires:
                self.access_expires_at = expires
        if check.user_id is None:
            self._clear_user()
            self._session_ended = True  # told once, by the next page load or keep-alive
        return check.user_id

    def _session_ended_toast(self):
        """The 'Signed Out' notice for a tab whose session ended elsewhere; None otherwise."""
        if not self._session_ended:
            return None
        self._session_ended = False
        return rx.toast.info(SESSION_ENDED[0], description=SESSION_ENDED[1])

    async def _load_user(self, user_id: uuid.UUID) -> bool:
        """The header's data (user, credits, subscription badge), read off the loop."""
        try:
            user, status = await run_blocking(account_status.load_account, user_id)
        except Exception:  # noqa: BLE001 - keep what the header shows; the next event retries
            log.exception("loading account %s failed", user_id)
            return bool(self.user_id)
        if user is None:
            self._clear_user()
            return False
        self.user_id = str(user.id)
        if self.signed_in_here != "1":
            self.signed_in_here = "1"
        self.user_email = user.email
        self.first_name = user.first_name
        self.credits = user.credits
        self.email_confirmed = user.email_confirmed
        self.is_super_admin = user.is_super_admin
        if status is not None:  # a failed check keeps the previous state (SPEC 8)
            self.subscribed = status.subscribed
            self.subscription_type = status.subscription_type
            self.leads_remaining = status.leads_remaining
            self.subscription_end = status.subscription_end.isoformat() if status.subscription_end else ""
        return True

    async def _start_session(self, user_id: uuid.UUID, pair: TokenPair) -> None:
        self._store_tokens(pair)
        await self._load_user(user_id)
        self.auth_loading = False

    # ------------------------------------------------------------------ events

    async def _open_page(self) -> tuple[uuid.UUID | None, list]:
        """What every page load does first: the session resolved (once), the header's data, the 'Signed
        Out' notice and, when the head script did not run (dev server), the tab's zone asked once.
        Returns the user (None: signed out) and those events; with the database unreachable, None and
        ``db_down`` set (the shell shows DATABASE_DOWN in place of the page)."""
        self._device_id()
        try:
            user_id = await self._current_user_id()
        except DatabaseUnavailable as exc:  # the page says so instead of showing itself empty
            self._error_text(exc, DATABASE_DOWN, "page load")  # its log line; the shell shows the notice
            self.db_down = True  # auth_loading stays: the header shows neither 'Login' nor an account
            return None, []
        self.db_down = False
        if user_id is not None:
            await self._load_user(user_id)
        self.auth_loading = False
        events = []
        if not self.time_zone:
            events.append(rx.call_script(TIME_ZONE_PROBE, callback=AuthState.remember_time_zone))
        ended = self._session_ended_toast()
        if ended is not None:
            events.append(ended)
        return user_id, events

    @rx.event
    async def check_session(self):
        """Runs on every page load: resolve the session, then the header shows."""
        _, events = await self._open_page()
        return events or None

    @rx.event
    def remember_time_zone(self, name: str):
        """The tab's zone, reported by ``TIME_ZONE_PROBE``; kept only when ``zoneinfo`` knows it."""
        self.time_zone = clean_zone_name(name)

    @rx.event
    async def keep_alive(self):
        """Called every few minutes by the shell: refreshes tokens before expiry."""
        if self.access_token or self.refresh_token:
            user_id = await self._current_user_id()
            if user_id is not None:
                await self._load_user(user_id)
        return self._session_ended_toast()

    @rx.event
    async def refresh_balance(self):
        """The tab came back into view, or a checkout it opened is pending: the balance
        and the first-purchase fact from the server, so a purchase paid in another tab
        shows here without a reload. Throttled; the watch ends when the checkout is no
        longer pending or after ``CHECKOUT_WATCH_SECONDS``."""
        now = time.monotonic()
        if not self.user_id or now - self._balance_checked < BALANCE_CHECK_MIN_SECONDS:
            return None
        self._balance_checked = now
        user_id = await self._current_user_id()
        if user_id is None:
            return self._session_ended_toast()
        try:
            checkout_status = await self._load_buyer(user_id)
        except Exception:  # noqa: BLE001 - a background check: the next one retries
            log.exception("balance check for %s failed", user_id)
            return None
        watched_too_long = now - self._pending_since > CHECKOUT_WATCH_SECONDS
        if self.checkout_pending and (checkout_status != "pending" or watched_too_long):
            self._forget_checkout()
            if checkout_status == "paid":
                return success_toast(CHECKOUT_PAID[0], CHECKOUT_PAID[1].format(balance=self.credits))
        return None

    @rx.event
    async def sign_out(self):
        """Revoke the session on the server, forget the tokens and this tab's state, go home."""
        if self.access_token or self.refresh_token:
            try:
                await run_blocking(auth_sessions.end_session, self.access_token, self.refresh_token)
            except Exception:  # noqa: BLE001 - the tab forgets the tokens either way
                log.exception("sign-out could not revoke the session")
        self._clear_user()
        # A fresh page with a fresh state: nothing the user saw stays in this tab's
        # server-side state (the state is keyed by a token in session storage).
        return [rx.clear_session_storage(), rx.call_script(f"window.location.replace('{routes.HOME}')")]



# AuthState's vars sent to the browser that are not browser storage (storage vars mirror the browser's
# own copy, which another tab may change): the ones ``AuthState.__setattr__`` leaves alone when unchanged.
QUIET_VARS = frozenset(name for name, field in AuthState.get_fields().items()
                       if name in AuthState.base_vars
                       and not isinstance(field.default_value(), ClientStorageBase))
