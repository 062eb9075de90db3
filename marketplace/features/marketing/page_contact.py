"""/contact : how to reach support, response times and a few quick answers.

A real static route, so the one-segment referral capture never sees "/contact".
"""

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import kit as ui
from marketplace.platform.ui.demo_data import claim_text
from marketplace.platform.ui.layout import page

MAILTO = f"mailto:{routes.SUPPORT_EMAIL}"

RESPONSE_TIMES = [
    ("zap", "Billing and credit issues", "Within 4 business hours"),
    ("life_buoy", "Account and sign-in help", "Within 1 business day"),
    ("database_zap", "Data questions and API support", "Within 1-2 business days"),
]

QUICK_ANSWERS = [
    ("When do new leads arrive?",
     "Leads refresh every day at 8:00 AM PST. The marketplace shows a countdown to the next refresh."),
    ("My credits did not show up after a purchase.",
     "Credits are added as soon as the payment is confirmed, usually within a minute. If your balance has not "
     "changed after a few minutes, e-mail us with the address you used at checkout."),
    ("A lead's details look wrong.",
     "Leads come from public records, which can lag behind reality. Send us the lead's ID from its property page "
     "and we will review it."),
    ("Can you tell me whether a deal is good?",
     "We provide data and estimates, not investment advice, and we do not broker transactions. Please consult "
     "licensed professionals before you invest."),
]


def response_time_row(icon: str, topic: str, time: str) -> rx.Component:
    """One support topic with its typical first-response time."""
    return rx.hstack(
        ui.icon_tile(icon, size="40px"),
        rx.vstack(
            rx.text(topic, size="3", weight="medium"),
            rx.text(time, size="2", color_scheme="gray"),
            spacing="0",
        ),
        spacing="3",
        align="center",
    )


def quick_answer(question: str, answer: str) -> rx.Component:
    """One short question and its answer."""
    return rx.vstack(
        rx.heading(question, as_="h3", size="3", weight="bold"),
        claim_text(answer, size="3", color_scheme="gray"),
        spacing="1",
    )


def support_card() -> rx.Component:
    """The e-mail support card with response times."""
    return rx.card(
        rx.vstack(
            ui.icon_tile("mail", size="48px"),
            rx.heading("Email support", as_="h2", size="6", weight="bold"),
            rx.text("The fastest way to reach us. Include the e-mail address on your account so we can help "
                    "right away.", size="3", color_scheme="gray"),
            ui.button_link(routes.SUPPORT_EMAIL, MAILTO, icon="arrow_right", size="3", id="contact-email",
                           class_name="lv-break"),
            rx.separator(size="4", margin_y="0.5rem"),
            rx.text("Typical response times", size="2", weight="bold", high_contrast=True),
            *[response_time_row(*row) for row in RESPONSE_TIMES],
            rx.text("Support hours: Monday to Friday, 8:00 AM - 6:00 PM Pacific time.", size="2",
                    color_scheme="gray"),
            spacing="4",
        ),
        size="4",
        class_name="lv-card",
    )


@page(route=routes.CONTACT, title="Contact")
def contact() -> rx.Component:
    """The contact page."""
    return rx.fragment(
        ui.page_hero(
            "We're here to help",
            "Questions about credits, leads or the webhook API? Our team of investors and engineers answers every "
            "message.",
            label="Contact",
            icon="headset",
        ),
        ui.section(
            rx.grid(
                support_card(),
                rx.vstack(
                    rx.heading("Quick answers", as_="h2", size="6", weight="bold"),
                    *[quick_answer(q, a) for q, a in QUICK_ANSWERS],
                    rx.text(
                        "More answers about credits and pricing are on the ",
                        rx.link("Pricing page", href=routes.PRICING, color_scheme="indigo", underline="always"),
                        ". Our policies are on the ",
                        rx.link("Legal page", href=routes.LEGAL, color_scheme="indigo", underline="always"),
                        ".",
                        size="3",
                        color_scheme="gray",
                    ),
                    spacing="5",
                ),
                columns={"initial": "1", "md": "2"},
                spacing={"initial": "7", "md": "9"},
                align="start",
            ),
            padding_top=ui.responsive("2rem", md="3rem"),
        ),
    )
