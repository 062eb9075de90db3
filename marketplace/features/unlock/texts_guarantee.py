"""The county-record guarantee's texts (``unlock.rules_guarantee`` fills them): the one sentence the pricing FAQ and
the unlock confirm step state, the refund's sentence in the bell, the e-mail and the dashboard."""

from __future__ import annotations

# The promise, one sentence, {days} from GUARANTEE_DAYS.
PROMISE = ("If the county's next record contradicts a lead within {days} days of your unlock, "
           "its credits come back automatically.")
FAQ_QUESTION = "What if the county's next record contradicts a lead?"
FAQ_ANSWER = (PROMISE + " That is when every record that made the lead closes: its notice leaves the county's "
              "open list, the taxes are paid, the sale is cancelled or held, or a recorded sale shows a new "
              "owner. A scrape's lead comes back at the price you paid for it. No ticket to file.")

# What the county's record said, by how the signal closed ({what}: 'the vacancy notice at 123 Main St').
LEFT_OPEN_LIST = "{what} left {place}'s open list on {date}"
LEFT_SALE_LIST = "{what} was taken off {place}'s sale list on {date}"
SALE_HELD = "{what} was held on {date}"
SOLD = "{address} sold on {date} (recorded sale)"
CLOSED_OTHER = "{what} closed on {date}: {reason}"

# The bell, the e-mail, the dashboard.
CREDITS_BACK = "{credits:,} credits back"
REFUND_LINE = CREDITS_BACK + ": {reason}"  # '120 credits back: the vacancy notice at ... on Nov 28, 2026'
REFUND_NOTE = ("Refunded automatically: the county's own record contradicted the lead within {days} days of your "
               "unlock on {unlocked}.")
REFUND_MAIL_BODY = ("{line}.\n\n{note}\n\nYour balance is now {balance:,} credits. The lead stays readable in your "
                    "dashboard's Unlocked Leads tab, marked Closed:\n{url}\n")
CLOSED_BADGE = "Closed"
