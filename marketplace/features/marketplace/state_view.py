"""What ``MarketplaceState`` shows and sends besides its vars: the chips of the filters, the
script after a change (the address bar, the next page's pictures, the scroll), the unlock's
message and ``Shown``, the one input of its substates."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass

from marketplace.platform import routes
from marketplace.features.marketplace import rules as marketplace_rules
from marketplace.features.marketplace.rules_filter_values import price_range_label
from marketplace.platform.web.image_hosts import CARD_PICTURE_SIZES, card_picture
from marketplace.platform.texts import UNLOCK_SUCCESS, UNLOCK_SUCCESS_SUBSCRIPTION

PRICE = "price"  # the chip of the price range
RESULTS_ANCHOR = "lead-results"  # where the grid starts: page changes scroll back to it


def filter_chips(filters: marketplace_rules.Filters) -> list[dict[str, str]]:
    """One chip per active filter value, in the bar's order: {group, value, label, id}."""
    chips = [{"group": spec.field, "value": v, "label": spec.chip(v)}
             for spec in marketplace_rules.FILTERS for v in getattr(filters, spec.field)]
    label = price_range_label(filters.min_price, filters.max_price)
    if label:
        chips.append({"group": PRICE, "value": "", "label": "Price " + label[0].lower() + label[1:]})
    for chip in chips:
        chip["id"] = f"chip-{chip['group']}-{chip['value'].replace(' ', '-')}".rstrip("-")
    return chips


def page_script(query: str, next_pictures: list[str], scroll: bool) -> str:
    """Rewrite the address bar with ``query`` (no reload, no history entry), after the new grid is
    painted: a same-document URL change costs the browser a few milliseconds that the user would
    otherwise wait for. Then fetch (and so decode) the next page's first pictures once the user
    stays on this page and the browser is idle: the same candidates the cards will pick (sizes,
    srcset, src). ``scroll``: back to the grid's top when it is above the screen."""
    url = routes.marketplace_url(query)
    script = ("requestAnimationFrame(() => setTimeout(() => window.history.replaceState("
              f"window.history.state, '', {json.dumps(url)}), 0));")
    # A new page forgets the pictures fetched for the one before (they were that page's next);
    # ``lvNextPicturesAfter`` names the page whose next page they are.
    script += "clearTimeout(window.lvPrefetch); window.lvNextPictures = []; window.lvNextPicturesAfter = null;"
    if next_pictures:
        pictures = json.dumps([card_picture(url) for url in next_pictures])
        script += (f"window.lvPrefetch = setTimeout(() => (window.requestIdleCallback || setTimeout)(() =>"
                   f" {{ window.lvNextPicturesAfter = {json.dumps(url)};"
                   f" window.lvNextPictures = {pictures}.map(([src, srcset]) => Object.assign(new Image(),"
                   f" {{sizes: {json.dumps(CARD_PICTURE_SIZES)}, srcset, src}})); }}), {marketplace_rules.PREFETCH_AFTER_MS});")
    if scroll:
        script += (
            f"(() => {{ const el = document.getElementById({json.dumps(RESULTS_ANCHOR)});"
            " if (el && el.getBoundingClientRect().top < 0) el.scrollIntoView({block: 'start'}); })();"
        )
    return script


@dataclass(frozen=True)
class Shown:
    """What ``MarketplaceState`` hands its substates after each change: their only input from it."""

    filters: marketplace_rules.Filters
    view: str
    user_id: uuid.UUID | None
    clear_messages: bool = False  # a location change, a chip removed, Clear All Filters, a page load
    page_load: bool = False  # nothing typed or open survives
    unlocked: bool = False  # after an unlock (or a refused one): an open card again


def unlock_message(result) -> str:
    """SPEC 8: 'Lead unlocked for N credits. M credits remaining.'; a subscription
    unlock (no credits spent) says what it used instead."""
    if result.purchase_type == "subscription":
        left = result.subscription_leads_remaining or 0
        return UNLOCK_SUCCESS_SUBSCRIPTION.format(left=left, s="" if left == 1 else "s")
    return UNLOCK_SUCCESS.format(credits=result.credits_deducted, balance=result.remaining_credits)
