"""Buying credits: /pricing (referral box), /purchase-credits, the built-in
test checkout and /credits-purchased (SPEC 2, 4, 5, 7, 8, 9).

Every handler re-validates the session on the server (``_require_user_id``);
what the browser shows is never the protection. Amounts and credits always
come from ``core.packs`` through ``services.purchases``.

The referral code lives in ``AuthState.referral_code`` (session storage, key
``referral_code``): the one-segment capture and the pricing box fill it, an
invalid code clears it, and ``start_purchase`` receives it.
"""

from __future__ import annotations

import logging
import uuid

import reflex as rx

from marketplace import routes
from marketplace.core import packs
from marketplace.services import payments, purchases, referrals
from marketplace.services.purchases import PurchaseError
from marketplace.states.auth import AuthState

log = logging.getLogger("marketplace.purchase")

# SPEC 4 / 8 texts (word for word where the SPEC quotes them).
VALIDATING = "Validating code..."
INVALID_CODE = referrals.INVALID_CODE  # 'Invalid referral code. Please check and try again.'
BLANK_CODE = "Please enter a referral code."
OWN_CODE_HINT = "That is your own referral code. Share it with other investors to earn credits."
CODE_APPLIED = "Code applied! You'll get 50% bonus credits on your first purchase."
AUTH_REQUIRED_TITLE, AUTH_REQUIRED_MESSAGE = purchases.AUTH_REQUIRED
START_FAILED = purchases.START_FAILED
VERIFY_ISSUE = f"There was an issue verifying your purchase. Please contact support at {routes.SUPPORT_EMAIL}."
PAID_SHORTLY = "If your payment went through, the credits will be added to your account shortly."
CANCELED_NOTE = "Checkout canceled — no charge was made."
DEFAULT_PACK = next((pack.id for pack in packs.PACKS if pack.popular), packs.PACKS[0].id)


def _money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def _bonus_eligible(user_id: uuid.UUID, stored_code_valid: bool) -> bool:
    return referrals.first_purchase_bonus_eligible(user_id, stored_code_valid)


# --------------------------------------------------------------------------- /pricing


class PricingState(AuthState):
    """The referral code box on /pricing."""

    referral_input: str = ""
    # "" (nothing to show), "validating", "valid", "invalid", "blank"
    referral_status: str = ""
    own_code: bool = False
    applied_code: str = ""

    @rx.var
    def referral_busy(self) -> bool:
        return self.referral_status == "validating"

    @rx.var
    def apply_disabled(self) -> bool:
        return self.referral_status == "validating" or self.referral_input.strip() == ""

    @rx.event
    def load(self):
        """on_load: re-validate a stored code and show it as applied (or clear it)."""
        self.own_code = False
        self.applied_code = ""
        code = (self.referral_code or "").strip()
        if not code:
            self.referral_input = ""
            self.referral_status = ""
            return
        user_id = self._require_user_id()
        self.referral_input = code
        self._settle(code, user_id)

    def _settle(self, code: str, user_id: uuid.UUID | None) -> None:
        try:
            valid = referrals.is_valid_code(code, user_id)
            own = not valid and user_id is not None and referrals.owner_of(code) == user_id
        except Exception:  # noqa: BLE001 - an unreadable code is treated as invalid
            log.exception("referral code %r could not be validated", code)
            valid, own = False, False
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
    def apply_referral(self, form_data: dict | None = None):
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
        user_id = self._require_user_id()
        self._settle(code, user_id)

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
    test_mode: bool = True
    referral_valid: bool = False
    bonus_eligible: bool = False

    @rx.event
    def load(self):
        """on_load: ?pack= preselects, ?canceled=1 shows the canceled note."""
        params = self.router.url.query_parameters
        wanted = packs.get_pack(params.get("pack", ""))
        self.selected_pack = wanted.id if wanted else DEFAULT_PACK
        self.canceled = params.get("canceled", "") in ("1", "true")
        self.busy = False
        self.checkout_url = ""
        self.test_mode = not payments.stripe_enabled()
        user_id = self._require_user_id()
        code = (self.referral_code or "").strip()
        self.referral_valid = False
        self.bonus_eligible = False
        try:
            if code:
                self.referral_valid = referrals.is_valid_code(code, user_id)
                if not self.referral_valid:
                    self.referral_code = ""  # re-validated on load, cleared when invalid (SPEC 4)
            if user_id is not None:
                self.bonus_eligible = _bonus_eligible(user_id, self.referral_valid)
        except Exception:  # noqa: BLE001 - the summary's bonus line is informational only
            log.exception("referral check on /purchase-credits failed")

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
    def purchase(self):
        """start_purchase on the server, then open the checkout in a new tab."""
        if self.busy:
            return
        user_id = self._require_user_id()
        if user_id is None:
            yield rx.toast.error(AUTH_REQUIRED_TITLE, description=AUTH_REQUIRED_MESSAGE)
            return
        self.busy = True
        self.canceled = False
        self.checkout_url = ""
        yield
        try:
            checkout = purchases.start_purchase(user_id, self.selected_pack, self.referral_code or None)
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


# --------------------------------------------------------------------------- /test-checkout/{id}


def checkout_id_from_path(path: str) -> str:
    """The id segment of '/test-checkout/{id}' ('' for anything else)."""
    parts = [part for part in (path or "").split("/") if part]
    return parts[1] if len(parts) == 2 and parts[0] == "test-checkout" else ""


class TestCheckoutState(AuthState):
    """The built-in TEST MODE checkout page: only the session's owner sees it."""

    # "loading", "ready", "signed_out", "not_found"
    status: str = "loading"
    checkout_status: str = "open"  # open, complete, expired
    pack_name: str = ""
    pack_description: str = ""
    pack_credits: str = ""
    amount: str = ""
    per_credit: str = ""
    busy: bool = False

    @rx.event
    def load(self):
        self.status = "loading"
        self.busy = False
        yield
        session_id = checkout_id_from_path(self.router.url.path)
        user_id = self._require_user_id()
        if user_id is None:
            self.status = "signed_out"
            return
        row = payments.test_checkout_details(session_id, user_id) if session_id else None
        pack = packs.get_pack(row.bundle) if row is not None else None
        if row is None or pack is None:
            self.status = "not_found"
            return
        self.pack_name = pack.name
        self.pack_description = pack.description
        self.pack_credits = f"{pack.credits:,}"
        self.amount = _money(row.amount_cents)
        self.per_credit = f"${pack.price_per_credit:.2f}"
        self.checkout_status = row.status
        self.status = "ready"

    def _finish(self, pay: bool):
        if self.busy:
            return
        self.busy = True
        yield
        session_id = checkout_id_from_path(self.router.url.path)
        user_id = self._require_user_id()
        target = payments.finish_test_checkout(session_id, user_id, pay=pay) if user_id and session_id else None
        if target is None:
            self.busy = False
            self.status = "signed_out" if user_id is None else "not_found"
            return
        yield rx.redirect(target)

    @rx.event
    def pay(self):
        yield from self._finish(pay=True)

    @rx.event
    def cancel(self):
        yield from self._finish(pay=False)


# --------------------------------------------------------------------------- /credits-purchased


class CreditsPurchasedState(AuthState):
    """Verification of a finished checkout: verifying, then success or failed."""

    # "verifying", "success", "failed", "signed_out"
    status: str = "verifying"
    credits_added: str = ""
    bonus_credits: str = ""
    new_balance: str = ""
    pack_name: str = ""
    error_message: str = ""

    @rx.event
    def load(self):
        self.status = "verifying"
        self.error_message = ""
        self.credits_added = ""
        self.bonus_credits = ""
        self.new_balance = ""
        self.pack_name = ""
        yield
        session_id = (self.router.url.query_parameters.get("session_id") or "").strip()
        if not session_id:
            self.status = "failed"
            self.error_message = purchases.MISSING_SESSION
            yield rx.toast.error(self.error_message, description=VERIFY_ISSUE)
            return
        user_id = self._require_user_id()
        if user_id is None:
            self.status = "signed_out"
            return
        try:
            result = purchases.verify_purchase(user_id, session_id)
        except PurchaseError as exc:
            self.status = "failed"
            self.error_message = exc.message or purchases.VERIFY_FAILED
            yield rx.toast.error(self.error_message, description=VERIFY_ISSUE)
            return
        except Exception:  # noqa: BLE001
            log.exception("verify_purchase failed for %s", user_id)
            self.status = "failed"
            self.error_message = purchases.VERIFY_FAILED
            yield rx.toast.error(self.error_message, description=VERIFY_ISSUE)
            return
        pack = packs.get_pack(result.bundle)
        self.credits_added = f"{result.credits_added:,}"
        self.bonus_credits = f"{result.bonus_credits:,}" if result.bonus_credits else ""
        self.new_balance = f"{result.balance:,}"
        self.pack_name = pack.name if pack else ""
        self.credits = result.balance
        self.status = "success"
