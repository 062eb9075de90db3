"""The grid of ZIP centres behind ``zip_for_point`` is built once and kept in the user's cache folder: a
later process reads it instead of building it again, and an unreadable cache file is rebuilt, never an
error."""

from __future__ import annotations

import pytest

from marketplace.features.records import rules_addresses as addresses


@pytest.fixture()
def fresh_grid(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    addresses._zip_grid.cache_clear()
    addresses._nearest_zip.cache_clear()
    yield addresses._grid_cache_file()
    addresses._zip_grid.cache_clear()
    addresses._nearest_zip.cache_clear()


def test_the_grid_is_written_once_then_read_by_the_next_process(fresh_grid, monkeypatch):
    assert not fresh_grid.exists()
    assert addresses.zip_for_point(41.8781, -87.6298, "IL") == "60603"  # the Loop, Chicago
    assert fresh_grid.is_file() and fresh_grid.parent.name == "leadvault"
    addresses._zip_grid.cache_clear()  # what a new process starts from
    addresses._nearest_zip.cache_clear()

    def no_build():
        raise AssertionError("built again")

    monkeypatch.setattr(addresses, "_build_zip_grid", no_build)
    assert addresses.zip_for_point(41.8781, -87.6298, "IL") == "60603"


def test_an_unreadable_cache_file_is_rebuilt(fresh_grid):
    fresh_grid.parent.mkdir(parents=True)
    fresh_grid.write_bytes(b"not a pickle")
    assert addresses.zip_for_point(39.9526, -75.1652, "PA") == "19110"  # City Hall, Philadelphia
    assert fresh_grid.stat().st_size > 100_000
