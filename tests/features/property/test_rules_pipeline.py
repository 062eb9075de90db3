"""The pipeline's rules: stages, the dead reason, notes, follow-up dates, offers, filters, the CSV row."""

from __future__ import annotations

from datetime import date, datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from marketplace.features.property import rules_pipeline as p
from marketplace.features.property.rules_deal import initial_analysis, DealDefaults

TODAY = date(2026, 11, 25)


def refusal(fn, *args) -> str:
    with pytest.raises(p.PipelineError) as exc:
        fn(*args)
    return exc.value.message


def test_stages_in_board_order_with_labels():
    assert [label for _, label in p.STAGES] == ["New", "Contacted", "Offer Made", "Under Contract", "Closed", "Dead"]
    assert p.stage_label(None) == "New" and p.stage_label("offer_made") == "Offer Made"
    assert refusal(p.clean_stage, "won") == "Choose one of the pipeline's stages."
    assert refusal(p.clean_stage, ["dead"]) == "Choose one of the pipeline's stages."


def test_dead_needs_a_reason_and_other_stages_drop_it():
    assert refusal(p.clean_reason, "dead", "   ") == "Say why this lead is dead."
    assert refusal(p.clean_reason, "dead", None) == "Say why this lead is dead."
    assert p.clean_reason("dead", "  Owner   sold\tto a neighbour ") == "Owner sold to a neighbour"
    assert refusal(p.clean_reason, "dead", "x" * 201) == "The reason must be at most 200 characters long."
    assert p.clean_reason("dead", "x" * 200) == "x" * 200
    assert p.clean_reason("contacted", "ignored") is None


def test_note_limits():
    assert p.clean_note("  Called the owner\n  left a message ") == "Called the owner\n  left a message"
    assert refusal(p.clean_note, " \x00 ") == "Write something before adding a note."
    assert refusal(p.clean_note, "x" * 2001) == "A note must be at most 2,000 characters long."
    assert p.clean_note("x" * 2000) == "x" * 2000
    assert refusal(p.clean_note, "ok", 500) == "This lead has as many notes as it can hold."
    assert refusal(p.clean_note, 42) == "Write something before adding a note."


def test_follow_up_date_rules():
    assert p.clean_follow_up("", "contacted", TODAY) is None
    assert p.clean_follow_up("2026-11-25", "contacted", TODAY) == TODAY
    assert refusal(p.clean_follow_up, "2026-11-24", "contacted", TODAY) == "A new follow-up date cannot be before today."
    # an overdue date already stored may stay as it is
    assert p.clean_follow_up("2026-11-01", "contacted", TODAY, date(2026, 11, 1)) == date(2026, 11, 1)
    assert refusal(p.clean_follow_up, "2031-12-31", "new", TODAY) == \
        "A follow-up date must be within the next five years."
    assert refusal(p.clean_follow_up, "2026-02-30", "new", TODAY) == "Enter the follow-up date as a calendar date."
    assert refusal(p.clean_follow_up, "next week", "new", TODAY) == "Enter the follow-up date as a calendar date."
    assert refusal(p.clean_follow_up, "2026-12-01", "closed", TODAY).startswith("A closed or dead lead has no")


def test_offer_amounts():
    assert p.parse_offer("") is None and p.parse_offer(None) is None
    assert p.parse_offer("$180,000") == 180_000 == p.parse_offer("180000.00") == p.parse_offer(180_000)
    for bad in ("0", "-5", "1.5", "abc", "100000001", True, 3.5):
        assert refusal(p.parse_offer, bad) == "Enter the offer in whole dollars, from $1 to $100,000,000."


def test_check_change_moves_to_finished_stages_drop_the_date():
    change = p.check_change("closed", "", "2026-11-01", "250000", TODAY, date(2026, 11, 1))
    assert change == p.EntryChange("closed", None, None, 250_000)
    change = p.check_change("dead", "Sold elsewhere", "", "", TODAY)
    assert change == p.EntryChange("dead", "Sold elsewhere", None, None)
    assert refusal(p.check_change, "dead", "", "", "", TODAY) == "Say why this lead is dead."


def test_due_status_in_the_users_day():
    assert p.due_status(date(2026, 11, 24), "contacted", TODAY) == "overdue"
    assert p.due_status(TODAY, None, TODAY) == "today"
    assert p.due_status(date(2026, 11, 26), "new", TODAY) == "upcoming"
    assert p.due_status(date(2026, 11, 24), "dead", TODAY) == ""
    assert p.due_status(None, "new", TODAY) == ""
    # 03:00 UTC on the 26th is still the 25th in Los Angeles
    now = datetime(2026, 11, 26, 3, 0, tzinfo=timezone.utc)
    assert p.user_today(now, ZoneInfo("America/Los_Angeles")) == TODAY
    assert p.user_today(now, timezone.utc) == date(2026, 11, 26)


def test_board_filters_clean_junk_and_round_trip():
    f = p.BoardFilters.of("Probate", "tx", "  Austin ", "overdue", " Oak ")
    assert f == p.BoardFilters("Probate", "TX", "Austin", "overdue", "Oak") and f.active
    assert p.BoardFilters.from_query(f.to_query()) == f
    junk = p.BoardFilters.of({"$gt": ""}, "ZZ", ["x"], "soon", "q" * 500)
    assert junk == p.BoardFilters(q="q" * 100)
    assert not p.BoardFilters().active


def test_csv_row_with_and_without_an_analysis():
    analysis = initial_analysis(asking_price=200_000, arv=350_000, rehab_estimate=30_000, defaults=DealDefaults())
    h = p.headline(analysis)
    assert h.rule_70_offer == 215_000
    row = p.csv_row(p.CsvLead(
        address="=12 Oak St", city="Austin", state="TX", zip_code="78701", lead_type="Probate",
        asking_price=200_000, arv=350_000, stage="offer_made", follow_up=date(2026, 12, 1), offer=180_000,
        notes=((datetime(2026, 11, 25, 20, 1, tzinfo=timezone.utc), "Called"),
               (datetime(2026, 11, 25, 21, 0, tzinfo=timezone.utc), "Offer sent")),
        analysis_saved_at=datetime(2026, 11, 25, 19, 0, tzinfo=timezone.utc), headline=h,
        updated_at=datetime(2026, 11, 25, 21, 0, 5, tzinfo=timezone.utc)))
    cols = dict(zip(p.CSV_COLUMNS, row))
    assert cols["Address"] == "'=12 Oak St"  # a formula never runs
    assert cols["Stage"] == "Offer Made" and cols["Offer"] == "180000" and cols["Follow-up Date"] == "2026-12-01"
    assert cols["Notes"] == "[2026-11-25 20:01 UTC] Called\n[2026-11-25 21:00 UTC] Offer sent"
    assert cols["70% Rule Max Offer (est.)"] == "215000"
    assert cols["Flip Profit (est.)"] == str(round(h.flip_profit))
    bare = dict(zip(p.CSV_COLUMNS, p.csv_row(p.CsvLead("1 Elm", "Austin", "TX", "78701", "Auction", None, None))))
    assert bare["Stage"] == "New" and bare["Flip Profit (est.)"] == "" and bare["Analysis Saved"] == ""
    assert bare["Asking Price"] == "" and bare["Offer"] == ""
    assert p.csv_filename(TODAY) == "leadvault-pipeline-2026-11-25.csv"
