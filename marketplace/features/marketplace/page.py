"""/marketplace: browse, filter and unlock leads (SPEC 2, 4, 5, 8, 9).

Layout, top to bottom: the page header (title, refresh countdown, Available
Credits with Buy More Credits, the public-data disclaimer, the low-credit
banner), the sticky filter bar (lead type, ROI, size and tag filters in
popovers, sort, results per page, the result count and Clear All Filters; on
phones a "Filters" button opening a bottom sheet instead), the card grid (1
column on phones, 2 on tablets, 3 from 1024px) and the
pagination.

Element ids used by the tests: ``refresh-countdown``, ``available-credits``,
``buy-more-credits``, ``marketplace-disclaimer``, ``low-credit-banner``,
``filter-bar``, ``filter-group-{group}``, ``filter-{group}-{value}`` (the
sheet uses ``sheet-filter-...``), ``sort-select``, ``page-size-select``,
``result-count``, ``clear-filters``, ``mobile-filters-button``,
``filter-sheet``, ``lead-grid``, ``marketplace-loading``, ``empty-results``,
``sample-notice``, ``pagination``, ``lead-card-{id}`` and the card ids in
``features/marketplace/view_lead_card.py``, ``lead-images-dialog-{id}`` (the page's one View
Images dialog, ``features/marketplace/view_gallery.py``).
"""

from __future__ import annotations

import reflex as rx
from reflex_base.utils.imports import ImportVar
from reflex_base.vars.base import Var, VarData

from marketplace.platform import routes
from marketplace.platform.ui import cards, styles, kit as ui
from marketplace.platform.ui.demo_data import claim_text
from marketplace.platform.ui.layout import page
from marketplace.features.marketplace.view_lead_card import EAGER_CARDS, IMAGE_HEIGHT, IMAGE_WIDTH, lead_card
from marketplace.features.unlock import unlock_confirm_dialog
from marketplace.platform.web.image_hosts import CARD_PICTURE_SIZES, first_card_srcset
from marketplace.platform.pricing import low_credit_cost_text
from marketplace.platform.texts import COUNTDOWN_PENDING, ILLUSTRATION_NOTE, LEADS_LOADING, NO_MATCHING_LEADS
from marketplace.features.marketplace.state import MarketplaceState
from marketplace.features.marketplace.view_filters import filter_bar
from marketplace.features.marketplace.view_gallery import images_dialog
from marketplace.features.marketplace.view_map import map_view, view_switch
from marketplace.features.marketplace.view_pagination import pagination

COUNTDOWN_INTERVAL_MS = 60_000
DISCLAIMER = (
    "Leads are derived from public records and provided for information only. Nothing on this page is a "
    "solicitation, an offer to buy or sell property, or investment advice. Verify every detail independently."
)
GRID_COLUMNS = {"initial": "1", "sm": "2", "md": "3"}

# ---------------------------------------------------------------------- header


def countdown_pill() -> rx.Component:
    return rx.badge(
        rx.icon("clock", size=14, aria_hidden="true"),
        rx.cond(MarketplaceState.countdown != "", rx.text(MarketplaceState.countdown, as_="span", id="refresh-countdown"),
                rx.text(COUNTDOWN_PENDING, as_="span")),
        size="2",
        variant="soft",
        radius="full",
        class_name="lv-eyebrow lv-mkt-countdown",
        title="Leads refresh daily at 8:00 AM Pacific time",
    )


def _header_panel(tile: rx.Component, text: rx.Component, action: rx.Component, **props) -> rx.Component:
    """A compact card in the page header: icon tile, text, then the action on the right."""
    return rx.card(
        rx.hstack(tile, text, rx.spacer(), action, spacing="3", align="center", width="100%"),
        size="2",
        class_name="lv-card lv-mkt-panel",
        width=ui.responsive("100%", md="auto"),
        min_width=ui.responsive("0", md="360px"),
        **props,
    )


def credits_panel() -> rx.Component:
    """Signed in: Available Credits and Buy More Credits. Visitors: a sign-in prompt."""
    return rx.cond(
        MarketplaceState.is_authenticated,
        _header_panel(
            rx.box(ui.icon_tile("coins", "amber"), class_name="lv-hide-below-sm"),
            # Phones: label and balance on one line (the panel is one slim row).
            rx.flex(
                rx.text("Available Credits", size={"initial": "1", "sm": "2"}, color_scheme="gray", weight="medium",
                        white_space="nowrap"),
                rx.text(MarketplaceState.credits_label, size={"initial": "3", "sm": "6"}, weight="bold", id="available-credits",
                        style={**styles.NUMBER_STYLE, "line_height": "1.1"}),
                direction={"initial": "row", "sm": "column"},
                align={"initial": "baseline", "sm": "start"},
                spacing={"initial": "2", "sm": "0"},
            ),
            ui.button_link("Buy More Credits", routes.PURCHASE_CREDITS, icon="plus", size={"initial": "1", "sm": "2"},
                           id="buy-more-credits"),
            id="credits-panel",
        ),
        rx.cond(
            ~MarketplaceState.auth_loading,
            _header_panel(
                rx.box(ui.icon_tile("lock_keyhole"), class_name="lv-hide-below-sm"),
                rx.vstack(
                    rx.text("Addresses are masked", size="2", weight="bold"),
                    rx.text("Sign in to unlock leads with credits.", size="2", color_scheme="gray",
                            class_name="lv-hide-below-sm"),
                    spacing="0",
                ),
                ui.button_link("Login", routes.AUTH, icon="log_in", size={"initial": "1", "sm": "2"},
                               id="marketplace-login"),
            ),
            # While the session resolves: the panel's place (stacked on narrow screens), so the
            # page below does not move when it arrives (CLS).
            rx.box(class_name="lv-mkt-panel-slot", aria_hidden="true"),
        ),
    )


def low_credit_banner() -> rx.Component:
    return rx.cond(
        MarketplaceState.low_credits,
        rx.callout.root(
            rx.callout.icon(rx.icon("triangle_alert", size=18)),
            rx.flex(
                rx.callout.text(
                    rx.text.strong("You're running low on credits. "),
                    f"You have {MarketplaceState.credits_label} credits left; {low_credit_cost_text()}",
                ),
                ui.button_link("Buy Credits", routes.PURCHASE_CREDITS, size="1", color_scheme="amber",
                               id="low-credit-buy", flex_shrink="0"),
                direction={"initial": "column", "sm": "row"},
                justify="between",
                align={"initial": "start", "sm": "center"},
                spacing="3",
                width="100%",
            ),
            color_scheme="amber",
            variant="surface",
            id="low-credit-banner",
            role="status",
            width="100%",
            margin_top="1rem",  # its own: no empty space when it is not shown
        ),
    )


def page_header() -> rx.Component:
    return rx.el.section(
        ui.container(
            rx.flex(
                # On phones the header is compact (the first card starts within the first screen): the
                # introduction left out, the panel one row, tighter spacing (assets/styles.css).
                rx.flex(
                    countdown_pill(),
                    rx.heading("Lead Marketplace", as_="h1", size={"initial": "5", "sm": "7", "md": "8"},
                               weight="bold", class_name="lv-balance lv-mkt-title"),
                    rx.text(
                        "Off-market probate, pre-foreclosure, auction and distressed leads with the ROI math done. "
                        "Addresses stay masked until you unlock a lead.",
                        size={"initial": "3", "md": "4"}, color_scheme="gray", max_width="40rem",
                        class_name="lv-hide-below-sm",
                    ),
                    direction="column",
                    align="start",
                    spacing={"initial": "2", "sm": "3"},
                    min_width="0",
                ),
                credits_panel(),
                direction={"initial": "column", "md": "row"},
                justify="between",
                align={"initial": "stretch", "md": "end"},
                spacing={"initial": "3", "sm": "5"},
            ),
            rx.hstack(
                rx.box(rx.icon("shield_check", size=14, color="var(--gray-9)", aria_hidden="true", margin_top="3px"),
                       flex_shrink="0", class_name="lv-hide-below-sm"),
                claim_text(DISCLAIMER, size="1", color_scheme="gray", id="marketplace-disclaimer"),
                spacing="2",
                align="start",
                margin_top=ui.responsive("0.5rem", sm="1.25rem"),
            ),
            rx.box(low_credit_banner(), width="100%"),
        ),
        class_name="lv-mkt-header",
        padding_top=ui.responsive("0.75rem", sm="2rem", md="3rem"),
        padding_bottom=ui.responsive("0.5rem", sm="1.5rem", md="2rem"),
    )


# ------------------------------------------------------------------- results


def first_picture() -> rx.Component:
    """The first skeleton card's picture: the first card's own picture, in the prerendered page
    (``features/marketplace/api_first_picture.py``), so that a phone paints it before the cards arrive."""
    src, srcset = first_card_srcset()
    return rx.el.div(
        rx.el.img(src=src, alt="", class_name="lv-lc-img", decoding="async", loading="eager",
                  custom_attrs={"id": "marketplace-first-picture", "width": IMAGE_WIDTH, "height": IMAGE_HEIGHT,
                                "srcSet": srcset, "sizes": CARD_PICTURE_SIZES, "fetchPriority": "high"}),
        rx.el.span(ILLUSTRATION_NOTE, class_name="lv-lc-note"),
        class_name="lv-lc-media lv-lc-media-first",
    )


def loading_block() -> rx.Component:
    def skeleton_card(picture: rx.Component) -> rx.Component:
        return rx.card(
            rx.vstack(
                picture,
                rx.skeleton(height="20px", width="70%"),
                rx.skeleton(height="14px", width="45%"),
                rx.skeleton(height="96px", width="100%"),
                rx.skeleton(height="40px", width="100%"),
                spacing="3",
            ),
            size="2",
            class_name="lv-card lv-lc-skeleton",  # a lead card's height (assets/lead_card.css)
        )
    # The line is as tall as the Grid | Map switch and the skeletons as tall as the cards that
    # replace them: the first page of cards moves nothing (CLS).
    return rx.vstack(
        rx.hstack(rx.spinner(size="3"), rx.text(LEADS_LOADING, size="3", weight="medium"),
                  spacing="3", align="center", id="marketplace-loading", role="status",
                  min_height=ui.responsive("24px", sm="32px")),
        rx.grid(skeleton_card(first_picture()), *[skeleton_card(rx.skeleton(height="176px", width="100%"))
                                                  for _ in range(2)], columns=GRID_COLUMNS, spacing="5", width="100%",
                aria_hidden="true"),
        spacing={"initial": "2", "sm": "5"},  # as the loaded page's (results())
        width="100%",
    )


def empty_results() -> rx.Component:
    return cards.empty_state(
        "search_x",
        *NO_MATCHING_LEADS,
        rx.button(rx.icon("x", size=16, aria_hidden="true"), "Clear All Filters", on_click=MarketplaceState.clear_filters,
                  size="3", id="empty-clear-filters", cursor="pointer"),
        "empty-results",
        title_as="h2",
        padding_y="4rem",
    )


def sample_notice() -> rx.Component:
    return rx.callout.root(
        rx.callout.icon(rx.cond(MarketplaceState.load_failed, rx.icon("cloud_off", size=18), rx.icon("flask_conical", size=18))),
        rx.flex(
            rx.callout.text(
                rx.cond(
                    MarketplaceState.load_failed,
                    rx.fragment(rx.text.strong("We couldn't load the marketplace right now. "),
                                "Meanwhile, here are two sample leads that show what every lead includes."),
                    rx.fragment(rx.text.strong("Sample leads. "),
                                "There are no live leads at the moment; fresh leads arrive every morning at "
                                "8:00 AM Pacific. These two samples show what every lead includes."),
                ),
            ),
            rx.cond(MarketplaceState.load_failed,
                    rx.button(rx.icon("rotate_cw", size=14, aria_hidden="true"), "Try Again", on_click=MarketplaceState.retry,
                              size="1", variant="soft", id="marketplace-retry", flex_shrink="0")),
            direction={"initial": "column", "sm": "row"},
            justify="between",
            align={"initial": "start", "sm": "center"},
            spacing="3",
            width="100%",
        ),
        color_scheme=rx.cond(MarketplaceState.load_failed, "red", "amber"),
        variant="surface",
        id="sample-notice",
        width="100%",
    )


def _grid_card(card, index) -> rx.Component:
    """A card of the grid; the first row loads its pictures eagerly."""
    return lead_card(card, busy=MarketplaceState.unlocking_id == card.id, eager=index < EAGER_CARDS)


# The grid renders its cards a row at a time (issue 41): FIRST_CARDS with the page's data, then STEP_CARDS
# more per task of the browser's until the page is complete, so no one task renders a page of cards (on a
# phone, about 400 ms of its main thread in one piece for 20 cards, which blocks a tap meanwhile). The count
# only grows: a later page of cards (a filter, the next page) renders as many at once as the grid has shown
# (a page of 20 after the first), the rest of a larger page a row per task.
FIRST_CARDS = EAGER_CARDS
STEP_CARDS = 3
_REVEAL_HOOK = """const [lvCardsShown, setLvCardsShown] = useState(%(first)d);
useEffect(() => {
  if (lvCardsShown >= %(total)s) return undefined;
  const timer = setTimeout(() => setLvCardsShown((shown) => shown + %(step)d), 0);
  return () => clearTimeout(timer);
}, [lvCardsShown, %(total)s]);"""


def revealed_cards() -> Var:
    """``MarketplaceState.cards`` as far as the grid has revealed them (``FIRST_CARDS``, then ``STEP_CARDS`` a
    task)."""
    cards = MarketplaceState.cards
    total = f"{cards._js_expr}.length"
    reveal = VarData(imports={"react": [ImportVar(tag="useState"), ImportVar(tag="useEffect")]},
                     hooks={_REVEAL_HOOK % {"first": FIRST_CARDS, "step": STEP_CARDS, "total": total}: None})
    return Var(_js_expr=f"{cards._js_expr}.slice(0, lvCardsShown)",
               _var_data=VarData.merge(cards._get_all_var_data(), reveal)).to(cards._var_type)


def lead_grid() -> rx.Component:
    return rx.grid(
        rx.foreach(revealed_cards(), _grid_card),
        columns=GRID_COLUMNS,
        spacing="5",
        width="100%",
        id="lead-grid",
        class_name="lv-mkt-grid",
        data_query=MarketplaceState.shown_query,
        data_loading=rx.cond(MarketplaceState.loading, "true", "false"),
        aria_busy=MarketplaceState.loading,
    )


def results() -> rx.Component:
    return rx.el.section(
        ui.container(
            rx.cond(
                ~MarketplaceState.loaded,
                loading_block(),
                rx.vstack(
                    view_switch(),
                    rx.cond(MarketplaceState.showing_samples, sample_notice()),
                    rx.cond(
                        (MarketplaceState.total == 0) & ~MarketplaceState.showing_samples,
                        empty_results(),
                        rx.cond(MarketplaceState.view == "map", map_view(), lead_grid()),
                    ),
                    rx.cond(MarketplaceState.view != "map", pagination()),
                    spacing={"initial": "2", "sm": "5"},  # as the loading block's
                    width="100%",
                ),
            ),
        ),
        id="lead-results",
        aria_label="Leads",
        padding_top=ui.responsive("0.5rem", sm="1.5rem", md="2rem"),
        padding_bottom=ui.responsive("3.5rem", md="5rem"),
        style={"scroll_margin_top": "calc(var(--lv-header-height, 64px) + 72px)"},
    )


@page(route=routes.MARKETPLACE, title="Lead Marketplace", on_load=[MarketplaceState.load])
def marketplace() -> rx.Component:
    return rx.fragment(
        page_header(),
        filter_bar(),
        results(),
        # Hidden ticker: recomputes 'Next refresh in' every 60 seconds.
        rx.moment(interval=COUNTDOWN_INTERVAL_MS, on_change=MarketplaceState.tick, display="none", aria_hidden="true"),
        images_dialog(),  # one View Images dialog for every card, filled with the card it was opened for
        unlock_confirm_dialog(MarketplaceState),  # one dialog for every card, filled with the lead it asks about
    )
