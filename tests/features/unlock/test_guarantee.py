"""The county-record guarantee's rules and sentences (features/unlock/rules_guarantee.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone

from marketplace.features.unlock import rules_guarantee as guarantee
from marketplace.features.records.rules_recorded_comps import SaleRecord

UNLOCK = datetime(2026, 11, 1, 12, tzinfo=timezone.utc)


@dataclass
class Sig:
    kind: str = "vacant"
    status: str = "open"
    dataset_id: str = "bal-vacant-building-notices"
    first_seen_at: datetime = UNLOCK - timedelta(days=5)
    closed_at: datetime | None = None
    closed_reason: str | None = None
    as_of: date | None = date(2026, 6, 1)
    notice_date: date | None = date(2026, 6, 1)
    sale_date: date | None = None
    sale_type: str | None = None
    id: int = 1


def closed(days: float, reason: str = "no longer in the dataset as of 2026-11-20", **kw) -> Sig:
    return Sig(status="closed", closed_at=UNLOCK + timedelta(days=days), closed_reason=reason, **kw)


def no_max_age(_dataset_id: str) -> int | None:
    return 400


def test_every_signal_that_made_the_lead_must_close_within_the_window():
    assert guarantee.refund_due([closed(19)], UNLOCK, no_max_age, 30).closed_at == UNLOCK + timedelta(days=19)
    assert guarantee.refund_due([closed(30)], UNLOCK, no_max_age, 30) is not None
    assert guarantee.refund_due([closed(30.01)], UNLOCK, no_max_age, 30) is None  # too late
    assert guarantee.refund_due([closed(19), Sig(kind="tax_delinquent", id=2)], UNLOCK, no_max_age, 30) is None
    # the last closing names the refund
    last = guarantee.refund_due([closed(5), closed(9, kind="tax_delinquent", id=2)], UNLOCK, no_max_age, 30)
    assert last.kind == "tax_delinquent"


def test_what_did_not_make_the_lead_is_not_asked_for():
    before = closed(-1)  # closed before the unlock
    later = Sig(kind="tax_delinquent", first_seen_at=UNLOCK + timedelta(days=2), id=2)  # first seen after it
    violation = Sig(kind="code_violation", id=3)  # never makes a lead
    stale = Sig(as_of=date(2025, 1, 1), notice_date=date(2025, 1, 1), id=4)  # history already at the unlock
    assert guarantee.refund_due([closed(3), before, violation, stale], UNLOCK, no_max_age, 30) is not None
    assert guarantee.refund_due([closed(3), later], UNLOCK, no_max_age, 30) is not None
    assert guarantee.refund_due([before, violation, stale], UNLOCK, no_max_age, 30) is None  # nothing to contradict


def test_a_signal_that_only_aged_is_no_contradiction():
    aged = Sig(as_of=date(2025, 10, 20), notice_date=date(2025, 10, 20))  # current at the unlock, stale since
    assert guarantee.refund_due([aged], UNLOCK, no_max_age, 30) is None


def sale(day: date, price: int = 90_000, sale_id: int = 1) -> SaleRecord:
    return SaleRecord(sale_id=sale_id, dataset_id="s", title="Sales", publisher="SDAT", parcel_id="1", address="",
                      zip_code="21201", sale_date=day, price=price, deed_type=None, excluded_reason=None)


def test_a_recorded_sale_shows_a_new_owner_only_after_the_signals_dates_and_for_a_real_price():
    signal = Sig(as_of=date(2026, 10, 1), notice_date=date(2026, 3, 1))
    today = date(2026, 11, 28)
    assert guarantee.sold_after(signal, [sale(date(2026, 9, 30))], today) is None  # the list still carried it
    assert guarantee.sold_after(signal, [sale(date(2026, 10, 1))], today) is None
    assert guarantee.sold_after(signal, [sale(date(2026, 10, 2), price=10)], today) is None  # a token deed
    assert guarantee.sold_after(signal, [sale(date(2026, 12, 2))], today) is None  # dated in the future
    first = guarantee.sold_after(signal, [sale(date(2026, 11, 2), sale_id=2), sale(date(2026, 10, 9))], today)
    assert first.sale_date == date(2026, 10, 9)
    assert guarantee.sold_after(Sig(as_of=None, notice_date=None), [sale(date(2026, 10, 9))], today) is None
    assert guarantee.sold_reason(date(2026, 10, 9)) == "sold on 2026-10-09 (recorded sale)"


def test_the_reason_in_the_users_words():
    place = "Baltimore City"
    left = closed(3, "no longer on the open list of Nov 28, 2026")
    assert guarantee.reason_sentence(left, "123 Main St", place) == (
        "the vacancy notice at 123 Main St left Baltimore City's open list on Nov 28, 2026")
    assert guarantee.reason_sentence(closed(3, "no longer in the dataset as of 2026-11-20", kind="tax_delinquent"),
                                     "123 Main St", place) == (
        "the tax delinquency at 123 Main St left Baltimore City's open list on Nov 20, 2026")
    assert guarantee.reason_sentence(closed(3, "no longer in the dataset as of 2026-11-20", kind="sale_list",
                                            sale_type="sheriff"), "9 Elm St", "Philadelphia") == (
        "the sheriff sale at 9 Elm St was taken off Philadelphia's sale list on Nov 20, 2026")
    assert guarantee.reason_sentence(closed(3, "sale held on 2026-11-10", kind="sale_list", sale_type="tax"),
                                     "9 Elm St", place) == "the tax sale at 9 Elm St was held on Nov 10, 2026"
    assert guarantee.reason_sentence(closed(3, "sold on 2026-11-02 (recorded sale)"), "9 Elm St", place) == (
        "9 Elm St sold on Nov 2, 2026 (recorded sale)")
    assert guarantee.refund_line(1_200, "x") == "1,200 credits back: x"


def test_the_promise_is_made_for_public_record_leads():
    assert guarantee.covers("Public record: Baltimore City DHCD, Vacant Building Notices")
    assert not guarantee.covers("Demo data (generated)") and not guarantee.covers("")
