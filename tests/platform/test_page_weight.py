"""Every lucide icon is static: ``rx.icon`` gets a string literal (or ``platform.ui.kit.static_icon``
a name known at compile time). An icon named by a state var compiles to lucide's ``DynamicIcon``,
which ships an import map of every lucide icon (~2,000) to every page and splits each static icon
into a file of its own (issue 26). The built pages' weight is checked in
tests/browser/test_page_weight.py."""

from __future__ import annotations

import ast
from pathlib import Path

from marketplace.platform.config import PROJECT_ROOT

PACKAGE = PROJECT_ROOT / "marketplace"
# The one helper allowed to pass a name that is not a literal: it refuses anything but a str.
HELPER = ("marketplace/platform/ui/kit.py", "static_icon")


def _is_rx_icon(call: ast.Call) -> bool:
    func = call.func
    return (isinstance(func, ast.Attribute) and func.attr == "icon"
            and isinstance(func.value, ast.Name) and func.value.id == "rx")


def _name_arg(call: ast.Call) -> ast.expr | None:
    if call.args:
        return call.args[0]
    return next((kw.value for kw in call.keywords if kw.arg == "tag"), None)


def non_literal_icons(source: str, path: str) -> list[str]:
    """``path:line`` of each ``rx.icon(...)`` whose name is not a string literal."""
    tree = ast.parse(source)
    allowed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and (path, node.name) == HELPER:
            allowed |= {id(call) for call in ast.walk(node) if isinstance(call, ast.Call)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _is_rx_icon(node) and id(node) not in allowed:
            name = _name_arg(node)
            if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
                found.append(f"{path}:{node.lineno}")
    return found


def test_every_rx_icon_in_the_app_is_named_by_a_string_literal():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PROJECT_ROOT).as_posix()
        found += non_literal_icons(path.read_text(), rel)
    assert found == [], ("rx.icon with a name that is not a string literal (a state var makes it lucide's "
                         "DynamicIcon: use rx.cond/rx.match over rx.icon(\"name\"), or ui.static_icon(name) "
                         f"for a Python string): {found}")


def test_the_check_catches_a_state_var_a_variable_and_a_keyword_name():
    source = '''
import reflex as rx
a = rx.icon(State.icon_name, size=16)
b = rx.icon(rx.cond(State.open, "chevron-up", "chevron-down"))
c = rx.icon(tag=name)
d = rx.icon(icon)
ok = rx.icon("menu", size=20)
ok2 = rx.icon(tag="x")
'''
    assert non_literal_icons(source, "marketplace/views/example.py") == [
        "marketplace/views/example.py:3", "marketplace/views/example.py:4",
        "marketplace/views/example.py:5", "marketplace/views/example.py:6"]


def test_static_icon_refuses_a_state_var():
    import pytest
    import reflex as rx

    from marketplace.platform.ui import kit as ui

    with pytest.raises(TypeError):
        ui.static_icon(rx.State.router.url.path)
    assert ui.static_icon("menu") is not None


# Radix Themes' 31 colour scales; only THEME_COLORS' CSS is loaded (rxconfig.ThemeColorsRadixPlugin).
RADIX_COLORS = ("tomato", "red", "ruby", "crimson", "pink", "plum", "purple", "violet", "iris", "indigo", "blue",
                "cyan", "teal", "jade", "green", "grass", "brown", "orange", "sky", "mint", "lime", "yellow",
                "amber", "gold", "bronze", "gray", "mauve", "slate", "sage", "olive", "sand")
_COLOR_NAMES = "|".join(RADIX_COLORS)


def colors_named(text: str) -> set[str]:
    """Radix colours a source file names: a quoted colour name ("grass", a color_scheme or a tinted tile)
    or a CSS variable of its scale (var(--amber-9), --orange-a3)."""
    import re

    quoted = re.findall(rf"""["']({_COLOR_NAMES})["']""", text)
    variables = re.findall(rf"--({_COLOR_NAMES})-a?\d", text)
    return set(quoted) | set(variables)


def test_every_radix_colour_the_app_names_has_its_css_loaded():
    from marketplace.platform.ui.styles import THEME_COLORS

    missing = {}
    for path in [*sorted(PACKAGE.rglob("*.py")), *sorted((PROJECT_ROOT / "assets").rglob("*.css"))]:
        if unknown := colors_named(path.read_text()) - set(THEME_COLORS):
            missing[path.relative_to(PROJECT_ROOT).as_posix()] = sorted(unknown)
    assert missing == {}, f"add these colours to THEME_COLORS in platform/ui/styles.py: {missing}"


def test_the_colour_check_sees_schemes_and_variables():
    assert colors_named('rx.badge("x", color_scheme="jade")\nstyle="color: var(--cyan-a9)"') == {"jade", "cyan"}
    assert colors_named('rx.text("grayscale", class_name="lv-gray-box")') == set()
