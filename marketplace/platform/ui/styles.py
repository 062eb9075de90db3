"""Style tokens shared by the app's pages and views: one place for the card
shadow, tinted colours, panel borders and the app pages'
backdrop. Radix scales (``var(--gray-a5)``, ``var(--radius-4)``) keep every
value on the theme set in rxconfig.py."""

from __future__ import annotations

import reflex as rx

# The Radix colour scales the app uses (accent indigo, grays slate, and the colour schemes
# and ``var(--<colour>-N)`` the views name): only their CSS is loaded (rxconfig.py), not
# all 31 of Radix Themes'. tests/platform/test_page_weight.py fails on a colour named outside this list.
THEME_COLORS = ("gray", "slate", "indigo", "iris", "grass", "amber", "red", "tomato", "orange", "violet",
                "blue", "sky", "bronze")

# Elevation of the app's cards (dashboard, property, settings, explorer).
CARD_SHADOW = {"box_shadow": "0 1px 2px rgba(16, 24, 40, 0.04), 0 8px 24px -12px rgba(30, 41, 99, 0.12)"}
# Card padding: compact on phones, roomy from ``sm``.
CARD_SIZE = rx.breakpoints(initial="2", sm="3")

# Radii and borders of panels inside cards.
RADIUS_PANEL = "var(--radius-4)"
RADIUS_LARGE = "var(--radius-5)"
PANEL_BORDER = "1px solid var(--gray-a5)"
ROW_BORDER = "1px solid var(--gray-a4)"
DASHED_BORDER = "1px dashed var(--gray-6)"

# Stat card grids: two a row on phones and tablets, four from ``lg``.
STAT_COLUMNS = rx.breakpoints(initial="2", lg="4")
STAT_GAP = rx.breakpoints(initial="3", sm="4")
# Big numbers.
NUMBER_STYLE = {"letter_spacing": "-0.02em"}

# The signed-in app pages (dashboard, property, explorer): a soft accent wash
# fading into the page, and their vertical padding.
APP_PAGE_BACKGROUND = "linear-gradient(180deg, var(--accent-2) 0%, var(--gray-1) 320px)"
APP_PAGE_BACKGROUND_GRAY = "linear-gradient(180deg, var(--gray-3) 0%, var(--gray-1) 280px)"  # the explorer
APP_PAGE_MIN_HEIGHT = "calc(100vh - 140px)"
APP_PAGE_PADDING_Y = rx.breakpoints(initial="1.5rem", sm="2.5rem")


def tinted(color: str) -> dict:
    """Background and foreground of a soft tile in a Radix colour (``indigo``, ``grass``...)."""
    return {"background": f"var(--{color}-3)", "color": f"var(--{color}-11)"}

# A native <select> (keyboard- and phone-friendly) in the theme's look: the pipeline's controls, the
# marketplace's sort, page size and state.
NATIVE_SELECT = {
    "height": "var(--space-6)", "padding": "0 0.5rem", "border_radius": "var(--radius-2)",
    "border": "1px solid var(--gray-a7)", "background": "var(--color-surface)", "color": "var(--gray-12)",
    "font_size": "var(--font-size-2)", "width": "100%",
}
