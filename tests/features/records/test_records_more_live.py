"""Cook County's four SODA datasets pulled live from the local fake portal: the portal serves the shipped
raw SODA JSON (strings, real booleans, nested location_1, nulls left out) page by page, and the live pull
ingests it exactly as ``import-records`` does the saved file; pulling again changes nothing. SQLite and
PostgreSQL."""

from __future__ import annotations

import json
import re
from contextlib import ExitStack
from datetime import date
from pathlib import Path

from marketplace.features.records.service_imports import refresh_public_records
from marketplace.features.records.source_opendata.dataset import DATASETS_DIR
from tests.fakes.portal import FakePortal

MORE = Path(__file__).resolve().parents[2] / "fixtures" / "public_records_more"
TODAY = date(2026, 11, 27)
PAGE = 40
# dataset id -> (saved SODA answer, rows read, added, updated, rejected): the same counts as the file
# imports of tests/features/records/test_records_more_import.py, in the same order (the roll first).
COOK = {
    "cook-ccao-parcel-addresses": ("cook-ccao-parcel-addresses/3723-97qp_batch_000_years2025-2026.json", 80, 40, 40, 0),
    "cook-treasurer-annual-tax-sale": ("cook-treasurer-annual-tax-sale/55ju-2fs9_batch_000.json", 99, 99, 0, 0),
    "cook-treasurer-scavenger-sale": ("cook-treasurer-scavenger-sale/ydgz-vkrp_batch_000.json", 10, 10, 0, 0),
    "cook-ccao-parcel-sales": ("cook-ccao-parcel-sales/wvhk-k5uv_batch_000.json", 95, 95, 0, 0),
}


def _soda_rows(path: str) -> list[dict]:
    return json.loads((MORE / path).read_text(encoding="utf-8"))["records"]


def _datasets_dir(target: Path, endpoints: dict[str, str]) -> Path:
    """The shipped dataset files with these datasets pointed at fake portals, paged by PAGE rows."""
    target.mkdir(parents=True, exist_ok=True)
    for path in DATASETS_DIR.glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        if path.stem in endpoints:
            text, n = re.subn(r'(?m)^endpoint\s*=\s*".*"$', f'endpoint = "{endpoints[path.stem]}"', text)
            text, m = re.subn(r"(?m)^page_size\s*=\s*\d+$", f"page_size = {PAGE}", text)
            assert n == m == 1, path.name
        (target / path.name).write_text(text, encoding="utf-8")
    return target


def test_cook_soda_pages_from_the_fake_portal_ingest_like_the_files(db_url, monkeypatch, tmp_path):
    from marketplace.features.records.source_opendata import load_datasets

    shipped = load_datasets()
    with ExitStack() as stack:
        portals = {dataset_id: stack.enter_context(FakePortal("socrata", _soda_rows(path),
                                                              resource=shipped[dataset_id].resource))
                   for dataset_id, (path, *_counts) in COOK.items()}
        folder = _datasets_dir(tmp_path / "datasets", {d: p.url for d, p in portals.items()})
        monkeypatch.setenv("OPEN_DATA_DIR", str(folder))
        monkeypatch.setenv("OPEN_DATA_DATASETS", ",".join(COOK))
        first = {r["dataset_id"]: r for r in refresh_public_records(TODAY) if "dataset_id" in r}
        again = {r["dataset_id"]: r for r in refresh_public_records(TODAY) if "dataset_id" in r}
    for dataset_id, (path, read, added, updated, rejected) in COOK.items():
        run = first[dataset_id]
        assert run["status"] == "ok", run
        assert (run["rows_read"], run["added"], run["updated"], run["rejected"], run["closed"]) == (
            read, added, updated, rejected, 0), dataset_id
        second = again[dataset_id]
        assert (second["rows_read"], second["added"], second["updated"], second["closed"], second["rejected"]) == (
            read, 0, 0, 0, rejected), dataset_id
        # Raw SODA paging: $limit/$offset pages of PAGE rows until a short page, twice (two pulls).
        offsets = [int(r.params["$offset"]) for r in portals[dataset_id].requests]
        pages = list(range(0, read + 1, PAGE)) if read % PAGE else list(range(0, read + PAGE, PAGE))
        assert offsets == pages * 2, dataset_id
        assert all(r.params["$limit"] == str(PAGE) for r in portals[dataset_id].requests)
        assert all(r.path == f"/resource/{shipped[dataset_id].resource}.json" for r in portals[dataset_id].requests)
