"""Texts of the property page's "Owner contact" card. The refusals (lead locked, search
failed, shortfall) and the demo note are in ``messages/__init__.py`` (SKIP_TRACE_*), which the service
raises.

The price of a hit is a setting (``config.skip_trace_price``, SKIP_TRACE_CREDITS_PER_HIT): the texts quoting
it are templates with ``{credits}``, filled by ``priced(template, credits)``."""

TITLE = "Owner contact"
SUBTITLE = "Phone numbers and e-mail addresses of the owner of record"
FIND_BUTTON = "Find owner phone and e-mail ({credits} credits, charged only if a contact is found)"
EXPLAIN = ("A search costs {credits} credits, charged only when at least one phone number or e-mail "
           "is found. A search that finds nothing is free and may be repeated after 30 days; opening the result "
           "again is free.")
CONFIRM_TITLE = "Find the owner's phone and e-mail?"
CONFIRM_TEXT = ("{credits} credits are charged only if a phone number or e-mail is found; "
                "a search that finds nothing costs nothing.")
# 'Balance: 500 credits, after a hit: 475 credits'
CONFIRM_BALANCE = "Balance: {balance} credits, after a hit: {after} credits"
CONFIRM_BUTTON = "Search ({credits} credits if found)"
CANCEL = "Cancel"
BALANCE_LINE = "Your balance: {balance} credits"
BUSY = "Searching for the owner..."
MISS = "No contact found. You were not charged."
# A stored miss: 'You may search again from Dec 27, 2026.' / once it is 30 days old, the search button again.
MISS_RETRY_ON = "You may search again from {date}."
RETRY_BUTTON = "Search again ({credits} credits, charged only if a contact is found)"
PHONES = "Phone numbers"
EMAILS = "E-mail addresses"
NO_PHONES = "No phone number found."
NO_EMAILS = "No e-mail address found."
TYPE_UNKNOWN = "Type not stated"
DNC_BADGE = "Do not call"
DNC_EXPLAIN = ("This number is on the National Do Not Call Registry: do not call or text it for marketing "
               "without the owner's consent.")
DNC_CLEAR_BADGE = "Not on Do Not Call list"
DNC_UNKNOWN_BADGE = "Do Not Call status unknown"
DNC_UNKNOWN_EXPLAIN = ("The provider did not say whether this number is on the National Do Not Call Registry: "
                       "check it before you call or text for marketing.")
MARK_WRONG = "Mark wrong"
WRONG_BADGE = "Wrong number"
UNMARK_WRONG = "Not wrong"
PROVIDERS = {"demo": "Built-in demo provider", "batchdata": "BatchData"}
# 'BatchData, Nov 25, 2026 · 2 credits charged' / '... · not charged'
SOURCE_LINE = "{provider}, {date} · {charge}"
CHARGED = "{credits} credits charged"
NOT_CHARGED = "not charged"
FOUND_TOAST = ("Owner Contact Found", "{cost} credits charged. {balance} credits remaining.")
MISS_TOAST = ("No Contact Found", MISS)
# The pricing page's FAQ entry (features/billing/page_pricing.py)
FAQ_QUESTION = "Can I get the owner's phone number and e-mail?"
FAQ_ANSWER = ("Yes, for a lead you have unlocked: {credits} credits per owner found, charged only when at least one "
              "phone number or e-mail is found. A search that finds nothing is free (you may search again after 30 "
              "days), and so is opening the result again. The dashboard searches many unlocked leads at once and "
              "exports the owners for dialers and CRMs.")


def priced(template: str, credits: int) -> str:
    """A text quoting the price of a hit, e.g. ``priced(FIND_BUTTON, 2)``."""
    return template.format(credits=f"{credits:,}")

# ---------------------------------------------------------------- the dashboard's bulk search and owner export
BULK_TITLE = "Owner phones and e-mails"
BULK_SUBTITLE = ("Select unlocked leads to find their owners in one go, or export the owners you found for your "
                 "dialer or CRM.")
BULK_SELECT_ALL = "Select all shown"
BULK_CLEAR = "Clear selection"
BULK_SELECT_LABEL = "Select {address}"  # the checkbox's accessible name
BULK_BUTTON = "Find owners for {count} selected"
BULK_NONE_SELECTED = "Select the leads whose owners you want to find."
BULK_CONFIRM_TITLE = "Find the owners of the selected leads?"
# 'Searches 3 of 4 selected leads (1 already searched, not charged again). At most 6 credits: 2 credits per
# owner found, charged once for all hits; leads with no contact found are free.'
BULK_CONFIRM_TEXT = ("Searches {search} of {selected} selected leads{skipped}. At most {max_cost} credits: "
                     "{credits} credits per owner found, charged once for all hits; leads with no contact found are "
                     "free.")
BULK_CONFIRM_SKIPPED = " ({count} already searched, not charged again)"
BULK_CONFIRM_BALANCE = "Balance: {balance} credits, after the most it can cost: {after} credits"
BULK_CONFIRM_BUTTON = "Search {count} leads (at most {max_cost} credits)"
BULK_NOTHING_TO_SEARCH = ("Nothing to Search", "Every selected lead has been searched already (a lead with no "
                          "contact found may be searched again 30 days later). Export them below.")
BULK_PROGRESS = "Searched {done} of {total}"
BULK_ALREADY_RUNNING = ("Search Already Running", "An owner search of your leads is already running. Wait for it "
                        "to finish, then try again.")
BULK_DONE_TOAST = ("Owner Search Finished",
                   "{hits} of {searched} owners found, {charged} credits charged. {balance} credits remaining.")
# 'Last search: 2 of 3 owners found, 4 credits charged (1 already searched, skipped).'
BULK_SUMMARY = "Last search: {hits} of {searched} owners found, {charged} credits charged{skipped}."
BULK_SUMMARY_SKIPPED = " ({count} already searched, skipped)"
BULK_STATUS = {"": "Not searched", "found": "Owner found", "miss": "No contact found"}
EXPORT_HEADING = "Export owners"
EXPORT_EXPLAIN = ("One file of every unlocked lead whose owner was found, in the column layout your dialer or CRM "
                  "imports. Numbers on the Do Not Call registry are kept and flagged in a DNC column.")
