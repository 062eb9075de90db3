"""Outgoing e-mail: always recorded in ``email_outbox``; sent over SMTP when
``SMTP_URL`` is set (``smtp://user:pass@host:587`` uses STARTTLS,
``smtps://...`` implicit TLS), otherwise written to the server log so a local
user can still follow the link."""

from __future__ import annotations

import logging
import smtplib
import ssl
from email.message import EmailMessage
from urllib.parse import unquote, urlparse

from sqlmodel import Session

from marketplace.config import get_settings
from marketplace.models import EmailOutbox, utcnow

log = logging.getLogger("marketplace.mail")


def send_mail(session: Session, to: str, subject: str, body: str) -> EmailOutbox:
    settings = get_settings()
    row = EmailOutbox(to_address=to, subject=subject, body=body)
    session.add(row)
    session.flush()
    if not settings.smtp_url:
        log.warning("E-mail to %s (no SMTP_URL set, kept in email_outbox):\n%s\n%s", to, subject, body)
        print(f"[mail] to={to} subject={subject!r}\n{body}", flush=True)
        return row
    try:
        _smtp_send(settings.smtp_url, settings.mail_from, to, subject, body)
        row.sent_at = utcnow()
    except (OSError, smtplib.SMTPException) as exc:
        log.error("SMTP delivery to %s failed: %s", to, exc)
        row.error = str(exc)
    session.add(row)
    return row


def _smtp_send(url: str, sender: str, to: str, subject: str, body: str) -> None:
    parsed = urlparse(url)
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg.set_content(body)
    if parsed.scheme == "smtps":
        client = smtplib.SMTP_SSL(parsed.hostname, parsed.port or 465, timeout=15, context=ssl.create_default_context())
    else:
        client = smtplib.SMTP(parsed.hostname, parsed.port or 587, timeout=15)
    with client:
        if parsed.scheme == "smtp" and (parsed.port or 587) != 25:
            client.starttls(context=ssl.create_default_context())
        if parsed.username:
            client.login(unquote(parsed.username), unquote(parsed.password or ""))
        client.send_message(msg)
