"""Routes and product-wide names, defined once."""

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
DASHBOARD = "/dashboard"
PROPERTY = "/property/[lead_id]"
PURCHASE_CREDITS = "/purchase-credits"
CREDITS_PURCHASED = "/credits-purchased"
EXPLORER = "/explorerdev"
REFERRAL_CAPTURE = "/[referral_segment]"


def property_url(lead_id: str) -> str:
    return f"/property/{lead_id}"


# The built-in (TEST MODE) checkout page; services.payments links to /test-checkout/{id}.
TEST_CHECKOUT = "/test-checkout/[checkout_id]"
