"""The county-record guarantee's refunds (issue 38, item 5; the rules are ``unlock.rules_guarantee``'s).

``refund_contradicted(conn, leads, titles, max_ages)`` runs inside the caller's transaction, and is called by
``records.service_leads.materialise`` for every public-record lead it finds without a current signal, in
the transaction that archives it: so every path that archives a public-record lead (a file import, an API
pull, the next run's repair of a run killed between closing and archiving, the daily rescore that closes
held sales) refunds in that same transaction, and an already archived lead is looked at again whenever its
property is (a held sale closed by the rescore after another dataset's run archived the lead). For each
purchase of those leads (a ``user_leads`` row: an unlock with credits, or a lead a bulk scrape or the
webhook delivered, at its per-lead price) not refunded yet, that charged credits, whose account is live:

1. ``unlock.rules_guarantee.refund_due`` decides from the property's signals (open and closed);
2. the purchase is claimed with ``UPDATE user_leads SET refunded_at = now ... WHERE id = :id AND
   refunded_at IS NULL`` (on PostgreSQL a concurrent run's claim waits for this one's commit, then finds
   the row refunded and skips it; SQLite serialises writers);
3. the credits come back through ``ledger.apply_credits`` (reason 'refund', reference ``user_lead:<id>``:
   the ledger's UNIQUE (user_id, reason, reference_id) refuses a second refund of the purchase whatever
   happens to the claim);
4. a bell notification (kind 'refund', UNIQUE per purchase) and an e-mail in ``email_outbox`` say so:
   '120 credits back: the vacancy notice at 123 Main St left Baltimore City's open list on Nov 28, 2026'.

What a purchase charged is its ``credit_cost``: an unlock's price, a scrape's per-lead price (the scrape's
credits divided by the leads it delivered, rounded down: ``scrape.service.store``; the volume tiers make
it exact, and rounding down keeps a scrape's refunds at or under its charge). A super admin's webhook
delivery and a subscription unlock charged no credits: nothing to give back. A generated (demo) lead has no
property: only public-record leads are ever refunded.

The e-mail is recorded with the refund; with SMTP it is sent by ``deliver_mail`` after the transaction
(``records.service`` calls it at the end of every run and rescore).
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlmodel import Session

from marketplace.platform import bulk_rows
from marketplace.platform import routes
from marketplace.platform.config import get_settings, guarantee_days
from marketplace.features.unlock import rules_guarantee as guarantee
from marketplace.features.records import rules_signal_currency as signal_currency
from marketplace.features.records import display_street
from marketplace.platform.times import format_date
from marketplace.features.unlock import texts_guarantee as text
from marketplace.platform.models import EmailOutbox, Lead, Notification, PropertySignal, User, UserLead, utcnow
from marketplace.platform import ledger, mail

log = logging.getLogger("marketplace.refunds")

user_leads_t = UserLead.__table__
signals_t = PropertySignal.__table__
leads_t = Lead.__table__
users_t = User.__table__
notifications_t = Notification.__table__
outbox_t = EmailOutbox.__table__

REASON = "refund"


def reference(user_lead_id: int) -> str:
    """The ledger reference of a purchase's refund: one per purchase (the ledger's unique key)."""
    return f"user_lead:{user_lead_id}"


@dataclass(frozen=True)
class Refund:
    user_lead_id: int
    user_id: uuid.UUID
    lead_id: uuid.UUID
    credits: int
    reason: str
    balance: int


def _chunks(values: list) -> list[list]:
    return [values[i:i + bulk_rows.IN_CHUNK] for i in range(0, len(values), bulk_rows.IN_CHUNK)]


def _place(dataset_id: str, titles: Callable[[str], tuple[str, str]]) -> str:
    """Whose list a dataset is: its market's county ('Baltimore City'), else its publisher."""
    from marketplace.features.records import list_place

    return list_place(dataset_id, titles(dataset_id)[1])


def refund_contradicted(conn: Connection, leads: dict[uuid.UUID, int], titles: Callable[[str], tuple[str, str]],
                        max_ages: Callable[[str], int | None], now: datetime | None = None) -> list[Refund]:
    """Refund the purchases of ``leads`` (lead id -> property id: leads left without a current signal) that
    the county contradicted within ``GUARANTEE_DAYS`` (module docstring), in the caller's transaction."""
    if not leads:
        return []
    now = now or utcnow()
    days = guarantee_days()
    lead_ids = sorted(leads)
    unlocks = []
    for chunk in _chunks(lead_ids):
        unlocks += conn.execute(
            sa.select(user_leads_t.c.id, user_leads_t.c.user_id, user_leads_t.c.lead_id, user_leads_t.c.unlocked_at,
                      user_leads_t.c.credit_cost, users_t.c.email)
            .join(users_t, users_t.c.id == user_leads_t.c.user_id)
            .where(user_leads_t.c.lead_id.in_(chunk), user_leads_t.c.refunded_at.is_(None),
                   user_leads_t.c.credit_cost > 0, users_t.c.deleted_at.is_(None))).all()
    if not unlocks:
        return []
    properties = sorted({leads[u.lead_id] for u in unlocks})
    signals: dict[int, list[Any]] = {}
    for chunk in _chunks(properties):
        for s in conn.execute(sa.select(signals_t.c.id, signals_t.c.property_id,
                                        *(signals_t.c[name] for name in signal_currency.READS),
                                        signals_t.c.first_seen_at, signals_t.c.closed_at, signals_t.c.closed_reason)
                              .where(signals_t.c.property_id.in_(chunk),
                                     signals_t.c.kind.in_(sorted(guarantee.LEAD_KINDS)))):
            signals.setdefault(s.property_id, []).append(s)
    addresses = {}
    for chunk in _chunks(sorted({u.lead_id for u in unlocks})):
        addresses.update(conn.execute(sa.select(leads_t.c.id, leads_t.c.address).where(leads_t.c.id.in_(chunk))).all())
    done: list[Refund] = []
    session = Session(bind=conn)  # joins the caller's transaction: the ledger's function takes a Session
    try:
        for u in sorted(unlocks, key=lambda u: (str(u.user_id), u.id)):  # one lock order for every run
            closing = guarantee.refund_due(signals.get(leads[u.lead_id], []), u.unlocked_at, max_ages, days)
            if closing is None:
                continue
            address = display_street(addresses.get(u.lead_id) or "") or "your lead's address"
            reason = guarantee.reason_sentence(closing, address, _place(closing.dataset_id, titles))[:255]
            claimed = conn.execute(
                sa.update(user_leads_t)
                .where(user_leads_t.c.id == u.id, user_leads_t.c.refunded_at.is_(None))
                .values(refunded_at=now, refund_credits=u.credit_cost, refund_reason=reason)
                .returning(user_leads_t.c.id)).first()
            if claimed is None:
                continue  # a concurrent run refunded it first
            try:
                balance = ledger.apply_credits(session, u.user_id, u.credit_cost, REASON, reference_id=reference(u.id))
            except ledger.ProfileNotFound:  # a live account always has one; never a claim without its credits
                log.warning("refund of purchase %s skipped: user %s has no profile", u.id, u.user_id)
                conn.execute(sa.update(user_leads_t).where(user_leads_t.c.id == u.id)
                             .values(refunded_at=None, refund_credits=None, refund_reason=None))
                continue
            refund = Refund(u.id, u.user_id, u.lead_id, u.credit_cost, reason, balance)
            _tell(session, refund, u.email, u.unlocked_at, days)
            done.append(refund)
        session.flush()
    finally:
        session.close()
    if done:
        log.info("refunded %d purchase(s): %s", len(done), ", ".join(str(r.user_lead_id) for r in done))
    return done


def _tell(session: Session, refund: Refund, email: str, unlocked_at: datetime, days: int) -> None:
    """The bell's notification and the e-mail (recorded in ``email_outbox``)."""
    line = guarantee.refund_line(refund.credits, refund.reason)
    note = text.REFUND_NOTE.format(days=days, unlocked=format_date(unlocked_at, "UTC"))
    url = get_settings().public_url + routes.dashboard_tab_url("unlocked")
    outbox = mail.record_mail(session, email, line,
                              text.REFUND_MAIL_BODY.format(line=line, note=note, balance=refund.balance, url=url))
    session.add(Notification(user_id=refund.user_id, refresh_run_id=None, kind=REASON, user_lead_id=refund.user_lead_id,
                             lead_count=0, outbox_id=outbox.id,
                             matches={"line": line, "note": note, "credits": refund.credits,
                                      "lead_id": str(refund.lead_id)}))


def deliver_mail(database_url: str | None = None) -> int:
    """With SMTP: send the refund e-mails recorded but not sent yet (not those that failed once); returns how
    many were tried. Without SMTP they stay in ``email_outbox``."""
    if not get_settings().smtp_url:
        return 0
    from marketplace.platform.db import read_scope

    with read_scope(database_url) as session:
        ids = list(session.connection().execute(
            sa.select(outbox_t.c.id).join(notifications_t, notifications_t.c.outbox_id == outbox_t.c.id)
            .where(notifications_t.c.kind == REASON, outbox_t.c.sent_at.is_(None), outbox_t.c.error.is_(None))
            .order_by(outbox_t.c.id)).scalars())
    for outbox_id in ids:
        try:
            mail.deliver(outbox_id)
        except Exception:  # noqa: BLE001 - one bad message must not stop the others
            log.exception("delivering refund e-mail %s failed", outbox_id)
    return len(ids)
