"""Credit packs (SPEC section 9), defined once for every page and the server.

The server charges and credits from this table only: a client never says how
many credits or dollars a purchase is worth.

Pack bonuses. SPEC 9 lists Pro's 1,500 credits with "20% bonus credits" and
Enterprise's 5,000 with "40% bonus credits"; the totals and prices stand. The
bonus is read as a share of the pack's base credits (the usual meaning of
"X% bonus": base + X% of base = the credits you get), and every screen shows
the same whole-credit breakdown (``breakdown_text``):

- Starter: 500 credits, no bonus.
- Pro: 1,250 + 250 bonus (20%): exactly 20% of 1,250.
- Enterprise: 3,571 + 1,429 bonus (40%). 5,000 / 1.4 = 3,571.43 is not a whole
  number of credits, so the base is rounded down and the rounding credit goes
  to the bonus: 1,429 is 40.02% of 3,571, at least the 40% promised, never
  less (3,572 + 1,428 would be 39.98%).

``base_credits`` + ``bonus_credits`` is always the pack's ``credits``: the bonus
is a way of reading the pack, not extra credits on top of it. The referral
first-purchase bonus (50% of the pack's credits, SPEC 9) is separate and is
shown separately ("Referral bonus +750").
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
    bonus_percent: int = 0  # the "N% bonus credits" SPEC 9 lists for the pack

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
        bonus_percent=20,
    ),
    CreditPack(
        id="enterprise",
        name="Enterprise",
        credits=5000,
        price=750,
        description="For teams and funds sourcing at scale",
        features=("5,000 credits", "40% bonus credits", "Unlock 33-58 leads", "Bulk scraper and webhook API",
                  "Priority support"),
        bonus_percent=40,
    ),
)
PACKS_BY_ID = {pack.id: pack for pack in PACKS}


def get_pack(pack_id: str | None) -> CreditPack | None:
    return PACKS_BY_ID.get((pack_id or "").strip().lower())


def base_credits(pack: CreditPack) -> int:
    """The pack's credits before its bonus: the largest whole base whose bonus
    (credits - base) is at least ``bonus_percent`` of it (see the module doc)."""
    return pack.credits * 100 // (100 + pack.bonus_percent)


def bonus_credits(pack: CreditPack) -> int:
    """The pack's bonus credits (0 for a pack without a listed bonus)."""
    return pack.credits - base_credits(pack)


def breakdown_text(pack: CreditPack) -> str:
    """'1,250 + 250 bonus (20%)'; a pack without a bonus reads '500'."""
    bonus = bonus_credits(pack)
    if not bonus:
        return f"{pack.credits:,}"
    return f"{base_credits(pack):,} + {bonus:,} bonus ({pack.bonus_percent}%)"


def referral_bonus(pack: CreditPack, first_purchase: bool, referred: bool) -> int:
    """Bonus credits for the buyer: 50 % of the pack on a referred first purchase."""
    return int(pack.credits * REFERRAL_FIRST_PURCHASE_BONUS) if referred and first_purchase else 0


def referrer_reward(amount_cents: int) -> int:
    """Credits for the referrer: 2 per whole dollar the referral paid."""
    return (amount_cents // 100) * REFERRER_CREDITS_PER_DOLLAR
