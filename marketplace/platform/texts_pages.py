"""Every page's ``<meta name="description">`` (what a search result or a shared link shows), by route."""

from __future__ import annotations

from marketplace.platform import routes
from marketplace.platform.routes import SUPPORT_EMAIL

PAGE_DESCRIPTIONS = {
    routes.HOME: ("Off-market real estate leads for investors: probate, pre-foreclosure, auction and more, each with "
                  "ROI analysis and a confidence score. Unlock the leads you want with credits."),
    routes.MARKETPLACE: ("Browse fresh off-market property leads with price, estimated ROI and confidence score, "
                         "filter by lead type, state and price, and unlock the full address with credits."),
    routes.BULK_SCRAPER: ("Order off-market leads in bulk by state, price, size and lead type, download them as CSV "
                          "or receive them through the LeadVault webhook API."),
    routes.PRICING: ("LeadVault credit packs: Starter 500 credits for $100, Pro 1,500 for $270, Enterprise 5,000 "
                     "for $750. Use credits to unlock off-market leads and run bulk scrapes."),
    routes.ABOUT: ("LeadVault turns public records into investment-ready real estate leads, with the analysis "
                   "already done. Meet the team and what we stand for."),
    routes.CONTACT: ("Questions about credits, leads or the webhook API? Contact the LeadVault team by e-mail "
                     f"at {SUPPORT_EMAIL}."),
    routes.LEGAL: "LeadVault's legal documents: Privacy Policy, Terms of Service and Investment Disclaimer.",
    routes.LEGAL_PRIVACY: "How LeadVault collects, uses and protects your personal information: the Privacy Policy.",
    routes.LEGAL_TERMS: "The Terms of Service that govern your use of LeadVault, its credits and its lead data.",
    routes.LEGAL_DISCLAIMER: ("LeadVault's leads, valuations and ROI estimates are information, not investment "
                              "advice: read the Investment Disclaimer."),
    routes.AUTH: "Sign in to LeadVault, or create an account to unlock off-market real estate leads.",
    routes.AUTH_CALLBACK: "Completing your LeadVault sign-in.",
    routes.AUTH_RESET: "Reset your LeadVault password: we e-mail you a link to choose a new one.",
    routes.DASHBOARD: "Your LeadVault dashboard: unlocked leads, bulk scrapes, credits, referrals and settings.",
    routes.PROPERTY: "Property details of a LeadVault lead: address, pictures, valuation and ROI analysis.",
    routes.PURCHASE_CREDITS: "Buy LeadVault credits: choose a credit pack and pay through a secure checkout.",
    routes.CREDITS_PURCHASED: "The result of your LeadVault credit purchase.",
    routes.EXPLORER: "The LeadVault developer explorer, for operators.",
    routes.DEMO_CHECKOUT: "LeadVault's demo checkout (TEST MODE): no real payment is taken.",
}
PAGE_DESCRIPTION_DEFAULT = "LeadVault: off-market real estate leads with ROI analysis, for investors."
