"""The demo checkout (/demo-checkout/{id}, marked TEST MODE) and the purchase result
page (/credits-purchased?session_id=...) (SPEC 2, 4, 7, 8).

With the demo checkout, Pay credits the account on the server in the same request
(``demo_checkout.finish``), as Stripe's ``checkout.session.completed``
webhook does in Stripe mode; the result page only reads back what happened, so
credits never depend on the browser reaching it. Every handler is ``async``,
re-checks the session (``await self._current_user_id()``) and runs service
calls off the event loop (``run_blocking``).
"""

from __future__ import annotations

import logging

import reflex as rx

from marketplace.features.billing import rules_packs as packs, rules_receipts as receipts
from marketplace.platform.texts import (
    CANCEL_FAILED,
    ERROR_TITLE,
    MISSING_SESSION,
    PAY_FAILED,
    PAY_FAILED_TITLE,
    PURCHASE_RESULT_TITLES,
    VERIFY_FAILED,
    VERIFY_ISSUE,
)
from marketplace.platform.offloop import run_blocking
from marketplace.features.billing import (
    service_demo_checkout as demo_checkout,
    service_payments as payments,
    service as purchases,
    service_referrals as referrals,
)
from marketplace.platform.ui.state_auth import AuthState, error_toast

log = logging.getLogger("marketplace.checkout")

def checkout_id_from_path(path: str) -> str:
    """The id segment of '/demo-checkout/{id}' ('' for anything else)."""
    parts = [part for part in (path or "").split("/") if part]
    return parts[1] if len(parts) == 2 and parts[0] == "demo-checkout" else ""


# --------------------------------------------------------------------------- /demo-checkout/{id}


def _checkout_view(session_id: str, user_id) -> tuple[object | None, bool]:
    """(this user's demo checkout or None, whether its first-purchase referral bonus is due), read
    off the loop in one go. The bonus line is informational (paying decides it): a failed check is
    logged and leaves it out."""
    row = demo_checkout.details(session_id, user_id)
    if row is None or row.status != "open":
        return row, False
    try:
        return row, referrals.first_purchase_bonus_eligible(user_id)
    except Exception:  # noqa: BLE001 - see above
        log.exception("referral check on the test checkout failed")
        return row, False


class DemoCheckoutState(AuthState):
    """The demo checkout page (TEST MODE): only the session's owner sees it."""

    # "loading", "ready", "signed_out", "not_found"
    status: str = "loading"
    checkout_status: str = "open"  # open, complete, expired
    pack_name: str = ""
    pack_description: str = ""
    pack_credits: str = ""
    amount: str = ""
    per_credit: str = ""
    pack_breakdown: str = ""  # '1,250 + 250 bonus (20%)'; '' without a pack bonus
    referral_bonus: str = ""  # '750' when this purchase will get the first-purchase bonus
    busy: bool = False

    def _session_id(self) -> str:
        return checkout_id_from_path(self.router.url.path)

    @rx.event
    async def load(self):
        """The checkout of this tab's address, for its owner only. One trip off the loop reads it and
        the referral bonus line (the new tab's first paint waits on it)."""
        self.busy = False
        if self.status != "loading":  # another checkout was shown in this tab: not while this one loads
            self.status = "loading"
            yield
        session_id = self._session_id()
        user_id = await self._current_user_id()
        if user_id is None:
            self.status = "signed_out"
            return
        row, bonus_due = await run_blocking(_checkout_view, session_id, user_id) if session_id else (None, False)
        pack = packs.get_pack(row.bundle) if row is not None else None
        if row is None or pack is None:
            self.status = "not_found"
            return
        self.pack_name = pack.name
        self.pack_description = pack.description
        self.pack_credits = f"{pack.credits:,}"
        self.amount = receipts.money(row.amount_cents)
        self.per_credit = f"${pack.price_per_credit:.2f}"
        self.pack_breakdown = packs.breakdown_text(pack) if packs.bonus_credits(pack) else ""
        self.referral_bonus = (f"{packs.referral_bonus(pack, first_purchase=True, referred=True):,}"
                               if bonus_due else "")
        self.checkout_status = row.status
        self.status = "ready"

    async def _finish(self, pay: bool) -> str | None:
        """Pay (credits at once) or cancel on the server; where to go next, or None."""
        session_id = self._session_id()
        user_id = await self._current_user_id()
        if user_id is None or not session_id:
            self.status = "signed_out" if user_id is None else "not_found"
            return None
        target = await run_blocking(demo_checkout.finish, session_id, user_id, pay=pay)
        if target is None:
            self.status = "not_found"
        return target

    @rx.event
    async def pay(self):
        if self.busy:
            return
        self.busy = True
        yield
        try:
            target = await self._finish(pay=True)
        except Exception:  # noqa: BLE001 - the transaction rolled back: the checkout stays open
            # Any failure, a refused one included, reads as the payment failing.
            log.exception("demo checkout payment failed")
            self.busy = False
            yield error_toast(PAY_FAILED_TITLE, PAY_FAILED)
            return
        self.busy = False
        if target is not None:
            self.checkout_status = "complete"
            yield rx.redirect(target)

    @rx.event
    async def cancel(self):
        if self.busy:
            return
        self.busy = True
        yield
        try:
            target = await self._finish(pay=False)
        except Exception:  # noqa: BLE001 - as in pay: any failure reads as the cancel failing (not signed_in's
            # toast, which would show a refusal's own text)
            log.exception("demo checkout cancel failed")
            self.busy = False
            yield error_toast(*CANCEL_FAILED)
            return
        self.busy = False
        if target is not None:
            yield rx.redirect(target)


# --------------------------------------------------------------------------- /credits-purchased


class CreditsPurchasedState(AuthState):
    """The result of a finished checkout: verifying, then success or failed."""

    # "verifying", "success", "failed", "signed_out"
    status: str = "verifying"
    credits_added: str = ""
    bonus_credits: str = ""
    new_balance: str = ""
    pack_name: str = ""
    pack_credits: str = ""
    pack_breakdown: str = ""
    error_message: str = ""
    demo_mode: bool = False

    @rx.var
    def page_title(self) -> str:
        """The tab's title: what this state of the page is (never 'Purchase Complete' for a failure)."""
        key = "missing" if self.status == "failed" and self.error_message == MISSING_SESSION else self.status
        return PURCHASE_RESULT_TITLES.get(key, PURCHASE_RESULT_TITLES["verifying"])

    def _fail(self, message: str):
        self.status = "failed"
        self.error_message = message
        return error_toast(message, VERIFY_ISSUE)

    @rx.event
    async def load(self):
        self.status = "verifying"
        self.error_message = ""
        self.credits_added = ""
        self.bonus_credits = ""
        self.new_balance = ""
        self.pack_name = ""
        self.pack_credits = ""
        self.pack_breakdown = ""
        yield
        self.demo_mode = await run_blocking(payments.demo_mode)
        session_id = (self.router.url.query_parameters.get("session_id") or "").strip()
        if not session_id:
            yield self._fail(MISSING_SESSION)
            return
        user_id = await self._current_user_id()
        if user_id is None:
            self.status = "signed_out"
            return
        try:
            result = await run_blocking(purchases.verify_purchase, user_id, session_id)
        except Exception as exc:  # noqa: BLE001 - a PurchaseError's message, else the SPEC's
            _, message = self._error_text(exc, (ERROR_TITLE, VERIFY_FAILED), f"verify_purchase for {user_id}")
            yield self._fail(message)
            return
        pack = packs.get_pack(result.bundle)
        self.credits_added = f"{result.credits_added:,}"
        self.bonus_credits = f"{result.bonus_credits:,}" if result.bonus_credits else ""
        self.new_balance = f"{result.balance:,}"
        self.pack_name = pack.name if pack else ""
        self.pack_credits = f"{result.credits_added - result.bonus_credits:,}"
        self.pack_breakdown = packs.breakdown_text(pack) if pack and packs.bonus_credits(pack) else ""
        self.credits = result.balance
        self.first_purchase_done = True
        self.status = "success"
