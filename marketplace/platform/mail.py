"""Outgoing e-mail: always recorded in ``email_outbox``; sent over SMTP when
``SMTP_URL`` is set (``smtp://user:pass@host:587`` uses STARTTLS when offered,
``smtps://...`` implicit TLS). Without SMTP, in development the whole message
is written to the server log so a local user can still follow the link; in
production (``APP_ENV=production``) the log names only the recipient and the
subject: a log must never hold a working sign-in or confirmation link.

``send_mail`` records the mail inside the caller's transaction and sends it after
that transaction commits (never for one that rolls back); ``send_mails`` does the
same for many messages in one INSERT (the saved-search alert digests). Extra
headers (``List-Unsubscribe``...) are kept with the message and sent with it."""

from __future__ import annotations

import email.policy
import logging
import smtplib
import ssl
import threading
from email.message import EmailMessage
from urllib.parse import unquote, urlparse

import sqlalchemy as sa
from sqlalchemy import event
from sqlmodel import Session

from marketplace.platform.config import get_settings
from marketplace.platform.models import EmailOutbox, utcnow

log = logging.getLogger("marketplace.mail")


def send_mail(
    session: Session, to: str, subject: str, body: str, headers: dict | None = None, *, background: bool = False
) -> EmailOutbox:
    """Record the message in the outbox; with SMTP it is delivered after the
    transaction commits, so a slow mail server never holds database locks and a
    rolled-back transaction sends nothing. ``background``: delivered on a thread
    of its own, so the caller's answer does not wait for (and its timing does not
    tell of) the SMTP session: a password reset answers as fast for a registered
    address as for an unknown one, which is sent nothing."""
    settings = get_settings()
    row = EmailOutbox(to_address=to, subject=subject, body=body, headers=headers or None)
    session.add(row)
    session.flush()
    if not settings.smtp_url:
        if settings.is_production:
            log.warning("E-mail to %s not sent (no SMTP_URL set; kept in email_outbox): %s", to, subject)
        else:
            log.warning("E-mail to %s (no SMTP_URL set, kept in email_outbox): %s\n%s", to, subject, body)
            print(f"[mail] to={to} subject={subject!r}\n{body}", flush=True)
        return row
    outbox_id = row.id
    if background:
        event.listen(session, "after_commit", lambda _s: threading.Thread(
            target=_deliver_all, args=([outbox_id],), name="lv-mail").start(), once=True)
    else:
        event.listen(session, "after_commit", lambda _s: deliver(outbox_id), once=True)
    return row


def record_mail(session: Session, to: str, subject: str, body: str) -> EmailOutbox:
    """Record a message in the outbox only, inside the caller's transaction, for a caller whose session
    does not own the transaction's commit (``unlock.service_refunds``: its ``deliver_mail`` sends them after)."""
    row = EmailOutbox(to_address=to, subject=subject, body=body, headers=None)
    session.add(row)
    session.flush()
    return row


def send_mails(session: Session, mails: list[dict]) -> list[int]:
    """Record many messages (dicts of to_address, subject, body, headers) in one INSERT inside
    the caller's transaction; their outbox ids in the same order. Delivered after the commit
    like ``send_mail`` (without SMTP they stay in the outbox, logged by count only)."""
    if not mails:
        return []
    settings = get_settings()
    now = utcnow()
    rows = [{"to_address": m["to_address"], "subject": m["subject"], "body": m["body"],
             "headers": m.get("headers") or None, "created_at": now} for m in mails]
    outbox = EmailOutbox.__table__
    ids = list(session.connection().execute(
        sa.insert(outbox).returning(outbox.c.id, sort_by_parameter_order=True), rows).scalars())
    if not settings.smtp_url:
        log.warning("%d e-mails kept in email_outbox (no SMTP_URL set)", len(ids))
        return ids
    # Delivered one by one on a thread of their own: a refresh (or the explorer's button) does not
    # wait for thousands of SMTP sessions. Not a daemon: a CLI run waits for it before exiting.
    event.listen(session, "after_commit", lambda _s: threading.Thread(
        target=_deliver_all, args=(ids,), name="lv-mail-batch").start(), once=True)
    return ids


def _deliver_all(ids: list[int]) -> None:
    for outbox_id in ids:
        try:
            deliver(outbox_id)
        except Exception:  # noqa: BLE001 - one bad row must not stop the others
            log.exception("delivering e-mail %s failed", outbox_id)


def deliver(outbox_id: int) -> bool:
    """Send one outbox message over SMTP and record the outcome."""
    from marketplace.platform.db import session_scope

    settings = get_settings()
    with session_scope() as session:
        row = session.get(EmailOutbox, outbox_id)
        if row is None or row.sent_at is not None or not settings.smtp_url:
            return False
        to, subject, body, headers = row.to_address, row.subject, row.body, row.headers
    error = None
    try:
        _smtp_send(settings.smtp_url, settings.mail_from, to, subject, body, headers)
    except (OSError, smtplib.SMTPException) as exc:
        log.error("SMTP delivery to %s failed: %s", to, exc)
        error = str(exc)
    with session_scope() as session:
        row = session.get(EmailOutbox, outbox_id)
        row.sent_at = None if error else utcnow()
        row.error = error
        session.add(row)
    return error is None


def _smtp_send(url: str, sender: str, to: str, subject: str, body: str, headers: dict | None = None) -> None:
    parsed = urlparse(url)
    # Lines up to RFC 5322's 998 characters: a long List-Unsubscribe URL must stay one plain
    # header (folded at 78 it would become RFC 2047 encoded words no mail client follows).
    msg = EmailMessage(policy=email.policy.default.clone(max_line_length=998))
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(body)
    if parsed.scheme == "smtps":
        client = smtplib.SMTP_SSL(parsed.hostname, parsed.port or 465, timeout=15, context=ssl.create_default_context())
    else:
        client = smtplib.SMTP(parsed.hostname, parsed.port or 587, timeout=15)
    with client:
        client.ehlo()
        if parsed.scheme == "smtp" and client.has_extn("starttls"):
            client.starttls(context=ssl.create_default_context())
            client.ehlo()
        if parsed.username:
            client.login(unquote(parsed.username), unquote(parsed.password or ""))
        client.send_message(msg)
