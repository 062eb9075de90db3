"""The file readers stream: a JSON array is parsed element by element from chunks of the file, whatever
the chunk boundaries; bad bytes and a cut-off array are handled per row / named."""

from __future__ import annotations

import json
from datetime import date

import pytest

from marketplace.features.records.rules import MappedRecord
from marketplace.features.records.source_opendata import DatasetError, read_file
from marketplace.features.records.source_opendata import files
from tests.features.records.opendata_helpers import DATASETS, sample

TODAY = date(2026, 11, 25)
NJ = "nj-atlantic-sheriff-sales"


def test_a_json_array_read_in_tiny_chunks_is_the_same_as_read_whole(monkeypatch):
    whole = json.loads(sample(NJ).read_text(encoding="utf-8"))
    expected = list(read_file(DATASETS[NJ], sample(NJ), today=TODAY))
    assert len(expected) == len(whole) == 260
    monkeypatch.setattr(files.JsonArrayRows, "CHUNK", 7)  # every element crosses many chunk boundaries
    assert list(read_file(DATASETS[NJ], sample(NJ), today=TODAY)) == expected


def test_bad_bytes_in_a_json_array_are_replaced_in_their_row_and_counted(tmp_path):
    rows = json.loads(sample(NJ).read_text(encoding="utf-8"))[:3]
    rows[1]["listing_details"]["defendant"] = "JOSÉ BAD~~"
    body = json.dumps(rows, ensure_ascii=False).encode("utf-8").replace(b"~~", b"\xff")
    path = tmp_path / "sheriff_sales.json"
    path.write_bytes(body)
    read = read_file(DATASETS[NJ], path, today=TODAY)
    items = list(read)
    assert len(items) == 3 and all(isinstance(i, MappedRecord) for i in items)
    assert read.replaced_rows == 1


def test_a_cut_off_json_array_names_the_file(tmp_path):
    path = tmp_path / "cut.json"
    path.write_text(sample(NJ).read_text(encoding="utf-8")[:5000], encoding="utf-8")
    with pytest.raises(DatasetError, match=f"^{NJ}: cut.json is not valid JSON"):
        list(read_file(DATASETS[NJ], path, today=TODAY))


def test_an_empty_json_array_has_no_rows(tmp_path):
    path = tmp_path / "empty.json"
    path.write_text(" [ ] ", encoding="utf-8")
    assert list(read_file(DATASETS[NJ], path, today=TODAY)) == []
