"""Why an import made no leads, in numbers (the last line of ``import-records`` and the run's warning). Pure.

An operator who reads "leads added 0" must tell the file, the mapping and the rule apart:

- no rows at all: the file (or the portal's answer) is empty;
- no row read as a record: the mapping does not fit the file (the first reason is named);
- every lead-making record is history: the list or the events are older than the dataset's maximum age
  (a status list is judged by the day it was taken: pass ``--as-of`` when the file is a current export);
- otherwise the current records' properties already had their leads (or have no street address yet).
"""

from __future__ import annotations

from datetime import date

from marketplace.platform.times import format_date


def no_leads_reason(*, mode: str, rows_read: int, rejected: int, first_rejection: str | None, lead_records: int,
                    history: int, leads_added: int, leads_updated: int, status_list: bool,
                    snapshot: date | None, newest_as_of: date | None, max_age_days: int | None,
                    today: date) -> str | None:
    """'0 leads: 250 records are history (list of Oct 20, 2016, 2,961 days old; pass --as-of if this file
    is a current export)', or None when the import made leads (or its dataset makes none)."""
    if leads_added:
        return None
    if rows_read == 0:
        return "0 leads: " + ("the portal returned no rows" if mode == "api" else "the file holds no rows")
    if lead_records == 0:
        if rows_read > rejected:
            return None  # a roll, sales, an index or violations: the dataset makes no leads of its own
        first = f"; first: {first_rejection}" if first_rejection else ""
        return f"0 leads: none of the {rows_read:,} rows could be read as a record ({rejected:,} rejected{first})"
    if history >= lead_records:
        day = snapshot if status_list and snapshot is not None else newest_as_of
        if day is None:
            return f"0 leads: {history:,} records are history"
        age = (today - day).days
        if status_list:
            hint = "; pass --as-of if this file is a current export" if mode == "file" else ""
            return (f"0 leads: {history:,} records are history (list of {format_date(day, 'UTC')}, "
                    f"{age:,} days old{hint})")
        return (f"0 leads: {history:,} records are history (the newest is of {format_date(day, 'UTC')}, "
                f"{age:,} days old; this dataset keeps records {max_age_days or 0:,} days)")
    current = lead_records - history
    return (f"0 new leads: {current:,} current records ({history:,} history); their properties already have "
            f"leads ({leads_updated:,} updated) or no street address yet")
