"""The Reflex app: pages, API and lifespan tasks (the theme is set in rxconfig.py)."""

import contextlib

import reflex as rx

from marketplace.platform.config import exit_unless_ready, get_settings, record_served_port

# APP_ENV=production without Stripe, SECRET_KEY or SITE_URL: one line, exit 1.
exit_unless_ready()

from marketplace.platform.migrations import exit_unless_migrated  # noqa: E402

# A database that was never migrated (or is behind): one line, exit 1.
exit_unless_migrated()

import marketplace.app_pages  # noqa: E402,F401  (declares every page)
from marketplace.api import create_api  # noqa: E402
from marketplace.features.marketplace.api_first_picture import marketplace_link  # noqa: E402
from marketplace.features.marketplace.api_images import HouseImages  # noqa: E402
from marketplace.features.scrape.api_webhook_gate import WebhookGate  # noqa: E402
from marketplace.platform.web.security import HttpHardening, frontend_static_dir  # noqa: E402
from marketplace.platform.ui.layout import add_pages, connection_status, ready_signal  # noqa: E402
from marketplace.features.records.jobs_scheduler import refresh_scheduler_lifespan  # noqa: E402
from marketplace.features.scrape import service_pool as scrape_pool  # noqa: E402
from marketplace.platform.ui.state_auth import TIME_ZONE_SCRIPT, unhandled_error  # noqa: E402


class HardenedApp(rx.App):
    """``rx.App`` served through ``HttpHardening`` (outermost: body limits, CORS/origin checks, security
    headers and 404s), around the webhook's cheap answers and the demo house pictures."""

    def __call__(self):
        asgi = super().__call__()
        hardened = HttpHardening(WebhookGate(HouseImages(asgi)), router=self.router,
                                 static_dir=frontend_static_dir(), marketplace_link=marketplace_link)
        if self.sio is not None:
            # socket.io checks origins itself too: with Reflex's list (rxconfig) it would refuse
            # a same-origin page on an address other than SITE_URL or loopback (a LAN address).
            self.sio.eio.cors_allowed_origins = hardened.socket_origin_allowed
        return hardened


app = HardenedApp(
    api_transformer=create_api(),
    # An exception no handler caught: the database or the session store down said plainly (states.auth).
    backend_exception_handler=unhandled_error,
    stylesheets=["/styles.css", "/lead_card.css"],
    head_components=[
        rx.el.link(rel="icon", type="image/svg+xml", href="/logo.svg"),
        rx.el.script(TIME_ZONE_SCRIPT),  # the browser's zone, before the first event (platform.ui.state_auth)
    ],
    extra_app_wraps={(3, "ReadySignal"): lambda stateful: ready_signal()},
)
# 'Reconnecting...' while the connection is down, in place of Reflex's overlay (a technical toast, an icon).
app.app_wraps[(5, "Overlay")] = lambda stateful: connection_status() if stateful else None
add_pages(app)  # each page once (not rx.page: every compile re-applies those)
app.register_lifespan_task(refresh_scheduler_lifespan)
app.register_lifespan_task(scrape_pool.lifespan)  # this process's scrape workers (scrape.service_pool)


@contextlib.asynccontextmanager
async def served_port_lifespan():
    """Keep the port this app serves on, so e-mails sent by commands in other terminals link to it."""
    try:
        record_served_port(get_settings().port)
    except OSError:  # noqa: BLE001 - mailed links fall back to PORT's default; the site must come up
        pass
    yield


app.register_lifespan_task(served_port_lifespan)
