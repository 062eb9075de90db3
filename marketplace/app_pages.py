"""Every page of the app, declared by importing its module (``@page``); ``platform.ui.layout.add_pages``
adds them to the app once (marketplace/marketplace.py). A page imports views and states, never another page."""

from marketplace.features.marketplace.state_notifications import NotificationsState
from marketplace.features.marketplace.view_notification_bell import notification_bell
from marketplace.platform.ui.layout import CHROME

# Before any page is declared: every signed-in page's header has the Notifications bell, and its unread count
# is read on every page load and with the session keep-alive.
CHROME.header.append(notification_bell)
CHROME.events.append(NotificationsState.refresh_count)

from marketplace.features.marketing import page_home, page_about, page_legal, page_contact, page_not_found  # noqa: E402,F401
from marketplace.features.billing import page_referral  # noqa: E402,F401
from marketplace.features.accounts import page as _auth, page_callback, page_password_reset  # noqa: E402,F401
from marketplace.features.dashboard import page as _dashboard  # noqa: E402,F401
from marketplace.features.explorer import page as _explorer  # noqa: E402,F401
from marketplace.features.marketplace import page as _marketplace  # noqa: E402,F401
from marketplace.features.property import page as _property  # noqa: E402,F401
from marketplace.features.billing import page_pricing, page as _purchase, page_credits_purchased  # noqa: E402,F401
from marketplace.features.billing import page_demo_checkout  # noqa: E402,F401
from marketplace.features.scrape import page as _bulkscraper  # noqa: E402,F401
