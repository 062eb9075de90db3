"""Unlocking a lead with credits: the quote, the confirmation, holders, and the county-record guarantee's refunds.

What other features use of it is exported below; they import it from ``marketplace.features.unlock``
(``platform.exports``)."""

from marketplace.platform.exports import lazy_exports

__getattr__, __all__ = lazy_exports(__name__, {
    "rules": ("quote_exclusive", "quote_unlock"),
    "rules_confirm": ("DEFAULT_THRESHOLD",),
    "rules_guarantee": ("faq_answer",),
    "rules_holders": (
        "HELD_BANDS", "HELD_BAND_BOUNDS", "HELD_SORT", "SPOTS_FILTER", "cap_faq", "held_chip", "held_text",
        "spots_chip", "spots_left", "spots_text",
    ),
    "service": ("UnlockError", "unlock_lead"),
    "service_counts": ("has_spot",),
    "state_confirm": ("UnlockConfirmVars",),
    "texts_holders": (
        "CAP_FAQ_QUESTION", "HELD_BASIS", "HELD_GROUP_LABEL", "HELD_SORT_LABEL", "SCRAPE_ALL_SOLD_OUT",
        "SPOTS_BASIS", "SPOTS_GROUP_LABEL", "SPOTS_OPTIONS",
    ),
    "view_confirm": ("unlock_confirm_dialog",),
    "view_settings": ("unlock_confirm_card",),
    "view_unlocked": ("unlocked_tab",),
}, modules=("rules_guarantee", "service_counts", "service_prefs", "service_refunds", "texts_guarantee"))
