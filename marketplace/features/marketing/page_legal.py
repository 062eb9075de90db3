"""/legal and /legal/{privacy,terms,disclaimer}: the three legal documents as tabs.

The tab is chosen from the URL hash (``#privacy``, ``#terms``,
``#disclaimer``; default privacy) and picking a tab rewrites the hash with
``history.replaceState``. Both happen in the browser, without a server round
trip: the selected tab is React state (a local ``ClientStateVar``) that is
initialised from ``window.location.hash`` on mount and follows it on
hashchange/popstate (Back after picking a tab). The three sub-routes
(linked from the footer) render the same tabs with their own tab preselected
when the address carries no hash.
"""

from __future__ import annotations

import reflex as rx
from reflex.experimental.client_state import ClientStateVar

from marketplace.platform import routes
from marketplace.platform.ui import kit as ui
from marketplace.platform.ui.demo_data import claim_text
from marketplace.platform.ui.layout import page

LAST_UPDATED = "November 1, 2026"

# (hash / tab value, tab label, icon)
TABS = [
    ("privacy", "Privacy Policy", "shield_check"),
    ("terms", "Terms of Service", "file_text"),
    ("disclaimer", "Investment Disclaimer", "scale"),
]
TAB_VALUES = [value for value, _, _ in TABS]
# Below 768px the tabs read short (one row); their accessible names stay the full titles.
SHORT_LABELS = {"privacy": "Privacy", "terms": "Terms", "disclaimer": "Disclaimer"}
DEFAULT_TAB = "privacy"

# Each document: (value, [(section heading, [paragraphs])]).
PRIVACY_POLICY = [
    ("Who we are", [
        f"{routes.APP_NAME} operates an online marketplace of real-estate investment leads compiled from public "
        "records. This policy explains what personal information we collect when you use the site, why we collect "
        "it and the choices you have.",
    ]),
    ("Information we collect", [
        "Account information: your first and last name, e-mail address and a securely hashed password when you "
        "create an account.",
        "Transaction information: the credit packs you buy, the leads you unlock and the bulk scrapes you run. "
        "Payments are handled by our payment processor; we never see or store your full card number.",
        "Technical information: your IP address, browser type and the pages you visit, which we use to keep the "
        "service secure, to rate-limit the webhook API and to diagnose problems.",
    ]),
    ("Data stored in your browser", [
        "To keep you signed in, we store session tokens in your browser's local storage. If you arrive through a "
        "referral link, the referral code is kept in session storage until you close the tab. We do not use "
        "third-party advertising cookies.",
    ]),
    ("How we use your information", [
        "We use your information to provide and secure your account, process purchases and credit balances, "
        "credit referral rewards, send transactional e-mails such as purchase receipts, respond to support "
        "requests and improve the product. We do not sell your personal information.",
    ]),
    ("Sharing", [
        "We share information only with service providers that help us run the service (hosting, e-mail delivery "
        "and payment processing) under contracts that limit their use of it, and when the law requires us to.",
    ]),
    ("Retention and your rights", [
        "We keep account and transaction records for as long as your account is open and afterwards as required "
        "for tax and accounting purposes. You may ask us to access, correct, export or delete your personal "
        f"information at any time by writing to {routes.SUPPORT_EMAIL}.",
    ]),
    ("Changes", [
        "If we change this policy in a material way we will update the date below and, where appropriate, notify "
        "you by e-mail.",
    ]),
]

TERMS_OF_SERVICE = [
    ("Acceptance", [
        f"By creating an account or using {routes.APP_NAME} you agree to these terms. If you use the service on "
        "behalf of a company, you confirm that you may bind it to them. You must be at least 18 years old.",
    ]),
    ("Your account", [
        "You are responsible for keeping your password confidential and for all activity under your account. "
        "Tell us promptly if you suspect unauthorized access. Webhook auth keys are secrets: treat them like "
        "passwords and regenerate them if they are exposed.",
    ]),
    ("Credits and purchases", [
        "Leads are unlocked with credits bought in packs on the Pricing page. Prices are shown before you pay. "
        "Credits are applied to your balance once payment is confirmed and are spent when you unlock a lead or "
        "run a bulk scrape. Unlocked leads remain available in your dashboard.",
        "Credits have no cash value and are not transferable. Purchases are final except where the law requires "
        "a refund or where we were unable to deliver what you paid for.",
    ]),
    ("Acceptable use", [
        "You may use lead data for your own real-estate investment activity. You may not resell or republish lead "
        "data in bulk, use it for any purpose regulated by the Fair Credit Reporting Act (such as credit, "
        "employment or tenant screening), harass property owners, or contact them in violation of do-not-call, "
        "anti-spam or other marketing laws.",
        "You may not interfere with the service, probe it for vulnerabilities, or exceed the published rate limits "
        "of the webhook API.",
    ]),
    ("Data accuracy", [
        "Leads are compiled from public records and automated estimates, which can be incomplete, outdated or "
        "wrong. We provide the data as is and do not guarantee that any property is available, correctly "
        "described or suitable for your purposes.",
    ]),
    ("Limitation of liability", [
        f"To the fullest extent permitted by law, {routes.APP_NAME} is not liable for indirect or consequential "
        "losses, lost profits or investment losses. Our total liability for any claim is limited to the amount you "
        "paid us in the three months before the claim arose.",
    ]),
    ("Termination and changes", [
        "You may close your account at any time. We may suspend accounts that break these terms. We may update "
        "these terms; continued use after an update means you accept the new version.",
    ]),
]

INVESTMENT_DISCLAIMER = [
    ("Not investment advice", [
        f"{routes.APP_NAME} is a data service. Nothing on this site, including ROI estimates, confidence scores, "
        "\"High ROI\" labels or marketing statements, is investment, legal, tax or financial advice, or a "
        "recommendation to buy, sell or hold any property.",
    ]),
    ("No brokering", [
        f"{routes.APP_NAME} is not a real-estate broker or agent, does not represent buyers or sellers, does not "
        "negotiate transactions and receives no commission on any deal. Leads are not listings and are not an "
        "offer or solicitation to buy or sell property.",
    ]),
    ("Estimates are estimates", [
        "Market values, after-repair values, rehab estimates and ROI figures are produced by automated models "
        "from public-record data. They can differ substantially from actual values, costs and returns. Average ROI "
        "figures quoted on this site describe historical estimates and are no guarantee of future results.",
    ]),
    ("Do your own due diligence", [
        "Before making any offer, verify ownership, title, liens, property condition, zoning and comparable sales "
        "yourself, and consult licensed professionals such as an attorney, accountant, inspector or real-estate "
        "agent. Real-estate investing involves risk, including the loss of your capital.",
    ]),
    ("Public-record sources", [
        "Lead information comes from lawfully available public records such as probate filings, default notices, "
        "auction calendars and tax rolls. Records may lag behind real-world events; a property may already have "
        "been sold or the underlying situation resolved.",
    ]),
]

DOCUMENTS = {
    "privacy": PRIVACY_POLICY,
    "terms": TERMS_OF_SERVICE,
    "disclaimer": INVESTMENT_DISCLAIMER,
}


# -------------------------------------------------------------- client script

def _hash_tab_expr(default_tab: str) -> rx.Var:
    """JS expression: the tab named by the URL hash, else ``default_tab``."""
    return rx.Var(
        _js_expr=(
            "((tab) => ["
            + ", ".join(f"'{value}'" for value in TAB_VALUES)
            + f"].includes(tab) ? tab : '{default_tab}')"
            "(window.location.hash.replace(/^#/, '').toLowerCase())"
        ),
        _var_type=str,
    )


def _follow_hash(setter: str, default_tab: str) -> rx.Var:
    """On mount: the tab named by the hash, and again on every hashchange/popstate
    (Back/Forward between ``#terms`` and ``#privacy`` switches the tab, SPEC 2)."""
    return rx.Var(
        _js_expr=(
            f"(() => {{ const sync = () => {setter}({_hash_tab_expr(default_tab)}); sync(); "
            "window.addEventListener('hashchange', sync); window.addEventListener('popstate', sync); })"
        ),
    ).to(rx.vars.FunctionVar, rx.EventChain)


def _write_hash_script(value: str) -> rx.event.EventSpec:
    """Replace the URL hash with ``#value`` without a navigation or history entry."""
    return rx.call_script(f"window.history.replaceState(window.history.state, '', '#{value}')")


# ------------------------------------------------------------------- components

def document(value: str) -> rx.Component:
    """One legal document rendered as headed sections (h2 under the page's h1)."""
    return rx.vstack(
        rx.text(f"Last updated: {LAST_UPDATED}", size="2", color_scheme="gray"),
        *[
            rx.vstack(
                rx.heading(heading, as_="h2", size="4", weight="bold"),
                *[claim_text(paragraph, size="3", as_="p") for paragraph in paragraphs],
                spacing="2",
            )
            for heading, paragraphs in DOCUMENTS[value]
        ],
        spacing="5",
        class_name="lv-prose",
        id=f"legal-{value}",
    )


def legal_tabs(default_tab: str, route_key: str) -> rx.Component:
    """The three documents as tabs; the selection follows and writes the URL hash."""
    selected = ClientStateVar.create(f"legal_tab_{route_key}", default=default_tab, global_ref=False)
    return rx.tabs.root(
        rx.tabs.list(
            *[
                rx.tabs.trigger(
                    rx.hstack(ui.static_icon(icon, size=16, aria_hidden="true"),
                              rx.text(label, class_name="lv-hide-below-sm"),
                              rx.text(SHORT_LABELS[value], class_name="lv-hide-from-sm"),
                              spacing="2", align="center"),
                    value=value,
                    id=f"legal-tab-{value}",
                    aria_label=label,
                    on_click=_write_hash_script(value),
                    on_focus=_write_hash_script(value),
                )
                for value, label, icon in TABS
            ],
            size={"initial": "1", "xs": "2"},
            class_name="lv-legal-tabs",
        ),
        *[
            # The panel keeps Radix's own id: the tab's aria-controls names it.
            rx.tabs.content(document(value), value=value, padding_top="2rem")
            for value, _, _ in TABS
        ],
        value=selected.value,
        on_change=selected.set,
        on_mount=_follow_hash(selected._setter_name, default_tab),
        width="100%",
    )


def legal_view(default_tab: str, route_key: str) -> rx.Component:
    """The whole legal page: hero plus the tabbed documents."""
    return rx.fragment(
        ui.page_hero(
            "Legal",
            "How we handle your data, the terms of using LeadVault and what our numbers do and do not mean.",
            label="Policies",
            icon="scale",
        ),
        ui.section(
            rx.box(
                rx.card(legal_tabs(default_tab, route_key), size={"initial": "2", "md": "4"}, class_name="lv-card"),
                max_width="52rem",
                margin_x="auto",
            ),
            padding_top=ui.responsive("2rem", md="3rem"),
        ),
    )


# ------------------------------------------------------------------------ pages

@page(route=routes.LEGAL, title="Legal")
def legal() -> rx.Component:
    """/legal: tab from the hash, privacy by default."""
    return legal_view(DEFAULT_TAB, "index")


@page(route=routes.LEGAL_PRIVACY, title="Privacy Policy")
def legal_privacy() -> rx.Component:
    """/legal/privacy: the Privacy Policy tab preselected."""
    return legal_view("privacy", "privacy")


@page(route=routes.LEGAL_TERMS, title="Terms of Service")
def legal_terms() -> rx.Component:
    """/legal/terms: the Terms of Service tab preselected."""
    return legal_view("terms", "terms")


@page(route=routes.LEGAL_DISCLAIMER, title="Investment Disclaimer")
def legal_disclaimer() -> rx.Component:
    """/legal/disclaimer: the Investment Disclaimer tab preselected."""
    return legal_view("disclaimer", "disclaimer")
