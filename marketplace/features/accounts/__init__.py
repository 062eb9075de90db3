"""Accounts: sign-up and sign-in (/auth), e-mail confirmation, password reset, and the dashboard's Settings tab.

What other features use of it is exported below; they import it from ``marketplace.features.accounts``
(``platform.exports``)."""

from marketplace.platform.exports import lazy_exports

__getattr__, __all__ = lazy_exports(__name__, {
    "state_settings": ("SettingsState",),
    "view_settings_account": ("LABEL_STYLE",),
    "view_settings_delete": ("settings_tab",),
}, modules=("rules", "service"))
