"""Whether this install serves generated demo data (``platform.demo_data.demo_install``): the layout's
demo-data banner and the note beside every claim about public records follow ``demo_data``.

Pages are prerendered with the state's defaults, so ``demo_data`` starts as the settings' answer
(``demo_by_configuration``: not production, no real lead source), read when the app is built and started:
a demo install paints its banner with the page and a real-only install never paints one. Every page load
then asks the database (``check_demo_data``, last in the layout's on-load list, cached a few seconds on the
server), which corrects the answer where the data disagrees with the settings (demo leads seeded beside a
real source). The check reads no user data: visitors and members get the same answer.
"""

from __future__ import annotations

import logging

import reflex as rx

from marketplace.platform.offloop import run_blocking
from marketplace.platform import demo_data
from marketplace.platform.ui.state_auth import AuthState

log = logging.getLogger("marketplace.demo_data")


class DemoDataState(AuthState):
    demo_data: bool = demo_data.demo_by_configuration()

    @rx.event
    async def check_demo_data(self):
        try:
            answer = await run_blocking(demo_data.demo_install)
        except Exception:  # noqa: BLE001 - a page load must not fail on it: the configured answer stays
            log.exception("demo-data check failed")
            return
        if answer != self.demo_data:
            self.demo_data = answer
