"""A feature's public face: what other features may import from ``marketplace.features.<feature>``.

Each feature's ``__init__`` names its exports, module by module; a name is loaded from its module on first
use, so importing one feature's rules never loads its states or pages. ``tests/test_layers.py`` reads the
same table: a feature imports another only through these names."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable


def lazy_exports(package: str, names: dict[str, Iterable[str]], modules: Iterable[str] = ()
                 ) -> tuple[Callable[[str], object], list[str]]:
    """``(__getattr__, __all__)`` for a feature package: ``names`` maps a module of the package to the names
    it exports; ``modules`` are modules the package exports whole (imported as ``from package import m``)."""
    where = {name: module for module, exported in names.items() for name in exported}

    def __getattr__(name: str) -> object:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    __getattr__.exports = where  # type: ignore[attr-defined]
    __getattr__.modules = tuple(modules)  # type: ignore[attr-defined]
    return __getattr__, sorted(where) + sorted(modules)
