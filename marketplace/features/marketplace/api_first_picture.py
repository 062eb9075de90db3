"""/marketplace's first picture, and a property page's, shown before the page's state arrives.

The page is prerendered without its cards: they arrive with the page's state, after the scripts
have run and the websocket has answered, and the first card's picture is the page's largest
paint on a phone. Two things bring that picture forward:

* a ``Link: rel=preload`` header on the page's HTML names it, so the browser fetches it while
  the page loads instead of after the scripts (only for the page as it opens without a query
  string: the default filters give every visitor the same first card; the srcset and sizes are
  the card's own, so the browser picks the same file the card will use);
* the loading skeleton's first card shows it at once, from the prerendered HTML, through
  ``/api/images/first-card-{400|800}.jpg``: a redirect (never cached) to the first card's JPEG of
  that width, the file the preload fetched. When the cards arrive, the first one shows the
  same file in the same place. The page's address (the request's Referer, which the site's
  Referrer-Policy keeps whole on its own requests) tells which filters the skeleton stands
  for: /marketplace?lead_type=Probate shows the first Probate card's picture, never another
  lead's. When that first card has no drawing of ours (a photo from a source, or no lead at
  all) the address answers with the neutral placeholder drawing.

A property page (``/property/{id}``) is served its prerendered shell before its data (issue 41). The
shell shows ``/api/images/property-picture`` where the gallery opens: a redirect to the lead's drawing,
the picture its gallery then shows in the same place, when the lead is listed and has no photo (a
drawing is what the shell's note says it is); the neutral placeholder drawing for any other lead, an
unknown one or a page that is not a property's. The picture of a listed lead is on its card for
anyone to see; an archived lead's is never looked up.

A query's first card (or a property's picture) is looked up at most once every ten seconds (the last
``MAX_QUERIES`` lookups kept), off the event loop; a failed lookup only means no header and the
placeholder. A client that makes more than ``IMAGE_MISSES_PER_MINUTE`` lookups not cached a minute (a
flood of made-up addresses or lead ids) gets the placeholder drawing instead of a database query each.
"""

from __future__ import annotations

import logging
import time

import uuid
from collections.abc import Callable
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from marketplace.platform import routes
from marketplace.platform.web.ratelimit import Limiter
from marketplace.platform.config import get_settings
from marketplace.features.marketplace import rules as marketplace_rules
from marketplace.platform.web.image_hosts import (
    CARD_PICTURE_SIZES,
    FIRST_CARD_PICTURE,
    PLACEHOLDER_SVG,
    PROPERTY_PICTURE,
    srcset_widths,
)
from marketplace.features.marketplace.rules_cards import card_data
from marketplace.platform.web.net import client_ip
from marketplace.platform.offloop import run_blocking
from marketplace.features.marketplace.service import query_page
from marketplace.features.marketplace.service_map import map_card

log = logging.getLogger(__name__)

TTL_S = 10.0
MAX_QUERIES = 256
NOT_CACHED = {"cache-control": "no-store"}
# ("marketplace", the query string as the page's address has it) -> (looked up at, (src, srcset) or None);
# ("property", the lead's id) -> (looked up at, its drawing or None).
_cached: dict[tuple[str, str], tuple[float, object]] = {}
_lookups: Limiter | None = None

router = APIRouter()


def preload_header(src: str, srcset: str) -> str | None:
    """The Link header value for a card picture, or None without one."""
    if not src:
        return None
    value = f"<{src}>; rel=preload; as=image; fetchpriority=high"
    if srcset:
        value += f'; imagesrcset="{srcset}"; imagesizes="{CARD_PICTURE_SIZES}"'
    return value


def first_picture(database_url: str | None = None, query: str = "") -> tuple[str, str] | None:
    """(src, srcset) of the first card of /marketplace?``query`` (blocking); the default filters
    without one."""
    result = query_page(marketplace_rules.Filters.from_query(query), None, database_url)
    if not result.cards:
        return None
    card = card_data(result.cards[0])
    return (card["primary_image"], card["primary_srcset"]) if card["primary_image"] else None


def property_picture(lead_id: str, database_url: str | None = None) -> str | None:
    """The drawing a listed lead's property page opens its gallery with, when the lead has no photo
    (blocking); None for a lead with photos, an archived or unknown lead."""
    card = map_card(lead_id, None, database_url)
    if card is None:
        return None
    data = card_data(card)
    return data["images"][0] if data["illustration"] and data["images"] else None


async def _cached_lookup(key: tuple[str, str], lookup: Callable[[], object], now: float | None) -> object:
    """``lookup()`` off the event loop, cached for ``TTL_S`` seconds a key; None when it fails."""
    now = time.monotonic() if now is None else now
    if (hit := _cached.get(key)) is not None and now - hit[0] < TTL_S:
        return hit[1]
    try:
        found = await run_blocking(lookup)
    except Exception:  # noqa: BLE001 - no preload and the placeholder: the page itself is unaffected
        log.exception("first picture lookup failed (%s)", key[0])
        found = None
    _cached.pop(key, None)
    _cached[key] = (now, found)
    while len(_cached) > MAX_QUERIES:
        _cached.pop(next(iter(_cached)))  # the oldest lookup
    return found


async def cached_first_picture(query: str = "", now: float | None = None) -> tuple[str, str] | None:
    """``first_picture``, cached for ``TTL_S`` seconds a query."""
    return await _cached_lookup(("marketplace", query), lambda: first_picture(None, query), now)


async def cached_property_picture(lead_id: str, now: float | None = None) -> str | None:
    """``property_picture``, cached for ``TTL_S`` seconds a lead."""
    return await _cached_lookup(("property", lead_id), lambda: property_picture(lead_id), now)


def _is_fresh(key: tuple[str, str]) -> bool:
    hit = _cached.get(key)
    return hit is not None and time.monotonic() - hit[0] < TTL_S


async def _lookup_allowed(request: Request) -> bool:
    """One lookup of a query that is not cached, counted per client (``IMAGE_MISSES_PER_MINUTE``)."""
    global _lookups
    settings = get_settings()
    if _lookups is None:
        _lookups = Limiter("first-card-lookups", per_minute=settings.image_misses_per_minute)
    peer = request.client.host if request.client else None
    return await _lookups.hit(client_ip(peer, request.headers.getlist("x-forwarded-for"),
                                        settings.trusted_proxy_hops))


def page_query(referer: str | None) -> str:
    """The query string of the marketplace page that asks for its skeleton's picture ("" for any
    other or no page: the default filters)."""
    parts = urlsplit(referer or "")
    return parts.query if parts.path.rstrip("/") == routes.MARKETPLACE else ""


PROPERTY_PATH = routes.PROPERTY.split("[", 1)[0]  # '/property/'


def page_lead(referer: str | None) -> str | None:
    """The lead id of the property page that asks for its shell's picture; None for any other page."""
    path = urlsplit(referer or "").path
    if not path.startswith(PROPERTY_PATH):
        return None
    try:
        return str(uuid.UUID(path[len(PROPERTY_PATH):].rstrip("/")))
    except ValueError:
        return None


async def marketplace_link(now: float | None = None) -> str | None:
    """The preload header of /marketplace's first card picture, or None."""
    picture = await cached_first_picture("", now)
    return preload_header(*picture) if picture else None


@router.api_route(FIRST_CARD_PICTURE.format(width="{width}"), methods=["GET", "HEAD"], include_in_schema=False)
async def first_card_picture(width: str, request: Request) -> Response:
    """302 to the first card's JPEG of ``width`` pixels; the placeholder drawing when it has none."""
    if width not in ("400", "800"):
        return Response(status_code=404, headers=NOT_CACHED)
    query = page_query(request.headers.get("referer"))
    if query and not _is_fresh(("marketplace", query)) and not await _lookup_allowed(request):
        # Over the limit: the placeholder, never another page's lead.
        return Response(PLACEHOLDER_SVG, media_type="image/svg+xml", headers=NOT_CACHED)
    picture = await cached_first_picture(query)
    target = srcset_widths(picture[1]).get(int(width)) if picture else None
    if target:
        return RedirectResponse(target, status_code=302, headers=NOT_CACHED)
    return Response(PLACEHOLDER_SVG, media_type="image/svg+xml", headers=NOT_CACHED)


@router.api_route(PROPERTY_PICTURE, methods=["GET", "HEAD"], include_in_schema=False)
async def property_shell_picture(request: Request) -> Response:
    """302 to the drawing of the property page that asks (its Referer); the placeholder drawing otherwise."""
    lead_id = page_lead(request.headers.get("referer"))
    if lead_id is None or (not _is_fresh(("property", lead_id)) and not await _lookup_allowed(request)):
        return Response(PLACEHOLDER_SVG, media_type="image/svg+xml", headers=NOT_CACHED)
    target = await cached_property_picture(lead_id)
    if target:
        return RedirectResponse(target, status_code=302, headers=NOT_CACHED)
    return Response(PLACEHOLDER_SVG, media_type="image/svg+xml", headers=NOT_CACHED)
