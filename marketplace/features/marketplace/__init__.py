"""The marketplace (/marketplace): browse, filter, sort and page leads, the map, saved searches and their alerts,
and the lead card.

What other features use of it is exported below; they import it from ``marketplace.features.marketplace``
(``platform.exports``)."""

from marketplace.platform.exports import lazy_exports

__getattr__, __all__ = lazy_exports(__name__, {
    "rules": (
        "PACIFIC", "REFRESH_HOUR", "ROI_BANDS", "SIZE_BANDS", "mask_address", "next_refresh", "percent", "roi_band",
        "size_band", "usd",
    ),
    "rules_cards": ("beds_baths_text", "card_spots_left", "count_text", "number_text", "owner_flags"),
    "rules_criteria": ("CriteriaError", "Range", "SearchCriteria"),
    "rules_filter_values": ("STATE_OPTIONS",),
    "rules_headline": ("arv_used",),
    "rules_listing_links": ("external_links",),
    "rules_map": ("lead_token", "single_point", "zip_centre"),
    "rules_sale_dates": ("is_auction_soon", "local_today", "parse_date"),
    "rules_samples": ("HERO_SAMPLE", "HERO_SAMPLE_COST", "HERO_SAMPLE_ROI"),
    "service": ("rebuild_facets", "rebuild_facets_now"),
    "service_alerts": ("match_refresh",),
    "service_images": ("fetch_property_images",),
    "state_notifications": ("NotificationsState",),
    "state_saved_searches": ("SavedSearchesState",),
    "texts_headline": ("ARV_ESTIMATE", "ROI_VS_ESTIMATE"),
    "view_lead_map": ("lead_map",),
    "view_saved_searches": ("saved_searches_tab",),
}, modules=("rules_headline", "rules_sale_dates"))
