"""The prod-shape smoke set runs only against PostgreSQL + Redis + two workers:
``make test-prod-shape`` (``LV_PROD_SHAPE=1``). ``make test`` leaves this
directory out by path."""

from __future__ import annotations

import os

import pytest

from marketplace.platform.config import PROJECT_ROOT

ARTIFACTS = PROJECT_ROOT / "test-artifacts"


@pytest.fixture(scope="session", autouse=True)
def _needs_prod_shape():
    if os.environ.get("LV_PROD_SHAPE") != "1":
        pytest.fail("tests/browser/smoke runs against PostgreSQL + Redis + 2 workers: use `make test-prod-shape`")


@pytest.fixture
def new_page(browser, live_server, request):
    """Open more tabs, each in its own browser context (own localStorage, like
    another browser); screenshots of them on failure; all closed at the end."""
    contexts = []

    def _open():
        context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
        context.set_default_timeout(15000)
        contexts.append(context)
        return context.new_page()

    yield _open
    failed = getattr(request.node, "rep_call", None)
    for i, context in enumerate(contexts):
        if failed is not None and failed.failed:
            for pg in context.pages:
                pg.screenshot(path=str(ARTIFACTS / f"{request.node.name}-tab{i + 2}.png"), full_page=True)
        context.close()
