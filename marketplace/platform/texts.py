"""Every fixed text the app shows a user, by area.

Quoted SPEC texts (sections 4, 5 and 8) are word for word; the app's own texts
follow their style. A pair is ``(title, message)``: the title and description
of a toast (``rx.toast.error(title, description=message)``) or of a
``platform.errors.UserError``. Texts built from values (counts, e-mails) stay next
to the code that formats them; the fixed parts live here.

This package imports nothing from the app but ``routes`` and ``platform.limits``, so
every layer (core, services, states, api) can import it. An area with many texts
of its own keeps them in a module of this package (``messages/<area>.py``),
imported as ``from marketplace.platform.texts.<area> import ...``.
"""

from __future__ import annotations

from marketplace.platform.limits import (
    CITY_MAX_LENGTH,
    EMAIL_MAX_LENGTH,
    MAX_PLACES,
    MAX_PRICE,
    MAX_SAVED_SEARCHES,
    NAME_MAX_LENGTH,
    PASSWORD_MAX_LENGTH,
    SAVED_SEARCH_NAME_MAX_LENGTH,
)
from marketplace.platform.routes import SUPPORT_EMAIL

# --------------------------------------------------------------------------- generic (SPEC 8)

ERROR_TITLE = "Error"
UNEXPECTED_ERROR = (ERROR_TITLE, "An unexpected error occurred. Please try again.")
INSUFFICIENT_CREDITS_TITLE = "Insufficient Credits"
# Outages (issue 40): an event that met the database down shows its area's title with this message; a page
# loaded then shows DATABASE_DOWN in place of its content. Nothing was done, so nothing was charged.
DATABASE_UNAVAILABLE = "We can't reach the database right now; nothing was charged. Try again in a minute."
DATABASE_DOWN = ("Database Unavailable", DATABASE_UNAVAILABLE)
# The server's own store of page sessions (Redis) down: the click was not carried out.
SERVER_UNAVAILABLE = ("Not Done", "We can't reach the server right now, so your click was not carried out; "
                                  "nothing was charged. Try again in a minute.")
RECONNECTING = "Reconnecting..."  # the page lost its connection to the server; clicks wait for it

# --------------------------------------------------------------------------- sign-in, sign-up (SPEC 5, 8)

PASSWORD_MISMATCH = ("Password Mismatch", "Passwords do not match. Please try again.")
PASSWORD_TOO_SHORT = ("Password Too Short", "Password must be at least 6 characters long.")
INVALID_CREDENTIALS = "Invalid login credentials. Signed up recently? Confirm your e-mail first with the link we sent you."
ALREADY_REGISTERED = "User already registered"
MISSING_INFORMATION_TITLE = "Missing Information"
REQUIRED_FIELDS = "{fields} {verb} required."  # 'First name and Email are required.'
# Field ceilings (no SPEC text: clear messages in the same style).
FIRST_NAME_TOO_LONG = ("Name Too Long", f"First name must be at most {NAME_MAX_LENGTH} characters long.")
LAST_NAME_TOO_LONG = ("Name Too Long", f"Last name must be at most {NAME_MAX_LENGTH} characters long.")
EMAIL_TOO_LONG = ("Email Too Long", f"Email must be at most {EMAIL_MAX_LENGTH} characters long.")
PASSWORD_TOO_LONG = ("Password Too Long", f"Password must be at most {PASSWORD_MAX_LENGTH} characters long.")
SIGN_IN_FAILED_TITLE = "Sign In Failed"
SIGN_UP_FAILED_TITLE = "Sign Up Failed"
# Sign-up ends with this whether or not the address was registered: the answer
# must not tell. The link in the e-mail signs in and goes on to /dashboard.
SIGN_UP_SENT_TITLE = "Check your e-mail"
CALLBACK_FAILED = ("Authentication Failed", "This link is invalid or has expired. Please sign in.")
CALLBACK_WORKING = "Completing sign in"
CALLBACK_WELCOME = "Welcome!"

# --------------------------------------------------------------------------- password reset (/auth/reset)

# The same answer whether or not an account exists for the address.
RESET_SENT_TITLE = "Check your e-mail"
RESET_SENT = ("If an account exists for that address, we've sent a link to reset the password. "
              "It expires in 30 minutes.")
RESET_REQUEST_FAILED_TITLE = "Reset Failed"
RESET_EMAIL_INVALID = (RESET_REQUEST_FAILED_TITLE, "Enter the e-mail address you signed up with.")
RESET_THROTTLED = "Too many reset requests. Please try again in {minutes} {unit}."
RESET_FAILED_TITLE = "Password Not Reset"
RESET_LINK_INVALID = ("Link Expired", "This link has expired or was already used")
RESET_DONE = ("Password Reset", "Your new password is set and you're signed in. Every other device was signed out.")
RESET_SUBJECT = "Reset your password"

# --------------------------------------------------------------------------- account e-mails

CONFIRM_SUBJECT = "Confirm your e-mail address"
EXISTING_SUBJECT = "Someone tried to sign up with your e-mail address"

# --------------------------------------------------------------------------- settings tab

CURRENT_PASSWORD_REQUIRED = ("Current Password Required", "Enter your current password to set a new one.")
WRONG_CURRENT_PASSWORD = ("Password Not Changed", "Your current password is incorrect. Nothing was changed.")
PASSWORD_UNCHANGED = ("Password Not Changed", "The new password is the same as your current one.")
PASSWORD_CHANGE_THROTTLED = ("Password Not Changed",
                             "Too many failed attempts. Please wait {wait} seconds and try again.")
DELETE_MISMATCH = ("Account Not Deleted", "Type your e-mail address exactly as shown to confirm.")
NOT_SIGNED_IN = ("Session Expired", "Please sign in again.")
# A tab whose session ended elsewhere (Sign out on another device, a password change, expiry).
SESSION_ENDED = ("Signed Out", "Your session has ended: you were signed out, or your password was changed. "
                               "Please sign in again.")
ALREADY_CONFIRMED = ("Already Confirmed", "Your e-mail address is already confirmed.")
CONFIRMATION_SENT = ("Confirmation Link Sent", "We sent a new link to {email}. Open it to confirm your address.")
PASSWORD_CHANGED_MEANWHILE = ("Password Not Changed", "Your password was changed elsewhere a moment ago. Please try again.")
SETTINGS_LOAD_FAILED = ("Settings Unavailable", "Failed to load your settings. Please try again.")
PROFILE_SAVED = ("Profile Updated", "Your name was saved.")
PASSWORD_CHANGED = "Password Changed"
PASSWORD_CHANGED_TEXT = "Your password was changed. {others}"
NO_OTHER_DEVICES = "No other device was signed in."
OTHER_DEVICES_SIGNED_OUT = "{count} other device{s} signed out."
SESSION_SIGNED_OUT = ("Signed Out", "That device was signed out.")
THIS_DEVICE_SIGNED_OUT = ("Signed Out", "This device was signed out.")
SIGNED_OUT_EVERYWHERE = ("Signed Out Everywhere", "Every device, this one included, was signed out.")
ACCOUNT_DELETED = ("Account Deleted", "Your account was deleted and you have been signed out.")

# --------------------------------------------------------------------------- marketplace and unlocks (SPEC 5, 8)

LEADS_LOAD_FAILED = (ERROR_TITLE, "Failed to load property leads. Please try again.")
LEADS_LOADING = "Loading fresh leads..."
UNLOCKING = "Unlocking..."  # the card's button while its unlock runs (SPEC 4)
# The refresh countdown (SPEC 2).
COUNTDOWN = "Next refresh in: {hours}h {minutes}m"
COUNTDOWN_PENDING = "Next refresh in: …"  # before the first tick
NO_MATCHING_LEADS = ("No leads match your filters", "Try removing a filter or widening the ROI and size ranges.")
UNLOCK_AUTH_REQUIRED = ("Authentication Required", "Please log in to unlock leads.")
UNLOCK_FAILED = (ERROR_TITLE, "Failed to unlock lead.")
UNLOCK_SUCCESS_TITLE = "Lead Unlocked!"
UNLOCK_SUCCESS = "Lead unlocked for {credits:,} credits. {balance:,} credits remaining."  # "1,880", never "1880"
UNLOCK_SUCCESS_SUBSCRIPTION = "Lead unlocked with your subscription. {left} subscription lead{s} remaining."
SAMPLE_NOT_UNLOCKABLE = "Sample leads are examples and cannot be unlocked."
LEAD_NOT_FOUND = "This lead no longer exists."
LEAD_INACTIVE = "This lead has been archived and can no longer be unlocked."
# Production never sells invented data (unlock.service, scrape.service).
DEMO_LEAD_NOT_FOR_SALE = "This lead is generated demo data, not a public record: it cannot be unlocked here."
DEMO_SOURCE_REFUSED = ("The built-in generator makes demo data, which is never sold: scrapes draw only from "
                       "public records here.")
ALREADY_UNLOCKED = "You have already unlocked this lead."
# A lead card's button (SPEC 2), from unlock.rules.
CARD_LOGIN = "Login"
CARD_VIEW = "View Details"
CARD_INSUFFICIENT = "Insufficient Credits - Buy More"
CARD_SUBSCRIPTION = "Unlock with Subscription"
UNLOCK_LABEL = "Unlock for {cost} credits"  # the card's button and the confirmation dialog's
# The marketplace map.
MAP_LEAD_GONE = ("Lead Unavailable", "This lead is no longer in the marketplace.")
MAP_SHOWN = "{shown} on the map"  # '1,234 leads on the map'
MAP_SHOWN_CAPPED = "The map shows the first {shown} of {matched} matching leads; narrow the filters to see the rest."
MAP_UNPLACED = "{count} without a known location {verb} not on the map."
MAP_LOCKED_NOTE = "Locked leads are shown at their ZIP code's centre; unlocking shows the exact location."
MAP_LOCKED_MARKER = "Locked lead, ZIP code area: open its card"
MAP_OPEN_MARKER = "Unlocked lead: open its card"
PROPERTY_MAP_MARKER = "This property"
PROPERTY_MAP_NONE = "This lead has no known location to show on a map."

# --------------------------------------------------------------------------- property page (SPEC 4, 8)

PROPERTY_NO_ACCESS = "You don't have access to this property"
PROPERTY_NOT_FOUND = "Property not found"
PROPERTY_SIGNED_OUT = "Please log in to view this property."
PROPERTY_LOAD_FAILED = "Failed to load property details."
PROPERTY_NOT_FOUND_TITLE = "Property Not Found"

# --------------------------------------------------------------------------- buying credits (SPEC 4, 8)

PURCHASE_AUTH_REQUIRED = ("Authentication Required", "Please log in to purchase credits")
# The dashboard's Avg ROI card says what it averages: estimates, not results (SPEC 9: leads with an ROI).
AVG_ROI_HINT = "Average of estimated ROIs (unlocked leads with one)"
# The bulk scraper on a demo install: the confirm step and the Sources group say the leads are generated.
SCRAPE_DEMO_NOTE = "This demo install delivers generated demo leads, not public records."
SOURCES_HINT = "Leave all unticked for every source."
SOURCES_DEMO_HINT = ("Demo data: these are the built-in generator's source names, not live feeds. "
                     "Leave all unticked for every source.")
SCRAPE_ROI_HINT = "0 to 100; a maximum of 100 includes every ROI above 100%."
# Under the purchase summary, whatever pack is chosen: credits never expire (as the pricing FAQ says).
PAYMENT_NOTE = "One-time payment. Credits never expire."
START_FAILED = "Failed to initiate purchase"
MISSING_SESSION = "Missing session ID"
VERIFY_FAILED = "Failed to verify purchase"
UNKNOWN_PACK = "Unknown credit pack"
VERIFY_ISSUE = f"There was an issue verifying your purchase. Please contact support at {SUPPORT_EMAIL}."
PAID_SHORTLY = "If your payment went through, the credits will be added to your account shortly."
# /credits-purchased's page title, by state (the heading keeps the SPEC 8 text).
PURCHASE_RESULT_TITLES = {
    "verifying": "Verifying Purchase",
    "success": "Purchase Complete",
    "missing": "No Purchase to Verify",  # no session_id in the address
    "failed": "Purchase Not Verified",
    "signed_out": "Log In to Verify Purchase",
}
PAY_FAILED_TITLE = "Payment failed"
PAY_FAILED = "The test payment could not be completed and nothing was added. Please try again."
CANCEL_FAILED = (ERROR_TITLE, "The checkout could not be canceled. Please try again.")
CANCELED_NOTE = "Checkout canceled — no charge was made."
STRIPE_START_FAILED = "Stripe could not start the checkout: {reason}"
STRIPE_UNREACHABLE = "Stripe could not be reached: {reason}"
NO_SUCH_CHECKOUT = "No such checkout session."
# The demo checkout (PAYMENTS=test): every purchase screen carries this strip.
# A demo install (platform.demo_data.demo_install): the strip on every page, and the note beside every
# claim about public records (platform.ui.demo_data).
DEMO_DATA_BANNER = "Demo install: the leads on this site are generated demo data, not public records."
DEMO_CLAIM_NOTE = "This demo install serves generated demo data."
DEMO_LEAD_MARK = "demo data"  # after a generated lead's figures where no page says it (the alert e-mail)
DEMO_MODE_BANNER = "TEST MODE — no real payment is made"

# --------------------------------------------------------------------------- referrals (SPEC 4, 5, 8)

VALIDATING = "Validating code..."
CODE_UPDATING = "Updating..."  # the referral code dialog while it saves (SPEC 4)
INVALID_CODE = "Invalid referral code. Please check and try again."
BLANK_CODE = "Please enter a referral code."
OWN_CODE_HINT = "That is your own referral code. Share it with other investors to earn credits."
CHECKOUT_PAID = ("Purchase complete", "Your balance is now {balance:,} credits.")
CODE_VALID_AFTER_FIRST = ("This code is valid, but the referral bonus is for a first purchase, and this account "
                          "has already made one.")
REFERRAL_BONUS_USED = "The 50% referral bonus applies to a first purchase; this account has already made one."
CODE_APPLIED = "Code applied! You'll get 50% bonus credits on your first purchase."
CODE_FORMAT = ("Invalid Code", "Referral code must be 1-15 alphanumeric characters only.")
CODE_TAKEN = ("Code Unavailable", "This referral code is already taken. Please choose another.")
CODE_RESERVED = ("Code Unavailable", "This referral code is the name of a page on this site. Please choose another.")
CODE_UPDATE_FAILED = (ERROR_TITLE, "Failed to update referral code. Please try again.")
CODE_UPDATED = "Referral Code Updated"
CODE_UPDATED_TEXT = "Your referral code is now {code}."
REFERRAL_NOT_APPLIED_TITLE = "Referral code not applied"

# --------------------------------------------------------------------------- dashboard (SPEC 8)

DASHBOARD_LOAD_FAILED = "Failed to load dashboard data."
PURCHASES_LOAD_FAILED = "Failed to load your purchases."
RECEIPT_NOT_FOUND = ("Receipt not found", "That purchase is not in your account.")
RECEIPT_FAILED = ("Error", "Failed to load the receipt. Please try again.")

# --------------------------------------------------------------------------- bulk scraper and webhook API (SPEC 5, 8)

SCRAPE_LOGIN_REQUIRED = ("Authentication Required", "Please log in to use the bulk scraper.")
SCRAPE_FAILED_TITLE = "Scrape Failed"
SCRAPE_FAILED = "Failed to complete scrape."
SCRAPE_DONE_TITLE = "Scrape Completed!"
SCRAPING = "Scraping..."  # the start button while a scrape runs (SPEC 4)
CHECK_CRITERIA_TITLE = "Check your criteria"
# Fewer leads matched than asked (scrape.rules.delivered_shortfall): the page, the webhook's "message".
SCRAPE_SHORTFALL = "Only {delivered:,} of {asked:,} matched your criteria; you were charged for the {delivered:,} delivered."
CREDIT_SHORTFALL = "You have {balance:,} credits but need {cost:,}."  # SPEC 8 (scrape.rules.shortfall_message)
# A failing lead source: the detail goes to the server log, never to the user or an API caller.
SOURCE_UNAVAILABLE = "The lead source is unavailable right now; nothing was charged. Please try again later."
MISSING_PARAMETERS = "Missing required parameters: leadCount, location"
SUPER_ADMIN_REQUIRED = "Access denied: Super admin privileges required"
INTERNAL_ERROR = "Internal server error"
USER_NOT_FOUND = "User not found"
INVALID_AUTH_KEY = "Invalid or missing webhook auth key"
ALL_HELD_MEANWHILE = ("Every lead found was delivered to you meanwhile by another scrape; nothing was charged. "
                      "Run the scrape again for new leads.")
NOTHING_NEW = "Every lead found is already in the marketplace; nothing was added."
KEY_FAILED = "Failed to generate webhook auth key"
KEY_DONE = "New webhook auth key generated"
LOGS_FAILED = "Failed to fetch webhook logs"
COPIED = "Copied"
# What a search for leads cannot ask for (marketplace.rules_criteria): the scrape form and the webhook API show it.
CRITERIA_RANGE_REVERSED = "{name}: the minimum ({low:g}) is above the maximum ({high:g})."
CRITERIA_COUNT = "Lead count must be between 1 and {max_count}."
CRITERIA_UNKNOWN_STATE = "Unknown state code: {codes}."
CRITERIA_UNKNOWN_TYPE = "Unknown lead type: {types}."
# Download links (the scrape CSV, the explorer export).
DOWNLOAD_LINK_INVALID = "This download link is invalid or has expired."
SCRAPE_NOT_FOUND = "Scrape not found"

# --------------------------------------------------------------------------- developer explorer (SPEC 6, 8)

ACCESS_DENIED = "Access Denied: You don't have super admin privileges"
# --------------------------------------------------------------------------- lead pictures (SPEC 4)
# One wording for the card and the property page. Built-in leads carry the
# app's own drawings (marketplace.rules_images.is_illustration): "illustrations"; pictures
# from a listing source are "photos".
IMAGE_STATUS_TEXT = {
    "pending": "Images are being verified",
    "failed": "Images could not be loaded",
    "no_images": "No images available",
    "success": "No images available",
}
PICTURE_NOUN = {True: ("illustration", "illustrations"), False: ("photo", "photos")}
# A generated (demo) lead has no photos: its one drawing is shown with this label,
# and its picture button says what it opens. Image counts count photos only.
ILLUSTRATION_NOTE = "Illustration, not a photo of this property"
# Owner flags (records.rules_owner_flags): the chips on cards and the property page.
BANK_OWNED_LABEL = "Bank-owned (REO)"
MAILING_UNKNOWN_LABEL = "Owner mailing address unknown"
VIEW_ILLUSTRATION = "View Illustration"
# Where a lead's data comes from (platform.leads.provenance_line).
DEMO_DATA_LINE = "Demo data (generated)"
# A generated lead's source column names a record office it never came from: the page says it is invented.
DEMO_SOURCE = "{source} (invented for the demo, not a record)"
# Under a demo lead's rehab tile: the generator's per-square-foot price (platform.pricing.estimate_rehab).
DEMO_REHAB_BASIS = "Demo estimate: {sqft} sqft x ${rate}/sqft for the condition it was given"
NO_AREA_REHAB_BASIS = "N/A: no living area on record"
HIDDEN_AREA_REHAB_BASIS = "Demo estimate from a living area the demo lead does not show"  # made before it said N/A
LISTING_DATA_LINE = "Listing data: {provider}"  # platform.leads.export_provenance: a listing provider's lead
NO_PROVENANCE = "N/A"  # an export's provenance cell for a lead that says nothing about where it came from
# Property page gallery ({picture} / {pictures}: a PICTURE_NOUN pair).
GALLERY_TITLE = "All {pictures}"
GALLERY_COUNT = "{count} {noun} of {address}"
VIEW_ALL_PICTURES = "View all {pictures}"
VIEW_PICTURE = "View {picture}"
PICTURE_ALT = "Property {picture}"
PICTURES_LATER = "{pictures} appear here as soon as they are available."
# Unlock cost copy; the numbers come from platform.pricing (``pricing.cost_faq_text`` and friends).
COST_FAQ = ("A lead's price follows its confidence score: {rule}. A lead listed without a price costs {default}. "
            "So a lead scored {high} or higher costs {tier_low} or {tier_high} credits, or {default} where it has no "
            "price listed: typically {low_typical}-{high_typical} credits to unlock. "
            "The exact price is shown on every lead card before you unlock it.")
LOW_CREDIT_COSTS = "leads cost {low} to {high} credits to unlock, depending on their confidence score."
# Unlock confirmation (the dialog before an expensive unlock, and its Settings section).
UNLOCK_CONFIRM_TITLE = "Unlock this lead?"
UNLOCK_CONFIRM_DONT_ASK = "Don't ask again"
UNLOCK_CONFIRM_BAD_SETTING = ("Invalid Setting", "Choose one of the offered thresholds.")
UNLOCK_CONFIRM_SAVED = ("Settings Saved", "Your unlock confirmation setting was updated.")

# --------------------------------------------------------------------------- saved searches and alerts

SAVED_SEARCH_LIMIT = ("Saved Search Limit",
                      f"You can save up to {MAX_SAVED_SEARCHES} searches. Delete one to save another.")
SAVED_SEARCH_NAME_REQUIRED = ("Name Required", "Enter a name for this search.")
SAVED_SEARCH_NAME_TOO_LONG = ("Name Too Long",
                              f"A saved search name must be at most {SAVED_SEARCH_NAME_MAX_LENGTH} characters long.")
SAVED_SEARCH_NAME_TAKEN = ("Name Taken", "You already have a saved search named '{name}'.")
SAVED_SEARCH_NOT_FOUND = ("Saved Search Not Found", "This saved search no longer exists.")
NOTIFICATION_NOT_FOUND = ("Notification Not Found", "This notification no longer exists.")
# The readable summary of a search's filters (marketplace.rules_saved_searches.summary).
SUMMARY_ALL_LEADS = "All leads"
SUMMARY_SORTED_BY = "sorted by {sort}"
SUMMARY_PRICE = "Asking price {range}"

# Location and price filters on /marketplace: shown under their inputs.
PRICE_FILTER_NOTE = "Leads without an asking price are hidden while a price range is set."
PRICE_INVALID = f"Enter a whole-dollar price from $0 to ${MAX_PRICE:,}."
PRICE_MIN_ABOVE_MAX = "The minimum price is above the maximum price. Nothing was applied."
CITY_INVALID = f"Enter a city name of at most {CITY_MAX_LENGTH} characters."
ZIP_INVALID = "Enter a five-digit ZIP code."
STATE_INVALID = "Choose one of the 50 states."
PLACES_LIMIT = f"You can filter by at most {MAX_PLACES} cities and {MAX_PLACES} ZIP codes."
MARKET_NO_LEADS = "{name} has no live leads yet: its records are history or only its roll is imported."
# One notification (and e-mail subject) per refresh: the count is of distinct new leads.
ALERT_TITLE_ONE = "1 new lead matches your saved searches"
ALERT_TITLE_MANY = "{count} new leads match your saved searches"
# The digest e-mail (plain text; marketplace.rules_saved_searches.digest_text).
DIGEST_SECTION = "{name}: {count} new {leads}"
DIGEST_MORE = "and {count} more"
DIGEST_OPEN = "Open this search: {url}"
DIGEST_STOP = "Stop e-mails for this search: {url}"
DIGEST_MANAGE = "Manage your saved searches: {url}"
DIGEST_FOOTER = ("You receive this e-mail because e-mail alerts are on for these saved searches. "
                 "Stop all of them with one click: {url}")
# The one-click unsubscribe page (features/marketplace/api_alerts.py).
UNSUBSCRIBED_TITLE = "E-mail alerts off"
UNSUBSCRIBED = "E-mail alerts for {names} are off."
UNSUBSCRIBED_NOTE = "You still see new matches in the app's notifications. Turn e-mails back on from your saved searches."
# The e-mail's link asks first (a mail scanner following links must not unsubscribe anyone);
# a mail client's RFC 8058 one-click POST does not.
UNSUBSCRIBE_ASK_TITLE = "Stop alert e-mails?"
UNSUBSCRIBE_ASK = "You get an e-mail after each daily refresh when new leads match {names}."
UNSUBSCRIBE_BUTTON = "Stop these e-mails"
RESUBSCRIBE_BUTTON = "Turn e-mails back on"
RESUBSCRIBED_TITLE = "E-mail alerts on"
RESUBSCRIBED = "E-mail alerts for {names} are on again."
UNSUBSCRIBE_INVALID = ("Link Not Valid", "This unsubscribe link is invalid or incomplete. Sign in to manage "
                                         "e-mail alerts from your saved searches.")
UNSUBSCRIBE_GONE = ("Link Expired", "This unsubscribe link has expired: the saved search no longer exists.")
MANAGE_SAVED_SEARCHES = "Manage saved searches"
# The Save search dialog, the dashboard's Saved Searches tab and the header bell (titles; the
# descriptions name the search and stay with the state that formats them).
SAVED_SEARCH_SAVED = ("Search Saved", "'{name}' is in your dashboard under Saved Searches.")
SAVED_SEARCH_RENAMED = ("Search Renamed", "It is now called '{name}'.")
SAVED_SEARCH_DELETED = ("Search Deleted", "'{name}' and its alerts are gone.")
SAVED_SEARCH_SAVE_FAILED = ("Search Not Saved", "Your search could not be saved. Please try again.")
SAVED_SEARCH_UPDATE_FAILED = ("Update Failed", "Your saved search could not be updated. Please try again.")
SAVED_SEARCHES_LOAD_FAILED = "Failed to load your saved searches."
NOTIFICATIONS_EMPTY = "No notifications yet"
NOTIFICATIONS_LOAD_FAILED = "Notifications could not be loaded. Close and open the list to try again."

# --------------------------------------------------------------------------- deal desk
# The deal analyzer's input checks (property.rules_deal.inputs); {field} is a DEAL_FIELDS label.

DEAL_INPUT_TITLE = "Check the deal inputs"
DEAL_NUMBER = "{field} must be a number."
DEAL_MONEY = "{field} must be an amount from $0 to $100,000,000."
DEAL_PERCENT = "{field} must be a percentage from 0 to 100."
DEAL_RATE = "{field} must be a rate from 0% to 30%."
DEAL_TERM = "{field} must be a whole number of years from 1 to 40."
DEAL_MONTHS = "{field} must be a whole number of months from 0 to 60."
DEAL_DSCR = "{field} must be a ratio from 0 to 10."
DEAL_FINANCING = "Financing must be cash or a hard-money loan."
DEAL_LINE_LABEL = "Each rehab line needs a name of at most 60 characters."
DEAL_TOO_MANY_LINES = "A rehab budget has at most 50 lines."
DEAL_SHAPE = "The saved analysis could not be read; start again from the lead's figures."
DEAL_FIELDS = {
    "purchase_price": "Purchase price", "arv": "After-repair value (ARV)", "rehab": "Rehab line",
    "holding_months": "Holding months", "monthly_holding_cost": "Monthly holding cost",
    "buy_closing_pct": "Buying closing costs", "sell_closing_pct": "Selling closing costs",
    "loan_to_cost_pct": "Loan-to-cost", "loan_rate_pct": "Hard-money rate", "loan_points_pct": "Points",
    "monthly_rent": "Monthly rent", "vacancy_pct": "Vacancy", "property_tax_annual": "Property tax (yearly)",
    "insurance_annual": "Insurance (yearly)", "management_pct": "Management", "maintenance_pct": "Maintenance",
    "capex_pct": "Capital expenditures", "down_payment_pct": "Down payment", "mortgage_rate_pct": "Mortgage rate",
    "term_years": "Mortgage term", "refi_ltv_pct": "Refinance loan-to-value", "refi_rate_pct": "Refinance rate",
    "refi_term_years": "Refinance term", "refi_closing_pct": "Refinance closing costs",
    "min_profit": "Minimum profit", "min_roi_pct": "Minimum ROI", "min_dscr": "Minimum DSCR",
}
DSCR_NO_LOAN = "no loan"  # DSCR when the deal has no debt service
ANNUALIZED_NO_HOLD = "N/A (no holding period)"  # annualized ROI of a 0-month hold
NO_CASH_IN = "N/A (no cash invested)"  # a ratio over zero cash
ALL_CASH_BACK = "Infinite (the refinance returns all the cash)"  # BRRRR cash-on-cash with no cash left in
# BRRRR cash-on-cash with no cash left in but a cash flow of zero or less: no return to speak of, never "Infinite"
ALL_CASH_BACK_NO_INCOME = "N/A (all the cash came back, but the rental does not cash flow)"
TARGET_LABELS = {"min_profit": "Minimum profit", "min_roi_pct": "Minimum ROI", "min_dscr": "Minimum DSCR"}
MAX_OFFER_BINDS = "{target} sets the maximum offer."
MAX_OFFER_NONE = "No purchase price meets {target}, not even $0."
MAX_OFFER_NO_TARGETS = "Set at least one target (minimum profit, ROI or DSCR) to solve for a maximum offer."
DEAL_LOCKED = ("Lead Locked", "Unlock this lead to analyze the deal.")

# --------------------------------------------------------------------------- owner contact / skip trace

SKIP_TRACE_LOCKED = ("Lead Locked", "Unlock this lead to find the owner's phone and e-mail.")
SKIP_TRACE_FAILED = ("Owner Search Failed",
                     "The owner search is unavailable right now; nothing was charged. Please try again later.")
SKIP_TRACE_NOT_FOUND = ("Owner Not Found", "No phone or e-mail was found for this property's owner. "
                                           "Nothing was charged.")
SKIP_TRACE_NO_RESULT = ("No Owner Search Yet", "Find the owner's phone and e-mail first.")
NUMBER_NOT_LISTED = ("Number Not Found", "That number is not among this lead's owner contacts.")
SKIP_TRACE_DEMO_NOTE = ("Demo data: these are fictional numbers (555-01xx) and example.com addresses, "
                        "not the owner's real contact details.")
DNC_NOTE = "On the Do Not Call list: do not call for marketing."

# The explorer's Sources panel
SOURCES_FAILED = "Failed to read the public-record sources"
RUN_QUEUED_TITLE = "Run queued"
RUN_QUEUED = "The records worker runs it within seconds: press Reload to follow it."


def shortfall_message(balance: int, cost: int) -> str:
    """'You have 1,200 credits but need 5,915.' (SPEC 8): the scraper's panel and every refused spend."""
    return CREDIT_SHORTFALL.format(balance=balance, cost=cost)
