"""The marketing pages: home, about, contact, legal, and the 404 page.

What other features use of it is exported below; they import it from ``marketplace.features.marketing``
(``platform.exports``)."""

from marketplace.platform.exports import lazy_exports

__getattr__, __all__ = lazy_exports(__name__, {
    "view_not_found": ("NOT_FOUND_ROUTE", "not_found_view"),
})
