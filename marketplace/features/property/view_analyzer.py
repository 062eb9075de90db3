"""The property page's Deal Analyzer card: the deal's shared figures, then tabs Flip /
Rental / BRRRR / Max offer, each with its labelled inputs (unit in the label, the field's problem under
it) and its results (features/property/view_analyzer_results.py). State: ``property.state_analyzer``.

Element ids: ``property-analyzer`` (the card), ``analyzer-{key}-input`` and ``analyzer-{key}-error`` for
every field of ``property.rules_deal.form``, ``analyzer-line-{i}-label`` / ``-amount`` / ``-remove`` and
``analyzer-add-line`` for the rehab budget, ``analyzer-rehab-total``, ``analyzer-financing``,
``analyzer-tab-{flip|rental|brrrr|offer}``, ``analyzer-save-status``, ``analyzer-reset``,
``analyzer-download``, ``analyzer-arv-basis``.
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui import cards
from marketplace.features.property.rules_deal import form as spec
from marketplace.features.property import texts_deal as text
from marketplace.platform.ui.state_auth import AuthState
from marketplace.features.property.state import PropertyState
from marketplace.features.property.state_analyzer import AnalyzerState
from marketplace.features.property.view_analyzer_results import offer_results, results_grid

LABEL_STYLE = {"font_size": "var(--font-size-2)", "font_weight": "500"}
ERROR_STYLE = {"color": "var(--red-11)", "font_size": "var(--font-size-1)", "min_height": "0"}
FIELD_GRID = {"columns": rx.breakpoints(initial="1", xs="2", md="3"), "spacing": "3", "width": "100%"}


def number_field(field: spec.Field, hint: rx.Component | None = None) -> rx.Component:
    """One labelled input; its problem (``property.rules_deal.inputs``' sentence) shows under it as the user types."""
    input_id, error_id = f"analyzer-{field.key}-input", f"analyzer-{field.key}-error"
    return rx.vstack(
        rx.el.label(field.labelled, html_for=input_id, style=LABEL_STYLE),
        rx.input(
            default_value=AnalyzerState.form[field.key],
            on_change=lambda value: AnalyzerState.set_field(field.key, value),
            id=input_id,
            input_mode="decimal",
            auto_complete="off",
            size="2",
            width="100%",
            placeholder="None" if field.optional else None,
            aria_invalid=rx.cond(AnalyzerState.errors.contains(field.key), "true", "false"),
            aria_describedby=error_id,
        ),
        hint if hint is not None else rx.fragment(),
        rx.text(AnalyzerState.errors[field.key], id=error_id, style=ERROR_STYLE),
        spacing="1",
        width="100%",
        min_width="0",
    )


ESTIMATED = ("monthly_rent", "property_tax_annual", "insurance_annual", "monthly_holding_cost")


def estimate_hint(key: str) -> rx.Component:
    """What a first analysis' rent, taxes, insurance or holding cost starts at (property.rules_deal.estimates)."""
    return rx.cond(AnalyzerState.estimate_bases.contains(key),
                   rx.text(text.ESTIMATE_HINT, AnalyzerState.estimate_bases[key], size="1", color_scheme="gray",
                           id=f"analyzer-{key}-basis"))


def fields(*specs: spec.Field) -> rx.Component:
    return rx.grid(*[number_field(f, estimate_hint(f.key) if f.key in ESTIMATED else None) for f in specs],
                   **FIELD_GRID)


def group(title: str, *children: rx.Component) -> rx.Component:
    return rx.vstack(rx.heading(title, as_="h3", size="2", color_scheme="gray"), *children, spacing="2",
                     width="100%")


# --------------------------------------------------------------------------- rehab lines


def rehab_line(line: rx.Var, i: rx.Var) -> rx.Component:
    label_id, amount_id = f"analyzer-line-{i}-label", f"analyzer-line-{i}-amount"
    n = i + 1
    return rx.vstack(
        rx.hstack(
            rx.input(default_value=line["label"], on_change=lambda v: AnalyzerState.set_line(i, "label", v), id=label_id,
                     aria_label=f"Rehab item {n}", size="2", flex="1 1 auto", min_width="0",
                     aria_invalid=rx.cond(AnalyzerState.errors.contains(f"line-{i}-label"), "true", "false")),
            rx.input(default_value=line["amount"], on_change=lambda v: AnalyzerState.set_line(i, "amount", v), id=amount_id,
                     aria_label=f"Rehab item {n} cost ($)", input_mode="decimal", size="2", width="8.5rem",
                     flex_shrink="0",
                     aria_invalid=rx.cond(AnalyzerState.errors.contains(f"line-{i}-amount"), "true", "false")),
            rx.icon_button(rx.icon("x", size=16), on_click=AnalyzerState.remove_line(i), variant="soft", color_scheme="gray",
                           size="2", aria_label=f"Remove rehab item {n}", id=f"analyzer-line-{i}-remove",
                           type="button"),
            spacing="2",
            width="100%",
            align="center",
        ),
        rx.text(AnalyzerState.errors[f"line-{i}-label"], style=ERROR_STYLE),
        rx.text(AnalyzerState.errors[f"line-{i}-amount"], style=ERROR_STYLE),
        spacing="1",
        width="100%",
    )


def rehab_budget() -> rx.Component:
    return group(
        text.REHAB_TITLE,
        rx.text(text.REHAB_HINT, size="1", color_scheme="gray"),
        rx.foreach(AnalyzerState.lines, rehab_line),
        rx.text(AnalyzerState.errors["lines"], style=ERROR_STYLE),
        rx.hstack(
            rx.button(rx.icon("plus", size=16), text.REHAB_ADD, on_click=AnalyzerState.add_line, variant="soft", size="2",
                      id="analyzer-add-line", type="button"),
            rx.spacer(),
            rx.text(text.REHAB_TOTAL + ": ", rx.el.strong(AnalyzerState.rehab_total, id="analyzer-rehab-total"), size="2"),
            width="100%",
            align="center",
        ),
    )


def financing() -> rx.Component:
    return rx.segmented_control.root(
        *[rx.segmented_control.item(label, value=value) for value, label in text.FINANCING_CHOICES.items()],
        value=AnalyzerState.form["financing"],
        on_change=AnalyzerState.set_financing,
        id="analyzer-financing",
        aria_label=text.FINANCING_LABEL,
        size="2",
    )


# --------------------------------------------------------------------------- tabs


def flip_tab() -> rx.Component:
    return rx.vstack(
        rehab_budget(),
        group("Holding and closing", fields(*spec.FLIP)),
        group(text.FINANCING_LABEL, financing(),
              rx.cond(AnalyzerState.form["financing"] == "hard_money", fields(*spec.HARD_MONEY))),
        results_grid("flip_profit", "flip_cash_in", "flip_total_cost", "flip_roi", "flip_annualized", "flip_coc",
                     primary=("flip_profit", "flip_cash_in", "flip_coc")),
        spacing="4",
        width="100%",
    )


def rental_tab() -> rx.Component:
    return rx.vstack(
        group("Income and expenses", fields(*spec.RENTAL_INCOME)),
        group("Mortgage", fields(*spec.MORTGAGE)),
        rx.text(text.REHAB_FROM_FLIP, AnalyzerState.rehab_total, ".", size="1", color_scheme="gray"),
        results_grid("rental_cash_flow", "rental_noi", "rental_cap", "rental_coc", "rental_dscr",
                     primary=("rental_cash_flow", "rental_coc", "rental_dscr")),
        spacing="4",
        width="100%",
    )


def brrrr_tab() -> rx.Component:
    return rx.vstack(
        rx.text("The Flip tab's purchase, rehab and hard money, the Rental tab's rent and expenses, then a "
                "refinance at a share of the ARV.", size="2", color_scheme="gray"),
        group("Refinance", fields(*spec.REFI)),
        results_grid("brrrr_cash_left", "brrrr_coc", "brrrr_cash_flow", "brrrr_refi_loan", "brrrr_cash_out",
                     "brrrr_dscr", primary=("brrrr_cash_left", "brrrr_coc")),
        spacing="4",
        width="100%",
    )


def offer_tab() -> rx.Component:
    return rx.vstack(
        group("Your targets", rx.text(text.TARGETS_HINT, size="1", color_scheme="gray"), fields(*spec.TARGETS)),
        offer_results(),
        spacing="4",
        width="100%",
    )


def tabs() -> rx.Component:
    bodies = {"flip": flip_tab, "rental": rental_tab, "brrrr": brrrr_tab, "offer": offer_tab}
    return rx.tabs.root(
        rx.tabs.list(
            *[rx.tabs.trigger(label, value=value, id=f"analyzer-tab-{value}") for value, label in
              text.TAB_LABELS.items()],
            size="2",
            style={"overflow_x": "auto", "max_width": "100%"},
        ),
        *[rx.tabs.content(rx.box(body(), padding_top="1rem"), value=value) for value, body in bodies.items()],
        default_value="flip",
        width="100%",
    )


# --------------------------------------------------------------------------- the card


def deal_figures() -> rx.Component:
    purchase, arv, closing = spec.SHARED
    return rx.grid(
        number_field(purchase),
        number_field(arv, rx.vstack(
            rx.text(AnalyzerState.arv_hint, size="1", color_scheme="gray", id="analyzer-arv-basis"),
            rx.cond(
                (AnalyzerState.comps_arv != "") & ~AnalyzerState.comps_arv_in_use,
                rx.flex(
                    rx.text(AnalyzerState.comps_arv_offer, size="1", color_scheme="gray", id="analyzer-comps-arv"),
                    rx.button(text.USE_COMPS_ARV, size="1", variant="soft", on_click=AnalyzerState.use_comps_arv,
                              aria_label=text.USE_COMPS_ARV_LABEL, id="analyzer-use-comps-arv"),
                    gap="2", align="center", wrap="wrap",
                ),
            ),
            spacing="1", align="start",
        )),
        number_field(closing),
        **FIELD_GRID,
    )


def toolbar() -> rx.Component:
    return rx.flex(
        rx.hstack(
            # Static icons (a state-named icon would ship all of lucide: tests/platform/test_page_weight.py).
            rx.match(AnalyzerState.save_kind,
                     ("saved", rx.icon("cloud_check", size=16, aria_hidden="true", color="var(--grass-11)")),
                     ("pending", rx.icon("cloud_upload", size=16, aria_hidden="true", color="var(--gray-11)")),
                     ("new", rx.icon("cloud", size=16, aria_hidden="true", color="var(--gray-11)")),
                     rx.icon("cloud_alert", size=16, aria_hidden="true", color="var(--amber-11)")),
            rx.text(AnalyzerState.save_status, size="2", id="analyzer-save-status", data_kind=AnalyzerState.save_kind),
            spacing="2",
            align="center",
            role="status",
            min_width="0",
        ),
        rx.hstack(
            rx.button(rx.icon("rotate_ccw", size=16), text.RESET_BUTTON, on_click=AnalyzerState.reset_to_defaults,
                      variant="soft", color_scheme="gray", size="2", disabled=AnalyzerState.busy, id="analyzer-reset",
                      type="button"),
            rx.button(rx.icon("file_down", size=16), text.DOWNLOAD_SHEET, on_click=AnalyzerState.download_sheet, size="2",
                      disabled=AnalyzerState.busy, id="analyzer-download", type="button"),
            spacing="2",
            wrap="wrap",
        ),
        direction=rx.breakpoints(initial="column", sm="row"),
        justify="between",
        align=rx.breakpoints(initial="start", sm="center"),
        spacing="3",
        width="100%",
    )


def analyzer_card() -> rx.Component:
    """The section the property page shows below its facts (only once this user's analysis is loaded)."""
    ready = AnalyzerState.an_shown & (PropertyState.loaded_for == AuthState.user_id)
    return rx.cond(
        ready,
        cards.section_card(
            "calculator",
            text.ANALYZER_TITLE,
            text.ANALYZER_SUBTITLE,
            toolbar(),
            # A new key re-mounts the inputs with the state's values (load, reset, a line added or removed).
            rx.vstack(deal_figures(), tabs(), key=AnalyzerState.form_key, spacing="4", width="100%"),
            rx.text(text.ANALYZER_DISCLAIMER, " ", text.RESET_HINT, size="1", color_scheme="gray"),
            heading_as="h2",
            tile_size="36px",
            card_id="property-analyzer",
        ),
    )
