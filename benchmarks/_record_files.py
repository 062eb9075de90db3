"""Real-shaped public-record files for the benchmarks (the samples' rows, repeated with their own keys)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from tests.features.records.opendata_helpers import sample


def tax_file(path: Path, total: int, share: float = 0.0) -> Path:
    """``total`` rows of Philadelphia's tax-delinquency extract, each its own parcel and address, named for
    this month (current records: each makes a lead), in the folder ``path``; ``share`` of the rows with
    their total due raised by $1."""
    header, *rows = sample("phl-tax-delinquencies").read_text(encoding="utf-8-sig").splitlines()
    columns = header.split(",")
    opa, house, address = columns.index("OPAnumber"), columns.index("House#"), columns.index("property_address")
    due = columns.index("totalDue")
    step = round(1 / share) if share else 0
    path = path / f"real_estate_tax_delinquency_extract_{date.today():%Y-%m}.csv"
    with path.open("w", encoding="utf-8") as out:
        out.write(header + "\n")
        for i in range(total):
            cells = rows[i % len(rows)].split(",")
            street = cells[address].strip().split(" ", 1)[-1]
            cells[opa], cells[house], cells[address] = f"{900_000_000 + i}", str(20_000 + i), f"{20_000 + i} {street}"
            if step and i % step == 0:
                cells[due] = f"{float(cells[due]) + 1:.2f}"
            out.write(",".join(cells) + "\n")
    return path
