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
