"""The batch path's writes: a re-import of unchanged records writes no row, one changed record rewrites
its signal and its lead only, and a batch whose merge of changed rows fails in the database (a row the
database refuses) leaves nothing of itself."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
import sqlalchemy as sa

from marketplace.platform.db import get_engine
from marketplace.platform.models import DatasetRun, Lead, Property, PropertySignal
from marketplace.features.records import service as public_records, service_leads as record_leads
from marketplace.features.records.rules import MappedRecord
from tests.features.records.test_public_records import DS, TAX, TODAY, ingest, rows, tax

# Tables a run writes whatever its records: its own run row (and heartbeat), the queue, temporary tables.
BOOKKEEPING = ("dataset_runs", "record_jobs", "ingest_seen")


def taxes(n: int, start: int = 0, **changed_amounts):
    return [tax(f"{100_000_000 + i}", address=f"{1000 + i} FRANKFORD AVE", zip_code="19125",
                amount=changed_amounts.get(f"r{i}", 12_400))
            for i in range(start, start + n)]


def snapshot(url) -> dict:
    return {t.__name__: sorted(rows(url, t), key=lambda r: str(r.id)) for t in (Property, PropertySignal, Lead)}


@pytest.fixture()
def writes():
    """The record tables each INSERT, UPDATE or DELETE that wrote a row wrote to while the test runs (a
    statement that matched no row, such as the closing of unseen signals when all were seen, writes none)."""
    seen: list[str] = []

    def record(conn, cursor, statement, parameters, context, executemany):
        words = statement.split()
        verb = words[0].upper()
        if verb in ("INSERT", "UPDATE", "DELETE"):
            table = words[1 if verb == "UPDATE" else 2].strip('"')
            if table not in BOOKKEEPING and cursor.rowcount != 0:
                seen.append(table)

    sa.event.listen(sa.engine.Engine, "after_cursor_execute", record)
    yield seen
    sa.event.remove(sa.engine.Engine, "after_cursor_execute", record)


@pytest.fixture()
def recomputed(monkeypatch) -> list[set[int]]:
    """The property ids of each call of the leads' step (``records.service_leads.materialise``)."""
    calls: list[set[int]] = []
    real = record_leads.materialise

    def counting(conn, property_ids, *args, **kw):
        calls.append(set(property_ids))
        return real(conn, property_ids, *args, **kw)

    monkeypatch.setattr(record_leads, "materialise", counting)
    return calls


def test_reimporting_unchanged_records_writes_no_row(db_url, writes):
    ingest(TAX, taxes(5))
    before = snapshot(db_url)
    writes.clear()
    again = ingest(TAX, taxes(5))
    assert (again.status, again.unchanged, again.added, again.updated, again.leads_updated) == ("ok", 5, 0, 0, 0)
    assert writes == []
    assert snapshot(db_url) == before  # updated_at, last_seen_at and the leads' values included


def test_one_changed_record_rewrites_its_signal_and_lead_only(db_url, writes, recomputed):
    ingest(TAX, taxes(5))
    before = snapshot(db_url)
    recomputed.clear()
    writes.clear()
    again = ingest(TAX, taxes(5, r3=13_000))
    assert (again.unchanged, again.updated, again.leads_updated) == (4, 1, 1)
    after = snapshot(db_url)
    changed = {name: [r for r in after[name] if r not in before[name]] for name in after}
    assert [s.amount_owed for s in changed["PropertySignal"]] == [13_000]
    (lead,) = changed["Lead"]
    assert lead.property_id == changed["PropertySignal"][0].property_id
    assert changed["Property"] == []
    # Only the changed property's lead was computed again: one property in all the run's lead steps.
    assert set().union(*recomputed) == {lead.property_id}
    # One write of the signal, one of the lead, then the marketplace's filter facets (a lead changed).
    assert writes[:2] == ["property_signals", "leads"] and set(writes[2:]) == {"lead_facets"}


def _refuse_amount(conn, amount: int) -> None:
    """A database rule that refuses a signal updated to ``amount`` (a trigger: the row itself fails)."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(
            "CREATE FUNCTION refuse_amount() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"IF NEW.amount_owed = {amount} THEN RAISE EXCEPTION 'amount refused'; END IF; RETURN NEW; END $$")
        conn.exec_driver_sql("CREATE TRIGGER refuse_amount BEFORE UPDATE ON property_signals "
                             "FOR EACH ROW EXECUTE FUNCTION refuse_amount()")
    else:
        conn.exec_driver_sql(f"CREATE TRIGGER refuse_amount BEFORE UPDATE ON property_signals "
                             f"WHEN NEW.amount_owed = {amount} BEGIN SELECT RAISE(ABORT, 'amount refused'); END")


def _allow_amounts(conn) -> None:
    conn.exec_driver_sql("DROP TRIGGER IF EXISTS refuse_amount" +
                         (" ON property_signals" if conn.dialect.name == "postgresql" else ""))
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("DROP FUNCTION IF EXISTS refuse_amount()")


def test_a_batch_whose_merge_fails_in_the_database_leaves_nothing_of_itself(db_url):
    ingest(TAX, taxes(4))
    before = snapshot(db_url)
    engine = get_engine(db_url)
    with engine.begin() as conn:
        _refuse_amount(conn, 66_666)
    try:
        # One batch: a new property and its signal (written first), a changed signal that merges, then the
        # refused one in the same merge.
        with pytest.raises(sa.exc.DatabaseError, match="amount refused"):
            ingest(TAX, [*taxes(4, r0=55_555, r2=66_666), *taxes(1, start=10)], full=False)
    finally:
        with engine.begin() as conn:
            _allow_amounts(conn)
    assert snapshot(db_url) == before
    assert not rows(db_url, Property, Property.__table__.c.parcel_id == "100000010")
    runs = sorted(rows(db_url, DatasetRun), key=lambda r: r.id)
    assert [r.status for r in runs] == ["ok", "failed"]
    assert "amount refused" in runs[-1].error
    # With the rule gone the same batch goes in whole.
    again = ingest(TAX, [*taxes(4, r0=55_555, r2=66_666), *taxes(1, start=10)], full=False)
    assert (again.added, again.updated, again.unchanged) == (1, 2, 2)


def test_new_properties_whose_records_are_history_are_not_read_back_for_leads(db_url, recomputed):
    """A new property whose every record is history (older than its dataset's maximum age) can make no
    lead: the lead step never reads it back; the current record's property gets its lead."""
    old = [tax(f"{200_000_000 + i}", address=f"{2000 + i} FRANKFORD AVE", zip_code="19125",
               as_of=TODAY - timedelta(days=TAX.max_age_days + 1)) for i in range(3)]
    summary = ingest(TAX, [*old, tax()])
    assert (summary.added, summary.history, summary.leads_added) == (4, 3, 1)
    (lead,) = rows(db_url, Lead)
    assert set().union(*recomputed) == {lead.property_id}
    assert len(rows(db_url, Property)) == 4 and len(rows(db_url, PropertySignal)) == 4


def test_a_history_record_of_a_parcel_sold_since_is_closed_by_its_sale(db_url):
    """A new property a recorded sale names is read back all the same: the lead step closes the signal the
    sale shows a new owner after ("sold on ... (recorded sale)"), history or not."""
    sales = DS("phl-rtt-summary", "Real Estate Transfers", publisher="Philadelphia Department of Records")
    sold = MappedRecord(dataset_id=sales.id, record_key="deed-1", kind="recorded_sale", as_of=date(2025, 6, 2),
                        address="5818 WOODCREST AVE", state="PA", zip_code="19131", parcel_id="522145900",
                        sale_price=180_000, sale_date=date(2025, 6, 2))
    assert public_records.ingest(sales, [sold], mode="file", today=TODAY).added == 1
    summary = ingest(TAX, [tax(as_of=date(2025, 1, 1))])
    assert (summary.added, summary.history, summary.leads_added) == (1, 1, 0)
    (signal,) = rows(db_url, PropertySignal)
    assert (signal.status, signal.closed_reason) == ("closed", "sold on 2025-06-02 (recorded sale)")
