"""The marketplace lead card (SPEC 2), in the look of the home page's sample card.

``lead_card(card, busy, eager)`` renders one ``CardView`` (``features/marketplace/rules_cards.py``):
the picture with a placeholder (no pictures, or a picture that fails to load)
and the image status text, New / High ROI / Sample badges, the credit cost
badge, the View Images button (it opens the page's one dialog,
``features/marketplace/view_gallery.py``), the masked or full address, city/state/zip,
lead type, beds/baths/sqft, ROI, asking price, market value, ARV, rehab
estimate, the confidence bar and the card action.

Plain elements with the classes of ``assets/lead_card.css``: about 35 elements
a card (86 with nested Radix components and per-element style props), no
CSS-in-JS work when a page of cards renders, icons drawn by CSS. Every value
comes formatted from the state; the only expressions here are the badge and
busy conditions.

Element ids (used by the tests and benchmarks): ``lead-card-{id}``,
``lead-address-{id}``, ``lead-city-{id}``, ``lead-type-{id}``,
``lead-facts-{id}``, ``lead-roi-{id}``, ``lead-asking-{id}``,
``lead-market-{id}``, ``lead-arv-{id}``, ``lead-arv-note-{id}`` (what the ROI's ARV rests on), ``lead-rehab-{id}``, ``lead-chips-{id}`` (a public record's
signal, owner-flag and motivation chips), ``lead-motivation-{id}``,
``lead-confidence-{id}``, ``lead-auction-soon-{id}`` (the tag), ``lead-sale-{id}`` ('Sale in 17 days'),
``lead-since-{id}`` ('Vacant since 2009 (17 years)'),
``lead-provenance-{id}`` ('Demo data (generated)'), ``lead-listed-{id}`` ('Baltimore City open list of
Nov 27, 2026 · first seen Nov 27, 2026'), ``lead-held-{id}`` ('Unlocked by 2 investors'),
``lead-spots-{id}`` ('3 of 5 spots left', 'Sold out', 'Exclusive'; ``data-state``: open | full),
``lead-exclusive-{id}`` ('Unlock exclusively for N credits', beside the action when offered),
``lead-picture-note-{id}`` (over an illustration), ``lead-action-{id}`` (``data-action``: login | view |
insufficient | unlock | subscription | sample | sold_out: a plain 'Sold out', no button), ``lead-image-{id}`` (``data-fallback`` once
its picture failed), ``lead-images-button-{id}``.
"""

from __future__ import annotations

import inspect
from types import SimpleNamespace
from typing import get_type_hints
from urllib.parse import quote

import reflex as rx
from reflex.vars.base import Var
from reflex_components_core.react_router.dom import ReactRouterLink

from marketplace.platform.web.image_hosts import CARD_PICTURE_SIZES, PLACEHOLDER_SVG
from marketplace.features.marketplace.rules_cards import CHIP_SEPARATOR, CardView
from marketplace.platform.texts import UNLOCKING
from marketplace.features.unlock import HELD_BASIS, SPOTS_BASIS
from marketplace.features.marketplace.state import MarketplaceState

# The picture's intrinsic size (5:3): the browser reserves the box before it loads.
IMAGE_WIDTH, IMAGE_HEIGHT = 400, 240
# Cards in the first row (3 columns from 1024 px) load their picture at once
# with high priority (the page's largest paint); the others lazily.
EAGER_CARDS = 3

# A house outline; the card's status text (IMAGE_STATUS_TEXT) shows under it.
PLACEHOLDER_SRC = "data:image/svg+xml;utf8," + quote(PLACEHOLDER_SVG)
# A picture that fails swaps itself for the placeholder (never the placeholder
# itself, so no loop) and is marked, which shows the status text.
_SWAP_ON_ERROR = Var(
    _js_expr=(
        "((e) => { const img = e.currentTarget; if (!img.src.startsWith('data:')) "
        f"{{ img.dataset.fallback = '1'; img.srcset = ''; img.src = {PLACEHOLDER_SRC!r}; }} }})"
    )
)


def _id(prefix: str, card) -> dict:
    """``id="{prefix}-{lead id}"`` as a plain attribute: an ``id=`` prop would also make
    Reflex create and register a React ref for the element (16 hooks a card)."""
    return {"custom_attrs": {"id": f"{prefix}-{card.id}"}}


def _badge(text, color: str, icon: str | None = None) -> rx.Component:
    return rx.el.span(text, class_name=f"lv-badge lv-ic lv-ic-{icon}" if icon else "lv-badge",
                      data_accent_color=color)


def _media(card, eager) -> rx.Component:
    has_images = card.has_picture
    return rx.el.div(
        rx.el.img(
            # Keyed by lead: the next page's picture is a new element (the last page's
            # picture never lingers while it loads, and its fallback mark goes with it).
            key=card.id,
            src=rx.cond(has_images, card.primary_image, PLACEHOLDER_SRC),
            alt=card.image_alt,
            class_name="lv-lc-img",
            decoding="async",
            loading=rx.cond(eager, "eager", "lazy"),
            # Attributes, not style props (those would become CSS-in-JS).
            custom_attrs={"id": f"lead-image-{card.id}", "width": IMAGE_WIDTH, "height": IMAGE_HEIGHT,
                          "srcSet": rx.cond(has_images, card.primary_srcset, ""), "sizes": CARD_PICTURE_SIZES,
                          "fetchPriority": rx.cond(eager, "high", "auto"), "onError": _SWAP_ON_ERROR},
        ),
        rx.el.span(card.image_status, class_name="lv-lc-status"),
        # Over an illustration: it is a drawing, not this property.
        rx.cond(card.picture_note != "", rx.el.span(card.picture_note, **_id("lead-picture-note", card),
                                                   class_name="lv-lc-note")),
        rx.el.div(
            rx.cond(card.is_sample, _badge("Sample", "amber", "flask")),
            rx.cond(card.is_new, _badge("New", "indigo")),
            rx.cond(card.is_high_roi, _badge("High ROI", "grass", "trending-up")),
            rx.cond(card.auction_soon, rx.el.span("Auction Soon", **_id("lead-auction-soon", card),
                                                  class_name="lv-badge", data_accent_color="amber")),
            class_name="lv-lc-badges",
        ),
        rx.el.span(f"{card.credit_cost} credits", class_name="lv-badge lv-badge-surface lv-ic lv-ic-coins lv-lc-cost",
                   title="Credits to unlock this lead"),
        rx.el.button(
            card.images_label,
            type="button",
            **_id("lead-images-button", card),
            class_name="lv-lc-photos lv-ic lv-ic-images",
            disabled=~has_images,
            aria_label=card.images_aria,
            on_click=MarketplaceState.open_gallery(card.id),
        ),
        class_name="lv-lc-media",
        data_empty=rx.cond(has_images, "false", "true"),
    )


def _heading(card) -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.p(card.address, **_id("lead-address", card), title=card.address,
                    class_name=rx.cond(card.unlocked, "lv-lc-address lv-ic lv-ic-lock-open",
                                       "lv-lc-address lv-ic lv-ic-lock")),
            rx.el.p(card.city_line, **_id("lead-city", card), class_name="lv-lc-city"),
        ),
        rx.el.span(card.lead_type, **_id("lead-type", card), class_name="lv-badge lv-badge-soft"),
        class_name="lv-lc-head",
    )


def _facts(card) -> rx.Component:
    return rx.el.p(
        rx.el.span(card.beds, class_name="lv-ic lv-ic-bed"),
        rx.el.span(card.baths, class_name="lv-ic lv-ic-bath"),
        rx.el.span(card.sqft, class_name="lv-ic lv-ic-ruler"),
        **_id("lead-facts", card),
        class_name="lv-lc-facts",
    )


def _financials(card) -> rx.Component:
    # In the order the two columns fill: Asking, ARV | Market Value, Rehab (read row by row:
    # Asking, Market Value, ARV, Rehab).
    # The ARV shown is the one the ROI rests on, named ('Comps ARV' / 'Est. ARV').
    pairs = [("Asking", card.asking, "asking"), (card.arv_term, card.arv, "arv"),
             ("Market Value", card.market, "market"), ("Rehab", card.rehab, "rehab")]
    return rx.el.div(
        rx.el.p(
            rx.el.span(card.roi_label),
            rx.el.span(card.roi, **_id("lead-roi", card), data_tone=card.roi_tone),
            class_name="lv-lc-roi",
        ),
        # What the ARV rests on, or where the comps and the estimate disagree (marketplace.rules_headline.card_note).
        rx.el.p(card.arv_note, **_id("lead-arv-note", card), class_name="lv-lc-arv-note"),
        rx.el.dl(
            *[part for label, value, key in pairs
              for part in (rx.el.dt(label), rx.el.dd(value, **_id(f"lead-{key}", card)))],
            class_name="lv-lc-metrics",
        ),
        class_name="lv-lc-fin",
    )


def _confidence(card) -> rx.Component:
    return rx.el.div(
        rx.el.span("Confidence"),
        rx.el.span(f"{card.confidence}/100", **_id("lead-confidence", card)),
        rx.el.progress(value=card.confidence, max=100, aria_label=card.confidence_label,
                       data_tone=rx.cond(card.confidence >= 80, "high", rx.cond(card.confidence >= 60, "mid", "low"))),
        class_name="lv-lc-conf",
    )


def _record_chips(card) -> rx.Component:
    """A public-record lead's chips: its open signals, the owner flags, its motivation score (none on
    other leads: the row is not rendered)."""
    return rx.cond(
        (card.signals != "") | (card.owner_flags != "") | (card.motivation != ""),
        rx.el.ul(
            rx.cond(card.signals != "", rx.foreach(card.signals.split(CHIP_SEPARATOR),
                                                   lambda label: rx.el.li(label, class_name="lv-lc-chip"))),
            rx.cond(card.owner_flags != "", rx.foreach(
                card.owner_flags.split(CHIP_SEPARATOR),
                lambda label: rx.el.li(label, class_name="lv-lc-chip", data_kind="owner"))),
            rx.cond(card.motivation != "", rx.el.li(card.motivation, **_id("lead-motivation", card),
                                                    class_name="lv-lc-chip", data_kind="score")),
            **_id("lead-chips", card),
            class_name="lv-lc-chips",
            aria_label="Public-record signals",
        ),
    )


def _sale_in(card) -> rx.Component:
    """'Sale in 17 days' for a lead with a sale or auction date ahead (no calendar date on a card)."""
    return rx.cond(card.sale_in != "", rx.el.p(card.sale_in, **_id("lead-sale", card), class_name="lv-lc-sale"))


def _open_since(card) -> rx.Component:
    """'Vacant since 2009 (17 years)' (locked) / 'Vacant since Mar 4, 2009 (17 years)' (unlocked): how long
    the lead's longest-open status item has been open (records.rules_open_since)."""
    return rx.cond(card.open_since != "",
                   rx.el.p(card.open_since, **_id("lead-since", card), class_name="lv-lc-since"))


def _listed(card) -> rx.Component:
    """A public-record lead's freshness: the day its list was taken and when LeadVault first saw it."""
    return rx.cond(card.listed != "", rx.el.p(card.listed, **_id("lead-listed", card), class_name="lv-lc-provenance"))


def _provenance(card) -> rx.Component:
    """Where the lead's data comes from ('Demo data (generated)'), when it says."""
    return rx.cond(card.provenance != "",
                   rx.el.p(card.provenance, **_id("lead-provenance", card), class_name="lv-lc-provenance"))


def _roll(card) -> rx.Component:
    """The county roll's values with their basis ('Market value $82,000 · Philadelphia Office of Property
    Assessment, tax year 2022') or 'No property facts: ...'; the last recorded sale (unlocked cards)."""
    return rx.fragment(
        rx.cond(card.roll_use != "", rx.el.p(card.roll_use, **_id("lead-use", card), class_name="lv-lc-provenance")),
        rx.cond(card.roll_line != "", rx.el.p(card.roll_line, **_id("lead-roll", card), class_name="lv-lc-provenance")),
        rx.cond(card.last_sale != "", rx.el.p(card.last_sale, **_id("lead-last-sale", card),
                                              class_name="lv-lc-provenance")),
    )


def _held_by(card) -> rx.Component:
    """'Unlocked by 2 investors' / 'Nobody has unlocked this yet': how many hold the lead, never who."""
    return rx.cond(card.held_by != "", rx.el.p(card.held_by, **_id("lead-held", card), title=HELD_BASIS,
                                               class_name="lv-lc-held lv-ic lv-ic-users"))


def _spots(card) -> rx.Component:
    """'3 of 5 spots left' / 'Sold out' / 'Exclusive': the cap (LEAD_MAX_HOLDERS); nothing without one."""
    return rx.cond(card.spots != "", rx.el.p(card.spots, **_id("lead-spots", card), title=SPOTS_BASIS,
                                             class_name="lv-lc-spots lv-ic lv-ic-ticket",
                                             data_state=rx.cond(card.spots_left == 0, "full", "open")))


def card_action(card, busy) -> rx.Component:
    """Login / View Details / Insufficient Credits - Buy More (links), Unlock for N credits (a button), or
    'Sold out' (plain text: a full lead has no unlock action); then 'Unlock exclusively for N credits'
    when offered (unlock.rules.quote_exclusive)."""
    kind = card.action_kind
    # Colour and icon by data-action in assets/lead_card.css.
    common = {**_id("lead-action", card), "data_action": kind, "class_name": "lv-lc-btn lv-ic"}
    return rx.el.div(
        rx.cond(
            card.action_href != "",
            ReactRouterLink.create(card.action_label, to=card.action_href, **common),
            rx.cond(
                kind == "sold_out",
                rx.el.p(card.action_label, **common),
                rx.el.button(
                    rx.cond(busy, UNLOCKING, card.action_label),
                    type="button",
                    on_click=MarketplaceState.unlock(card.id),
                    disabled=busy | (kind == "sample"),
                    aria_busy=busy,
                    title=rx.cond(kind == "sample", "Sample leads illustrate the marketplace and cannot be unlocked", ""),
                    **common,
                ),
            ),
        ),
        rx.cond(
            card.exclusive_label != "",
            rx.el.button(card.exclusive_label, type="button", on_click=MarketplaceState.unlock_exclusive(card.id),
                         disabled=busy, **_id("lead-exclusive", card), class_name="lv-lc-btn lv-lc-excl lv-ic"),
        ),
        class_name="lv-lc-actions",
    )


def _card(busy, eager, **fields) -> rx.Component:
    card = SimpleNamespace(**fields)
    return rx.el.article(
        _media(card, eager),
        _heading(card),
        _facts(card),
        _sale_in(card),
        _open_since(card),
        _record_chips(card),
        _financials(card),
        _confidence(card),
        _roll(card),
        _provenance(card),
        _listed(card),
        _held_by(card),
        _spots(card),
        card_action(card, busy),
        **_id("lead-card", card),
        class_name="lv-lc lv-card lv-card-hover",
        data_unlocked=rx.cond(card.unlocked, "true", "false"),
        data_sample=rx.cond(card.is_sample, "true", "false"),
        aria_label=f"{card.lead_type} lead in {card.city_line}",
    )


# The memoized card takes every CardView field as its own prop: React.memo compares
# props by identity, and each delta brings new card objects, while equal strings and
# numbers compare equal. So an unlock re-renders the cards whose values changed (the
# unlocked one, those whose action changed), not the whole page of cards.
_FIELD_TYPES = get_type_hints(CardView)
_PARAMS = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=rx.Var[kind])
           for name, kind in [("busy", bool), ("eager", bool), *_FIELD_TYPES.items()]]
_card.__signature__ = inspect.Signature(_PARAMS, return_annotation=rx.Component)
_card.__annotations__ = {**{p.name: p.annotation for p in _PARAMS}, "return": rx.Component}
_card.__name__ = _card.__qualname__ = "lead_card"
_memo_card = rx.memo(_card)


def lead_card(card, busy, eager) -> rx.Component:
    """One lead of the grid (``card``: a ``CardView`` var); ``busy`` while its unlock
    runs ('Unlocking...'); ``eager`` for the first row (picture loaded at once, high
    priority)."""
    return _memo_card(busy=busy, eager=eager, **{name: card[name] for name in _FIELD_TYPES})
