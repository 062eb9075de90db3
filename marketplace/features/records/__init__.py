"""Public records: dataset files, ingest (files and portal pulls), markets, the records queue and worker, and the
leads made from records.

What other features use of it is exported below; they import it from ``marketplace.features.records``
(``platform.exports``)."""

from marketplace.platform.exports import lazy_exports

__getattr__, __all__ = lazy_exports(__name__, {
    "jobs_scheduler": ("scheduler_enabled",),
    "rules": ("HpiPoint", "MappedRecord", "RejectedRow", "SALE_LABELS"),
    "rules_address_display": ("display_city", "display_street"),
    "rules_arms_length": ("TOKEN_PRICE",),
    "rules_freshness": ("listed_line",),
    "rules_market_coverage": ("leads_text",),
    "rules_motivation": ("LEAD_TYPE_ORDER",),
    "rules_property_classes": ("describe",),
    "rules_roll_facts": ("ROLL_KEY", "card_facts_line", "card_last_sale", "card_use_line"),
    "rules_signal_currency": ("closes_because",),
    "service_comps": ("recorded_sales_near", "subject_property"),
    "service_inventory": ("scrape_source",),
    "service_markets": ("market_summaries", "market_summary"),
    "service_titles": ("list_place", "titles"),
    "source_opendata.markets": ("markets",),
}, modules=("jobs_lead_ops", "jobs_queue", "rules_open_since", "rules_parse", "rules_signal_currency", "service_jobs", "service_sales", "service_views"))
