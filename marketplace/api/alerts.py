"""One-click unsubscribe from saved-search alert e-mails (issue 15, RFC 8058).

``GET /api/alerts/unsubscribe?token=...`` (the link in the e-mail) and ``POST``
to the same URL (what a mail client sends for ``List-Unsubscribe-Post:
List-Unsubscribe=One-Click``) turn e-mail off for the searches the signed token
names, without signing in, and answer a small HTML page. A bad, forged or
expired token (its searches deleted) answers 400 and changes nothing.
"""

from __future__ import annotations

from html import escape

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from marketplace import messages, routes
from marketplace.core.errors import UserError
from marketplace.offloop import run_blocking
from marketplace.services.saved_searches import unsubscribe_email

router = APIRouter()

_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{title} | {app}</title>
<style>
body {{ margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #f8fafc;
       color: #111827; line-height: 1.5; }}
main {{ max-width: 32rem; margin: 12vh auto 0; padding: 2rem 1.5rem; background: #ffffff; border-radius: 12px;
       border: 1px solid #e5e7eb; box-shadow: 0 1px 3px rgba(0, 0, 0, .08); }}
@media (max-width: 34rem) {{ main {{ margin: 1rem; }} }}
.brand {{ font-weight: 700; color: #15803d; margin: 0 0 1rem; }}
h1 {{ font-size: 1.5rem; margin: 0 0 .75rem; }}
p {{ margin: 0 0 1rem; color: #374151; }}
a.button {{ display: inline-block; background: #166534; color: #ffffff; padding: .625rem 1rem; border-radius: 8px;
           text-decoration: none; font-weight: 600; }}
a.button:hover, a.button:focus-visible {{ background: #14532d; }}
a.button:focus-visible {{ outline: 3px solid #86efac; outline-offset: 2px; }}
</style>
</head>
<body>
<main>
<p class="brand">{app}</p>
<h1>{title}</h1>
<p role="status">{message}</p>
{note}<a class="button" href="{manage_url}">{manage}</a>
</main>
</body>
</html>
"""


def quoted_names(names: list[str]) -> str:
    """'A' / 'A' and 'B' / 'A', 'B' and 'C'."""
    quoted = [f"'{name}'" for name in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def page(title: str, message: str, note: str = "", status_code: int = 200) -> HTMLResponse:
    html = _PAGE.format(
        app=escape(routes.APP_NAME), title=escape(title), message=escape(message),
        note=f"<p>{escape(note)}</p>\n" if note else "", manage_url=escape(routes.saved_searches_url()),
        manage=escape(messages.MANAGE_SAVED_SEARCHES),
    )
    return HTMLResponse(html, status_code=status_code, headers={"Cache-Control": "no-store"})


async def _unsubscribe(token: str) -> HTMLResponse:
    try:
        names = await run_blocking(unsubscribe_email, token)
    except UserError as exc:
        return page(exc.title, exc.message, status_code=400)
    return page(messages.UNSUBSCRIBED_TITLE, messages.UNSUBSCRIBED.format(names=quoted_names(names)),
                messages.UNSUBSCRIBED_NOTE)


@router.get(routes.API_ALERTS_UNSUBSCRIBE, include_in_schema=False)
async def unsubscribe_link(token: str = "") -> HTMLResponse:
    return await _unsubscribe(token)


@router.post(routes.API_ALERTS_UNSUBSCRIBE, include_in_schema=False)
async def unsubscribe_one_click(token: str = "") -> HTMLResponse:
    """RFC 8058: the mail client POSTs 'List-Unsubscribe=One-Click' to the header's URL."""
    return await _unsubscribe(token)
