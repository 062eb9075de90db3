"""The compiled mapping (one reader per field, a cell text's reading kept per field) gives exactly what
walking every field's spec gives: the same records, the same rejects with the same reasons."""

from __future__ import annotations

from datetime import date

import pytest

from marketplace.core.records import MappedRecord, RejectedRow
from marketplace.sources.opendata import compiled as compiled_mod
from marketplace.sources.opendata.files import RowProblem, rows_from_file
from marketplace.sources.opendata.compiled import map_row
from marketplace.sources.opendata.mapper import map_row as walk_row
from tests.sources.opendata_helpers import DATASETS, SAMPLES, sample

TODAY = date(2026, 11, 25)
RECORD_SAMPLES = [d for d in SAMPLES if DATASETS[d].kind != "hpi"]


def _rows(dataset_id: str) -> tuple[str, list[dict]]:
    form, rows = rows_from_file(DATASETS[dataset_id], sample(dataset_id))
    return form, [r for r in rows if not isinstance(r, RowProblem)]


@pytest.mark.parametrize("dataset_id", RECORD_SAMPLES)
def test_every_sample_row_maps_as_the_walk_maps_it(dataset_id):
    dataset = DATASETS[dataset_id]
    form, rows = _rows(dataset_id)
    assert rows
    for number, row in enumerate(rows, start=1):
        # twice: the second reading comes from the texts kept per field
        for _ in range(2):
            assert map_row(dataset, row, form, number, today=TODAY, as_of=TODAY) == \
                walk_row(dataset, row, form, number, today=TODAY, as_of=TODAY)


@pytest.mark.parametrize("dataset_id", RECORD_SAMPLES)
def test_blank_and_junk_cells_reject_or_empty_as_the_walk_does(dataset_id):
    dataset = DATASETS[dataset_id]
    form, rows = _rows(dataset_id)
    seen_reject = False
    for row in rows[:3]:
        for column in row:
            for junk in ("", "NULL", "not a value", "12/31/2099", "(1,234.50)", None):
                changed = dict(row, **{column: junk})
                got = map_row(dataset, changed, form, 7, today=TODAY, as_of=TODAY)
                assert got == walk_row(dataset, changed, form, 7, today=TODAY, as_of=TODAY)
                assert isinstance(got, (MappedRecord, RejectedRow))
                seen_reject = seen_reject or isinstance(got, RejectedRow)
    assert seen_reject  # the record key blanked rejects the row, with the walk's reason


def test_a_dataset_compiles_once_per_form_and_day_and_few_are_kept():
    dataset = DATASETS["chi-vacant-buildings-violations"]
    first = compiled_mod.compiled(dataset, "file", TODAY)
    assert compiled_mod.compiled(dataset, "file", TODAY) is first
    assert compiled_mod.compiled(dataset, "api", TODAY) is not first
    for offset in range(compiled_mod.KEEP_MAPPINGS + 2):
        compiled_mod.compiled(dataset, "file", date(2020, 1, 1 + offset))
    assert len(compiled_mod._compiled) <= compiled_mod.KEEP_MAPPINGS


def test_every_shipped_record_dataset_builds_its_records_without_the_dataclass_init():
    slow = [d.id for d in DATASETS.values()
            if d.kind != "hpi" and not compiled_mod.CompiledMapping(d, "file", TODAY).fast]
    assert slow == []


def test_a_mapping_that_names_what_map_sets_itself_is_refused_as_the_dataclass_refuses_it():
    from dataclasses import replace

    dataset = DATASETS["chi-vacant-buildings-violations"]
    odd = replace(dataset, constants={**dataset.constants, "kind": "vacant"})
    assert not compiled_mod.CompiledMapping(odd, "file", TODAY).fast
    form, rows = _rows(dataset.id)
    with pytest.raises(TypeError, match="kind"):
        compiled_mod.CompiledMapping(odd, form, TODAY).map(rows[0], 1, TODAY)
