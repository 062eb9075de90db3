"""Shared helpers of the open-data adapter tests: the shipped datasets and their sample files."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from marketplace.features.records.rules import HpiPoint, MappedRecord, RejectedRow
from marketplace.features.records.source_opendata import load_datasets

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "public_records"
DATASETS = load_datasets()
SAMPLES = {
    "allegheny-tax-liens-summary": "tax_liens_summary_sample.csv",
    "bal-tax-sale-bidbaltimore": "bidbaltimore_assignment_sale_report_2020-07-23_sample.csv",
    "chi-vacant-buildings-violations": "vacant_and_abandoned_buildings_violations_sample.csv",
    "fhfa-hpi-zip3": "HPI_AT_BDL_ZIP3_sample.csv",
    "kent-mi-parcels-arcgis": "us-mi-kent-0.json",
    "nj-atlantic-sheriff-sales": "sheriff_sales_2019-01-17_sample.json",
    "nyc-dof-rolling-sales": "rollingsales_brooklyn_2019-09_2020-08_sample.csv",
    "phl-opa-properties": "opa_properties_public_sample.csv",
    "phl-sheriff-sales-bid4assets": "philaforeclosures_SaleAuctions_20260707_with_final_bids_first20.csv",
    "phl-tax-delinquencies": "real_estate_tax_delinquency_extract_2016-07_sample.csv",
}


def sample(dataset_id: str) -> Path:
    return FIXTURES / dataset_id / SAMPLES[dataset_id]


def counts(items: list) -> Counter:
    return Counter({MappedRecord: "mapped", RejectedRow: "rejected", HpiPoint: "hpi"}[type(i)] for i in items)


def by_key(items: list) -> dict[str, MappedRecord]:
    return {i.record_key: i for i in items if isinstance(i, MappedRecord)}


def redated_copy(path: Path, column: str, day, dest: Path, fmt: str = "%m/%d/%Y") -> Path:
    """A copy of the CSV sample at ``path`` with every value of ``column`` set to ``day``: the sample as a
    live portal would serve it that week (the samples themselves are years old: history, not leads)."""
    import csv

    with open(path, encoding="utf-8-sig", newline="") as src:
        reader = csv.DictReader(src)
        rows = [{**row, column: day.strftime(fmt)} for row in reader]
        header = reader.fieldnames
    dest.parent.mkdir(parents=True, exist_ok=True)
    with open(dest, "w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=header)
        writer.writeheader()
        writer.writerows(rows)
    return dest


def chicago_as_of(day, folder: Path | None = None) -> Path:
    """The Chicago vacant-building sample with every notice issued on ``day`` (a temporary copy)."""
    import tempfile

    folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="chicago-sample-"))
    dataset_id = "chi-vacant-buildings-violations"
    return redated_copy(sample(dataset_id), "Issued Date", day, folder / SAMPLES[dataset_id])
