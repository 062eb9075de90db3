"""Which image URLs may be shown (SPEC 8: only images from known image hosts).

Allowed: the app's own images (relative ``/api/images/...`` paths or absolute
URLs on ``SITE_URL``'s host) and HTTPS URLs on the hosts below.
"""

from __future__ import annotations

import re
from urllib.parse import urlparse

KNOWN_IMAGE_HOSTS = (
    "photos.zillowstatic.com",
    "ssl.cdn-redfin.com",
    "cdn-redfin.com",
    "ap.rdcpix.com",
    "images.homes.com",
    "img.realtor.com",
    "maps.googleapis.com",
    "images.unsplash.com",
)
OWN_IMAGE_PREFIX = "/api/images/"
MAX_IMAGES_PER_LEAD = 8


def is_allowed_image_url(url: str | None, own_host: str | None = None) -> bool:
    if not url or not isinstance(url, str):
        return False
    if url.startswith(OWN_IMAGE_PREFIX) and ".." not in url:
        return True
    parsed = urlparse(url)
    host = (parsed.hostname or "").lower()
    if own_host and host == own_host.lower() and parsed.scheme in ("http", "https"):
        return parsed.path.startswith(OWN_IMAGE_PREFIX)
    if parsed.scheme != "https" or not host:
        return False
    return any(host == known or host.endswith("." + known) for known in KNOWN_IMAGE_HOSTS)


def allowed_images(urls, own_host: str | None = None) -> list[str]:
    """The allowed URLs among ``urls``, in order, without duplicates."""
    seen: list[str] = []
    for url in urls or []:
        if is_allowed_image_url(url, own_host) and url not in seen:
            seen.append(url)
    return seen[:MAX_IMAGES_PER_LEAD]


def is_illustration(url: str | None) -> bool:
    """True for the app's own drawings of a built-in lead (not a photograph)."""
    return bool(url) and url.startswith(f"{OWN_IMAGE_PREFIX}house/")


# A drawing's address: /api/images/house/{key}/{n}.svg (api/images.py serves it, and its JPEGs).
HOUSE_KEY = r"[A-Za-z0-9-]{1,64}"
_HOUSE_SVG = re.compile(rf"^/api/images/house/({HOUSE_KEY})/([0-9]{{1,2}})\.svg$")
# A card's picture box is at most about 400 CSS pixels wide (three columns from 768 px,
# two from 520 px, one below): the browser picks the JPEG for its pixel density.
CARD_PICTURE_SIZES = "(min-width: 768px) 400px, (min-width: 520px) 50vw, 100vw"


def card_picture(url: str) -> tuple[str, str]:
    """(src, srcset) of a card's picture.

    The app's own drawings are shown on cards as JPEGs (400 and 800 pixels wide):
    a page of cards brings many pictures at once, and the browser decodes a JPEG
    off its main thread while it parses and lays out every SVG on it. Any other
    picture is shown as it is."""
    match = _HOUSE_SVG.fullmatch(url or "")
    if match is None:
        return url, ""
    stem = f"{OWN_IMAGE_PREFIX}house/{match.group(1)}/{match.group(2)}"
    return f"{stem}-400.jpg", f"{stem}-400.jpg 400w, {stem}-800.jpg 800w"


def house_image_urls(key: str, count: int) -> list[str]:
    """URLs of the app's own renderings for a built-in lead."""
    return [f"{OWN_IMAGE_PREFIX}house/{key}/{n}.svg" for n in range(count)]
