"""A copy of the shipped dataset files with one dataset's endpoint pointed at a ``FakePortal``, for
``OPEN_DATA_DIR`` (a worker process, or the app under test, then pulls from the fake portal)."""

from __future__ import annotations

import re
from pathlib import Path

from marketplace.features.records.source_opendata.dataset import DATASETS_DIR


def datasets_dir(target: Path, dataset_id: str, endpoint: str) -> Path:
    target.mkdir(parents=True, exist_ok=True)
    for path in DATASETS_DIR.glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        if path.stem == dataset_id:
            text, n = re.subn(r'(?m)^endpoint\s*=\s*".*"$', f'endpoint = "{endpoint}"', text)
            assert n == 1, f"{path.name} has no single endpoint line"
        (target / path.name).write_text(text, encoding="utf-8")
    return target
