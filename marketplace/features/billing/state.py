"""/purchase-credits: pack selection and the purchase button (SPEC 2, 4, 5, 7,
8, 9). The /pricing referral box is ``billing.state_pricing``; the demo checkout and
/credits-purchased are ``billing.state_checkout``.

Every handler re-validates the session on the server (``await
self._current_user_id()``); what the browser shows is never the protection.
Amounts and credits always come from ``billing.rules_packs`` through
``billing.service``. Handlers are ``async`` and run every service call
off the event loop (``run_blocking``).

The referral code lives in ``AuthState.referral_code`` (session storage, key
``referral_code``): the one-segment capture and the pricing box fill it, an
invalid code clears it (re-validated here on load), and ``start_purchase``
receives it.
"""

from __future__ import annotations

import logging
import uuid

import reflex as rx

from marketplace.features.billing import rules_packs as packs
from marketplace.platform.texts import ERROR_TITLE, PURCHASE_AUTH_REQUIRED, START_FAILED
from marketplace.platform.offloop import run_blocking
from marketplace.features.billing import (
    service_payments as payments,
    service as purchases,
    service_referrals as referrals,
)
from marketplace.platform.ui.state_auth import AuthState
from marketplace.platform.ui.state_browser import browser_origin
from marketplace.platform.ui.state_signed_in import signed_in

log = logging.getLogger("marketplace.purchase")


DEFAULT_PACK = next((pack.id for pack in packs.PACKS if pack.popular), packs.PACKS[0].id)


# --------------------------------------------------------------------------- blocking work (run off the loop)


def _purchase_context(code: str, user_id: uuid.UUID | None) -> tuple[bool, bool, bool]:
    """(test mode, stored code valid, first-purchase bonus due) for /purchase-credits."""
    demo_mode = payments.demo_mode()
    valid = eligible = False
    try:
        if code:
            valid = referrals.is_valid_code(code, user_id)
        if user_id is not None:
            eligible = referrals.first_purchase_bonus_eligible(user_id, valid)
    except Exception:  # noqa: BLE001 - the summary's bonus line is informational only
        log.exception("referral check on /purchase-credits failed")
    return demo_mode, valid, eligible


# --------------------------------------------------------------------------- /purchase-credits


class PurchaseState(AuthState):
    """Pack selection and the purchase button."""

    selected_pack: str = DEFAULT_PACK
    # The packs take a click only once the page's load has set the selection: a click on the prerendered
    # page (before the app is live) or before the load would be undone by it, and a buyer who saw Starter
    # chosen could be charged for Pro. False in the prerendered page, True once ``load`` has run.
    packs_ready: bool = False
    busy: bool = False
    canceled: bool = False
    checkout_url: str = ""
    demo_mode: bool = False
    referral_valid: bool = False
    bonus_eligible: bool = False

    @rx.event
    async def load(self):
        """on_load: ?pack= preselects, ?canceled=1 shows the canceled note."""
        params = self.router.url.query_parameters
        wanted = packs.get_pack(params.get("pack", ""))
        self.selected_pack = wanted.id if wanted else DEFAULT_PACK
        self.packs_ready = True
        self.canceled = params.get("canceled", "") in ("1", "true")
        self.busy = False
        self.checkout_url = ""
        user_id = await self._current_user_id()
        code = (self.referral_code or "").strip()
        self.demo_mode, self.referral_valid, self.bonus_eligible = await run_blocking(
            _purchase_context, code, user_id
        )
        if code and not self.referral_valid:
            self.referral_code = ""  # re-validated on load, cleared when invalid (SPEC 4)
        if user_id is not None:
            try:
                await self._load_buyer(user_id)
            except Exception:  # noqa: BLE001 - the header's balance from the session check stays
                log.exception("balance read on /purchase-credits failed")

    @rx.var
    def bonus_shown(self) -> bool:
        """The referral first-purchase bonus is promised: due on load and not used up since
        (a purchase paid in another tab sets ``first_purchase_done``)."""
        return self.bonus_eligible and not self.first_purchase_done

    @rx.var
    def balance_label(self) -> str:
        return f"{self.credits:,} credits"

    @rx.event
    def select_pack(self, pack_id: str):
        if self.packs_ready and packs.get_pack(pack_id) is not None:
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
        if pack is None or not self.bonus_shown:
            return ""
        return f"{packs.referral_bonus(pack, first_purchase=True, referred=True):,}"

    @rx.var
    def pack_total_credits(self) -> str:
        pack = packs.get_pack(self.selected_pack)
        if pack is None:
            return ""
        bonus = packs.referral_bonus(pack, first_purchase=True, referred=True) if self.bonus_shown else 0
        return f"{pack.credits + bonus:,}"

    @rx.var
    def pack_breakdown(self) -> str:
        """'1,250 + 250 bonus (20%)' ('' for a pack without a bonus): ``billing.rules_packs``."""
        pack = packs.get_pack(self.selected_pack)
        return packs.breakdown_text(pack) if pack and packs.bonus_credits(pack) else ""

    @rx.var
    def pack_price(self) -> str:
        pack = packs.get_pack(self.selected_pack)
        return f"${pack.price:,}" if pack else ""

    @rx.var
    def pack_per_credit(self) -> str:
        pack = packs.get_pack(self.selected_pack)
        return f"${pack.price_per_credit:.2f}" if pack else ""

    @rx.event
    @signed_in((ERROR_TITLE, START_FAILED), signed_out=PURCHASE_AUTH_REQUIRED, busy="busy")
    async def purchase(self, user_id: uuid.UUID):
        """start_purchase on the server, then open the checkout in a new tab. The
        return addresses point at the address this browser is on (unless SITE_URL
        is set), so the buyer comes back signed in. A PurchaseError's text, else
        the SPEC's generic failure."""
        self.canceled = False
        self.checkout_url = ""
        yield
        checkout = await run_blocking(
            purchases.start_purchase, user_id, self.selected_pack, self.referral_code or None,
            origin=browser_origin(self),
        )
        self.busy = False
        self.checkout_url = checkout.url
        self._watch_checkout(checkout.id)  # this tab follows the balance while it is paid elsewhere
        yield rx.redirect(checkout.url, is_external=True)
