"""ARCHITECTURE.md's shape, checked on the source (every import counts, those inside functions too):

- ``marketplace/features/<feature>/``: a module's layer is its name's first word (``rules``, ``texts``,
  ``source``, ``service``, ``jobs``, ``api``, ``state``, ``view``, ``page``); imports flow down only;
- a feature uses another only through that feature's ``__init__`` (the names it exports);
- ``marketplace/platform/`` imports no feature;
- rules (and texts, and the platform's pure modules) import nothing of Reflex or the database, and the UI
  (states, views, pages, the platform's UI kit) never touches the database;
- no two modules import each other, directly or round a loop.
The app's composition (``marketplace.py``, ``app_pages.py``, ``api.py``, ``cli.py``) may import anything."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from marketplace.platform.config import PROJECT_ROOT

PACKAGE = PROJECT_ROOT / "marketplace"

# A feature module's layer, bottom up: a module may import its own layer and those below.
LAYER = {"rules": 0, "texts": 0, "source": 1, "service": 2, "jobs": 3, "api": 4, "state": 5, "view": 6, "page": 6}
UI_LAYERS = {"state", "view", "page"}
# The platform's pure modules (rules' level: no Reflex, no database); the rest of platform is a service,
# platform.ui the UI kit.
PLATFORM_PURE = {
    "errors", "texts", "texts_pages", "routes", "times", "paging", "limits", "pdf", "leads", "pricing", "devices",
    "text_keys", "exports", "batch_sizer", "web.http_policy", "web.net", "web.origin", "web.user_agent",
    "web.paint_first", "web.image_hosts", "config.map_tiles",
}
COMPOSITION = {"marketplace", "marketplace.marketplace", "marketplace.app_pages", "marketplace.api",
               "marketplace.cli", "marketplace.__main__"}
DATABASE = ("sqlalchemy", "sqlmodel", "psycopg", "alembic", "marketplace.platform.db", "marketplace.platform.models")


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if ".web" in path.parts:
            continue
        name = ".".join(path.relative_to(PROJECT_ROOT).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


MODULES = _modules()
PACKAGES = {name for name, path in MODULES.items() if path.name == "__init__.py"}
FEATURES = sorted(path.parent.name for path in (PACKAGE / "features").glob("*/__init__.py"))


def _feature(name: str) -> str | None:
    parts = name.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "features" else None


def _exports(feature: str) -> tuple[dict[str, str], tuple[str, ...]]:
    getter = importlib.import_module(f"marketplace.features.{feature}").__dict__.get("__getattr__")
    return (getattr(getter, "exports", {}), getattr(getter, "modules", ())) if getter else ({}, ())


EXPORTS = {feature: _exports(feature) for feature in FEATURES}


def _imports(name: str) -> list[tuple[str, str, int]]:
    """(imported module as written, the marketplace module it resolves to or '', line) for every import:
    ``from a import b`` resolves to a.b when b is a module, to the exporting module when a is a feature."""
    found = []
    for node in ast.walk(ast.parse(MODULES[name].read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                target = full if full in MODULES else node.module
                feature = _feature(node.module)
                if node.module == f"marketplace.features.{feature}" and full not in MODULES:
                    exported = EXPORTS[feature][0].get(alias.name)
                    target = f"{node.module}.{exported}" if exported else node.module
                found.append((node.module if full not in MODULES else full, target, node.lineno))
        elif isinstance(node, ast.Import):
            found.extend((alias.name, alias.name, node.lineno) for alias in node.names)
    return found


IMPORTS = {name: _imports(name) for name in MODULES}
GRAPH = {name: {target for _, target, _ in found if target in MODULES and target != name}
         for name, found in IMPORTS.items()}


def _layer_word(name: str) -> str | None:
    """'service' for marketplace.features.records.service_batches, 'rules' for ...property.rules_deal.form."""
    parts = name.split(".")
    if _feature(name) is None or len(parts) < 4:
        return None
    return parts[3].split("_")[0]


def _platform_kind(name: str) -> str | None:
    """'pure', 'ui' or 'service' for a platform module."""
    if not name.startswith("marketplace.platform.") or name in PACKAGES:
        return None
    rest = name.removeprefix("marketplace.platform.")
    if rest in PLATFORM_PURE:
        return "pure"
    return "ui" if rest.startswith("ui.") else "service"


def test_every_feature_module_names_its_layer():
    unnamed = sorted(name for name in MODULES if _feature(name) and name not in PACKAGES
                     and _layer_word(name) not in LAYER)
    assert unnamed == []


def test_imports_flow_down_only_inside_and_across_features():
    upward = sorted(
        f"{name} imports {target}"
        for name, targets in GRAPH.items() if _layer_word(name) in LAYER
        for target in targets if _layer_word(target) in LAYER
        if LAYER[_layer_word(target)] > LAYER[_layer_word(name)]
    )
    assert upward == []


def test_a_feature_uses_another_only_through_its_init():
    reaching = []
    for name, found in IMPORTS.items():
        feature = _feature(name)
        if feature is None:
            continue
        for written, target, line in found:
            other = _feature(written)
            if other is None or other == feature:
                continue
            names, modules = EXPORTS[other]
            if written != f"marketplace.features.{other}" and written.removeprefix(
                    f"marketplace.features.{other}.") not in modules:
                reaching.append(f"{name}:{line} imports {written}")
    assert reaching == []


def test_every_export_exists_and_each_feature_init_imports_only_the_exports_helper():
    missing = [f"{feature}.{module}.{name}" for feature, (names, _) in EXPORTS.items() for name, module in names.items()
               if not hasattr(importlib.import_module(f"marketplace.features.{feature}.{module}"), name)]
    assert missing == []
    heavy = sorted(f"marketplace.features.{feature} imports {target}" for feature in FEATURES
                   for _, target, _ in IMPORTS[f"marketplace.features.{feature}"]
                   if target != "marketplace.platform.exports")
    assert heavy == []


def test_platform_imports_no_feature():
    reaching = sorted(f"{name} imports {target}" for name, targets in GRAPH.items()
                      if name.startswith("marketplace.platform") for target in targets if _feature(target))
    assert reaching == []


def _pure(name: str) -> bool:
    return _layer_word(name) in ("rules", "texts") or _platform_kind(name) == "pure"


def test_rules_import_nothing_of_reflex_or_the_database():
    reaching = sorted(
        f"{name} imports {written}"
        for name, found in IMPORTS.items() if _pure(name)
        for written, target, _ in found
        if written.split(".")[0] == "reflex" or written.startswith(DATABASE)
        or (target in MODULES and not _pure(target) and target not in PACKAGES)
    )
    assert reaching == []


def test_the_ui_never_touches_the_database():
    reaching = sorted(
        f"{name} imports {written}"
        for name, found in IMPORTS.items()
        if _layer_word(name) in UI_LAYERS or _platform_kind(name) == "ui"
        for written, _, _ in found if written.startswith(DATABASE)
    )
    assert reaching == []


def _cycles() -> list[list[str]]:
    """Strongly connected groups of two or more modules (a package importing its own
    submodules to register them is not a loop)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in GRAPH[node] - PACKAGES:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for name in sorted(set(MODULES) - PACKAGES):
        if name not in index:
            visit(name)
    return groups


def test_no_import_cycles():
    # e.g. billing.service_payments <-> billing.service, or a base state importing its own substates
    assert _cycles() == []


def test_only_the_composition_is_outside_features_and_platform():
    loose = sorted(name for name in MODULES if not name.startswith(("marketplace.features", "marketplace.platform"))
                   and name not in COMPOSITION)
    assert loose == []


def test_the_checker_sees_imports_inside_functions_and_through_a_feature_init():
    # imported in a function
    assert "marketplace.features.scrape.source" in GRAPH["marketplace.features.marketplace.service_images"]
    # ``from marketplace.features.unlock import unlock_lead`` resolves to the module that defines it
    assert EXPORTS["unlock"][0]["unlock_lead"] == "service"
    assert any(target == "marketplace.features.unlock.service" for targets in GRAPH.values() for target in targets)
