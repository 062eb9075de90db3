"""ARCHITECTURE.md's layers, checked on the source: imports flow down only, no
two modules import each other (directly or round a loop), and the UI layers
never touch the database. Every import counts, those inside functions too."""

from __future__ import annotations

import ast
from pathlib import Path

from marketplace.config import PROJECT_ROOT

PACKAGE = PROJECT_ROOT / "marketplace"

# Top to bottom, as ARCHITECTURE.md draws them: a module may import its own layer and those below.
LAYERS = (
    ("pages", "views", "components"),
    ("states",),
    ("api",),
    ("jobs",),
    ("services",),
    ("sources",),
    ("db", "models", "config"),
    ("core", "routes", "messages"),
)
UI = {"pages", "views", "components", "states"}


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


def _imports(name: str) -> set[str]:
    """The marketplace modules ``name`` imports (``from a import b`` counts as a.b when b is a module)."""
    targets = set()
    for node in ast.walk(ast.parse(MODULES[name].read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                targets.add(full if full in MODULES else node.module)
        elif isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
    return {target for target in targets if target in MODULES and target != name}


GRAPH = {name: _imports(name) for name in MODULES}


def _area(name: str) -> str:
    """'states' for marketplace.states.x, 'db' for marketplace.db."""
    return (name.split(".") + [""])[1]


def _layer(name: str) -> int | None:
    return next((depth for depth, group in enumerate(LAYERS) if _area(name) in group), None)


def test_imports_flow_down_only():
    upward = sorted(
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        for target in targets
        if _layer(name) is not None and _layer(target) is not None and _layer(target) < _layer(name)
    )
    assert upward == []


def test_the_ui_layers_never_import_the_database():
    reaching = sorted(
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        if _area(name) in UI
        for target in targets
        if _area(target) in ("db", "models")
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
    # e.g. services.payments <-> services.purchases, or a base state importing its own substates
    assert _cycles() == []


def test_the_checker_sees_imports_inside_functions():
    assert "marketplace.sources" in GRAPH["marketplace.services.images"]  # imported in a function
    assert "marketplace.core.criteria" in GRAPH["marketplace.sources.base"]
