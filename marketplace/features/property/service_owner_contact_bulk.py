"""Find the owners of many unlocked leads at once (the dashboard's bulk owner search).

``quote_bulk(user_id, lead_ids)`` (a read) says what a run would do: which of the selected leads it would
search (``property.rules_owner_contact.bulk_plan``: leads this user unlocked, never searched, or a miss 30 days old),
how many are already searched (a hit, or a miss younger than 30 days: skipped, never charged again), how
many are not this user's (ignored), the price of a hit (``config.skip_trace_price``), the most the run can
cost (searched x price) and the balance.

``find_owners(user_id, lead_ids, provider=None, progress=None, now=None)``:

1. One transaction claims the run: the plan again from this transaction's rows, a balance of at least the
   most the run can cost (else the SPEC's shortfall message), and a ``skip_trace_runs`` row in status
   ``running``. Its partial unique index (one running run per user) refuses a twin request (two tabs, a
   double click, a hand-sent event) with ``BULK_ALREADY_RUNNING``: nothing is searched or charged for it.
   A run left ``running`` for ``STALE_AFTER`` (a server that died mid-run) is closed as failed first.
2. The provider is asked OUTSIDE any transaction, ``BULK_BATCH`` leads a call (BatchData takes many
   requests a call: ``property.source_skip_trace.lookup_many``); ``progress(done, total)`` after each batch. A
   provider failure closes the run as failed: nothing stored, nothing charged.
3. One transaction stores every answer (``skip_trace.store_result``; an answer for a lead that a concurrent
   single search stored meanwhile is dropped, not charged) and charges the hits once:
   ``ledger.apply_credits(-hits x price, "skip_trace_bulk", run id)``, one ledger row (none when nothing was
   found), and closes the run. A balance spent meanwhile makes the ledger refuse: nothing is stored, the run
   fails, and the shortfall message is raised.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from marketplace.platform import texts as msg
from marketplace.platform.config import skip_trace_price
from marketplace.features.property import rules_owner_contact as contact_rules
from marketplace.features.property.rules_owner_contact import ContactResult
from marketplace.platform.texts import shortfall_message
from marketplace.platform.db import read_scope, session_scope
from marketplace.features.property import texts_owner_contact as text
from marketplace.platform.models import Lead, OwnerContact, SkipTraceRun, UserLead
from marketplace.platform import ledger
from marketplace.features.property.service_owner_contact import SkipTraceError, owner_name, store_result
from marketplace.features.scrape import SourceError
from marketplace.features.property.source_skip_trace import SkipTraceProvider, lookup_many, provider_from_settings

log = logging.getLogger("marketplace.skip_trace_bulk")
STALE_AFTER = timedelta(minutes=30)
MAX_INPUT = 1000  # ids a request may carry (a selection is at most the loaded rows; more is junk)


@dataclass(frozen=True)
class BulkQuote:
    selected: int  # distinct ids given
    to_search: tuple[str, ...]  # lead ids the run would search
    already: int  # already searched: skipped, not charged
    refused: int  # not this user's unlocked leads: ignored
    price: int  # credits per hit
    balance: int

    @property
    def max_cost(self) -> int:
        return len(self.to_search) * self.price


@dataclass(frozen=True)
class BulkResult:
    run_id: uuid.UUID | None  # None: nothing needed a search (no run, no charge)
    selected: int
    searched: int  # leads sent to the provider
    hits: int  # owners found and charged
    misses: int
    unanswered: int  # no answer from the provider: not stored, not charged
    skipped: int  # already searched (before the run or by a concurrent search): not charged
    refused: int
    charged: int  # credits charged (the one ledger row's amount)
    balance: int


def quote_bulk(user_id: uuid.UUID | None, lead_ids: object, now: datetime | None = None,
               database_url: str | None = None) -> BulkQuote:
    """What a bulk search of ``lead_ids`` would search and cost (module docstring); a read."""
    _signed_in(user_id)
    now = now or datetime.now(timezone.utc)
    with read_scope(database_url) as session:
        return _quote(session, user_id, lead_ids, now)


def find_owners(user_id: uuid.UUID | None, lead_ids: object, provider: SkipTraceProvider | None = None,
                progress: Callable[[int, int], None] | None = None, now: datetime | None = None,
                database_url: str | None = None) -> BulkResult:
    """Search the owners of the selected unlocked leads and charge the hits once (module docstring)."""
    _signed_in(user_id)
    now = now or datetime.now(timezone.utc)
    run_id, quote, where = _claim(user_id, lead_ids, now, database_url)
    if run_id is None:
        return BulkResult(None, quote.selected, 0, 0, 0, 0, quote.already, quote.refused, 0, quote.balance)
    try:
        answers = _ask(provider, where, progress)
    except Exception:
        _close(run_id, "failed", database_url)
        raise
    for attempt in range(2):  # PostgreSQL: a concurrent single search's row fails the UNIQUE once; redo
        try:
            return _finish(user_id, run_id, quote, where, answers, now, database_url)
        except ledger.InsufficientCredits as exc:
            _close(run_id, "failed", database_url)
            raise SkipTraceError(msg.INSUFFICIENT_CREDITS_TITLE, str(exc)) from None
        except IntegrityError:
            if attempt:
                _close(run_id, "failed", database_url)
                raise
    raise AssertionError("unreachable")


def _signed_in(user_id: uuid.UUID | None) -> None:
    if user_id is None:
        raise SkipTraceError(*msg.NOT_SIGNED_IN)


def _ids(lead_ids: object) -> list[str]:
    """The ids given, as canonical UUID text (junk dropped: it is no lead of this user's either)."""
    given = lead_ids if isinstance(lead_ids, (list, tuple)) else []
    out = []
    for raw in given[:MAX_INPUT]:
        try:
            out.append(str(uuid.UUID(str(raw))) if isinstance(raw, (str, uuid.UUID)) else "")
        except ValueError:
            out.append(f"invalid:{len(out)}")  # counted as refused
    return [i for i in out if i]


def _quote(session: Session, user_id: uuid.UUID, lead_ids: object, now: datetime) -> BulkQuote:
    ids = _ids(lead_ids)
    valid = [uuid.UUID(i) for i in ids if not i.startswith("invalid:")]
    unlocked = {str(v) for v in session.exec(select(UserLead.lead_id).where(
        UserLead.user_id == user_id, UserLead.lead_id.in_(valid)))} if valid else set()
    stored = {str(r.lead_id): (r.status, r.created_at) for r in session.exec(select(OwnerContact).where(
        OwnerContact.user_id == user_id, OwnerContact.lead_id.in_([uuid.UUID(i) for i in unlocked])))} \
        if unlocked else {}
    search, done, refused = contact_rules.bulk_plan(ids, unlocked, stored, now)
    return BulkQuote(len(search) + len(done) + len(refused), tuple(search), len(done), len(refused),
                     skip_trace_price(), ledger.balance(session, user_id))


Where = tuple[str, tuple[str, str, str, str, "str | None"]]  # lead id, (address, city, state, zip, owner)


def _claim(user_id: uuid.UUID, lead_ids: object, now: datetime,
           database_url: str | None) -> tuple[uuid.UUID | None, BulkQuote, list[Where]]:
    try:
        with session_scope(database_url) as session:
            stale = session.exec(select(SkipTraceRun).where(SkipTraceRun.user_id == user_id,
                                                            SkipTraceRun.status == "running")).all()
            for run in stale:
                if _aware(run.created_at) < now - STALE_AFTER:
                    run.status, run.finished_at = "failed", now
                    session.add(run)
            session.flush()
            quote = _quote(session, user_id, lead_ids, now)
            if not quote.to_search:
                return None, quote, []
            if quote.balance < quote.max_cost:
                raise SkipTraceError(msg.INSUFFICIENT_CREDITS_TITLE, shortfall_message(quote.balance, quote.max_cost))
            run = SkipTraceRun(user_id=user_id, status="running", selected=quote.selected,
                               searched=len(quote.to_search), created_at=now)
            session.add(run)
            session.flush()  # a running twin: the partial unique index refuses this row
            leads = {str(lead.id): lead for lead in session.exec(select(Lead).where(
                Lead.id.in_([uuid.UUID(i) for i in quote.to_search])))}
            where = [(i, (leads[i].address, leads[i].city, leads[i].state, leads[i].zip_code,
                          owner_name(session, leads[i]))) for i in quote.to_search if i in leads]
            return run.id, quote, where
    except IntegrityError:
        raise SkipTraceError(*text.BULK_ALREADY_RUNNING) from None


def _ask(provider: SkipTraceProvider | None, where: list[Where],
         progress: Callable[[int, int], None] | None) -> list[ContactResult | None]:
    try:
        chosen = provider if provider is not None else provider_from_settings()
        answers: list[ContactResult | None] = []
        for start in range(0, len(where), contact_rules.BULK_BATCH):
            batch = [item for _, item in where[start:start + contact_rules.BULK_BATCH]]
            answers += lookup_many(chosen, batch)
            if progress is not None:
                progress(len(answers), len(where))
        return answers
    except SourceError as exc:
        log.warning("bulk owner search failed: %s", exc)
        raise SkipTraceError(*msg.SKIP_TRACE_FAILED) from None


def _finish(user_id: uuid.UUID, run_id: uuid.UUID, quote: BulkQuote, where: list[Where],
            answers: Iterable[ContactResult | None], now: datetime, database_url: str | None) -> BulkResult:
    price = quote.price
    with session_scope(database_url) as session:
        ids = [uuid.UUID(i) for i, _ in where]
        rows = {str(r.lead_id): r for r in session.exec(select(OwnerContact).where(
            OwnerContact.user_id == user_id, OwnerContact.lead_id.in_(ids)).with_for_update())}
        hits = misses = unanswered = skipped = 0
        for (lead_id, _), answer in zip(where, answers):
            if answer is None:
                unanswered += 1
                continue
            row = rows.get(lead_id)
            if row is not None and not contact_rules.needs_search(row.status, row.created_at, now):
                skipped += 1  # a concurrent search stored it first: not charged twice
                continue
            store_result(session, user_id, uuid.UUID(lead_id), answer, price, now, row)
            hits, misses = hits + answer.found, misses + (not answer.found)
        session.flush()
        charged = hits * price
        balance = (ledger.apply_credits(session, user_id, -charged, "skip_trace_bulk", str(run_id)) if charged
                   else ledger.balance(session, user_id))
        run = session.get(SkipTraceRun, run_id)
        run.status, run.hits, run.credits_charged, run.finished_at = "done", hits, charged, now
        session.add(run)
        return BulkResult(run_id, quote.selected, len(where), hits, misses, unanswered, quote.already + skipped,
                          quote.refused, charged, balance)


def _close(run_id: uuid.UUID, status: str, database_url: str | None) -> None:
    with session_scope(database_url) as session:
        run = session.get(SkipTraceRun, run_id)
        if run is not None and run.status == "running":
            run.status, run.finished_at = status, datetime.now(timezone.utc)
            session.add(run)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def searched_leads(user_id: uuid.UUID | None, database_url: str | None = None) -> dict[str, tuple[str, datetime]]:
    """lead id -> (status, searched at) of this user's owner searches of leads they hold an unlock record of
    (the dashboard's selection list shows them); a read."""
    if user_id is None:
        return {}
    with read_scope(database_url) as session:
        rows = session.exec(select(OwnerContact.lead_id, OwnerContact.status, OwnerContact.created_at)
                            .join(UserLead, (UserLead.lead_id == OwnerContact.lead_id) & (UserLead.user_id == user_id))
                            .where(OwnerContact.user_id == user_id).limit(MAX_INPUT * 5)).all()
    return {str(lead_id): (status, created_at) for lead_id, status, created_at in rows}
