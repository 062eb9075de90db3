"""Which image URLs may be shown (SPEC 8: only images from known image hosts).

Allowed: the app's own images (relative ``/api/images/...`` paths or absolute
URLs on ``SITE_URL``'s host) and HTTPS URLs on the hosts below.
"""

from __future__ import annotations

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


def house_image_urls(key: str, count: int) -> list[str]:
    """URLs of the app's own renderings for a built-in lead."""
    return [f"{OWN_IMAGE_PREFIX}house/{key}/{n}.svg" for n in range(count)]
