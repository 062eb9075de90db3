"""/ : the landing page.

Hero with a button to /marketplace, feature cards, a three-step How It Works
(research, review, profit), a Today's Hot Leads call to action, three
testimonials, trust statistics and a final call to action (SPEC section 2).
"""

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import kit as ui
from marketplace.platform.ui.demo_data import claims_public_records, demo_claim_suffix
from marketplace.platform.ui.layout import page
from marketplace.features.marketplace import count_text
from marketplace.features.marketplace import mask_address, percent, usd
from marketplace.features.marketplace import HERO_SAMPLE, HERO_SAMPLE_COST, HERO_SAMPLE_ROI
from marketplace.features.marketplace import ARV_ESTIMATE, ROI_VS_ESTIMATE
from marketplace.platform.texts import DEMO_DATA_LINE, ILLUSTRATION_NOTE

REFRESH_NOTE = "Leads refresh daily at 8:00 AM PST"

FEATURES = [
    ("search", "Every off-market source",
     "Probate, pre-foreclosure, auction, tax delinquent, vacancy and make-me-move leads in one searchable feed."),
    ("calculator", "ROI analysis built in",
     "Each lead carries a market estimate, after-repair value, rehab estimate and an estimated ROI."),
    ("gauge", "Confidence scores",
     "A 0-100 confidence score tells you how complete and consistent the underlying records are."),
    ("calendar_clock", "Fresh every morning",
     "New leads land daily at 8:00 AM PST, so you can reach owners before the competition does."),
    ("lock_keyhole", "Pay only for what you unlock",
     "Addresses stay masked until you unlock a lead. Buy credits in packs and spend them only on the deals you "
     "want."),
    ("layers_3", "Bulk scraper and API",
     "Generate up to 1,000 leads at once with volume discounts, export to CSV or automate it by webhook."),
]

STEPS = [
    ("file_search", "Research",
     "Browse the marketplace and filter by city, state, lead type, price and ROI. Addresses stay masked while you "
     "compare."),
    ("eye", "Review",
     "Unlock the leads that fit your strategy to see the full address, property details and financial analysis."),
    ("trending_up", "Profit",
     "Contact owners, run your own due diligence and close the deal on your terms, with no broker in between."),
]

TESTIMONIALS = [
    ("I used to spend my Saturdays at the county recorder. Now the probate leads are waiting for me with the "
     "numbers already run. We closed two flips from LeadVault in our first quarter.",
     "Marcus Johnson", "Fix-and-flip investor, Phoenix, AZ", "/avatars/marcus-johnson.svg"),
    ("The confidence score is what sold me. I only unlock leads above 80 and the data has been consistently "
     "accurate, which saves me hours of skip tracing every week.",
     "Sarah Chen", "Buy-and-hold investor, Austin, TX", "/avatars/sarah-chen.svg"),
    ("The bulk scraper feeds straight into our CRM through the webhook. Pay-as-you-go credits fit the way our "
     "wholesaling team actually works.",
     "David Rodriguez", "Wholesaler, Tampa, FL", "/avatars/david-rodriguez.svg"),
]

TRUST_STATS = [
    ("2,500+", "Active Investors", "users"),
    ("$50M+", "Deals Sourced", "handshake"),
    ("50,000+", "Properties Analyzed", "chart_column"),
    ("10+", "Years Experience", "award"),
]

HERO_POINTS = [
    "100% legal public-record data",
    "ROI analysis and confidence score on every lead",
    "No brokering and no investment advice, just the data",
]


# ------------------------------------------------------------------- sections

def _sample_metric(label: str, value: str, emphasis: bool = False, metric_id: str | None = None) -> rx.Component:
    """One label/value pair of the hero's sample lead card."""
    return rx.vstack(
        rx.text(label, size="1", color_scheme="gray"),
        rx.text(value, size="3", weight="bold", color="var(--grass-11)" if emphasis else "var(--gray-12)"),
        spacing="0",
        **({"id": metric_id} if metric_id else {}),
    )


def sample_lead_card() -> rx.Component:
    """An illustrative lead card for the hero (not a real lead)."""
    return rx.card(
        rx.vstack(
            rx.box(
                rx.image(src="/hero-house.svg", alt="", width="100%", height="100%", object_fit="cover"),
                rx.hstack(
                    rx.badge("New", color_scheme="indigo", variant="solid", radius="full"),
                    rx.badge("High ROI", color_scheme="grass", variant="solid", radius="full"),
                    spacing="2",
                    position="absolute",
                    top="12px",
                    left="12px",
                ),
                rx.badge(rx.icon("coins", size=12), f"{HERO_SAMPLE_COST} credits", position="absolute", top="12px",
                         right="12px",
                         variant="surface", radius="full", color_scheme="gray", high_contrast=True),
                position="relative",
                height="170px",
                width="100%",
                overflow="hidden",
                border_radius="var(--radius-4)",
            ),
            rx.hstack(
                rx.vstack(
                    # Masked as a locked marketplace card is (marketplace.rules.mask_address).
                    rx.text(mask_address(HERO_SAMPLE["address"]), size="4", weight="bold", id="hero-sample-address"),
                    rx.text(HERO_SAMPLE["city_line"], size="2", color_scheme="gray"),
                    spacing="0",
                ),
                rx.badge("Probate", variant="soft", radius="full"),
                justify="between",
                align="start",
                width="100%",
            ),
            rx.hstack(
                *[rx.hstack(ui.static_icon(icon, size=14, aria_hidden="true"), rx.text(text, size="2"), spacing="1",
                            align="center", color="var(--gray-11)")
                  for icon, text in (("bed_double", count_text(HERO_SAMPLE["beds"], "bd")),
                                     ("bath", count_text(HERO_SAMPLE["baths"], "ba")),
                                     ("ruler", count_text(HERO_SAMPLE["sqft"], "sqft")))],
                spacing="4",
            ),
            rx.grid(
                # Named as a marketplace card names them: the sample's ARV is an estimate, never a fact.
                _sample_metric(ROI_VS_ESTIMATE, percent(HERO_SAMPLE_ROI), emphasis=True, metric_id="hero-sample-roi"),
                _sample_metric("Asking", usd(HERO_SAMPLE["asking"])),
                _sample_metric(ARV_ESTIMATE, usd(HERO_SAMPLE["arv"]), metric_id="hero-sample-arv"),
                _sample_metric("Rehab", usd(HERO_SAMPLE["rehab"])),
                columns="2",
                spacing="3",
                width="100%",
                padding="0.75rem",
                border_radius="var(--radius-3)",
                background="var(--gray-2)",
            ),
            rx.vstack(
                rx.hstack(rx.text("Confidence", size="1", color_scheme="gray"),
                          rx.text(f"{HERO_SAMPLE['confidence']}/100", size="1", weight="bold"),
                          justify="between", width="100%"),
                rx.progress(value=HERO_SAMPLE["confidence"], size="2", color_scheme="grass",
                            aria_label=f"Confidence {HERO_SAMPLE['confidence']} out of 100"),
                spacing="1",
                width="100%",
            ),
            # A made-up lead with a drawing: it says so, as every demo lead does.
            rx.text(f"{DEMO_DATA_LINE} · {ILLUSTRATION_NOTE}", size="1", weight="medium",
                    color="var(--amber-11)", id="hero-sample-provenance"),
            spacing="3",
        ),
        size="2",
        class_name="lv-sample-card",
        width="100%",
        max_width="380px",
    )


def hero() -> rx.Component:
    """Headline, value proposition, primary buttons and the sample lead card."""
    return rx.el.section(
        ui.container(
            rx.grid(
                rx.vstack(
                    ui.eyebrow(REFRESH_NOTE, "clock"),
                    rx.heading(
                        "Find off-market deals ", rx.el.span("before anyone else", class_name="lv-gradient-text"),
                        as_="h1", size={"initial": "8", "sm": "9"}, weight="bold", class_name="lv-hero-title",
                    ),
                    rx.text(
                        "LeadVault curates probate, pre-foreclosure, auction and other off-market property leads "
                        "from public records, with the ROI math already done. Unlock only the deals you want.",
                        size={"initial": "4", "md": "5"}, color_scheme="gray", max_width="36rem",
                    ),
                    rx.flex(
                        ui.button_link("Browse Marketplace", routes.MARKETPLACE, icon="arrow_right", size="4",
                                       id="hero-cta-marketplace"),
                        ui.button_link("View Pricing", routes.PRICING, variant="outline", size="4"),
                        spacing="3",
                        wrap="wrap",
                        padding_top="0.5rem",
                    ),
                    rx.vstack(*[ui.check_item(point, demo_claim_suffix() if claims_public_records(point) else None)
                                for point in HERO_POINTS], spacing="2", padding_top="0.5rem"),
                    spacing="5",
                    justify="center",
                ),
                rx.center(sample_lead_card(), aria_label="Sample lead preview", role="img"),
                columns={"initial": "1", "md": "2"},
                spacing={"initial": "8", "md": "9"},
                align="center",
            ),
        ),
        class_name="lv-hero-bg",
        padding_top=ui.responsive("3rem", md="5rem"),
        padding_bottom=ui.responsive("3.5rem", md="5.5rem"),
    )


def features() -> rx.Component:
    """Six feature cards."""
    return ui.section(
        ui.section_heading(
            "Everything you need to source your next deal",
            "Stop chasing courthouse records and stale lists. LeadVault does the digging and the math so you can "
            "focus on making offers.",
            label="Why LeadVault",
        ),
        rx.grid(*[ui.feature_card(icon, title, text) for icon, title, text in FEATURES], columns=ui.GRID_3,
                spacing="5"),
        section_id="features",
    )


def how_it_works() -> rx.Component:
    """Research, review, profit."""
    return ui.section(
        ui.section_heading("From public record to profit in three steps",
                           "A simple workflow built for busy investors.", label="How It Works"),
        rx.grid(*[ui.step_card(i, icon, title, text) for i, (icon, title, text) in enumerate(STEPS, start=1)],
                columns={"initial": "1", "md": "3"}, spacing="5"),
        muted=True,
        section_id="how-it-works",
    )


def hot_leads_cta() -> rx.Component:
    """The "Today's Hot Leads" call to action."""
    return ui.section(
        ui.cta_band(
            "Today's Hot Leads",
            "This morning's drop of probate, pre-foreclosure and auction leads is live. "
            "Leads refresh daily at 8:00 AM PST and the best deals go first.",
            [ui.button_link("View Today's Hot Leads", routes.MARKETPLACE, icon="flame", size="3",
                            class_name="lv-btn-on-dark", id="hot-leads-cta")],
            icon="flame",
        ),
        padding_y=ui.responsive("2.5rem", md="4rem"),
    )


def testimonials() -> rx.Component:
    """Three investor testimonials."""
    return ui.section(
        ui.section_heading("Trusted by investors nationwide",
                           "Flippers, landlords and wholesalers use LeadVault to find deals first.",
                           label="Testimonials"),
        rx.grid(*[ui.testimonial_card(*t) for t in TESTIMONIALS], columns=ui.GRID_3, spacing="5"),
        rx.text("Names and photos are illustrative samples.", size="1", color_scheme="gray", text_align="center",
                margin_top="1.5rem", as_="p"),
        padding_top=ui.responsive("1.5rem", md="2rem"),
        section_id="testimonials",
    )


def trust_stats() -> rx.Component:
    """Trust statistics."""
    return ui.section(
        ui.section_heading("The numbers behind LeadVault", label="By the numbers"),
        rx.grid(*[ui.stat_tile(value, label, icon) for value, label, icon in TRUST_STATS], columns=ui.GRID_4,
                spacing=ui.GRID_GAP),
        muted=True,
        section_id="stats",
    )


def final_cta() -> rx.Component:
    """Closing call to action with buttons to the marketplace and pricing."""
    return ui.section(
        rx.vstack(
            rx.heading("Ready to find your next deal?", as_="h2", size={"initial": "7", "md": "8"}, weight="bold",
                       class_name="lv-balance"),
            rx.text("Browse today's leads for free. Buy credits only when you find a property worth unlocking.",
                    size={"initial": "3", "md": "4"}, color_scheme="gray", max_width="36rem",
                    class_name="lv-balance"),
            rx.flex(
                ui.button_link("Browse Marketplace", routes.MARKETPLACE, icon="arrow_right", size="4",
                               id="final-cta-marketplace"),
                ui.button_link("View Pricing", routes.PRICING, variant="outline", size="4", id="final-cta-pricing"),
                spacing="3",
                wrap="wrap",
                justify="center",
            ),
            spacing="5",
            align="center",
            text_align="center",
            class_name="lv-final-cta",
        ),
    )


@page(route=routes.HOME, title="Off-Market Real Estate Leads")
def home() -> rx.Component:
    """The landing page."""
    return rx.fragment(hero(), features(), how_it_works(), hot_leads_cta(), testimonials(), trust_stats(),
                       final_cta())
