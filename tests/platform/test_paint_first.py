"""Built pages paint before their scripts start (platform/web/paint_first.py, issue 26); a dynamic page is
prerendered as its shell (issue 41)."""

from __future__ import annotations

import re

import pytest

from marketplace.platform import routes
from marketplace.platform.web.paint_first import FALLBACK_MS, MARKER, UnexpectedPage, paint_first, with_page_shells

# The shape React Router 8 prerenders (abridged from a built /pricing).
BUILT = (
    '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>'
    '<link rel="modulepreload" href="/assets/manifest-ccc9a462.js"/>'
    '<link rel="modulepreload" href="/assets/entry.client-Bfd3bPcX.js"/>'
    '<link rel="modulepreload" href="/assets/root-B8TBQZ_p.js"/>'
    '<link rel="modulepreload" href="/assets/_pricing_._index-DTNp5vhr.js"/>'
    '<link rel="modulepreload" href="/assets/radius.prop-Bk6uwSO0.js"/>'
    '<link rel="modulepreload" href="/assets/icons-Cu5iJU19.js"/>'
    '<link href="/assets/__reflex_global_styles-BMmo8dzU.css" rel="stylesheet" type="text/css"/></head>'
    '<body><main><h1>Pricing</h1></main>'
    '<script>window.__reactRouterContext = {"ssr":false};</script>'
    '<script type="module" async="">import "/assets/manifest-ccc9a462.js";\n'
    'import * as route0 from "/assets/root-B8TBQZ_p.js";\n'
    'import * as route1 from "/assets/_pricing_._index-DTNp5vhr.js";\n'
    '  \n  window.__reactRouterRouteModules = {"root":route0,"routes/[pricing]._index":route1};\n\n'
    'import("/assets/entry.client-Bfd3bPcX.js");</script></body></html>'
)


def module_script(html: str) -> str:
    return re.search(r'<script type="module" async="">(.*?)</script>', html, re.S).group(1)


def test_the_head_loses_its_module_preloads_and_keeps_everything_else():
    page = paint_first(BUILT)
    assert 'rel="modulepreload"' not in page
    assert '<link href="/assets/__reflex_global_styles-BMmo8dzU.css" rel="stylesheet" type="text/css"/>' in page
    assert "<main><h1>Pricing</h1></main>" in page
    assert '<script>window.__reactRouterContext = {"ssr":false};</script>' in page


def test_the_module_script_waits_for_the_first_frame_then_preloads_and_imports_in_order():
    code = module_script(paint_first(BUILT))
    assert code.startswith(MARKER)
    wait = code.index("requestAnimationFrame(() => setTimeout(go, 0))")
    assert f"setTimeout(go, {FALLBACK_MS})" in code
    assert 'if (document.visibilityState !== "visible") go();' in code  # no frames in a background tab
    preloads = code.index('for (const href of ["/assets/manifest-ccc9a462.js", "/assets/entry.client-Bfd3bPcX.js", '
                          '"/assets/root-B8TBQZ_p.js", "/assets/_pricing_._index-DTNp5vhr.js", '
                          '"/assets/radius.prop-Bk6uwSO0.js", "/assets/icons-Cu5iJU19.js"])')
    manifest = code.index('await import("/assets/manifest-ccc9a462.js");')
    root = code.index('const route0 = await import("/assets/root-B8TBQZ_p.js");')
    route = code.index('const route1 = await import("/assets/_pricing_._index-DTNp5vhr.js");')
    modules = code.index('window.__reactRouterRouteModules = {"root":route0,"routes/[pricing]._index":route1};')
    entry = code.index('import("/assets/entry.client-Bfd3bPcX.js");')
    # The shared chunks (the preloads the script does not name), one per task, before the script's imports.
    shared = code.index('for (const href of ["/assets/radius.prop-Bk6uwSO0.js", "/assets/icons-Cu5iJU19.js"]) '
                        '{ await new Promise((go) => setTimeout(go, 0)); await import(href); }')
    assert wait < preloads < shared < manifest < root < route < modules < entry
    assert not re.search(r"^\s*import[\s*\"{]", code, re.M)  # no static import left: nothing loads before the wait


def test_a_rewritten_page_is_left_as_it_is_and_a_page_without_scripts_too():
    once = paint_first(BUILT)
    assert paint_first(once) == once
    assert paint_first("<html><body><p>Sitemap</p></body></html>") == "<html><body><p>Sitemap</p></body></html>"


@pytest.mark.parametrize("changed", [
    BUILT.replace('<script type="module" async="">', '<script type="module">'),  # not the shape we know
    BUILT.replace('import * as route1 from', 'import {default as route1} from'),  # an import form we do not know
])
def test_a_page_of_another_shape_stops_the_build(changed):
    with pytest.raises(UnexpectedPage):
        paint_first(changed)


# react-router.config.js as Reflex 0.10.1 writes it for a production build (prerendering) and for dev.
PROD_CONFIG = ('export default {"basename": "/", "future": {"unstable_optimizeDeps": true}, "ssr": false, '
               '"prerender": true, "build": "build"};')
DEV_CONFIG = 'export default {"basename": "/", "future": {"unstable_optimizeDeps": true}, "ssr": false};'


def test_a_production_build_prerenders_each_dynamic_pages_shell_beside_the_static_pages():
    config = with_page_shells(PROD_CONFIG, [routes.PROPERTY_SHELL])
    assert config == ('export default {"basename": "/", "future": {"unstable_optimizeDeps": true}, "ssr": false, '
                      '"prerender": ({getStaticPaths}) => [...getStaticPaths(), ...["/property/loading"]], '
                      '"build": "build"};')
    assert routes.PAGE_SHELLS == {routes.PROPERTY: "/property/loading"}


def test_a_dev_config_is_left_alone_and_an_unknown_prerender_form_stops_the_build():
    assert with_page_shells(DEV_CONFIG, [routes.PROPERTY_SHELL]) == DEV_CONFIG
    with pytest.raises(UnexpectedPage):
        with_page_shells(PROD_CONFIG.replace('"prerender": true', '"prerender": ["/"]'), [routes.PROPERTY_SHELL])
