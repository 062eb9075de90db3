"""The Purchases card of the dashboard's Settings tab: the signed-in user's credit
purchases with a receipt each; it loads when the card mounts.
Rows are display strings computed on the server; dates in the browser's zone (``platform.times``). The receipt opens in a dialog and
downloads as plain text; both are re-read from the server for this user."""

from __future__ import annotations

import uuid

import reflex as rx

from marketplace.platform import routes
from marketplace.features.billing import rules_receipts as receipts
from marketplace.platform.errors import UserError
from marketplace.platform.times import format_datetime
from marketplace.platform.texts import PURCHASES_LOAD_FAILED, RECEIPT_FAILED, RECEIPT_NOT_FOUND
from marketplace.platform.offloop import run_blocking
from marketplace.features.billing import service_history as purchase_history
from marketplace.platform.ui.state_auth import AuthState
from marketplace.platform.ui.state_signed_in import signed_in

STATUS_COLORS = {"paid": "grass", "pending": "amber", "failed": "red", "canceled": "gray"}


def purchase_row(row: purchase_history.PurchaseRow, zone: str) -> dict[str, str]:
    return {
        "id": str(row.id),
        "number": receipts.receipt_number(str(row.id)),
        "pack": row.pack_name,
        "price": receipts.money(row.amount_cents),
        "credits": f"{row.credits:,}",
        "bonus": f"+{row.pack_bonus:,} ({row.bonus_percent}%)" if row.pack_bonus else "None",
        "breakdown": receipts.pack_credits_text(row.base_credits, row.pack_bonus, row.bonus_percent),
        "referral_bonus": f"+{row.referral_bonus:,}" if row.referral_bonus else "None",
        "total": f"{row.total_credits:,}",
        "date": format_datetime(row.created_at, zone),
        "paid_date": format_datetime(row.completed_at, zone) if row.status == "paid" else "",
        "status": receipts.status_label(row.status),
        "status_color": STATUS_COLORS.get(row.status, "gray"),
        "payment": "Stripe" if row.provider == "stripe" else "Test checkout",
    }


def _receipt_text(row: purchase_history.PurchaseRow, zone: str) -> str:
    return receipts.receipt_text(
        purchase_id=str(row.id), pack_name=row.pack_name, amount_cents=row.amount_cents, base=row.base_credits,
        bonus=row.pack_bonus, percent=row.bonus_percent, referral_bonus=row.referral_bonus, status=row.status,
        date=format_datetime(row.created_at, zone),
        paid_date=format_datetime(row.completed_at, zone) if row.status == "paid" else "", provider=row.provider,
    )


class PurchaseHistoryState(AuthState):
    purchases: list[dict[str, str]] = []
    loaded: bool = False
    load_failed: bool = False
    receipt: dict[str, str] = {}
    receipt_open: bool = False

    def _forget(self) -> None:
        self.purchases = []
        self.loaded = False
        self.load_failed = False
        self.receipt = {}
        self.receipt_open = False

    def _failed(self):
        self.load_failed = True
        return None

    @rx.event
    @signed_in((PURCHASES_LOAD_FAILED, ""), signed_out=routes.AUTH, after_error=_failed)
    async def load(self, user_id: uuid.UUID):
        self._forget()  # nothing of a previous user or visit stays
        rows = await run_blocking(purchase_history.list_purchases, user_id)
        zone = self._zone()
        self.purchases = [purchase_row(row, zone) for row in rows]
        self.loaded = True

    async def _own(self, user_id: uuid.UUID, purchase_id: str) -> purchase_history.PurchaseRow:
        row = await run_blocking(purchase_history.get_purchase, user_id, purchase_id) \
            if isinstance(purchase_id, str) else None
        if row is None:
            raise UserError(*RECEIPT_NOT_FOUND)
        return row

    @rx.event
    @signed_in(RECEIPT_FAILED, signed_out=routes.AUTH)
    async def open_receipt(self, user_id: uuid.UUID, purchase_id: str):
        row = await self._own(user_id, purchase_id)
        self.receipt = purchase_row(row, self._zone())
        self.receipt_open = True

    @rx.event
    def set_receipt_open(self, is_open: bool):
        if isinstance(is_open, bool):
            self.receipt_open = is_open

    @rx.event
    @signed_in(RECEIPT_FAILED, signed_out=routes.AUTH)
    async def download_receipt(self, user_id: uuid.UUID, purchase_id: str):
        """The receipt as a text file, written from this user's own row."""
        row = await self._own(user_id, purchase_id)
        name = f"leadvault-receipt-{receipts.receipt_number(str(row.id))}.txt"
        return rx.download(data=_receipt_text(row, self._zone()), filename=name)
