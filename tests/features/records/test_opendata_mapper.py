"""The row mapper (compiled: one reader per field, a cell text's reading kept per field) gives exactly what
walking every field's spec gives (``spec_walk``): the same records and index points, the same rejects with
the same reasons."""

from __future__ import annotations

from datetime import date

import pytest

from marketplace.features.records.rules import HpiPoint, MappedRecord, RejectedRow
from marketplace.features.records.source_opendata import mapper as mapper
from marketplace.features.records.source_opendata.files import RowProblem, rows_from_file
from marketplace.features.records.source_opendata.mapper import map_row
from tests.features.records.opendata_helpers import DATASETS, SAMPLES, sample
from tests.features.records.spec_walk import walk_row

TODAY = date(2026, 11, 25)
RECORD_SAMPLES = [d for d in SAMPLES if DATASETS[d].kind != "hpi"]
HPI_SAMPLES = [d for d in SAMPLES if DATASETS[d].kind == "hpi"]


def _rows(dataset_id: str) -> tuple[str, list[dict]]:
    form, rows = rows_from_file(DATASETS[dataset_id], sample(dataset_id))
    return form, [r for r in rows if not isinstance(r, RowProblem)]


@pytest.mark.parametrize("dataset_id", RECORD_SAMPLES + HPI_SAMPLES)
def test_every_sample_row_maps_as_the_walk_maps_it(dataset_id):
    dataset = DATASETS[dataset_id]
    form, rows = _rows(dataset_id)
    assert rows
    for number, row in enumerate(rows, start=1):
        # twice: the second reading comes from the texts kept per field
        for _ in range(2):
            assert map_row(dataset, row, form, number, today=TODAY, as_of=TODAY) == \
                walk_row(dataset, row, form, number, today=TODAY, as_of=TODAY)


@pytest.mark.parametrize("dataset_id", RECORD_SAMPLES + HPI_SAMPLES)
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
                assert isinstance(got, (HpiPoint if dataset.kind == "hpi" else MappedRecord, RejectedRow))
                seen_reject = seen_reject or isinstance(got, RejectedRow)
    assert seen_reject  # the record key blanked rejects the row, with the walk's reason


def test_a_dataset_compiles_once_per_form_and_day_and_few_are_kept():
    dataset = DATASETS["chi-vacant-buildings-violations"]
    first = mapper.compiled(dataset, "file", TODAY)
    assert mapper.compiled(dataset, "file", TODAY) is first
    assert mapper.compiled(dataset, "api", TODAY) is not first
    for offset in range(mapper.KEEP_MAPPINGS + 2):
        mapper.compiled(dataset, "file", date(2020, 1, 1 + offset))
    assert len(mapper._compiled) <= mapper.KEEP_MAPPINGS


def test_every_shipped_record_dataset_builds_its_records_without_the_dataclass_init():
    slow = [d.id for d in DATASETS.values()
            if d.kind != "hpi" and not mapper.CompiledMapping(d, "file", TODAY).fast]
    assert slow == []


def test_a_mapping_that_names_what_map_sets_itself_is_refused_as_the_dataclass_refuses_it():
    from dataclasses import replace

    dataset = DATASETS["chi-vacant-buildings-violations"]
    odd = replace(dataset, constants={**dataset.constants, "kind": "vacant"})
    assert not mapper.CompiledMapping(odd, "file", TODAY).fast
    form, rows = _rows(dataset.id)
    with pytest.raises(TypeError, match="kind"):
        mapper.CompiledMapping(odd, form, TODAY).map(rows[0], 1, TODAY)
