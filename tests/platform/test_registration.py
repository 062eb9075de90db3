"""Every page is added to the app exactly once.

``reflex run --env prod`` compiles the app in the CLI process and again in the
forked backend worker; every compile re-applies Reflex's ``@rx.page`` queue, so
pages declared that way were added twice and each start printed "Page ... is
being redefined" for all of them. The app's ``@page`` adds them once, in
marketplace/marketplace.py. This test imports the app in a fresh interpreter
and applies the page queue twice, as those two compiles do.
"""

import os
import subprocess
import sys

import pytest

from marketplace.platform.config import PROJECT_ROOT

SCRIPT = """
import marketplace.marketplace as m
app = m.app
for _ in range(2):  # the CLI's compile, then the backend worker's
    app._apply_decorated_pages()
routes = sorted(app._unevaluated_pages)
print("ROUTES", len(routes), " ".join(routes))
"""


def _run(code: str, tmp_path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "APP_ENV")}
    env["MARKETPLACE_DATA_DIR"] = str(tmp_path)
    subprocess.run([sys.executable, "-m", "marketplace", "migrate"], cwd=PROJECT_ROOT, env=env, check=True,
                   capture_output=True, timeout=300)
    return subprocess.run([sys.executable, "-c", code], cwd=PROJECT_ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.db  # migrates a database of its own in a subprocess
def test_each_page_is_added_once_however_often_the_app_compiles(tmp_path):
    proc = _run(SCRIPT, tmp_path)
    assert proc.returncode == 0, proc.stderr
    output = proc.stdout + proc.stderr
    assert "is being redefined" not in output, output
    line = next(line for line in proc.stdout.splitlines() if line.startswith("ROUTES "))
    _, added, *routes = line.split()
    assert int(added) == 21, line
    for route in ("index", "marketplace", "dashboard", "property/[lead_id]", "explorerdev", "404"):
        assert route in routes, routes


def test_no_page_imports_another_page():
    """Pages share code through views and the platform's UI kit, never through another page."""
    import ast

    offenders = []
    for path in sorted((PROJECT_ROOT / "marketplace" / "features").glob("*/page*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("marketplace.features"):
                names = [node.module.rsplit(".", 1)[-1]] + [alias.name for alias in node.names]
                if any(name.startswith("page") for name in names):
                    offenders.append(f"{path.relative_to(PROJECT_ROOT)}:{node.lineno}")
    assert offenders == []
