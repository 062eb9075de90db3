"""One module per page; importing this package declares them all (``@page``),
and marketplace/marketplace.py adds them to the app once (``add_pages``).
Pages import components and views, never another page."""

from marketplace.pages import home  # noqa: F401
from marketplace.pages import about  # noqa: F401
from marketplace.pages import legal  # noqa: F401
from marketplace.pages import contact  # noqa: F401
from marketplace.pages import not_found  # noqa: F401
from marketplace.pages import referral  # noqa: F401
from marketplace.pages import auth  # noqa: F401
from marketplace.pages import callback  # noqa: F401
from marketplace.pages import password_reset  # noqa: F401
from marketplace.pages import dashboard  # noqa: F401
from marketplace.pages import explorer  # noqa: F401
from marketplace.pages import marketplace  # noqa: F401
from marketplace.pages import property  # noqa: F401
from marketplace.pages import pricing  # noqa: F401
from marketplace.pages import purchase_credits  # noqa: F401
from marketplace.pages import credits_purchased  # noqa: F401
from marketplace.pages import demo_checkout  # noqa: F401
from marketplace.pages import bulkscraper  # noqa: F401
