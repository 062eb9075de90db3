"""Credits back when the county's next record contradicts a lead (issue 38, item 5: unlock.service_refunds)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import date, timedelta

import pytest
import sqlalchemy as sa

from marketplace.platform.config import ConfigError, guarantee_days
from marketplace.features.scrape import rules as scrape_rules
from marketplace.features.records.rules import MappedRecord
from marketplace.platform.times import format_date
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import CreditLedger, EmailOutbox, Lead, PropertySignal, UserLead, utcnow
from marketplace.features.dashboard import service as dashboard
from marketplace.platform import ledger
from marketplace.features.marketplace import service_notifications as notifications
from marketplace.features.records import service as public_records, service_leads as record_leads
from marketplace.features.scrape import service as scrapes
from marketplace.features.unlock import service as unlocks
from tests.factories import make_user


@dataclass(frozen=True)
class DS:
    id: str
    title: str
    publisher: str
    state: str = "MD"
    max_age_days: int = 400


VACANT = DS("bal-vacant-building-notices", "Vacant Building Notices", "Baltimore City DHCD")
TAX = DS("bal-tax-sale-bidbaltimore", "Tax Sale (BidBaltimore)", "Baltimore City Finance")
SALES = DS("bal-recorded-sales-test", "Recorded Sales", "Maryland SDAT")
TITLES = public_records.dataset_titles([VACANT, TAX, SALES])
START = utcnow() - timedelta(days=10)  # the first list was read ten days ago
NOTICE = START.date() - timedelta(days=200)


def vacant(key="V1", address="123 MAIN ST", zip_code="21201", parcel="0001-001", **kw) -> MappedRecord:
    fields = dict(dataset_id=VACANT.id, record_key=key, kind="vacant", as_of=NOTICE, notice_date=NOTICE,
                  address=address, city="BALTIMORE", state="MD", zip_code=zip_code, parcel_id=parcel)
    fields.update(kw)
    return MappedRecord(**fields)


OTHER = vacant("V2", address="9 ELM ST", parcel="0002-002")


def ingest(dataset, records, when=None):
    when = when or utcnow()
    # These lists hold two or three records: one leaving is more than the 20% a full read may drop unasked
    # (a cut file closes nothing), so the reads say the list did shrink (import-records --allow-drop).
    return public_records.ingest(dataset, list(records), mode="file", retrieved_at=when, today=when.date(),
                                 titles=TITLES, allow_drop=True)


def table(url, model, *where):
    with get_engine(url).connect() as conn:
        return conn.execute(sa.select(model.__table__).where(*where)).all()


def lead_at(url, address):
    return next(r for r in table(url, Lead) if r.address == address)


def books(url, user_id):
    """(balance, ledger sum, the user's refund rows as (delta, reference))."""
    with session_scope(url) as s:
        refunds = [(r.delta, r.reference_id) for r in ledger.history(s, user_id, limit=100) if r.reason == "refund"]
        return ledger.balance(s, user_id), ledger.ledger_sum(s, user_id), refunds


def unlock_main(url, credits=1000):
    ingest(VACANT, [vacant(), OTHER], when=START)
    lead = lead_at(url, "123 MAIN ST")
    user = make_user(url, credits=credits, email=f"buyer-{lead.id.hex[:8]}@example.com")
    unlocks.unlock_lead(user.id, lead.id, database_url=url)
    return user, lead


def test_a_full_reimport_without_the_item_refunds_the_unlock_once(db_url):
    user, lead = unlock_main(db_url)
    cost = lead.credit_cost
    unlock = table(db_url, UserLead)[0]
    assert books(db_url, user.id) == (1000 - cost, 1000 - cost, [])

    first = ingest(VACANT, [OTHER])
    assert (first.closed, first.archived) == (1, 1)
    today = format_date(utcnow().date(), "UTC")
    reason = f"the vacancy notice at 123 Main St left Baltimore City's open list on {today}"
    assert books(db_url, user.id) == (1000, 1000, [(cost, f"user_lead:{unlock.id}")])
    row = table(db_url, UserLead)[0]
    assert (row.refund_credits, row.refund_reason) == (cost, reason) and row.refunded_at is not None

    # Re-imported again and again, brought back and closed once more: never a second refund.
    ingest(VACANT, [OTHER])
    ingest(VACANT, [OTHER])
    ingest(VACANT, [vacant(), OTHER])
    assert lead_at(db_url, "123 MAIN ST").is_active
    ingest(VACANT, [OTHER])
    assert books(db_url, user.id) == (1000, 1000, [(cost, f"user_lead:{unlock.id}")])
    assert len(table(db_url, CreditLedger, CreditLedger.__table__.c.reason == "refund")) == 1

    # The bell and the e-mail, in so many words.
    line = f"{cost} credits back: {reason}"
    bell = notifications.list_notifications(user.id)
    assert [(n.title, n.url, n.read) for n in bell] == [(line, "/dashboard?tab=unlocked", False)]
    assert bell[0].body == ("Refunded automatically: the county's own record contradicted the lead within 30 days "
                            f"of your unlock on {format_date(unlock.unlocked_at, 'UTC')}.")
    mails = table(db_url, EmailOutbox, EmailOutbox.__table__.c.to_address == user.email)
    assert [m.subject for m in mails] == [line]
    assert mails[0].body.startswith(line + ".\n\n")
    assert f"Your balance is now 1,000 credits." in mails[0].body

    # The dashboard lists the lead as Closed, with the county's reason and the credits back.
    with session_scope(db_url) as s:
        listed = dashboard.unlocked_leads(s, user.id)
    assert [(r.address, r.closed_reason, r.credits_back) for r in listed] == [("123 Main St", reason, cost)]
    from marketplace.features.dashboard.state import unlocked_row

    shown = unlocked_row(listed[0], "UTC")
    assert (shown["closed"], shown["closed_reason"], shown["credits_back"], shown["archived"]) == (
        "yes", reason, f"{cost} credits back", "")


def test_an_unlock_older_than_the_guarantee_gets_nothing(db_url):
    user, lead = unlock_main(db_url)
    long_ago = utcnow() - timedelta(days=31)
    with get_engine(db_url).begin() as conn:
        conn.execute(sa.update(UserLead.__table__).values(unlocked_at=long_ago))
        conn.execute(sa.update(PropertySignal.__table__).values(first_seen_at=long_ago - timedelta(days=1)))
    before = books(db_url, user.id)
    assert ingest(VACANT, [OTHER]).archived == 1
    assert books(db_url, user.id) == before and before[2] == []
    assert table(db_url, UserLead)[0].refunded_at is None


def test_a_lead_with_a_second_current_signal_is_not_refunded_until_that_closes_too(db_url):
    ingest(TAX, [MappedRecord(dataset_id=TAX.id, record_key="T1", kind="sale_list", sale_type="tax",
                              as_of=START.date() - timedelta(days=5), sale_date=START.date() + timedelta(days=60),
                              address="123 MAIN ST", state="MD", zip_code="21201", parcel_id="0001-001"),
                 MappedRecord(dataset_id=TAX.id, record_key="T2", kind="sale_list", sale_type="tax",
                              as_of=START.date() - timedelta(days=5), sale_date=START.date() + timedelta(days=60),
                              address="9 ELM ST", state="MD", zip_code="21201", parcel_id="0002-002")], when=START)
    user, lead = unlock_main(db_url)
    before = books(db_url, user.id)
    assert ingest(VACANT, [OTHER]).closed == 1
    assert lead_at(db_url, "123 MAIN ST").is_active  # still on the tax sale list
    assert books(db_url, user.id) == before
    # The tax sale list drops it too (the taxes were paid): now every signal that made it is closed.
    ingest(TAX, [MappedRecord(dataset_id=TAX.id, record_key="T2", kind="sale_list", sale_type="tax",
                              as_of=START.date() - timedelta(days=5), sale_date=START.date() + timedelta(days=60),
                              address="9 ELM ST", state="MD", zip_code="21201", parcel_id="0002-002")])
    balance, ledger_sum, refunds = books(db_url, user.id)
    assert balance == ledger_sum == 1000 and [delta for delta, _ in refunds] == [lead.credit_cost]
    reason = table(db_url, UserLead)[0].refund_reason
    assert reason == (f"the tax sale at 123 Main St was taken off Baltimore City's sale list on "
                      f"{format_date(utcnow().date(), 'UTC')}")


def test_a_lead_archived_because_its_list_aged_is_not_refunded(db_url):
    user, lead = unlock_main(db_url)
    before = books(db_url, user.id)
    # Nobody pulled the list again: 400 days on, the notice is history and the lead archived, not refunded.
    result = public_records.rescore_leads(NOTICE + timedelta(days=401), titles=TITLES)
    assert result["archived"] == 2
    assert not lead_at(db_url, "123 MAIN ST").is_active
    assert books(db_url, user.id) == before
    assert notifications.list_notifications(user.id) == []


def test_a_recorded_sale_to_a_new_owner_closes_the_signal_and_refunds(db_url):
    user, lead = unlock_main(db_url)
    sold = utcnow().date() - timedelta(days=3)
    sale = MappedRecord(dataset_id=SALES.id, record_key="S1", kind="recorded_sale", as_of=sold, address="123 MAIN ST",
                        state="MD", zip_code="21201", parcel_id="0001-001", sale_price=85_000, sale_date=sold)
    token = MappedRecord(dataset_id=SALES.id, record_key="S0", kind="recorded_sale", as_of=sold, address="9 ELM ST",
                         state="MD", zip_code="21201", parcel_id="0002-002", sale_price=10, sale_date=sold)
    ingest(SALES, [token])  # a $10 deed is no new owner who bought
    assert lead_at(db_url, "9 ELM ST").is_active
    ingest(SALES, [token, sale])
    signal = next(s for s in table(db_url, PropertySignal) if s.record_key == "V1")
    assert (signal.status, signal.closed_reason) == ("closed", f"sold on {sold.isoformat()} (recorded sale)")
    assert not lead_at(db_url, "123 MAIN ST").is_active
    assert books(db_url, user.id)[:2] == (1000, 1000)
    assert table(db_url, UserLead)[0].refund_reason == f"123 Main St sold on {format_date(sold, 'UTC')} (recorded sale)"
    # The same list again does not re-open what the sale closed, nor refund again.
    again = ingest(VACANT, [vacant(), OTHER])
    assert (again.updated, again.unchanged) == (0, 2)
    assert not lead_at(db_url, "123 MAIN ST").is_active
    assert len(books(db_url, user.id)[2]) == 1


def test_a_scrape_delivery_comes_back_at_its_per_lead_price(db_url):
    ingest(VACANT, [vacant(), OTHER, vacant("V3", address="5 OAK ST", parcel="0003-003")], when=START)
    user = make_user(db_url, credits=1000)
    admin = make_user(db_url, credits=0, admin=True)
    rows = [{**r._asdict(), "external_id": None} for r in table(db_url, Lead)]  # as the record inventory gives them
    request = scrape_rules.ScrapeRequest(lead_count=3)
    paid = scrapes.store(user.id, request, rows, origin="ui", charge=True)
    assert (paid.credits_used, paid.leads_generated) == (scrape_rules.scrape_cost(3), 3)
    per_lead = scrape_rules.scrape_cost(3) // 3
    scrapes.store(admin.id, request, rows, origin="webhook", charge=False)  # the super admin's: no charge

    ingest(VACANT, [OTHER, vacant("V3", address="5 OAK ST", parcel="0003-003")])
    balance, ledger_sum, refunds = books(db_url, user.id)
    assert balance == ledger_sum == 1000 - scrape_rules.scrape_cost(3) + per_lead
    assert [delta for delta, _ in refunds] == [per_lead]
    assert books(db_url, admin.id) == (0, 0, [])
    assert [n.title.split(":")[0] for n in notifications.list_notifications(user.id)] == [f"{per_lead} credits back"]
    assert notifications.list_notifications(admin.id) == []


def test_concurrent_runs_refund_once(db_url):
    """Two transactions archiving the same lead at once (two runs' repair of one closed signal): one refund."""
    user, lead = unlock_main(db_url)
    with get_engine(db_url).begin() as conn:  # a run closed the signal and died before archiving the lead
        conn.execute(sa.update(PropertySignal.__table__).where(PropertySignal.__table__.c.record_key == "V1")
                     .values(status="closed", closed_at=utcnow(), closed_reason="no longer in the dataset as of "
                                                                               f"{utcnow().date().isoformat()}"))
    barrier, errors = threading.Barrier(2), []

    def repair():
        try:
            barrier.wait()
            with session_scope(db_url) as s:
                record_leads.materialise(s.connection(), {lead.property_id}, TITLES, utcnow().date())
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=repair) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    balance, ledger_sum, refunds = books(db_url, user.id)
    assert (balance, ledger_sum, len(refunds)) == (1000, 1000, 1)
    assert len(notifications.list_notifications(user.id)) == 1


def test_the_ledger_refuses_a_second_refund_of_one_purchase(db_url):
    user = make_user(db_url, credits=10)
    with session_scope(db_url) as s:
        ledger.apply_credits(s, user.id, 5, "refund", reference_id="user_lead:1")
    with pytest.raises(sa.exc.IntegrityError):
        with session_scope(db_url) as s:
            ledger.apply_credits(s, user.id, 5, "refund", reference_id="user_lead:1")
    assert books(db_url, user.id)[:2] == (15, 15)


def test_guarantee_days_is_validated(monkeypatch):
    monkeypatch.delenv("GUARANTEE_DAYS", raising=False)
    assert guarantee_days() == 30
    monkeypatch.setenv("GUARANTEE_DAYS", "14")
    assert guarantee_days() == 14
    for bad in ("0", "366", "-3", "two weeks", "7.5"):
        monkeypatch.setenv("GUARANTEE_DAYS", bad)
        with pytest.raises(ConfigError, match="GUARANTEE_DAYS must be a whole number of days from 1 to 365"):
            guarantee_days()


def test_with_smtp_the_refund_mail_is_sent_after_the_run_once(db_url, monkeypatch):
    import email
    import email.policy

    from marketplace.platform.config import reload_settings
    from tests.fakes.smtp import smtp_server

    with smtp_server() as (smtp_url, received):
        monkeypatch.setenv("SMTP_URL", smtp_url)
        reload_settings()
        user, lead = unlock_main(db_url)
        ingest(VACANT, [OTHER])  # the run sends what it recorded before it returns
        [raw] = received
        message = email.message_from_string(raw, policy=email.policy.default)
        assert message["To"] == user.email
        assert message["Subject"].startswith(f"{lead.credit_cost} credits back: the vacancy notice at 123 Main St left")
        [mail] = table(db_url, EmailOutbox, EmailOutbox.__table__.c.to_address == user.email)
        assert mail.sent_at is not None and mail.error is None
        ingest(VACANT, [OTHER])
        public_records.rescore_leads(utcnow().date(), titles=TITLES)
        assert len(received) == 1
