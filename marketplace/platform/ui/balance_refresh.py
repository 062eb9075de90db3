"""Keeps a signed-in tab's balance current when credits change in another tab
(a checkout paid there).

- When the tab becomes visible again or the window regains focus, a hidden
  button is clicked, which sends ``AuthState.refresh_balance`` (one short read,
  throttled on the server and in the page).
- While a checkout this tab opened is pending (``AuthState.checkout_pending``),
  a ticker sends the same event every ``CHECKOUT_POLL_MS``; the server ends the
  watch when the checkout is paid, canceled or after 15 minutes (at most 180 checks).
"""

from __future__ import annotations

import reflex as rx

from marketplace.platform.ui.state_auth import AuthState

BUTTON_ID = "lv-balance-refresh"
CHECKOUT_POLL_MS = 5000
# Installed once per page load; a click at most every 3 s.
LISTENER_SCRIPT = (
    "if(!window.__lvBalanceRefresh){window.__lvBalanceRefresh=true;let last=0;"
    "const go=()=>{if(document.visibilityState!=='visible')return;const now=Date.now();"
    "if(now-last<3000)return;last=now;const b=document.getElementById('" + BUTTON_ID + "');if(b)b.click();};"
    "window.addEventListener('focus',go);document.addEventListener('visibilitychange',go);}"
)


def balance_refresh() -> rx.Component:
    return rx.cond(
        AuthState.is_authenticated,
        rx.fragment(
            rx.el.button(
                id=BUTTON_ID,
                type="button",
                on_click=AuthState.refresh_balance,
                on_mount=rx.call_script(LISTENER_SCRIPT),
                tab_index=-1,
                aria_hidden="true",
                style={"display": "none"},
            ),
            rx.cond(
                AuthState.checkout_pending,
                rx.moment(interval=CHECKOUT_POLL_MS, on_change=AuthState.refresh_balance, display="none",
                          aria_hidden="true", id="lv-checkout-watch"),
            ),
        ),
    )
