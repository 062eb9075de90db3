"""Routes and product-wide names, defined once."""

import re
from urllib.parse import quote

APP_NAME = "LeadVault"
SUPPORT_EMAIL = "support@leadvault.app"

HOME = "/"
MARKETPLACE = "/marketplace"
BULK_SCRAPER = "/bulkscraper"
PRICING = "/pricing"
ABOUT = "/about"
CONTACT = "/contact"
LEGAL = "/legal"
LEGAL_PRIVACY = "/legal/privacy"
LEGAL_TERMS = "/legal/terms"
LEGAL_DISCLAIMER = "/legal/disclaimer"
AUTH = "/auth"
AUTH_CALLBACK = "/auth/callback"
AUTH_RESET = "/auth/reset"  # "Forgot password?": the request form, or with ?token= the new password
DASHBOARD = "/dashboard"
PROPERTY = "/property/[lead_id]"
# The property page prerendered before its data (its header, footer and "Loading property details..."): served
# for every /property/{id} (``platform.web.security``), so the page paints before its scripts run. A lead id
# is a UUID, never this; opened itself, it is a lead that does not exist.
PROPERTY_SHELL = "/property/loading"
# Each dynamic page with the path whose prerendered HTML serves it.
PAGE_SHELLS = {PROPERTY: PROPERTY_SHELL}
PURCHASE_CREDITS = "/purchase-credits"
CREDITS_PURCHASED = "/credits-purchased"
EXPLORER = "/explorerdev"
REFERRAL_CAPTURE = "/[referral_segment]"


def password_reset_url(token: str = "") -> str:
    return f"{AUTH_RESET}?token={token}" if token else AUTH_RESET


def property_url(lead_id: str) -> str:
    return f"/property/{lead_id}"


def purchase_credits_url(pack: str = "", canceled: bool = False) -> str:
    """/purchase-credits with a pack preselected (validated again on load), and
    the 'checkout canceled' note: where a canceled checkout comes back to."""
    query = "&".join(part for part in ("canceled=1" if canceled else "", f"pack={pack}" if pack else "") if part)
    return f"{PURCHASE_CREDITS}?{query}" if query else PURCHASE_CREDITS


# /bulkscraper opens its (collapsed) Webhook section and scrolls to it when asked.
WEBHOOK_SECTION = "webhook"
WEBHOOK_ANCHOR = "webhook-toggle"  # the section header's element id


def bulk_scraper_webhook_url() -> str:
    return f"{BULK_SCRAPER}?section={WEBHOOK_SECTION}"


# The demo checkout page (PAYMENTS=test, marked TEST MODE); billing.service_payments links to /demo-checkout/{id}.
DEMO_CHECKOUT = "/demo-checkout/[checkout_id]"


def demo_checkout_url(checkout_id: str) -> str:
    return f"/demo-checkout/{checkout_id}"


# Paths the API answers (FastAPI routers in marketplace/api/) and their URL builders.
API_SCRAPE_CSV = "/api/scrapes/{scrape_id}/csv"
API_WEBHOOK_DOCS = "/api/webhook-docs.md"
API_EXPLORER_CSV = "/api/explorer/leads.csv"
API_DEAL_SHEET = "/api/deals/{lead_id}/sheet.pdf"
API_PIPELINE_CSV = "/api/pipeline.csv"
API_OWNERS_CSV = "/api/owners.csv"  # the owner export (?layout=dialer|dialer_rows|hubspot&token=...)


def scrape_csv_url(scrape_id: str, token: str, kind: str) -> str:
    """A bulk scrape's CSV: ``kind`` results (the bulk scraper) or stored (the dashboard)."""
    return f"{API_SCRAPE_CSV.format(scrape_id=scrape_id)}?token={token}&kind={kind}"


def deal_sheet_url(lead_id: str, token: str, zone: str) -> str:
    """A lead's one-page PDF deal sheet (the analyzer's Download); its dates in the browser's ``zone``."""
    return f"{API_DEAL_SHEET.format(lead_id=lead_id)}?token={token}&tz={quote(zone, safe='')}"


def webhook_docs_url(user_id: str) -> str:
    return f"{API_WEBHOOK_DOCS}?user_id={user_id}"


def explorer_csv_url(view_params: str, token: str) -> str:
    return f"{API_EXPLORER_CSV}?{view_params}&token={token}"


def pipeline_csv_url(token: str) -> str:
    return f"{API_PIPELINE_CSV}?token={token}"


def owners_csv_url(layout: str, token: str) -> str:
    return f"{API_OWNERS_CSV}?layout={layout}&token={token}"


# Saved searches and alerts: the dashboard tab, a search opened on the
# marketplace, and the one-click unsubscribe link of the alert e-mails (GET and POST).
SAVED_SEARCHES_TAB = "saved"
API_ALERTS_UNSUBSCRIBE = "/api/alerts/unsubscribe"


def marketplace_url(query: str = "") -> str:
    """/marketplace with a filter query string (``Filters.to_query``)."""
    return f"{MARKETPLACE}?{query}" if query else MARKETPLACE


LEAD_PARAM = "lead"  # /marketplace?view=map&lead=<marker token>: the map opens with that lead's card


def lead_on_map_url(token: str) -> str:
    """The marketplace's map with one lead's card open (its unlock action included): where a locked lead's
    property page sends its viewer to unlock it."""
    return marketplace_url(f"view=map&{LEAD_PARAM}={token}")


def dashboard_tab_url(tab: str) -> str:
    return f"{DASHBOARD}?tab={tab}"


PIPELINE_TAB = "pipeline"


def pipeline_url() -> str:
    return dashboard_tab_url(PIPELINE_TAB)


def saved_searches_url() -> str:
    return dashboard_tab_url(SAVED_SEARCHES_TAB)


def alerts_unsubscribe_url(token: str) -> str:
    return f"{API_ALERTS_UNSUBSCRIBE}?token={token}"


# First path segments that can never be a referral code (SPEC 2: a one-segment
# path is captured as a code only when it is no real route). Derived from the
# routes above, plus the paths the server answers itself (the API, the webhook
# API, Reflex's ping) and the two the frontend resolves to other pages.
SERVER_SEGMENTS = ("api", "functions", "ping", "404", "index")


def _reserved_segments() -> frozenset[str]:
    segments = set(SERVER_SEGMENTS)
    for name, value in list(globals().items()):
        if name.isupper() and isinstance(value, str) and value.startswith("/"):
            first = value.strip("/").split("/", 1)[0].lower()
            if first and not first.startswith("["):
                segments.add(first)
    return frozenset(segments)


RESERVED_SEGMENTS = _reserved_segments()


# Referral codes: the one-segment paths /[referral_segment] captures (SPEC 2, 5).
REFERRAL_CODE_MAX_LENGTH = 15


REFERRAL_CODE_RE = re.compile(r"^[A-Za-z0-9]{1,15}$")


def is_valid_referral_code(code: str) -> bool:
    """1-15 ASCII letters or digits (SPEC 5)."""
    code = code or ""
    return len(code) <= REFERRAL_CODE_MAX_LENGTH and bool(REFERRAL_CODE_RE.fullmatch(code))


def is_reserved_referral_code(code: str) -> bool:
    """A code equal (any case) to a top-level route: its link /CODE would open
    that page and could never be captured."""
    return (code or "").strip().lower() in RESERVED_SEGMENTS
