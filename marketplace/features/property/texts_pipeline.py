"""Texts of the deal pipeline: the dashboard's Pipeline tab, the property page's
Pipeline card, the bell's follow-up reminders and the pipeline CSV."""

from __future__ import annotations

from marketplace.platform.limits import (
    PIPELINE_NOTE_MAX_LENGTH,
    PIPELINE_REASON_MAX_LENGTH,
    PIPELINE_SEARCH_MAX_LENGTH,
)

# Refusals (title, message): a UserError's or a toast's.
PIPELINE_LOCKED = ("Lead Locked", "Unlock this lead to track it in your pipeline.")
PIPELINE_STAGE_UNKNOWN = ("Unknown Stage", "Choose one of the pipeline's stages.")
PIPELINE_REASON_REQUIRED = ("Reason Required", "Say why this lead is dead.")
PIPELINE_REASON_TOO_LONG = ("Reason Too Long",
                            f"The reason must be at most {PIPELINE_REASON_MAX_LENGTH} characters long.")
PIPELINE_NOTE_EMPTY = ("Empty Note", "Write something before adding a note.")
PIPELINE_NOTE_TOO_LONG = ("Note Too Long", f"A note must be at most {PIPELINE_NOTE_MAX_LENGTH:,} characters long.")
PIPELINE_NOTES_FULL = ("Too Many Notes", "This lead has as many notes as it can hold.")
PIPELINE_DATE_INVALID = ("Invalid Date", "Enter the follow-up date as a calendar date.")
PIPELINE_DATE_PAST = ("Date In The Past", "A new follow-up date cannot be before today.")
PIPELINE_DATE_TOO_FAR = ("Date Too Far Ahead", "A follow-up date must be within the next five years.")
PIPELINE_FOLLOW_UP_FINISHED = ("Lead Finished", "A closed or dead lead has no follow-up. Move it to another "
                               "stage first.")
PIPELINE_OFFER_INVALID = ("Invalid Offer", "Enter the offer in whole dollars, from $1 to $100,000,000.")
PIPELINE_SEARCH_TOO_LONG = f"Search at most {PIPELINE_SEARCH_MAX_LENGTH} characters."

# Failures the signed_in decorator shows for anything unexpected.
PIPELINE_LOAD_FAILED = ("Error", "Failed to load your pipeline.")
PIPELINE_UPDATE_FAILED = ("Error", "Failed to update the pipeline.")

# Successes.
PIPELINE_MOVED = "Moved to {stage}"  # title; the message is the address
PIPELINE_SAVED = ("Pipeline Updated", "Stage, follow-up and offer saved.")
PIPELINE_NOTE_ADDED = ("Note Added", "Your note was saved.")

# The board and the card.
PIPELINE_EMPTY_COLUMN = "No leads in this stage."
PIPELINE_NO_LEADS = "Unlock leads in the marketplace to track them here."
PIPELINE_NO_NOTES = "No notes yet."
PIPELINE_NO_FOLLOW_UP = "No follow-up set"
PIPELINE_DEAD_DIALOG_TITLE = "Why is this lead dead?"
PIPELINE_DEAD_DIALOG_TEXT = "Say why, for your records (for example: the owner sold to someone else)."
PIPELINE_CSV_HINT = ("Every unlocked lead with its stage, notes, follow-up, offer and, where you saved one, "
                     "the deal analyzer's figures (estimates from your inputs).")

# The bell: follow-ups due today and overdue (in the user's time zone).
FOLLOW_UP_TODAY = "Follow-up due today"
FOLLOW_UP_OVERDUE = "Follow-up overdue"
FOLLOW_UP_BODY = "{address} · {stage} · due {date}"
