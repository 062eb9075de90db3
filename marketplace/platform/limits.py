"""Field ceilings shared by the sign-up and settings rules and the texts that name them."""

PASSWORD_MIN_LENGTH = 6
PASSWORD_MAX_LENGTH = 128
NAME_MAX_LENGTH = 100  # profiles.first_name / last_name are String(100)
EMAIL_MAX_LENGTH = 254  # the longest address SMTP can carry (RFC 5321 path limit)
SAVED_SEARCH_NAME_MAX_LENGTH = 60  # saved_searches.name is String(60)
MAX_SAVED_SEARCHES = 25  # saved searches per user

# Location and price filters.
CITY_MAX_LENGTH = 100  # leads.city is VARCHAR(100)
MAX_PLACES = 10  # cities, and ZIP codes, one filter may name (states: all 50)
MAX_PRICE = 1_000_000_000  # whole dollars; leads.asking_price is a 32-bit integer

# The deal pipeline.
PIPELINE_NOTE_MAX_LENGTH = 2000  # pipeline_notes.body is Text; a note longer than this is refused
PIPELINE_REASON_MAX_LENGTH = 200  # pipeline_entries.dead_reason is VARCHAR(200)
PIPELINE_SEARCH_MAX_LENGTH = 100  # the board's address search
MAX_PIPELINE_NOTES = 500  # notes per user and lead
