"""/pricing: the referral code box (SPEC 2, 4, 5, 8).

The referral code lives in ``AuthState.referral_code`` (session storage, key
``referral_code``): the one-segment capture and this box fill it, an invalid
code clears it, and ``PurchaseState.purchase`` hands it to the purchase.
Every handler re-validates the session on the server and runs service calls
off the event loop (``run_blocking``).
"""

from __future__ import annotations

import logging
import uuid

import reflex as rx

from marketplace.platform.offloop import run_blocking
from marketplace.features.billing import service_payments as payments, service_referrals as referrals
from marketplace.platform.ui.state_auth import AuthState

log = logging.getLogger("marketplace.purchase")


def _check_code(code: str, user_id: uuid.UUID | None) -> tuple[bool, bool]:
    """(valid, the user's own code); an unreadable code is treated as invalid. Blocking."""
    try:
        valid = referrals.is_valid_code(code, user_id)
        own = not valid and user_id is not None and referrals.owner_of(code) == user_id
    except Exception:  # noqa: BLE001 - visitors use the box too (not a signed_in handler): reads as invalid
        log.exception("referral code %r could not be validated", code)
        return False, False
    return valid, own


class PricingState(AuthState):
    """The referral code box on /pricing."""

    referral_input: str = ""
    # "" (nothing to show), "validating", "valid", "invalid", "blank"
    referral_status: str = ""
    own_code: bool = False
    applied_code: str = ""
    demo_mode: bool = False

    @rx.var
    def referral_busy(self) -> bool:
        return self.referral_status == "validating"

    @rx.var
    def apply_disabled(self) -> bool:
        return self.referral_status == "validating" or self.referral_input.strip() == ""

    @rx.event
    async def load(self):
        """on_load: the TEST MODE banner; re-validate a stored code and show it as
        applied (or clear it)."""
        self.own_code = False
        self.applied_code = ""
        self.demo_mode = await run_blocking(payments.demo_mode)
        user_id = await self._current_user_id()
        if user_id is not None:
            try:
                await self._load_buyer(user_id)  # no first-purchase promise once a purchase was made
            except Exception:  # noqa: BLE001 - visitors' page too (not a signed_in handler): keep the last known
                log.exception("buyer status on /pricing failed")
        code = (self.referral_code or "").strip()
        if not code:
            self.referral_input = ""
            self.referral_status = ""
            return
        self.referral_input = code
        await self._settle(code, user_id)

    async def _settle(self, code: str, user_id: uuid.UUID | None) -> None:
        valid, own = await run_blocking(_check_code, code, user_id)
        if valid:
            self.referral_code = code.upper()
            self.applied_code = code.upper()
            self.referral_input = code.upper()
            self.referral_status = "valid"
            self.own_code = False
        else:
            self.referral_code = ""
            self.applied_code = ""
            self.referral_status = "invalid"
            self.own_code = own

    @rx.event
    def set_referral_input(self, value: str):
        self.referral_input = (value or "")[:15]
        if self.referral_status in ("invalid", "blank"):
            self.referral_status = ""
            self.own_code = False

    @rx.event
    async def apply_referral(self, form_data: dict | None = None):
        """Apply: blank check, 'Validating code...', then valid or invalid."""
        if self.referral_status == "validating":
            return
        code = self.referral_input.strip()
        if not code:
            self.referral_status = "blank"
            return
        self.referral_status = "validating"
        self.own_code = False
        yield
        user_id = await self._current_user_id()
        await self._settle(code, user_id)

    @rx.event
    def remove_referral(self):
        self.referral_code = ""
        self.applied_code = ""
        self.referral_input = ""
        self.referral_status = ""
        self.own_code = False
