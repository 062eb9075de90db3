"""Billing: credit packs (/pricing, /purchase-credits), checkout (Stripe or the TEST MODE demo checkout), receipts,
referrals and subscriptions.

What other features use of it is exported below; they import it from ``marketplace.features.billing``
(``platform.exports``)."""

from marketplace.platform.exports import lazy_exports

__getattr__, __all__ = lazy_exports(__name__, {
    "view_purchases": ("purchases_card",),
    "view_referrals": ("referrals_tab",),
}, modules=("service_referrals",))
