"""Prerendered pages paint before their scripts load: a pure rewrite of a built page.

Each page is prerendered HTML with its content, one stylesheet, a list of
``<link rel="modulepreload">`` hoisted into the head (the whole module graph of the page, ~20
files) and one inline module script that imports the framework's entry. Left as built, the
browser fetches the ~20 scripts beside the stylesheet and, on a phone, evaluates and hydrates
before it first paints the content that was already in the HTML.

``paint_first(html)`` keeps the same scripts and the same order of evaluation, and starts them
once the page has painted: the head's modulepreload links go, and the inline script's static
imports become awaited dynamic imports preceded by a wait for the first frame (``requestAnimationFrame``
then a task; at once in a background tab, where frames do not run; at most ``FALLBACK_MS`` in any
case), after which it adds the same modulepreload links, so the graph still downloads in one
parallel round instead of a waterfall. The stylesheet then has the connection to itself, the
content shows, and the scripts follow one frame later.

The shared chunks the page's modules import (every preloaded file the inline script does not name)
are then evaluated one per task of the browser's, in the build's order, before the script's own
imports (issue 41): evaluated as one graph they took one task of 25-40 ms, a phone's main thread
blocked four times as long. Evaluating a module evaluates its imports first, so each chunk still
runs after everything it uses; no chunk imports the entry, the root or a page (the build has no
cycle between chunks), so the entry still starts hydration last, with the route modules in place.

The inline script stays inline: the Content-Security-Policy allows it by the hash of its new
text (``http_policy.inline_script_hashes`` reads the built pages).

A dynamic page (/property/{id}) has no prerendered HTML of its own: the framework serves every one
from an empty fallback, so nothing paints before the scripts have run and the page's data has come.
``with_page_shells`` adds one concrete path of each (``routes.PAGE_SHELLS``) to the build's prerender
list: its HTML is the page as it shows before its data (the header, the footer, the page's loading
line), and ``platform.web.security`` serves it for every path of that page. The page's scripts then
hydrate it as they would its own: the same route, no loader data, the state's defaults.
"""

from __future__ import annotations

import json
import re

FALLBACK_MS = 1000
MARKER = "/*lv-paint-first*/"

_PRELOAD = re.compile(r'<link rel="modulepreload" href="([^"<>]+)"/>')
_BOOT = re.compile(r'<script type="module" async="">(.*?)</script>', re.S)
_SIDE_EFFECT_IMPORT = re.compile(r'^import ("[^"\n]+");$', re.M)
_NAMESPACE_IMPORT = re.compile(r'^import \* as ([A-Za-z_$][\w$]*) from ("[^"\n]+");$', re.M)
_ANY_STATIC_IMPORT = re.compile(r"^\s*import[\s{*\"']", re.M)

_WAIT_FOR_PAINT = (
    "await new Promise((go) => { setTimeout(go, %d);"
    " if (document.visibilityState !== \"visible\") go();"
    " else requestAnimationFrame(() => setTimeout(go, 0)); });\n"
)
_ADD_PRELOADS = (
    "for (const href of %s) { const link = document.createElement(\"link\");"
    " link.rel = \"modulepreload\"; link.href = href; document.head.appendChild(link); }\n"
)
_EVALUATE_APART = (
    "for (const href of %s) { await new Promise((go) => setTimeout(go, 0)); await import(href); }\n"
    "await new Promise((go) => setTimeout(go, 0));\n"
)


def _js_list(hrefs: list[str]) -> str:
    return json.dumps(hrefs).replace("</", "<\\/")


class UnexpectedPage(ValueError):
    """The built page does not have the shape this rewrite knows (the framework changed)."""


def paint_first(html: str) -> str:
    """The page with its scripts started after its first paint (unchanged when already rewritten)."""
    if MARKER in html:
        return html
    boots = _BOOT.findall(html)
    preloads = _PRELOAD.findall(html)
    if not boots and not preloads:
        return html  # a page without scripts
    if len(boots) != 1:
        raise UnexpectedPage(f"expected one inline module script, found {len(boots)}")
    boot = boots[0]
    code = _SIDE_EFFECT_IMPORT.sub(r"await import(\1);", boot)
    code = _NAMESPACE_IMPORT.sub(r"const \1 = await import(\2);", code)
    if _ANY_STATIC_IMPORT.search(code):
        raise UnexpectedPage("the inline module script has an import form this rewrite does not know")
    shared = [href for href in preloads if json.dumps(href) not in code]
    new_boot = (MARKER + "\n" + _WAIT_FOR_PAINT % FALLBACK_MS
                + _ADD_PRELOADS % _js_list(preloads) + _EVALUATE_APART % _js_list(shared) + code)
    html = _BOOT.sub(lambda match: f'<script type="module" async="">{new_boot}</script>', html, count=1)
    return _PRELOAD.sub("", html)


_PRERENDER_ALL = '"prerender": true'


def with_page_shells(router_config: str, shells: list[str]) -> str:
    """React Router's config (``react-router.config.js`` as Reflex writes it for a production build) with
    ``shells`` prerendered beside the static pages; unchanged when the build prerenders nothing (dev)."""
    if _PRERENDER_ALL not in router_config:
        if '"prerender"' in router_config:
            raise UnexpectedPage("react-router.config.js names its prerendered pages in a form this rewrite "
                                 "does not know")
        return router_config
    paths = json.dumps(sorted(shells))
    return router_config.replace(
        _PRERENDER_ALL, f'"prerender": ({{getStaticPaths}}) => [...getStaticPaths(), ...{paths}]', 1)
