"""/bulkscraper sections: the configuration form, the credits and cost panel,
the discount tier table and the Confirm Bulk Scrape dialog (SPEC 2, 4, 5, 9).

Element ids: ``scraper-lead-count``, ``scraper-cities``, ``scraper-states``
(popover trigger) with ``scraper-state-XX`` checkboxes, ``scraper-type-<Type>``,
``scraper-source-<n>``, ``scraper-price-min`` / ``-max``, ``scraper-size-min`` /
``-max``, ``scraper-roi-min`` / ``-max``, ``scraper-confidence``,
``scraper-cost`` (expected cost), ``scraper-discount``, ``scraper-credits``,
``scraper-start``, ``scraper-need``, ``scraper-progress``, ``confirm-dialog``,
``scraper-city-notes`` (``.scraper-city-note`` each, ``scraper-city-problem``),
``scraper-<range>-problem``,
``confirm-cancel``, ``confirm-scrape``, ``tier-table``.
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui import cards
from marketplace.platform.ui.kit import slug
from marketplace.features.scrape import rules as scrape_rules
from marketplace.platform.leads import SCRAPER_LEAD_TYPES, SOURCES, US_STATES
from marketplace.platform.ui.demo_data import NOTE_CLASS
from marketplace.platform.texts import SCRAPE_DEMO_NOTE, SCRAPE_ROI_HINT, SCRAPING, SOURCES_DEMO_HINT, SOURCES_HINT
from marketplace.platform.ui.state_demo_data import DemoDataState
from marketplace.features.scrape.state import BulkScraperState


def labelled(label: str, control: rx.Component, hint: str | rx.Component | None = None, html_for: str | None = None) -> rx.Component:
    return rx.vstack(
        rx.el.label(label, html_for=html_for, class_name="lv-field-label"),
        control,
        *([hint if isinstance(hint, rx.Component) else rx.text(hint, size="1", color_scheme="gray")] if hint else []),
        spacing="1",
        width="100%",
    )


def number_input(field: str, input_id: str, label: str, **props) -> rx.Component:
    return rx.input(
        value=getattr(BulkScraperState, field),
        on_change=lambda value: BulkScraperState.set_field(field, value),
        on_blur=BulkScraperState.clamp_fields,
        id=input_id,
        input_mode="numeric",
        aria_label=label,
        disabled=BulkScraperState.scraping,
        size="3",
        width="100%",
        **props,
    )


def problem_text(text, text_id: str) -> rx.Component:
    """A field's problem, in red under it (the Start button is disabled meanwhile)."""
    return rx.cond(text != "", rx.text(text, size="1", color_scheme="red", id=text_id, role="alert"))


def range_inputs(label: str, low: str, high: str, slug: str, hint: str) -> rx.Component:
    return rx.vstack(
        labelled(
            label,
            rx.hstack(
                number_input(low, f"scraper-{slug}-min", f"{label} minimum", placeholder="Min"),
                rx.text("to", size="2", color_scheme="gray", flex_shrink="0"),
                number_input(high, f"scraper-{slug}-max", f"{label} maximum", placeholder="Max"),
                align="center",
                spacing="2",
                width="100%",
            ),
            hint,
        ),
        problem_text(BulkScraperState.range_problems[slug], f"scraper-{slug}-problem"),
        spacing="1",
        width="100%",
    )


def city_notes() -> rx.Component:
    """Which city each name without a state means, before the user confirms."""
    return rx.vstack(
        rx.foreach(BulkScraperState.city_notes, lambda note: rx.text(note, size="1", weight="medium", class_name="scraper-city-note")),
        problem_text(BulkScraperState.city_problem, "scraper-city-problem"),
        spacing="1",
        width="100%",
        id="scraper-city-notes",
    )


def option_checkbox(group: str, value: str, checked, box_id: str) -> rx.Component:
    return rx.el.label(
        rx.checkbox(checked=checked, on_change=lambda _v: BulkScraperState.toggle_option(group, value), id=box_id,
                    disabled=BulkScraperState.scraping, aria_label=value),  # a Radix checkbox is a button: name it
        rx.text(value, size="2"),
        class_name="lv-check-option",
    )


def states_picker() -> rx.Component:
    return labelled(
        "States",
        rx.popover.root(
            rx.popover.trigger(
                rx.button(
                    rx.icon("map", size=16),
                    rx.cond(BulkScraperState.states.length() > 0, BulkScraperState.states.join(", "), "All states"),
                    rx.icon("chevron-down", size=16),
                    variant="surface",
                    color_scheme="gray",
                    size="3",
                    id="scraper-states",
                    width="100%",
                    justify_content="space-between",
                    overflow="hidden",
                    disabled=BulkScraperState.scraping,
                ),
            ),
            rx.popover.content(
                rx.vstack(
                    rx.hstack(
                        rx.text("US states", weight="bold", size="2"),
                        rx.spacer(),
                        rx.button("Clear", size="1", variant="ghost", on_click=BulkScraperState.clear_options("states")),
                        width="100%",
                    ),
                    rx.grid(
                        *[option_checkbox("states", code, BulkScraperState.states.contains(code), f"scraper-state-{code}")
                          for code in US_STATES],
                        columns="5",
                        spacing="2",
                    ),
                    spacing="3",
                ),
                max_width="360px",
                aria_label="US states",  # the popover is a dialog: it needs a name
            ),
        ),
        "Leave empty for every state.",
        html_for="scraper-states",
    )


def config_form() -> rx.Component:
    return rx.card(
        rx.vstack(
            cards.card_header("sliders-horizontal", "Scrape configuration", heading_as="h2", tile_size="44px",
                              heading_size="5"),
            rx.grid(
                labelled("Number of Leads", number_input("lead_count", "scraper-lead-count", "Number of Leads"),
                         f"{scrape_rules.MIN_LEADS} to {scrape_rules.MAX_LEADS:,}.", html_for="scraper-lead-count"),
                labelled("Minimum Confidence", number_input("min_confidence", "scraper-confidence",
                                                            "Minimum Confidence"),
                         "0 to 100.", html_for="scraper-confidence"),
                columns={"initial": "1", "sm": "2"},
                spacing="4",
                width="100%",
            ),
            rx.vstack(
                labelled(
                    "Cities",
                    rx.input(value=BulkScraperState.cities, on_change=lambda v: BulkScraperState.set_field("cities", v), on_blur=BulkScraperState.clamp_fields,
                             id="scraper-cities", placeholder="Austin, TX, Dallas, Phoenix", size="3", width="100%",
                             aria_label="Cities", disabled=BulkScraperState.scraping),
                    "Comma-separated; add the state to pin a city (Austin, TX). A city without a state, when no "
                    "state is selected, means the largest city of that name. Leave empty for every city.",
                    html_for="scraper-cities",
                ),
                city_notes(),
                spacing="1",
                width="100%",
            ),
            states_picker(),
            labelled("Lead Types",
                     rx.grid(*[option_checkbox("lead_types", t, BulkScraperState.lead_types.contains(t), f"scraper-type-{slug(t)}")
                               for t in SCRAPER_LEAD_TYPES], columns={"initial": "1", "xs": "2", "md": "3"},
                             spacing="2", width="100%"),
                     "Leave all unticked for every type."),
            labelled("Sources",
                     rx.grid(*[option_checkbox("sources", src, BulkScraperState.sources.contains(src), f"scraper-source-{i}")
                               for i, src in enumerate(SOURCES)], columns={"initial": "1", "sm": "2"},
                             spacing="2", width="100%"),
                     rx.text(rx.cond(DemoDataState.demo_data, SOURCES_DEMO_HINT, SOURCES_HINT), size="1",
                             color_scheme="gray", id="scraper-sources-hint")),
            rx.grid(
                range_inputs("Price Range ($)", "price_min", "price_max", "price", "Asking price, at least 0."),
                range_inputs("Size Range (sqft)", "size_min", "size_max", "size", "Square footage, at least 0."),
                range_inputs("ROI Range (%)", "roi_min", "roi_max", "roi", SCRAPE_ROI_HINT),
                columns={"initial": "1", "md": "3"},
                spacing="4",
                width="100%",
            ),
            spacing="5",
            width="100%",
        ),
        size="3",
        class_name="lv-card",
        width="100%",
    )


def cost_line(label: str, value, value_id: str, strong: bool = False) -> rx.Component:
    return rx.hstack(
        rx.text(label, size="2", color_scheme="gray"),
        rx.text(value, size="3" if strong else "2", weight="bold" if strong else "medium", id=value_id),
        justify="between",
        width="100%",
    )


def cost_panel() -> rx.Component:
    return rx.card(
        rx.vstack(
            cards.card_header("coins", "Credits and cost", color="amber", heading_as="h2", tile_size="44px",
                              heading_size="5"),
            cost_line("Available credits", BulkScraperState.credits_label, "scraper-credits"),
            cost_line("Base price", BulkScraperState.full_price_label, "scraper-base"),
            cost_line("Volume discount", BulkScraperState.discount_label, "scraper-discount"),
            rx.separator(size="4"),
            cost_line("Expected cost", BulkScraperState.cost_label, "scraper-cost", strong=True),
            rx.hstack(
                rx.text("Balance after scrape", size="2", color_scheme="gray"),
                rx.text(BulkScraperState.balance_after_label, size="2", weight="medium", id="scraper-after",
                        color_scheme=rx.cond(BulkScraperState.short_of_credits, "red", "gray"), high_contrast=~BulkScraperState.short_of_credits),
                justify="between",
                width="100%",
            ),
            rx.cond(
                BulkScraperState.short_of_credits,
                rx.callout(BulkScraperState.need_message, icon="circle_alert", color_scheme="red", size="1", width="100%",
                           id="scraper-need"),
            ),
            rx.button(
                rx.cond(BulkScraperState.scraping, rx.spinner(size="2"), rx.icon("zap", size=18)),
                rx.cond(BulkScraperState.scraping, SCRAPING, "Start Bulk Scrape"),
                on_click=BulkScraperState.open_confirm,
                disabled=BulkScraperState.start_disabled,
                size="3",
                width="100%",
                id="scraper-start",
            ),
            rx.cond(~BulkScraperState.short_of_credits & (BulkScraperState.form_problems != ""),
                    rx.text("Check the form: ", BulkScraperState.form_problems, size="1", color_scheme="red",
                            id="scraper-start-why")),
            rx.cond(
                BulkScraperState.scraping,
                rx.vstack(
                    rx.progress(value=BulkScraperState.progress_percent, max=100, width="100%", aria_label="Scrape progress"),
                    rx.text(BulkScraperState.progress_label, size="1", color_scheme="gray"),
                    spacing="1", width="100%", id="scraper-progress", role="status", aria_live="polite",
                ),
            ),
            rx.link(rx.hstack(rx.icon("plus", size=14), rx.text("Buy More Credits"), spacing="1", align="center"),
                    href=routes.PURCHASE_CREDITS, id="scraper-buy", size="2"),
            spacing="3",
            width="100%",
        ),
        size="3",
        class_name="lv-card",
        width="100%",
    )


def tier_table() -> rx.Component:
    rows = [
        rx.table.row(
            rx.table.cell(scrape_rules.tier_label(i)),
            rx.table.cell(f"{pct}%"),
            rx.table.cell(f"{scrape_rules.CREDITS_PER_LEAD - pct} credits"),
            background=rx.cond(BulkScraperState.discount_percent == pct, "var(--accent-a3)", "transparent"),
        )
        for i, (_, pct) in enumerate(scrape_rules.DISCOUNT_TIERS)
    ]
    return rx.card(
        rx.vstack(
            rx.heading("Volume discounts", size="4", as_="h2"),
            rx.text(f"{scrape_rules.CREDITS_PER_LEAD} credits per lead, less a discount for larger scrapes.", size="2",
                    color_scheme="gray"),
            rx.table.root(
                rx.table.header(rx.table.row(*[rx.table.column_header_cell(h)
                                               for h in ("Leads", "Discount", "Per lead")])),
                rx.table.body(*rows),
                size="1",
                width="100%",
                id="tier-table",
            ),
            spacing="3",
            width="100%",
        ),
        size="3",
        class_name="lv-card",
        width="100%",
    )


def confirm_dialog() -> rx.Component:
    return rx.alert_dialog.root(
        rx.alert_dialog.content(
            rx.alert_dialog.title("Confirm Bulk Scrape"),
            rx.alert_dialog.description(
                rx.vstack(
                    rx.text("You are about to scrape ", rx.text.strong(BulkScraperState.leads_label), " for ",
                            rx.text.strong(BulkScraperState.cost_label), "."),
                    rx.foreach(BulkScraperState.city_notes, lambda note: rx.text(note, size="2", class_name="confirm-city-note")),
                    rx.text("Volume discount: ", BulkScraperState.discount_label, ". Balance after: ", BulkScraperState.balance_after_label, "."),
                    rx.text("You are charged only for leads delivered.", size="2", color_scheme="gray"),
                    rx.cond(DemoDataState.demo_data,
                            rx.text(SCRAPE_DEMO_NOTE, size="2", weight="medium", id="confirm-demo-note",
                                    class_name=NOTE_CLASS)),
                    spacing="2",
                ),
            ),
            rx.hstack(
                rx.alert_dialog.cancel(rx.button("Cancel", variant="soft", color_scheme="gray", id="confirm-cancel")),
                rx.alert_dialog.action(rx.button("Confirm Scrape", on_click=BulkScraperState.run_scrape, id="confirm-scrape")),
                spacing="3",
                justify="end",
                margin_top="1rem",
            ),
            id="confirm-dialog",
            max_width="460px",
        ),
        open=BulkScraperState.confirm_open,
        on_open_change=BulkScraperState.set_confirm_open,
    )
