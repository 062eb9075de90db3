"""Texts of the developer explorer (SPEC 6, 8): its panels, its refresh and image checks, and the manual
scrape's form checks (``explorer.rules_scrape``)."""

from __future__ import annotations

OVERVIEW_LOAD_FAILED = ("Load Failed", "Could not load the platform overview.")
EXPLORER_LOAD_FAILED = ("Load Failed", "Could not load the leads. Please try again.")
NO_DATA = ("No Data", "No leads to export")
REFRESH_FAILED = ("Refresh Failed", "The lead source failed.")
IMAGE_FETCH_FAILED = ("Image Fetch Failed", "Could not fetch property images.")
SCHEDULER_OFF = "Scheduler off"  # the explorer's next-run line when LEAD_REFRESH_SCHEDULER is off
LEADS_REFRESHED = ("Leads Refreshed", "{added} leads added, {archived} archived.")
IMAGES_CHECKED = ("Images Checked", "{checked} leads checked: {success} with images, {no_images} without, {failed} failed.")
DEV_SCRAPE_INVALID_TITLE = "Check the scrape parameters"
DEV_SCRAPE_ADDED = "Added {count:,} lead{plural} to the marketplace."
DEV_SCRAPE_MISSING = "The scrape parameters are missing."
DEV_FIELD_REQUIRED = "{label} is required."
DEV_FIELD_NOT_NUMBER = "{label} must be a number."
DEV_FIELD_NOT_WHOLE = "{label} must be a whole number."
DEV_FIELD_STEP = "{label} must be a multiple of {step}."
DEV_FIELD_AT_LEAST = "{label} must be at least {low}."
DEV_FIELD_BETWEEN = "{label} must be between {low} and {high}."
DEV_RANGE_REVERSED = "Minimum {noun} ({low}) is above maximum {noun} ({high})."
DEV_NO_STATE = "Select at least one state."
DEV_NO_LEAD_TYPE = "Select at least one lead type."
DEV_SCRAPE_DONE_TITLE = "Scrape Completed!"
