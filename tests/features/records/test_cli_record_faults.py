"""import-records on bad files: a header-only file, an oversized cell, bytes that are not UTF-8, a file
the mapping cannot read (issue 23's ingest, hardened)."""

from __future__ import annotations

import sqlalchemy as sa

from marketplace.platform.models import Property, PropertySignal
from tests.features.records.test_cli_records import TAX_FILE, count, run

HEADER, *ROWS = TAX_FILE.read_bytes().decode("utf-8-sig").splitlines(keepends=True)


def test_a_header_only_file_closes_nothing_and_warns(db_url, tmp_path):
    assert run("import-records", "phl-tax-delinquencies", "--file", str(TAX_FILE)).returncode == 0
    empty = tmp_path / "real_estate_tax_delinquency_extract_2016-08.csv"
    empty.write_text(HEADER, encoding="utf-8")
    out = run("import-records", "phl-tax-delinquencies", "--file", str(empty))
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0].startswith("phl-tax-delinquencies: read 0, added 0, updated 0, unchanged 0, "
                                                 "closed 0, archived 0")
    assert out.stdout.splitlines()[-2:] == ["warning: the file holds no rows: nothing closed",
                                            "0 leads: the file holds no rows"]
    assert count(PropertySignal, PropertySignal.__table__.c.status == "open") == 259


def test_an_oversized_cell_rejects_its_row_not_the_file(db_url, tmp_path):
    big = tmp_path / "real_estate_tax_delinquency_extract_2016-07_big.csv"
    first = ROWS[0].replace(ROWS[0].split(",")[0], '"' + "X" * 200_000 + '"', 1)
    big.write_text(HEADER + first + "".join(ROWS[1:]), encoding="utf-8")
    out = run("import-records", "phl-tax-delinquencies", "--file", str(big))
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("phl-tax-delinquencies: read 259, added 258, updated 0, unchanged 0, closed 0, "
                               "archived 0, rejected 1")
    assert lines[1] == "rejected: row 1: a cell of 200,000 characters (more than 131,072)"
    assert count(Property) == 258


def test_bad_utf8_is_replaced_in_its_row_only_and_counted(db_url, tmp_path):
    mixed = tmp_path / "real_estate_tax_delinquency_extract_2016-07_mixed.csv"
    owner = ROWS[0].split(",")[0]
    body = (HEADER + ROWS[0].replace(owner, "CAFÉ OWNER", 1)).encode("utf-8")
    body += ROWS[1].replace(ROWS[1].split(",")[0], "BAD\x00", 1).encode("utf-8").replace(b"\x00", b"\xe9")
    mixed.write_bytes(body + "".join(ROWS[2:]).encode("utf-8"))
    out = run("import-records", "phl-tax-delinquencies", "--file", str(mixed))
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0].startswith("phl-tax-delinquencies: read 259, added 259")
    assert out.stdout.splitlines()[-2].endswith(
        "; 1 rows held bytes that are not UTF-8 (read with replacement characters)")
    owners = set(_owners())
    assert "CAFÉ OWNER" in owners and "BAD\ufffd" in owners
    assert not any("Ã" in o for o in owners)


def _owners():
    from marketplace.platform.db import get_engine

    with get_engine().connect() as conn:
        return conn.execute(sa.select(Property.__table__.c.owner_name)).scalars().all()


def test_a_file_the_mapping_cannot_read_is_one_error_line(db_url, tmp_path):
    bad = tmp_path / "x.csv"
    bad.write_bytes(b"\x00\xff\xfe garbage, not a,csv\n1,2\n")
    out = run("import-records", "phl-tax-delinquencies", "--file", str(bad), "--as-of", "2026-11-20")
    assert out.returncode == 1
    assert out.stderr.splitlines() == ["error: phl-tax-delinquencies: x.csv has no header line naming OPAnumber"]
    assert out.stdout == ""
