"""The documentation a newcomer reads (README.md, ARCHITECTURE.md, docs/*.md) stays true and short:

- every repository path it names exists (a path in backticks or a link; a link's #anchor is a heading of the
  document it points at);
- ARCHITECTURE.md's feature map lists exactly the modules under ``marketplace/features/<feature>/``;
- the README's configuration table names every environment variable the app reads, and nothing else;
- the whole set stays at or below ``MAX_WORDS`` words (counted as ``wc -w`` counts them)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FEATURES = ROOT / "marketplace" / "features"
DOCS = [ROOT / "README.md", ROOT / "ARCHITECTURE.md", *sorted((ROOT / "docs").glob("*.md"))]
MAX_WORDS = 15_000

# Paths the app makes at run time (gitignored), named by the docs but absent from a fresh checkout.
RUNTIME_PATHS = {"data/", "data/.secret_key"}

_CODE = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_PATHLIKE = re.compile(r"^[\w.\-/]+$")


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(doc: Path) -> set[str]:
    return {_anchor(line.lstrip("#")) for line in doc.read_text().splitlines() if line.startswith("#")}


def _named_paths(doc: Path) -> list[str]:
    """What a document names as a file or folder of the repository."""
    text = doc.read_text()
    found = []
    for token in _CODE.findall(text):
        token = token.split("::")[0].strip()
        if ("/" in token and _PATHLIKE.match(token) and not token.startswith(("/", "../", "."))
                and (token.endswith("/") or re.search(r"\.\w+$", token.rsplit("/", 1)[-1]))):
            found.append(token)
    return found


def _resolves(doc: Path, path: str) -> bool:
    """A path is written from the repository root, from ``marketplace/`` (``features/...``, ``platform/...``) or,
    in the list of the platform's modules, from ``marketplace/platform/`` (``web/security.py``)."""
    bases = (ROOT, ROOT / "marketplace", ROOT / "marketplace" / "platform")
    return path in RUNTIME_PATHS or any((base / path).exists() for base in bases)


def test_every_path_the_docs_name_exists():
    missing = [f"{doc.relative_to(ROOT)}: `{path}`" for doc in DOCS for path in _named_paths(doc)
               if not _resolves(doc, path)]
    assert not missing, "These paths are named in the docs but do not exist (fix or drop them):\n" + "\n".join(missing)


def test_every_link_in_the_docs_points_at_a_file_and_heading_that_exist():
    broken = []
    for doc in DOCS:
        for target in _LINK.findall(doc.read_text()):
            if re.match(r"^[a-z]+:", target):  # https:, mailto:
                continue
            file_part, _, anchor = target.partition("#")
            linked = (doc.parent / file_part).resolve() if file_part else doc
            if file_part.startswith("../"):  # outside the repository (../shared/SPEC.md)
                continue
            if not linked.exists():
                broken.append(f"{doc.relative_to(ROOT)}: ({target}) -> no such file")
            elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
                broken.append(f"{doc.relative_to(ROOT)}: ({target}) -> no heading #{anchor} in {linked.name}")
    assert not broken, "Broken links in the docs:\n" + "\n".join(broken)


def _modules_on_disk() -> dict[str, set[str]]:
    """Each feature's modules: its .py files but __init__, and its sub-packages (a folder with __init__.py)."""
    found = {}
    for feature in sorted(p.parent for p in FEATURES.glob("*/__init__.py")):
        found[feature.name] = {p.name for p in feature.glob("*.py") if p.name != "__init__.py"} | {
            p.name for p in feature.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    return found


_MAP_LINE = re.compile(r"^- \*\*(\w+)\*\*(.*)$")


def _modules_in_map() -> dict[str, set[str]]:
    """ARCHITECTURE.md's feature map: under '### The features', one line per feature,
    ``- **feature** (what it is, no backticks): `module.py`, `package`, ...`` (layer words between them are fine)."""
    text = (ROOT / "ARCHITECTURE.md").read_text()
    section = text.split("### The features", 1)[1].split("\n#", 1)[0]
    listed = {}
    for line in section.splitlines():
        match = _MAP_LINE.match(line)
        if match:
            listed[match.group(1)] = set(_CODE.findall(match.group(2)))
    return listed


def test_the_feature_map_lists_exactly_the_feature_modules():
    on_disk, in_map = _modules_on_disk(), _modules_in_map()
    problems = []
    for feature in sorted(set(on_disk) | set(in_map)):
        if feature not in in_map:
            problems.append(f"add a line for the feature {feature!r}: "
                            f"- **{feature}** (what it is): " + ", ".join(f"`{m}`" for m in sorted(on_disk[feature])))
            continue
        if feature not in on_disk:
            problems.append(f"remove the line of {feature!r}: marketplace/features/{feature}/ does not exist")
            continue
        if add := sorted(on_disk[feature] - in_map[feature]):
            problems.append(f"{feature}: add " + ", ".join(f"`{m}`" for m in add))
        if remove := sorted(in_map[feature] - on_disk[feature]):
            problems.append(f"{feature}: remove " + ", ".join(f"`{m}`" for m in remove))
    assert not problems, (
        "ARCHITECTURE.md's feature map ('### The features': one line per feature, its modules in backticks after "
        "the layer word, e.g. `service: `service.py`, `service_x.py``; a package is named without .py) must list "
        "exactly the modules under marketplace/features/<feature>/. To fix it:\n" + "\n".join(problems))


_READS = re.compile(r"""(?:_int|_float|_flag|environ\.get|getenv)\(\s*["']([A-Z][A-Z0-9_]+)["']""")
NOT_SETTINGS = {"XDG_CACHE_HOME", "HTTP_HOST"}  # a cache folder, and a WSGI environ key


def _variables_read() -> set[str]:
    found = set()
    for path in [*(ROOT / "marketplace").rglob("*.py"), ROOT / "rxconfig.py"]:
        if ".web" not in path.parts:
            found.update(_READS.findall(path.read_text()))
    return found - NOT_SETTINGS


def _configuration_table() -> set[str]:
    text = (ROOT / "README.md").read_text().split("## Configuration", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|", text, re.M))


def test_the_readme_configuration_table_names_every_variable_the_app_reads():
    table = _configuration_table()
    missing = sorted(_variables_read() - table)
    assert not missing, ("The app reads these environment variables but the README's configuration table does not "
                         "name them: add a row `| `NAME` | default | meaning |` for each: " + ", ".join(missing))
    elsewhere = " ".join(path.read_text() for path in [*(ROOT / "tests").rglob("*.py"), ROOT / "Makefile",
                                                        ROOT / ".ci" / "run"] if "node_modules" not in path.parts)
    stale = sorted(name for name in table - _variables_read() if name not in elsewhere)
    assert not stale, "The README's configuration table names variables nothing reads any more: " + ", ".join(stale)


def test_the_docs_stay_short():
    counts = {doc.relative_to(ROOT).as_posix(): len(doc.read_text().split()) for doc in DOCS}
    total = sum(counts.values())
    assert total <= MAX_WORDS, (
        f"README.md + ARCHITECTURE.md + docs/*.md hold {total:,} words, over {MAX_WORDS:,}: say each thing once "
        "and point at the code for the rest. Per file: "
        + ", ".join(f"{name} {n:,}" for name, n in sorted(counts.items(), key=lambda kv: -kv[1])))


def test_the_checks_find_what_they_look_for():
    # The map parser reads every feature and the path finder sees the paths, so the checks above cannot pass empty.
    assert set(_modules_in_map()) == set(_modules_on_disk()) or _modules_in_map()
    assert "scrape" in _modules_in_map() and "rules_webhook.py" in _modules_in_map()["scrape"]
    assert "tests/test_layers.py" in _named_paths(ROOT / "ARCHITECTURE.md")
    assert {"DATABASE_URL", "LEAD_MAX_HOLDERS", "GUARANTEE_DAYS"} <= _variables_read() & _configuration_table()
