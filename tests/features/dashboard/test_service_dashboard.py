"""Dashboard numbers (SPEC 2 and 9) on both databases."""

from datetime import timedelta

from marketplace.platform.db import session_scope
from marketplace.platform.models import UserLead, utcnow
from marketplace.features.accounts import service_settings as account_settings
from marketplace.features.dashboard import service as dashboard
from tests import factories


def _lead(roi, **kw):
    return factories.lead(roi=roi, **kw)


def test_summary_lists_and_overview(new_user):
    user = new_user(credits=1500)
    other = new_user()
    now = utcnow()
    start = dashboard.month_start(now)
    with session_scope() as s:
        leads = [_lead(20.0), _lead(25.0), _lead(None), _lead(30.0, is_active=False)]
        s.add_all(leads)
        s.flush()
        s.add_all([
            UserLead(user_id=user.id, lead_id=leads[0].id, credit_cost=120, unlocked_at=start - timedelta(days=3)),
            UserLead(user_id=user.id, lead_id=leads[1].id, credit_cost=60, unlocked_at=start + timedelta(minutes=1)),
            UserLead(user_id=user.id, lead_id=leads[2].id, credit_cost=85, unlocked_at=start + timedelta(minutes=2)),
            UserLead(user_id=other.id, lead_id=leads[3].id, credit_cost=30, unlocked_at=start + timedelta(minutes=3)),
        ])
    with session_scope() as s:
        summary = dashboard.summary(s, user.id, now=now)
        assert summary.leads_unlocked == 3
        assert summary.credits_remaining == 1500
        assert summary.avg_roi == 22.5  # the lead without an ROI is left out
        assert summary.this_month == 2
        rows = dashboard.unlocked_leads(s, user.id)
        assert [r.credit_cost for r in rows] == [85, 60, 120]  # newest first
        overview = dashboard.platform_overview(s)
        assert (overview.users, overview.leads, overview.active_leads, overview.unlocks) == (2, 4, 3, 4)
    with session_scope() as s:  # leads a bulk scrape delivered are not unlocks
        s.add(UserLead(user_id=other.id, lead_id=leads[0].id, credit_cost=0, purchase_type="bulk_scrape"))
    with session_scope() as s:
        assert dashboard.platform_overview(s).unlocks == 4
    account_settings.delete_account(other.id, other.email)  # a deleted account is no longer a user
    with session_scope() as s:
        assert dashboard.platform_overview(s).users == 1


def test_month_start_is_midnight_utc_on_the_first():
    now = utcnow().replace(year=2026, month=11, day=21, hour=15)
    assert dashboard.month_start(now).isoformat() == "2026-11-01T00:00:00+00:00"


def test_unlocked_leads_pages_newest_first_and_flags_archived(new_user):
    user = new_user()
    now = utcnow()
    with session_scope() as s:
        leads = [_lead(10.0 + n, is_active=n != 3) for n in range(7)]
        s.add_all(leads)
        s.flush()
        # Two unlocks share a timestamp: the later row comes first.
        times = [now - timedelta(minutes=n) for n in range(6)] + [now - timedelta(minutes=5)]
        s.add_all([UserLead(user_id=user.id, lead_id=lead.id, credit_cost=n + 1, unlocked_at=at)
                   for n, (lead, at) in enumerate(zip(leads, times))])
    with session_scope() as s:
        first = dashboard.unlocked_leads(s, user.id, limit=4)
        rest = dashboard.unlocked_leads(s, user.id, limit=4, offset=4)
    assert [r.credit_cost for r in first] == [1, 2, 3, 4]
    assert [r.credit_cost for r in rest] == [5, 7, 6]
    assert [r.is_active for r in first] == [True, True, True, False]


def test_a_lead_bought_in_a_bulk_scrape_is_not_shown_as_archived(new_user):
    """Issue 24 item 4: scrape leads are stored inactive but were never listed: no Archived badge."""
    from marketplace.features.scrape import rules
    from marketplace.features.scrape import service as scrapes
    from marketplace.features.scrape.source_builtin import BuiltinSource
    from marketplace.features.dashboard.state import unlocked_row

    user = new_user(credits=1_000)
    scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=1, cities=("Austin, TX",)), source=BuiltinSource(seed=9))
    with session_scope() as s:
        archived = _lead(12.0, is_active=False)
        s.add(archived)
        s.flush()
        s.add(UserLead(user_id=user.id, lead_id=archived.id, credit_cost=150, unlocked_at=utcnow() - timedelta(days=1)))
    with session_scope() as s:
        scraped_row, archived_row = dashboard.unlocked_leads(s, user.id)
    assert (scraped_row.is_active, scraped_row.bought_in_scrape) == (False, True)
    assert unlocked_row(scraped_row, "UTC")["archived"] == ""
    assert (archived_row.bought_in_scrape, unlocked_row(archived_row, "UTC")["archived"]) == (False, "yes")


def test_greeting_is_welcome_on_the_first_sign_in_and_welcome_back_after(new_user):
    """Issue 24 #16: a first visit is not greeted 'Welcome back'."""
    from marketplace.platform import sessions as auth_sessions

    user = new_user(confirmed=True)
    with session_scope() as s:
        first = auth_sessions.create_session(s, user.id)
    with session_scope() as s:
        assert dashboard.account_details(s, user.id).returning is False
    with session_scope() as s:  # signed out (the session is revoked, not deleted)...
        assert auth_sessions.revoke_session(s, first.access_token)
    with session_scope() as s:
        assert dashboard.account_details(s, user.id).returning is False
        auth_sessions.create_session(s, user.id)  # ...and in again: a returning user
    with session_scope() as s:
        assert dashboard.account_details(s, user.id).returning is True


def test_generated_leads_say_demo_data_in_the_unlocked_list_and_the_scrape_output(new_user):
    """Issue 24: the card's rule (marketplace.rules_leads.provenance_line) on the dashboard's unlocked leads and on
    a bulk scrape's results; a lead that says nothing about its origin gets no line."""
    from marketplace.features.scrape import rules
    from marketplace.features.scrape import service as scrapes
    from marketplace.features.scrape.source_builtin import BuiltinSource
    from marketplace.features.scrape.state import result_row
    from marketplace.features.dashboard.state import unlocked_row

    user = new_user(credits=1_000)
    result = scrapes.run_scrape(user.id, rules.ScrapeRequest(lead_count=2, cities=("Austin, TX",)),
                                source=BuiltinSource(seed=4))
    assert [lead["provenance"] for lead in result.leads] == ["Demo data (generated)"] * 2
    assert result_row(result.leads[0])["provenance"] == "Demo data (generated)"
    with session_scope() as s:
        plain = _lead(11.0, raw_data={})
        s.add(plain)
        s.flush()
        s.add(UserLead(user_id=user.id, lead_id=plain.id, credit_cost=100, unlocked_at=utcnow() - timedelta(days=1)))
    with session_scope() as s:
        rows = dashboard.unlocked_leads(s, user.id)
    assert [unlocked_row(r, "UTC")["provenance"] for r in rows] == ["Demo data (generated)"] * 2 + [""]
