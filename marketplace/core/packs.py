"""Credit packs (SPEC section 9), defined once for every page and the server.

The server charges and credits from this table only: a client never says how
many credits or dollars a purchase is worth.
"""

from __future__ import annotations

from dataclasses import dataclass

REFERRAL_FIRST_PURCHASE_BONUS = 0.5  # the referred buyer: +50 % credits on the first purchase
REFERRER_CREDITS_PER_DOLLAR = 2  # the referrer: 2 credits for every $1 the referral spends


@dataclass(frozen=True)
class CreditPack:
    id: str
    name: str
    credits: int
    price: int  # whole US dollars
    description: str
    features: tuple[str, ...]
    popular: bool = False

    @property
    def price_per_credit(self) -> float:
        return round(self.price / self.credits, 2)

    @property
    def amount_cents(self) -> int:
        return self.price * 100


PACKS: tuple[CreditPack, ...] = (
    CreditPack(
        id="starter",
        name="Starter",
        credits=500,
        price=100,
        description="Perfect for trying out the marketplace",
        features=("500 credits", "Unlock 3-6 leads", "Full ROI analysis", "Credits never expire"),
    ),
    CreditPack(
        id="pro",
        name="Pro",
        credits=1500,
        price=270,
        description="For active investors closing deals every month",
        features=("1,500 credits", "20% bonus credits", "Unlock 10-17 leads", "Bulk scraper access",
                  "Credits never expire"),
        popular=True,
    ),
    CreditPack(
        id="enterprise",
        name="Enterprise",
        credits=5000,
        price=750,
        description="For teams and funds sourcing at scale",
        features=("5,000 credits", "40% bonus credits", "Unlock 33-58 leads", "Bulk scraper and webhook API",
                  "Priority support"),
    ),
)
PACKS_BY_ID = {pack.id: pack for pack in PACKS}


def get_pack(pack_id: str | None) -> CreditPack | None:
    return PACKS_BY_ID.get((pack_id or "").strip().lower())


def referral_bonus(pack: CreditPack, first_purchase: bool, referred: bool) -> int:
    """Bonus credits for the buyer: 50 % of the pack on a referred first purchase."""
    return int(pack.credits * REFERRAL_FIRST_PURCHASE_BONUS) if referred and first_purchase else 0


def referrer_reward(amount_cents: int) -> int:
    """Credits for the referrer: 2 per whole dollar the referral paid."""
    return (amount_cents // 100) * REFERRER_CREDITS_PER_DOLLAR
