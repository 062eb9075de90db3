"""One-click unsubscribe from saved-search alert e-mails.

``GET /api/alerts/unsubscribe?token=...`` (the link in the e-mail) answers a
page that names the searches and asks, with one button: mail scanners and link
previews follow links, and must not unsubscribe anyone. ``POST`` to the same
URL does it: the page's button (``action=off``; the page then offers
``action=on`` to undo) and a mail client's ``List-Unsubscribe=One-Click``
(``List-Unsubscribe-Post``). No sign-in either way. A bad, forged or expired
token (its searches deleted) answers 400 and changes nothing.
"""

from __future__ import annotations

from html import escape

from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from marketplace.platform import texts as messages, routes
from marketplace.platform.errors import UserError
from marketplace.platform.offloop import run_blocking
from marketplace.features.marketplace.service_saved_searches import unsubscribe_email

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
.brand {{ font-weight: 700; color: #3451b2; margin: 0 0 1rem; }}
h1 {{ font-size: 1.5rem; margin: 0 0 .75rem; }}
p {{ margin: 0 0 1rem; color: #374151; }}
.actions {{ display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; }}
form {{ margin: 0; }}
.button {{ display: inline-block; background: #3e63dd; color: #ffffff; padding: .625rem 1rem; border-radius: 8px;
          border: 0; font: inherit; font-weight: 600; text-decoration: none; cursor: pointer; }}
.button:hover, .button:focus-visible {{ background: #3451b2; }}
.button.quiet {{ background: #eef1fd; color: #3451b2; }}
.button.quiet:hover, .button.quiet:focus-visible {{ background: #e0e6fb; }}
.button:focus-visible {{ outline: 3px solid #9eb1ff; outline-offset: 2px; }}
</style>
</head>
<body>
<main>
<p class="brand">{app}</p>
<h1>{title}</h1>
<p role="status">{message}</p>
{note}<div class="actions">{form}<a class="button{manage_class}" href="{manage_url}">{manage}</a></div>
</main>
</body>
</html>
"""


def quoted_names(names: list[str]) -> str:
    """'A' / 'A' and 'B' / 'A', 'B' and 'C'."""
    quoted = [f"'{name}'" for name in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def page(title: str, message: str, note: str = "", status_code: int = 200,
         token: str = "", action: str = "", button: str = "") -> HTMLResponse:
    """The page; with ``action`` a form that POSTs it (with the token) to this URL."""
    form = ""
    if action:
        form = (f'<form method="post" action="{escape(routes.alerts_unsubscribe_url(token))}">'
                f'<input type="hidden" name="action" value="{escape(action)}">'
                f'<button class="button" type="submit">{escape(button)}</button></form>')
    html = _PAGE.format(
        app=escape(routes.APP_NAME), title=escape(title), message=escape(message),
        note=f"<p>{escape(note)}</p>\n" if note else "", form=form, manage_class=" quiet" if form else "",
        manage_url=escape(routes.saved_searches_url()), manage=escape(messages.MANAGE_SAVED_SEARCHES),
    )
    return HTMLResponse(html, status_code=status_code, headers={"Cache-Control": "no-store"})


async def _answer(token: str, enabled: bool | None) -> HTMLResponse:
    try:
        names = quoted_names(await run_blocking(unsubscribe_email, token, enabled))
    except UserError as exc:
        return page(exc.title, exc.message, status_code=400)
    if enabled is None:
        return page(messages.UNSUBSCRIBE_ASK_TITLE, messages.UNSUBSCRIBE_ASK.format(names=names),
                    token=token, action="off", button=messages.UNSUBSCRIBE_BUTTON)
    if enabled:
        return page(messages.RESUBSCRIBED_TITLE, messages.RESUBSCRIBED.format(names=names))
    return page(messages.UNSUBSCRIBED_TITLE, messages.UNSUBSCRIBED.format(names=names),
                messages.UNSUBSCRIBED_NOTE, token=token, action="on", button=messages.RESUBSCRIBE_BUTTON)


@router.get(routes.API_ALERTS_UNSUBSCRIBE, include_in_schema=False)
async def unsubscribe_link(token: str = "") -> HTMLResponse:
    """The e-mail's link: names the searches and asks (changes nothing)."""
    return await _answer(token, None)


@router.post(routes.API_ALERTS_UNSUBSCRIBE, include_in_schema=False)
async def unsubscribe_one_click(request: Request, token: str = "") -> HTMLResponse:
    """The page's buttons (action=off / action=on) and RFC 8058's one-click POST
    ('List-Unsubscribe=One-Click', or an empty body from a simpler client): off unless 'on'."""
    form = parse_qs((await request.body()).decode("utf-8", "replace"))
    return await _answer(token, (form.get("action") or [""])[0] == "on")
