"""Browser tests wait for what the user waits for: Playwright's ``expect`` inside the page, and
``helpers.wait_until`` for a condition outside it. Neither is a fixed pause; this test refuses one
anywhere else (``time.sleep``, ``page.wait_for_timeout``, ``asyncio.sleep``)."""
from __future__ import annotations

import re
from pathlib import Path

BROWSER_TESTS = Path(__file__).parent / "browser"
PAUSE = re.compile(r"\btime\.sleep\(|\.wait_for_timeout\(|\basyncio\.sleep\(|^\s*from time import .*\bsleep\b", re.M)
# The one place a poll's interval lives (wait_until, stays and click_settled use it).
ALLOWED = {BROWSER_TESTS / "helpers.py": 2}


def pauses(path: Path) -> int:
    return len(PAUSE.findall(path.read_text()))


def test_no_browser_test_pauses_outside_the_condition_wait():
    found = {path: n for path in sorted(BROWSER_TESTS.rglob("*.py"))
             if "node_modules" not in path.parts and (n := pauses(path))}
    assert found == ALLOWED, {str(p.relative_to(BROWSER_TESTS)): n for p, n in found.items()}


def test_the_guard_sees_a_pause(tmp_path):
    planted = tmp_path / "test_x.py"
    planted.write_text("import time\n\ndef test():\n    page.wait_for_timeout(500)\n    time.sleep(1)\n")
    assert pauses(planted) == 2
