"""A lead's outside links (SPEC 2 /property): its listing, a maps search and a web search. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote_plus, urlparse

from marketplace.platform.leads import LISTING_URL_KEYS, is_generated


@dataclass(frozen=True)
class ListingLinks:
    listing: str
    listing_label: str
    maps: str
    web: str


KNOWN_LISTING_SITES = ("zillow.com", "redfin.com", "realtor.com", "trulia.com", "homes.com")


def external_links(address: str, city: str, state: str, zip_code: str, raw_data: dict | None) -> ListingLinks:
    """SPEC 2 /property: the listing from raw_data when it is on a known listing site,
    otherwise a listing-site search; a maps search; a web search. A generated (demo)
    lead has no listing: any URL its raw_data holds was made up, so it gets the search."""
    full = f"{address}, {city}, {state} {zip_code}".strip()
    listing = ""
    for key in () if is_generated(raw_data) else LISTING_URL_KEYS:
        url = (raw_data or {}).get(key)
        if isinstance(url, str) and url.startswith("https://"):
            host = (urlparse(url).hostname or "").lower()
            if any(host == site or host.endswith("." + site) for site in KNOWN_LISTING_SITES):
                listing = url
                break
    label = "View Listing"
    if not listing:
        listing = f"https://www.zillow.com/homes/{quote_plus(full)}_rb/"
        label = "Search on Zillow"
    return ListingLinks(
        listing=listing,
        listing_label=label,
        maps=f"https://www.google.com/maps/search/?api=1&query={quote_plus(full)}",
        web=f"https://www.google.com/search?q={quote_plus(full)}",
    )

