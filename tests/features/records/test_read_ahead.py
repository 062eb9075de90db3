"""A large file is read in a process of its own while the import writes (``source_opendata.read_ahead``):
the same items in the same order, the same end (a cut file still says where it was cut), the reader's
errors raised after the items read before them, and an import through it stores what an import in
process stores (the cut-file rules of issue 40 included)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from marketplace.features.records import source_opendata as opendata
from marketplace.features.records.source_opendata import DatasetError
from marketplace.features.records.source_opendata import reader_process as ahead
from tests.features.records import test_record_cut_files as cut_files
from tests.features.records.opendata_helpers import DATASETS
from tests.features.records.test_cli_records import CHICAGO_FILE

CHICAGO = DATASETS["chi-vacant-buildings-violations"]


@pytest.fixture()
def forks(monkeypatch) -> list[str]:
    """Every file read ahead, small files included, in chunks of 7 items; the names of the files read so."""
    monkeypatch.setattr(ahead, "MIN_BYTES", 0)
    monkeypatch.setattr(ahead, "CHUNK", 7)
    names: list[str] = []
    real = ahead.ReadAhead._receive

    def receive(self):
        names.append(Path(self._read.path).name)
        return real(self)

    monkeypatch.setattr(ahead.ReadAhead, "_receive", receive)
    return names


def both(path: Path) -> tuple[list, list, opendata.FileRead, ahead.ReadAhead]:
    here = opendata.read_file(CHICAGO, path, today=date(2026, 11, 27))
    there = opendata.read_ahead(opendata.read_file(CHICAGO, path, today=date(2026, 11, 27)))
    return list(here), list(there), here, there


def test_a_file_read_ahead_gives_every_item_of_the_read_in_its_order(forks):
    in_process, read_ahead, here, there = both(CHICAGO_FILE)
    assert forks == [CHICAGO_FILE.name] and isinstance(there, ahead.ReadAhead)
    assert len(read_ahead) == 260 and read_ahead == in_process  # 38 chunks of 7 and one of 1
    assert (there.incomplete, there.replaced_rows) == (here.incomplete, here.replaced_rows) == (None, 0)


def test_a_cut_file_read_ahead_says_where_it_was_cut(forks, tmp_path):
    cut = tmp_path / "cut.csv"
    cut.write_bytes(cut_files.cut_inside_a_quoted_field(CHICAGO_FILE.read_bytes(), 0.6))
    in_process, read_ahead, here, there = both(cut)
    assert read_ahead == in_process and len(read_ahead) == 158
    assert there.incomplete == here.incomplete == "the file ends inside a quoted field opened on line 159 (cut short?)"


def test_a_small_file_is_read_in_process():
    read = opendata.read_file(CHICAGO, CHICAGO_FILE, today=date(2026, 11, 27))
    assert opendata.read_ahead(read) is read  # 260 rows: a fork costs more than their read


class Failing:
    """A read that gives three items, then fails as ``error`` says."""

    def __init__(self, error: BaseException) -> None:
        self.path, self.dataset, self.known = CHICAGO_FILE, CHICAGO, None
        self.incomplete, self.replaced_rows, self.error = None, 0, error

    def __iter__(self):
        yield from (1, 2, 3)
        raise self.error


def test_a_readers_error_comes_after_the_items_read_before_it(forks):
    items = []
    with pytest.raises(DatasetError) as raised:
        for item in ahead.ReadAhead(Failing(DatasetError(CHICAGO.id, "the portal's file is not valid JSON"))):
            items.append(item)
    assert items == [1, 2, 3]
    assert str(raised.value) == "chi-vacant-buildings-violations: the portal's file is not valid JSON"
    items = []
    with pytest.raises(RuntimeError, match=r"the file's reader failed: ValueError: a bug\n.*Traceback"):
        for item in ahead.ReadAhead(Failing(ValueError("a bug"))):
            items.append(item)
    assert items == [1, 2, 3]


def test_an_import_reading_ahead_stores_what_one_in_process_stores(forks, db_url, tmp_path, new_user):
    """The cut-file test of issue 40 item 1 with its files read ahead: the same counts, the same warning,
    nothing closed, no bought lead archived. Its first import is read in a process of its own; the cut file,
    whose rows the dataset's open signals hold (a re-import), is read in process."""
    cut_files.test_a_file_cut_inside_a_quoted_field_closes_nothing_and_archives_no_bought_lead(db_url, tmp_path,
                                                                                                 new_user)
    assert forks == ["vacant_and_abandoned_buildings_violations.csv"]


def test_a_first_import_of_a_cut_file_read_ahead_says_where_it_was_cut(forks, db_url, tmp_path):
    cut = tmp_path / "cut.csv"
    cut.write_bytes(cut_files.cut_inside_a_quoted_field(cut_files.redated(tmp_path).read_bytes(), 0.6))
    summary = cut_files.imported(cut)
    assert forks == ["cut.csv"]
    assert (summary.status, summary.rows_read, summary.added, summary.closed) == ("ok", 158, 146, 0)
    assert summary.warning == cut_files.CUT_WARNING.format(159)
