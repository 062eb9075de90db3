"""What a buyer can see of their own purchases: the history with receipts, and the
cheap status check an open tab makes while a checkout it started is pending.

Read-only (``read_scope``). Pack credits and the pack bonus split come from
``billing.rules_packs`` (the purchase row stores the pack's credits and the referral
bonus it was booked with). Only the user's own rows are ever returned.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import select

from marketplace.features.billing import rules_packs as packs
from marketplace.platform.db import read_scope
from marketplace.platform.models import CreditPurchase

HISTORY_LIMIT = 100


@dataclass(frozen=True)
class PurchaseRow:
    id: uuid.UUID
    bundle: str
    pack_name: str
    amount_cents: int
    credits: int  # the pack's credits, its bonus included
    base_credits: int
    pack_bonus: int
    bonus_percent: int
    referral_bonus: int  # the first-purchase referral bonus booked with it (0 otherwise)
    status: str  # pending, paid, failed, canceled
    provider: str
    created_at: datetime
    completed_at: datetime | None

    @property
    def total_credits(self) -> int:
        """Credits this purchase added (or will add, while pending) to the balance."""
        return self.credits + self.referral_bonus



def _row(purchase: CreditPurchase) -> PurchaseRow:
    pack = packs.get_pack(purchase.bundle)
    # A row whose credits differ from today's pack keeps its stored credits, without a split.
    split = pack is not None and pack.credits == purchase.credits
    base = packs.base_credits(pack) if split else purchase.credits
    return PurchaseRow(
        id=purchase.id, bundle=purchase.bundle, pack_name=pack.name if pack else purchase.bundle.title(),
        amount_cents=purchase.amount_cents, credits=purchase.credits, base_credits=base,
        pack_bonus=purchase.credits - base, bonus_percent=pack.bonus_percent if split else 0,
        referral_bonus=purchase.bonus_credits, status=purchase.status, provider=purchase.provider,
        created_at=purchase.created_at, completed_at=purchase.completed_at,
    )


def list_purchases(user_id: uuid.UUID, limit: int = HISTORY_LIMIT) -> list[PurchaseRow]:
    """The user's purchases, newest first (at most ``limit``)."""
    with read_scope() as session:
        rows = session.exec(
            select(CreditPurchase).where(CreditPurchase.user_id == user_id)
            .order_by(CreditPurchase.created_at.desc(), CreditPurchase.id).limit(limit)
        ).all()
        return [_row(row) for row in rows]


def get_purchase(user_id: uuid.UUID, purchase_id: str | uuid.UUID) -> PurchaseRow | None:
    """One of the user's purchases (None for a malformed id, an unknown one, or someone else's)."""
    try:
        pid = purchase_id if isinstance(purchase_id, uuid.UUID) else uuid.UUID(str(purchase_id))
    except ValueError:
        return None
    with read_scope() as session:
        row = session.get(CreditPurchase, pid)
        return _row(row) if row is not None and row.user_id == user_id else None


