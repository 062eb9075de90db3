"""/marketplace's first picture, announced with the page (issue 26 #2).

The page is prerendered without its cards: they arrive with the page's state, after the scripts
have run and the websocket has answered, and the first card's picture is the page's largest paint
on a phone. A ``Link: rel=preload`` header on the page's HTML names that picture, so the browser
fetches it while the scripts load instead of after them; when the card renders, its picture is
already there. Only for the page as it opens without a query string (the default filters: the
same first card for every visitor); the srcset and sizes are the card's own, so the browser
picks the same file the card will use. Looked up at most once a minute, off the event loop; a
failed lookup only means no header.
"""

from __future__ import annotations

import logging
import time

from marketplace.core import marketplace as rules
from marketplace.core.images import CARD_PICTURE_SIZES
from marketplace.core.lead_cards import card_data
from marketplace.offloop import run_blocking
from marketplace.services.marketplace import query_page

log = logging.getLogger(__name__)

TTL_S = 60.0
_cached: dict = {"at": None, "link": None}


def preload_header(src: str, srcset: str) -> str | None:
    """The Link header value for a card picture, or None without one."""
    if not src:
        return None
    value = f"<{src}>; rel=preload; as=image; fetchpriority=high"
    if srcset:
        value += f'; imagesrcset="{srcset}"; imagesizes="{CARD_PICTURE_SIZES}"'
    return value


def first_picture_link(database_url: str | None = None) -> str | None:
    """The preload header of the first card of /marketplace with the default filters (blocking)."""
    result = query_page(rules.Filters.from_query(""), None, database_url)
    if not result.cards:
        return None
    card = card_data(result.cards[0])
    return preload_header(card["primary_image"], card["primary_srcset"])


async def marketplace_link(now: float | None = None) -> str | None:
    """``first_picture_link``, cached for ``TTL_S`` seconds."""
    now = time.monotonic() if now is None else now
    if _cached["at"] is not None and now - _cached["at"] < TTL_S:
        return _cached["link"]
    try:
        link = await run_blocking(first_picture_link)
    except Exception:  # noqa: BLE001 - no preload, the page itself is unaffected
        log.exception("marketplace first picture lookup failed")
        link = None
    _cached.update(at=now, link=link)
    return link
