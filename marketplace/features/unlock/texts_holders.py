"""Texts of how many investors hold a lead (the card, the property page, the marketplace filter and sort).
A count only: no text here ever names an investor."""

HELD_NOBODY = "Nobody has unlocked this yet"
HELD_ONE = "Unlocked by 1 investor"
HELD_MANY = "Unlocked by {count:,} investors"
# The viewer holds the lead too: the count includes them, and says so.
HELD_ONLY_YOU = "Unlocked by 1 investor (you)"
HELD_YOU_AND_OTHERS = "Unlocked by {count:,} investors (you and {others:,} other{s})"
# What the count is based on (the card's tooltip, the property page's note).
HELD_BASIS = ("Investors whose accounts hold an unlock of this lead (an unlock or a bulk scrape), "
              "as of this page's load; closed accounts are not counted. Nobody is named.")
# The marketplace's filter group and sort.
HELD_GROUP_LABEL = "Unlocked by"
HELD_SORT_LABEL = "Least unlocked"
HELD_CHIP = "Unlocked by {band}"  # 'Unlocked by nobody yet'

# The cap on holders (LEAD_MAX_HOLDERS, unlock.rules_holders.spots_text): every card of a capped lead and its property page.
SPOTS_LEFT = "{left:,} of {cap:,} spots left"
SOLD_OUT = "Sold out"
EXCLUSIVE = "Exclusive"  # the viewer is the lead's only holder and nobody else can unlock it
SPOTS_BASIS = ("Few investors may hold a lead: an unlock or a bulk scrape takes one spot, an exclusive unlock "
               "takes every spot left. As of this page's load.")
# One sentence in the unlock confirm step and the pricing FAQ.
CAP_SENTENCE = "At most {cap:,} investors can hold a lead."
# The marketplace's filter: hide full leads.
SPOTS_GROUP_LABEL = "Spots left"
SPOTS_OPTIONS = (("open", "Has a spot left"),)
SPOTS_CHIP = "Spots left"
# Unlock exclusively (unlock.rules.quote_exclusive): beside the unlock action, and the confirm step.
EXCLUSIVE_LABEL = "Unlock exclusively for {cost} credits"
EXCLUSIVE_CONFIRM_TITLE = "Unlock this lead exclusively?"
EXCLUSIVE_CONFIRM_SPOTS = "Takes all {spots:,} spots left at {each:,} credits each; nobody else can unlock it after you."
# Refusals: nothing was charged.
SOLD_OUT_MEANWHILE = ("Sold Out", "This lead sold out while you were deciding; no credits were taken.")
SPOTS_CHANGED = ("Spots Changed", "Another investor unlocked this lead while you were deciding, so the exclusive "
                 "price changed; no credits were taken. The card shows the new price.")
EXCLUSIVE_NOT_OFFERED = ("Not Available", "An exclusive unlock needs a cap on holders, at least 2 spots left and "
                         "enough credits for all of them; no credits were taken.")
SCRAPE_ALL_SOLD_OUT = ("Every lead found sold out meanwhile (other investors took the last spots); "
                       "nothing was charged. Try again for other leads.")
# The pricing page's FAQ entry (features/billing/page_pricing.py): the cap sentence, then how it works.
CAP_FAQ_QUESTION = "How many investors can hold the same lead?"
CAP_FAQ_MORE = (" Every card says how many spots are left; a full lead stays listed as Sold out, and "
                "\"Unlock exclusively\" buys every spot left at the lead's price each, so nobody else can unlock it.")
NO_CAP_FAQ = "There is no cap on this site: any number of investors can unlock a lead."
