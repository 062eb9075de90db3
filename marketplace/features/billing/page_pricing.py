"""/pricing: referral code box, the three credit packs, why choose LeadVault,
an FAQ and the support buttons (SPEC 1, 2, 9).

The packs come from ``billing.rules_packs.PACKS`` only. Element ids used by the tests:
``pricing-packs``, ``pricing-faq``, ``pricing-email-support``,
``pricing-schedule-call`` (plus those of the pack cards and referral box).
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import kit as ui
from marketplace.platform.ui.demo_data import claim_text, claims_public_records, demo_claim_suffix
from marketplace.platform.ui.layout import page
from marketplace.features.billing.view_pack_card import pack_card
from marketplace.features.billing.view_referral_box import referral_box
from marketplace.platform.ui.demo_mode import demo_mode_banner
from marketplace.features.billing.rules_packs import PACKS
from marketplace.platform.config import get_settings, guarantee_days, skip_trace_price
from marketplace.features.unlock import faq_answer
from marketplace.features.unlock import cap_faq
from marketplace.features.unlock import texts_guarantee as guarantee_text
from marketplace.features.unlock import CAP_FAQ_QUESTION
from marketplace.platform.pricing import cost_faq_text
from marketplace.features.property import texts_owner_contact as owner_contact_text
from marketplace.features.billing.state_pricing import PricingState

SCHEDULE_CALL_URL = "https://calendly.com/leadvault/consultation"
AVERAGE_ROI = "23%"  # SPEC 1: the pricing page says 23% (the about page says 22.4%)

WHY_CHOOSE = [
    ("shield_check", "100% legal public-record data",
     "Every lead is built from lawfully available public records. No brokering, no investment advice, just data."),
    ("calculator", "ROI math done for you",
     "Market estimate, after-repair value, rehab estimate and an estimated ROI on every lead before you spend a "
     "credit."),
    ("lock_keyhole", "Pay only for what you unlock",
     "Browse masked leads for free. Credits are spent only on the addresses you actually want."),
    ("calendar_clock", "Fresh leads every morning",
     "New probate, pre-foreclosure, auction and vacancy leads land daily at 8:00 AM Pacific."),
]

TRUST_STATS = [("2,500+", "Active investors"), ("$50M+", "Deals sourced")]

FAQ = [
    ("How much does a lead cost?", cost_faq_text()),  # the rule, from platform.pricing
    # the cap on holders: LEAD_MAX_HOLDERS, the same setting every unlock and scrape enforces
    (CAP_FAQ_QUESTION, cap_faq(get_settings().lead_max_holders)),
    # the price of a skip-trace hit: SKIP_TRACE_CREDITS_PER_HIT, the same setting the search charges
    (owner_contact_text.FAQ_QUESTION, owner_contact_text.priced(owner_contact_text.FAQ_ANSWER, skip_trace_price())),
    # the county-record guarantee, its window from GUARANTEE_DAYS (unlock.service_refunds gives the credits back)
    (guarantee_text.FAQ_QUESTION, faq_answer(guarantee_days())),
    ("Do credits expire?",
     "No. Credits never expire, so you can buy a pack today and unlock leads whenever the right deal shows up."),
    ("How do referrals work?",
     "Share your referral link or code. A referred investor gets 50% bonus credits on their first purchase, and "
     "you earn 2 credits for every $1 they spend, on every purchase."),
    ("How do I pay?",
     "Checkout is handled by our payment provider in a new tab. Credits are added to your account as soon as the "
     "payment is confirmed."),
    ("What does an unlock include?",
     "The full street address, property details, the complete financial analysis and links to listings, maps "
     "and web search for your own due diligence."),
    ("Is the ROI guaranteed?",
     f"No. Our members see an average estimated ROI of {AVERAGE_ROI}, but every figure is an estimate from public "
     "data and not investment advice. Always do your own due diligence."),
]


def external_button(label: str, href: str, icon: str, button_id: str, new_tab: bool, variant: str = "solid",
                    class_name: str | None = None) -> rx.Component:
    """A button that is a real external link (mailto or a new tab)."""
    return ui.button_link(label, href, icon=icon, icon_first=True, variant=variant, size="3", id=button_id,
                          class_name=class_name, link_props={"is_external": True} if new_tab else None)


def hero() -> rx.Component:
    return rx.el.section(
        ui.container(
            rx.vstack(
                ui.eyebrow("Simple, pay-as-you-go pricing", "badge_dollar_sign"),
                rx.heading("Buy credits. Unlock the deals you want.", as_="h1",
                           size={"initial": "8", "md": "9"}, weight="bold", class_name="lv-hero-title"),
                rx.text(
                    "No subscriptions required. Buy a credit pack once and spend it only on the leads worth "
                    "unlocking.",
                    size={"initial": "4", "md": "5"}, color_scheme="gray", max_width="40rem",
                    class_name="lv-balance",
                ),
                rx.flex(
                    *[rx.hstack(ui.static_icon(icon, size=16, color="var(--accent-10)", aria_hidden="true"),
                                rx.text(text, size="2", weight="medium"), spacing="2", align="center")
                      for icon, text in (("trending_up", f"Average ROI {AVERAGE_ROI}"),
                                         ("infinity", "Credits never expire"),
                                         ("shield_check", "Secure checkout"))],
                    spacing="5",
                    wrap="wrap",
                    justify="center",
                    row_gap="0.5rem",
                ),
                spacing="4",
                align="center",
                text_align="center",
            ),
        ),
        class_name="lv-hero-bg",
        padding_top=ui.responsive("3rem", md="4.5rem"),
        padding_bottom=ui.responsive("2.5rem", md="3.5rem"),
    )


def packs_section() -> rx.Component:
    """The referral box above the three bundle cards."""
    return ui.section(
        rx.vstack(
            referral_box(),
            demo_mode_banner(PricingState.demo_mode, inline=True),
            rx.grid(
                *[pack_card(pack) for pack in PACKS],
                columns={"initial": "1", "md": "3"},
                spacing="5",
                width="100%",
                align="stretch",
                id="pricing-packs",
                padding_top="0.75rem",
            ),
            rx.text(
                "Prices in US dollars, charged once. Credits are added to your account right after checkout.",
                size="2", color_scheme="gray", text_align="center", width="100%", as_="p",
            ),
            spacing="6",
            width="100%",
        ),
        padding_top=ui.responsive("2rem", md="3rem"),
        section_id="packs",
    )


def why_choose() -> rx.Component:
    return ui.section(
        ui.section_heading(
            "Why investors choose LeadVault",
            "Curated off-market leads with the numbers already run, at a price that makes sense one lead at a time.",
            label="Why LeadVault",
        ),
        rx.grid(
            rx.card(
                rx.vstack(
                    ui.icon_tile("trending_up", "grass"),
                    rx.text(AVERAGE_ROI, size="9", weight="bold", class_name="lv-stat-value", id="pricing-avg-roi"),
                    rx.heading("Average ROI", as_="h3", size="4", weight="bold"),
                    rx.text("The average estimated ROI across the leads our members unlock. Estimates, not "
                            "guarantees.", size="3", color_scheme="gray"),
                    rx.spacer(),
                    rx.separator(size="4"),
                    rx.grid(
                        *[rx.vstack(rx.text(value, size="6", weight="bold", class_name="lv-stat-value"),
                                    rx.text(label, size="2", color_scheme="gray"), spacing="0")
                          for value, label in TRUST_STATS],
                        columns="2",
                        spacing="4",
                        width="100%",
                    ),
                    spacing="3",
                    height="100%",
                ),
                size="4",
                class_name="lv-card",
                height="100%",
            ),
            rx.grid(*[ui.feature_card(icon, title, text,
                                      note=demo_claim_suffix() if claims_public_records(title + text) else None)
                      for icon, title, text in WHY_CHOOSE],
                    columns=ui.GRID_2, spacing="4"),
            columns={"initial": "1", "md": "1fr 2fr"},
            spacing="5",
        ),
        muted=True,
        section_id="why-choose",
    )


def faq_item(question: str, answer: str) -> rx.Component:
    return rx.box(
        rx.heading(question, as_="h3", size="4", weight="bold"),
        claim_text(answer, size="3", color_scheme="gray", as_="p", margin_top="0.5rem"),
        padding="1.25rem 1.5rem",
        border_radius="var(--radius-5)",
        border="1px solid var(--gray-4)",
        background="var(--color-panel-solid)",
        height="100%",
    )


def faq() -> rx.Component:
    return ui.section(
        ui.section_heading("Frequently asked questions", label="FAQ"),
        rx.grid(*[faq_item(q, a) for q, a in FAQ], columns=ui.GRID_2, spacing="4", id="pricing-faq"),
        section_id="faq",
    )


def support_cta() -> rx.Component:
    return ui.section(
        ui.cta_band(
            "Still have questions?",
            "Talk to a real investor on our team about which pack fits your strategy, or how teams use the bulk "
            "scraper and webhook API.",
            [
                external_button("Email Support", f"mailto:{routes.SUPPORT_EMAIL}", "mail", "pricing-email-support",
                                new_tab=False, class_name="lv-btn-on-dark"),
                external_button("Schedule Call", SCHEDULE_CALL_URL, "calendar", "pricing-schedule-call",
                                new_tab=True, variant="outline", class_name="lv-btn-outline-on-dark"),
            ],
            icon="headset",
        ),
        padding_top="0",
    )


@page(route=routes.PRICING, title="Pricing", on_load=[PricingState.load])
def pricing() -> rx.Component:
    return rx.fragment(hero(), packs_section(), why_choose(), faq(), support_cta())
