"""Pipeline entries and notes (SQLite and PostgreSQL): stage moves, notes, follow-ups, the bell's due list,
the CSV rows, locked leads refused without a trace, account deletion."""

from __future__ import annotations

import uuid
from datetime import date, timedelta

import pytest
import sqlalchemy as sa

from marketplace.features.property import rules_pipeline as rules
from marketplace.platform.errors import UserError
from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.models import PipelineEntry, PipelineNote, UserLead
from marketplace.features.accounts import service_settings as account_settings
from marketplace.features.property import service_deals as deals, service_pipeline as pipeline
from tests.factories import add_lead

TODAY = date(2026, 11, 25)


def unlock(user_id, lead_id) -> None:
    with session_scope() as session:
        session.add(UserLead(user_id=user_id, lead_id=lead_id, credit_cost=120, purchase_type="credits"))


def rows(model) -> int:
    with get_engine().connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(model.__table__)).scalar_one()


def counts(user_id, filters=rules.BoardFilters()) -> dict[str, int]:
    return {c.stage: c.count for c in pipeline.board(user_id, filters, TODAY)}


@pytest.fixture
def owned(db_url, new_user):
    user = new_user()
    leads = [add_lead(address=f"{n} Oak St", city="Austin" if n % 2 else "Dallas", lead_type="Probate"
                      if n < 3 else "Auction") for n in range(1, 5)]
    for lead_id in leads:
        unlock(user.id, lead_id)
    return user, leads


def test_every_unlocked_lead_starts_new_and_moves_between_stages(owned):
    user, leads = owned
    assert counts(user.id) == {"new": 4, "contacted": 0, "offer_made": 0, "under_contract": 0, "closed": 0,
                               "dead": 0}
    entry = pipeline.move(user.id, str(leads[0]), "offer_made")
    assert (entry.stage, entry.dead_reason) == ("offer_made", None) and entry.updated_at is not None
    pipeline.move(user.id, leads[1], "contacted")
    assert counts(user.id)["new"] == 2 and counts(user.id)["offer_made"] == 1
    board = {c.stage: c for c in pipeline.board(user.id, rules.BoardFilters(), TODAY)}
    assert [c.address for c in board["offer_made"].cards] == ["1 Oak St"]
    # Dead needs a reason; leaving Dead clears it
    with pytest.raises(UserError) as exc:
        pipeline.move(user.id, leads[0], "dead", "  ")
    assert exc.value.message == "Say why this lead is dead."
    assert pipeline.load_entry(user.id, leads[0]).stage == "offer_made"
    assert pipeline.move(user.id, leads[0], "dead", "Owner sold to a neighbour").dead_reason == \
        "Owner sold to a neighbour"
    assert pipeline.move(user.id, leads[0], "contacted").dead_reason is None
    assert rows(PipelineEntry) == 2


def test_save_entry_follow_up_and_offer_rules(owned):
    user, leads = owned
    saved = pipeline.save_entry(user.id, leads[0], "offer_made", "", "2026-12-01", "$180,000", TODAY)
    assert (saved.stage, saved.follow_up, saved.offer) == ("offer_made", date(2026, 12, 1), 180_000)
    with pytest.raises(UserError) as exc:
        pipeline.save_entry(user.id, leads[0], "offer_made", "", "2026-11-20", "180000", TODAY)
    assert exc.value.message == "A new follow-up date cannot be before today."
    assert pipeline.load_entry(user.id, leads[0]).follow_up == date(2026, 12, 1)  # nothing changed
    # Two days later the stored date is overdue; saving the same date again is fine
    later = TODAY + timedelta(days=10)
    assert pipeline.save_entry(user.id, leads[0], "offer_made", "", "2026-12-01", "", later).offer is None
    # a finished stage drops the date
    closed = pipeline.save_entry(user.id, leads[0], "closed", "", "", "175000", later)
    assert (closed.follow_up, closed.offer) == (None, 175_000)
    moved = pipeline.save_entry(user.id, leads[1], "contacted", "", "2026-11-30", "", TODAY)
    assert pipeline.move(user.id, leads[1], "dead", "No answer").follow_up is None
    assert moved.follow_up == date(2026, 11, 30)


def test_notes_are_appended_with_timestamps_newest_first(owned):
    user, leads = owned
    pipeline.add_note(user.id, leads[2], "Called the owner")
    entry = pipeline.add_note(user.id, leads[2], "  Sent an offer letter ")
    assert [n.body for n in entry.notes] == ["Sent an offer letter", "Called the owner"]
    assert entry.note_count == 2 and entry.stage == "new"
    assert entry.notes[0].created_at >= entry.notes[1].created_at and entry.notes[0].created_at.tzinfo
    with pytest.raises(UserError) as exc:
        pipeline.add_note(user.id, leads[2], "x" * 2001)
    assert exc.value.message == "A note must be at most 2,000 characters long."
    assert rows(PipelineNote) == 2


def test_filters_and_show_more(owned, new_user):
    user, leads = owned
    pipeline.save_entry(user.id, leads[0], "contacted", "", "2026-11-25", "", TODAY)
    pipeline.save_entry(user.id, leads[1], "contacted", "", "2026-11-30", "", TODAY)
    assert counts(user.id, rules.BoardFilters.of(city="austin"))["new"] == 1  # 3 Oak St (1 Oak St is contacted)
    assert counts(user.id, rules.BoardFilters.of(lead_type="Auction"))["new"] == 2
    assert counts(user.id, rules.BoardFilters.of(q="2 oak"))["contacted"] == 1
    assert counts(user.id, rules.BoardFilters.of(q="%"))["new"] == 0  # LIKE wildcards are plain text
    assert counts(user.id, rules.BoardFilters.of(follow_up="today"))["contacted"] == 1
    assert counts(user.id, rules.BoardFilters.of(follow_up="upcoming"))["contacted"] == 1
    assert counts(user.id, rules.BoardFilters.of(follow_up="none"))["new"] == 2
    # Show more: the next cards of one column, in the same order
    first = pipeline.column_cards(user.id, rules.BoardFilters(), TODAY, "new", 0, 1)
    rest = pipeline.column_cards(user.id, rules.BoardFilters(), TODAY, "new", 1, 5)
    assert len(first) == 1 and len(rest) == 1 and first[0].lead_id != rest[0].lead_id
    # another user sees none of it
    other = new_user()
    assert sum(counts(other.id).values()) == 0


def test_due_follow_ups_for_the_bell(owned):
    user, leads = owned
    pipeline.save_entry(user.id, leads[0], "contacted", "", "2026-11-20", "", date(2026, 11, 1))
    pipeline.save_entry(user.id, leads[1], "offer_made", "", "2026-11-25", "", date(2026, 11, 1))
    pipeline.save_entry(user.id, leads[2], "new", "", "2026-11-26", "", date(2026, 11, 1))
    pipeline.save_entry(user.id, leads[3], "under_contract", "", "2026-11-21", "", date(2026, 11, 1))
    pipeline.move(user.id, leads[3], "closed")  # finished: never due
    count, due = pipeline.due_follow_ups(user.id, TODAY)
    assert count == 2
    assert [(d.address, d.status) for d in due] == [("1 Oak St", "overdue"), ("2 Oak St", "today")]


def test_locked_leads_are_refused_and_nothing_is_written(db_url, new_user):
    owner, stranger = new_user(), new_user()
    lead_id = add_lead()
    unlock(owner.id, lead_id)
    attempts = [
        lambda: pipeline.move(stranger.id, lead_id, "offer_made"),
        lambda: pipeline.save_entry(stranger.id, lead_id, "offer_made", "", "2026-12-01", "1000", TODAY),
        lambda: pipeline.add_note(stranger.id, lead_id, "mine now"),
        lambda: pipeline.load_entry(stranger.id, lead_id),
        lambda: pipeline.move(stranger.id, "not-a-uuid", "contacted"),
        lambda: pipeline.move(stranger.id, uuid.uuid4(), "contacted"),
        lambda: pipeline.move(None, lead_id, "contacted"),
    ]
    for attempt in attempts:
        with pytest.raises(UserError) as exc:
            attempt()
        assert exc.value.title in ("Lead Locked", "Session Expired")
    assert rows(PipelineEntry) == 0 and rows(PipelineNote) == 0
    assert list(pipeline.csv_leads(stranger.id)) == []
    assert pipeline.due_follow_ups(stranger.id, TODAY) == (0, [])


def test_csv_leads_carry_stage_notes_offer_and_the_saved_analysis(owned):
    user, leads = owned
    pipeline.save_entry(user.id, leads[0], "offer_made", "", "2026-12-01", "180000", TODAY)
    pipeline.add_note(user.id, leads[0], "Offer sent")
    deals.save_analysis(user.id, leads[0], deals.load_analysis(user.id, leads[0]).analysis)
    by_address = {row.address: row for row in pipeline.csv_leads(user.id)}
    assert len(by_address) == 4
    offered = by_address["1 Oak St"]
    assert (offered.stage, offered.offer, offered.follow_up) == ("offer_made", 180_000, date(2026, 12, 1))
    assert [text for _, text in offered.notes] == ["Offer sent"]
    assert offered.headline is not None and offered.analysis_saved_at is not None
    untouched = by_address["2 Oak St"]
    assert (untouched.stage, untouched.headline, untouched.notes) == ("new", None, ())


def test_account_deletion_removes_the_users_pipeline_only(owned, new_user):
    user, leads = owned
    other = new_user()
    unlock(other.id, leads[0])
    pipeline.add_note(user.id, leads[0], "mine")
    pipeline.add_note(other.id, leads[0], "theirs")
    pipeline.move(user.id, leads[1], "contacted")
    account_settings.delete_account(user.id, user.email)
    assert rows(PipelineEntry) == 1 and rows(PipelineNote) == 1
    assert [n.body for n in pipeline.load_entry(other.id, leads[0]).notes] == ["theirs"]
