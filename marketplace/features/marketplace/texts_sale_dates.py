"""Texts of a lead's sale or auction date: the card's line, the property page's and the
dashboard's date line and its source."""

SALE_TODAY = "Sale today"
SALE_TOMORROW = "Sale tomorrow"
SALE_IN_DAYS = "Sale in {days} days"
SALE_DATE_PASSED = "Sale date passed"
# 'Sale date: Dec 12, 2026 (in 17 days)'
SALE_DATE_LINE = "Sale date: {date} ({when})"
# 'Sheriff sale date from Sheriff Sales (Bid4Assets), retrieved Nov 20, 2026'
SALE_DATE_FROM_RECORD = "{label} date from {title}, retrieved {retrieved}"
SALE_DATE_FROM_RECORD_UNDATED = "{label} date from {title}"
SALE_DATE_DEMO = "Demo date"
SALE_DATE_NO_SOURCE = "Source not recorded"
