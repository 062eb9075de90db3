"""The dashboard (/dashboard): the signed-in user's numbers and tabs, each tab's view from the feature it belongs to.

What other features use of it is exported below; they import it from ``marketplace.features.dashboard``
(``platform.exports``)."""

from marketplace.platform.exports import lazy_exports

__getattr__, __all__ = lazy_exports(__name__, {
    "state": ("DashboardState",),
}, modules=("service",))
