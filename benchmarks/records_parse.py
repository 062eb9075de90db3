"""The public-record reader and mapper alone, on one core: ``opendata.read_file`` of a real-shaped file
(``benchmarks.records_ingest.write_file``: the Chicago vacant-building violations sample repeated), in this
process, no database. Prints rows/s of CPU time (one core, whatever the machine's load). Target: 50,000.

    .venv/bin/python -m benchmarks.records_parse --records 100000
    .venv/bin/python -m benchmarks.records_parse --file some.csv --dataset phl-opa-properties
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path


def measure(dataset_id: str, path: Path, repeat: int) -> tuple[int, float]:
    """(rows, best CPU seconds of ``repeat`` reads of the file)."""
    from benchmarks.records_ingest import TODAY
    from marketplace.features.records import source_opendata as opendata

    dataset = opendata.load_datasets()[dataset_id]
    best, rows = float("inf"), 0
    for _ in range(repeat):
        t0 = time.process_time()
        rows = opendata.tally(opendata.read_file(dataset, path, today=TODAY)).rows
        best = min(best, time.process_time() - t0)
    return rows, best


def main() -> None:
    from benchmarks.records_ingest import FILE_DATASET, write_file

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--file", type=Path, help="a file to read instead of the generated one")
    parser.add_argument("--dataset", default=FILE_DATASET)
    parser.add_argument("--repeat", type=int, default=3, help="reads of the file; the best one counts")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lv-parse-") as tmp:
        path = args.file
        if path is None:
            path = Path(tmp) / "violations.csv"
            write_file(path, args.records)
        rows, seconds = measure(args.dataset, path, args.repeat)
    print(f"{args.dataset}: {rows:,} rows in {seconds:.2f} CPU s = {rows / seconds:,.0f} rows/s on one core "
          f"(target 50,000; load avg {'%.1f %.1f %.1f' % os.getloadavg()})")


if __name__ == "__main__":
    main()
