"""/[referral_segment] : referral capture (SPEC section 2).

A visit to a single path segment of 1-15 ASCII letters or digits that is not a
real route stores the segment as the referral code (session storage, key
``referral_code``) and replaces the address with the site root. Any other
single segment renders the 404 view. While the on-load handler stores a valid
code and redirects, a neutral spinner shows, so a valid code never flashes
the 404 page.

Which of the two views to show is decided in the browser from the route
parameter (same rule as the server), so it is right on the first render even
after client-side navigation between two one-segment paths.
"""

from __future__ import annotations

import json

import reflex as rx

from marketplace.platform import routes
from marketplace.platform.ui.layout import page
from marketplace.platform.routes import REFERRAL_CODE_RE, is_valid_referral_code
from marketplace.platform.ui.state_auth import AuthState
from marketplace.features.marketing import NOT_FOUND_ROUTE, not_found_view

# A referral code is what marketplace.platform.routes.REFERRAL_CODE_RE accepts
# (1-15 ASCII letters or digits) minus the first segments of real routes and
# of paths the server answers itself, compared case-insensitively: one list,
# routes.RESERVED_SEGMENTS, which also keeps such names from ever becoming a
# user's referral code. "404" and "index" are in it because the backend
# resolves those two paths to other pages (so the capture handler never runs
# for them) while the browser renders this route.
RESERVED_SEGMENTS = routes.RESERVED_SEGMENTS | {NOT_FOUND_ROUTE}


def referral_code_from_path(path: str) -> str | None:
    """The referral code carried by ``path``, or None when it is not one."""
    segment = (path or "").strip("/")
    if not is_valid_referral_code(segment) or segment.lower() in RESERVED_SEGMENTS:
        return None
    return segment


class ReferralCaptureState(AuthState):
    """Stores a referral code taken from a one-segment path."""

    @rx.event
    def capture(self):
        """Keep a valid referral code in session storage and replace the address with /."""
        code = referral_code_from_path(self.router.url.path)
        if code is None:
            return None
        self.referral_code = code
        return rx.redirect(routes.HOME, replace=True)


# ------------------------------------------------------------ client-side view

_PARAMS = "referralRouteParams"
# The segment as React Router matched it for this render (never stale).
_SEGMENT = rx.Var(
    _js_expr=f"({_PARAMS}?.referral_segment ?? '')",
    _var_type=str,
    _var_data=rx.vars.VarData(
        hooks={f"const {_PARAMS} = useParams();": None},
        imports={"react-router": [rx.ImportVar(tag="useParams")]},
    ),
)
# The same rule as referral_code_from_path, evaluated in the browser, so the
# 404 view shows at once for non-codes and never flashes for valid codes.
_IS_REFERRAL_CODE = rx.Var(
    _js_expr=(
        f"((segment) => /{REFERRAL_CODE_RE.pattern}/.test(segment) && "
        f"!{json.dumps(sorted(RESERVED_SEGMENTS))}.includes(segment.toLowerCase()))({_SEGMENT})"
    ),
    _var_type=bool,
    _var_data=_SEGMENT._get_all_var_data(),
)


def pending_view() -> rx.Component:
    """Neutral placeholder while the capture handler stores the code and redirects."""
    return rx.center(
        rx.spinner(size="3"),
        min_height="50vh",
        role="status",
        aria_label="Loading",
    )


@page(route=routes.REFERRAL_CAPTURE, title="Page Not Found", on_load=[ReferralCaptureState.capture])
def referral_capture() -> rx.Component:
    """A spinner for referral codes (until the redirect), the 404 view otherwise."""
    return rx.cond(_IS_REFERRAL_CODE, pending_view(), not_found_view())
