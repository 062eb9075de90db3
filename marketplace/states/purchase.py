"""Buying credits: /pricing (referral box) and /purchase-credits (SPEC 2, 4, 5,
7, 8, 9). The test checkout and /credits-purchased are in ``states.checkout``.

Every handler re-validates the session on the server (``await
self._current_user_id()``); what the browser shows is never the protection.
Amounts and credits always come from ``core.packs`` through
``services.purchases``. Handlers are ``async`` and run every service call
off the event loop (``run_blocking``).

The referral code lives in ``AuthState.referral_code`` (session storage, key
``referral_code``): the one-segment capture and the pricing box fill it, an
invalid code clears it, and ``start_purchase`` receives it.
"""

from __future__ import annotations

import logging
import uuid

import reflex as rx

from marketplace.core import packs
from marketplace.offloop import run_blocking
from marketplace.services import payments, purchases, referrals
from marketplace.services.purchases import PurchaseError
from marketplace.states.auth import AuthState
from marketplace.states.browser import browser_origin

log = logging.getLogger("marketplace.purchase")

# SPEC 4 / 8 texts (word for word where the SPEC quotes them).
VALIDATING = "Validating code..."
INVALID_CODE = referrals.INVALID_CODE  # 'Invalid referral code. Please check and try again.'
BLANK_CODE = "Please enter a referral code."
OWN_CODE_HINT = "That is your own referral code. Share it with other investors to earn credits."
CODE_APPLIED = "Code applied! You'll get 50% bonus credits on your first purchase."
AUTH_REQUIRED_TITLE, AUTH_REQUIRED_MESSAGE = purchases.AUTH_REQUIRED
START_FAILED = purchases.START_FAILED
CANCELED_NOTE = "Checkout canceled — no charge was made."
DEFAULT_PACK = next((pack.id for pack in packs.PACKS if pack.popular), packs.PACKS[0].id)


# --------------------------------------------------------------------------- blocking work (run off the loop)


def _check_code(code: str, user_id: uuid.UUID | None) -> tuple[bool, bool]:
    """(valid, the user's own code); an unreadable code is treated as invalid."""
    try:
        valid = referrals.is_valid_code(code, user_id)
        own = not valid and user_id is not None and referrals.owner_of(code) == user_id
    except Exception:  # noqa: BLE001
        log.exception("referral code %r could not be validated", code)
        return False, False
    return valid, own


def _purchase_context(code: str, user_id: uuid.UUID | None) -> tuple[bool, bool, bool]:
    """(test mode, stored code valid, first-purchase bonus due) for /purchase-credits."""
    test_mode = payments.test_mode()
    valid = eligible = False
    try:
        if code:
            valid = referrals.is_valid_code(code, user_id)
        if user_id is not None:
            eligible = referrals.first_purchase_bonus_eligible(user_id, valid)
    except Exception:  # noqa: BLE001 - the summary's bonus line is informational only
        log.exception("referral check on /purchase-credits failed")
    return test_mode, valid, eligible


# --------------------------------------------------------------------------- /pricing


class PricingState(AuthState):
    """The referral code box on /pricing."""

    referral_input: str = ""
    # "" (nothing to show), "validating", "valid", "invalid", "blank"
    referral_status: str = ""
    own_code: bool = False
    applied_code: str = ""
    test_mode: bool = False

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
        self.test_mode = await run_blocking(payments.test_mode)
        code = (self.referral_code or "").strip()
        if not code:
            self.referral_input = ""
            self.referral_status = ""
            return
        user_id = await self._current_user_id()
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


# --------------------------------------------------------------------------- /purchase-credits


class PurchaseState(AuthState):
    """Pack selection and the purchase button."""

    selected_pack: str = DEFAULT_PACK
    busy: bool = False
    canceled: bool = False
    checkout_url: str = ""
    test_mode: bool = False
    referral_valid: bool = False
    bonus_eligible: bool = False

    @rx.event
    async def load(self):
        """on_load: ?pack= preselects, ?canceled=1 shows the canceled note."""
        params = self.router.url.query_parameters
        wanted = packs.get_pack(params.get("pack", ""))
        self.selected_pack = wanted.id if wanted else DEFAULT_PACK
        self.canceled = params.get("canceled", "") in ("1", "true")
        self.busy = False
        self.checkout_url = ""
        user_id = await self._current_user_id()
        code = (self.referral_code or "").strip()
        self.test_mode, self.referral_valid, self.bonus_eligible = await run_blocking(
            _purchase_context, code, user_id
        )
        if code and not self.referral_valid:
            self.referral_code = ""  # re-validated on load, cleared when invalid (SPEC 4)

    @rx.var
    def balance_label(self) -> str:
        return f"{self.credits:,} credits"

    @rx.event
    def select_pack(self, pack_id: str):
        if packs.get_pack(pack_id) is not None:
            self.selected_pack = pack_id
            self.checkout_url = ""

    @rx.var
    def pack_name(self) -> str:
        pack = packs.get_pack(self.selected_pack)
        return pack.name if pack else ""

    @rx.var
    def pack_credits(self) -> str:
        pack = packs.get_pack(self.selected_pack)
        return f"{pack.credits:,}" if pack else ""

    @rx.var
    def pack_bonus(self) -> str:
        pack = packs.get_pack(self.selected_pack)
        if pack is None or not self.bonus_eligible:
            return ""
        return f"{packs.referral_bonus(pack, first_purchase=True, referred=True):,}"

    @rx.var
    def pack_total_credits(self) -> str:
        pack = packs.get_pack(self.selected_pack)
        if pack is None:
            return ""
        bonus = packs.referral_bonus(pack, first_purchase=True, referred=True) if self.bonus_eligible else 0
        return f"{pack.credits + bonus:,}"

    @rx.var
    def pack_price(self) -> str:
        pack = packs.get_pack(self.selected_pack)
        return f"${pack.price:,}" if pack else ""

    @rx.var
    def pack_per_credit(self) -> str:
        pack = packs.get_pack(self.selected_pack)
        return f"${pack.price_per_credit:.2f}" if pack else ""

    @rx.event
    async def purchase(self):
        """start_purchase on the server, then open the checkout in a new tab. The
        return addresses point at the address this browser is on (unless SITE_URL
        is set), so the buyer comes back signed in."""
        if self.busy:
            return
        user_id = await self._current_user_id()
        if user_id is None:
            yield rx.toast.error(AUTH_REQUIRED_TITLE, description=AUTH_REQUIRED_MESSAGE)
            return
        self.busy = True
        self.canceled = False
        self.checkout_url = ""
        yield
        try:
            checkout = await run_blocking(
                purchases.start_purchase, user_id, self.selected_pack, self.referral_code or None,
                origin=browser_origin(self),
            )
        except PurchaseError as exc:
            self.busy = False
            yield rx.toast.error(exc.title or "Error", description=exc.message or START_FAILED)
            return
        except Exception:  # noqa: BLE001 - anything else is the SPEC's generic failure
            log.exception("start_purchase failed for %s", user_id)
            self.busy = False
            yield rx.toast.error("Error", description=START_FAILED)
            return
        self.busy = False
        self.checkout_url = checkout.url
        yield rx.redirect(checkout.url, is_external=True)
