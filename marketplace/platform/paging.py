"""Page numbers: an event's page number or size, the number of pages and the pagination bar. Pure."""

from __future__ import annotations

PAGE_WINDOW = 2  # pages either side of the current one in the pagination bar


def parse_whole_number(value: object, limit: int = 1_000_000_000) -> int | None:
    """A page number or size from an event: an int, a finite integral float or a
    string of digits, within ``limit``; None for anything else (a dict, 'abc',
    Infinity, NaN, 1e999, True)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")) or not value.is_integer():
            return None
        number = int(value)
    elif isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= 12:
        number = int(value.strip())
    else:
        return None
    return number if -limit <= number <= limit else None


def total_pages(total: int, page_size: int) -> int:
    return max(1, -(-total // page_size))


def pagination_window(current: int, pages: int, window: int = PAGE_WINDOW) -> list[int | None]:
    """First and last page, ``window`` pages either side of ``current``, None for an ellipsis.

    >>> pagination_window(6, 12)
    [1, None, 4, 5, 6, 7, 8, None, 12]
    """
    if pages <= 1:
        return [1]
    current = min(max(current, 1), pages)
    shown = sorted({1, pages, *range(max(1, current - window), min(pages, current + window) + 1)})
    result: list[int | None] = []
    previous = 0
    for number in shown:
        if number - previous > 1:
            # A gap of exactly one page shows that page rather than an ellipsis.
            result.append(previous + 1 if number - previous == 2 else None)
        result.append(number)
        previous = number
    return result
