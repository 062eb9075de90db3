"""The Cook County samples (tests/fixtures/public_records_more) as an operator imports them today: the
roll (owner, mailing and site address), the Treasurer's annual tax sale and the Assessor's parcel sales.

The Treasurer's dataset stops at the 2014 sale, so its rows are history, never leads
(``records.rules_signal_currency``). ``current_tax_sale`` writes the copy a portal would serve if the county
published this year's sale: each PIN's latest row, its tax sale year set to ``year`` (rows are only
dropped and re-dated, never otherwise edited)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

MORE = Path(__file__).resolve().parent / "fixtures" / "public_records_more"
ROLL = MORE / "cook-ccao-parcel-addresses" / "3723-97qp_batch_000_years2025-2026.json"
TAX_SALE = MORE / "cook-treasurer-annual-tax-sale" / "55ju-2fs9_batch_000.json"
SALES = MORE / "cook-ccao-parcel-sales" / "wvhk-k5uv_batch_000.json"


def current_tax_sale(folder: Path, year: int | None = None) -> Path:
    saved = json.loads(TAX_SALE.read_text(encoding="utf-8"))
    latest: dict[str, dict] = {}
    for row in saved["records"]:
        if row["pin"] not in latest or int(row["tax_sale_year"]) > int(latest[row["pin"]]["tax_sale_year"]):
            latest[row["pin"]] = row
    year = year or date.today().year
    records = [{**row, "tax_sale_year": str(year)} for row in latest.values()]
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "55ju-2fs9_current.json"
    target.write_text(json.dumps(records), encoding="utf-8")  # the bare array /resource/{id}.json returns
    return target


def import_cook(folder: Path, database_url: str | None = None, today: date | None = None) -> dict:
    """Roll, this year's tax sale, parcel sales: the import summaries by dataset id."""
    from marketplace.features.records.service_imports import import_file

    year = (today or date.today()).year
    out = {}
    for dataset_id, path in (("cook-ccao-parcel-addresses", ROLL),
                             ("cook-treasurer-annual-tax-sale", current_tax_sale(folder, year)),
                             ("cook-ccao-parcel-sales", SALES)):
        kwargs = {"today": today} if today is not None else {}
        out[dataset_id] = import_file(dataset_id, path, database_url=database_url, **kwargs)
    return out


def roll_row(pin: str) -> dict:
    """The roll's newest row for ``pin`` (the exact strings the tests look for)."""
    rows = [r for r in json.loads(ROLL.read_text(encoding="utf-8"))["records"] if r["pin"] == pin]
    return max(rows, key=lambda r: float(r["year"]))


def sales_of(pin: str) -> list[dict]:
    """The parcel sales of ``pin``, newest first."""
    rows = [r for r in json.loads(SALES.read_text(encoding="utf-8"))["records"] if r["pin"] == pin]
    return sorted(rows, key=lambda r: r["sale_date"], reverse=True)
