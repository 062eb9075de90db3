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


# A drawing's address: /api/images/house/{key}/{n}.svg (features/marketplace/api_images.py serves it, and its JPEGs).
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


# A card's picture when it has none (a house outline on the cards' grey).
PLACEHOLDER_SVG = (
    "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 400 240'>"
    "<rect width='400' height='240' fill='#e8ecf4'/>"
    "<g fill='none' stroke='#9aa4b8' stroke-width='5' stroke-linejoin='round' stroke-linecap='round'>"
    "<path d='M170 88 L200 62 L230 88'/><path d='M178 81 V112 H222 V81'/><path d='M194 112 V97 H206 V112'/>"
    "</g></svg>"
)

# The address the marketplace's loading skeleton shows its first picture at (features/marketplace/api_first_picture.py):
# it leads to the first card's own JPEG of that width.
FIRST_CARD_PICTURE = OWN_IMAGE_PREFIX + "first-card-{width}.jpg"
# The address a property page's shell shows its picture at: it leads to the lead's drawing.
PROPERTY_PICTURE = OWN_IMAGE_PREFIX + "property-picture"


def first_card_srcset() -> tuple[str, str]:
    """(src, srcset) of the skeleton's first picture, in the same widths as a card's."""
    return (FIRST_CARD_PICTURE.format(width=400),
            f"{FIRST_CARD_PICTURE.format(width=400)} 400w, {FIRST_CARD_PICTURE.format(width=800)} 800w")


def srcset_widths(srcset: str) -> dict[int, str]:
    """{width: url} of a ``url 400w, url 800w`` srcset (entries of another form are left out)."""
    widths = {}
    for entry in (srcset or "").split(","):
        parts = entry.split()
        if len(parts) == 2 and parts[1].endswith("w") and parts[1][:-1].isdigit():
            widths[int(parts[1][:-1])] = parts[0]
    return widths


def house_image_urls(key: str, count: int) -> list[str]:
    """URLs of the app's own renderings for a built-in lead."""
    return [f"{OWN_IMAGE_PREFIX}house/{key}/{n}.svg" for n in range(count)]


# A drawing's key carries the facts it is drawn from: "{lead id}-{beds}b-{sqft}f"
# (each part only when known), so the picture matches the lead it illustrates and
# a lead whose facts change gets a new address (the pictures are cached for good).
_HOUSE_FACTS = re.compile(r"(?:-([0-9]{1,2})b)?(?:-([0-9]{3,5})f)?$")


def house_key(lead_id: str, beds: int | None, square_footage: int | None) -> str:
    """The drawing key of a lead with these facts (see ``house_facts``)."""
    key = str(lead_id)
    if beds is not None and 0 < beds < 100:
        key += f"-{int(beds)}b"
    if square_footage is not None and 100 <= square_footage < 100_000:
        key += f"-{int(square_footage)}f"
    return key


def house_facts(key: str) -> tuple[int | None, int | None]:
    """(beds, square footage) a drawing key carries; None for a fact it does not carry."""
    match = _HOUSE_FACTS.search(key)
    beds, sqft = (match.group(1), match.group(2)) if match else (None, None)
    return (int(beds) if beds else None), (int(sqft) if sqft else None)


def illustration_url(lead_id: str, beds: int | None, square_footage: int | None) -> str:
    """The one illustration of a generated lead (a drawing from its own facts)."""
    return house_image_urls(house_key(lead_id, beds, square_footage), 1)[0]


def split_pictures(urls: list[str]) -> tuple[list[str], str]:
    """(photos, illustration): the pictures that are photographs, in order, and the
    first of the app's drawings ('' without one). Drawings never count as photos."""
    photos = [url for url in urls if url and not is_illustration(url)]
    drawing = next((url for url in urls if is_illustration(url)), "")
    return photos, drawing
