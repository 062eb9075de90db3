"""The bulk scraper (/bulkscraper), lead sources, and the webhook API that drives the scraper with a personal key.

What other features use of it is exported below; they import it from ``marketplace.features.scrape``
(``platform.exports``)."""

from marketplace.platform.exports import lazy_exports

__getattr__, __all__ = lazy_exports(__name__, {
    "rules": ("_number", "neutralize", "pick"),
    "rules_webhook_docs": ("curl_example",),
    "service": ("Progress", "ScrapeError", "ScrapeResult", "ScrapeUserNotFound", "generate_or_fail", "output_row"),
    "source": ("get_source",),
    "source_base": ("LeadSource", "SourceError"),
    "source_batchdata": ("BatchDataClient", "_quick_lists", "fetch_batchdata"),
    "source_batchdata_mapping": ("BATCHDATA",),
    "source_builtin": ("METRO_FACTOR", "STATE_PRICE_PER_SQFT", "STREET_NAMES", "SUFFIXES", "zip_price_level"),
    "source_rentcast_client": ("DEFAULT_BASE_URL", "RENTCAST", "RentCastClient"),
    "source_retrying": ("get_with_retries",),
    "state": ("result_row",),
    "state_webhook": ("WebhookKeyVars", "log_row"),
    "view_scrapes": ("scrapes_tab",),
    "view_webhook": ("example_block", "key_block", "log_block"),
}, modules=("rules", "service_webhooks"))
