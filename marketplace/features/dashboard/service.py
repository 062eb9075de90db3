"""Read-only numbers for the dashboard (SPEC 2, 9) and the developer explorer
overview (SPEC 6). Nothing here writes. Functions that take a ``session`` work inside the caller's transaction (``marketplace.platform.db``)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, datetime

import sqlalchemy as sa
from sqlmodel import Session, func, select

from marketplace.features.records import display_city, display_street
from marketplace.platform.leads import LeadLine, provenance_line
from marketplace.features.marketplace import rules_sale_dates as sale_dates
from marketplace.platform.models import AuthSession, BulkScrape, Lead, Profile, User, UserLead, utcnow

RECENT_LIMIT = 50


@dataclass(frozen=True)
class DashboardSummary:
    leads_unlocked: int
    credits_remaining: int
    avg_roi: float | None  # percent; None when no unlocked lead has an ROI
    this_month: int  # unlocks since the first day of the current month (UTC)


@dataclass(frozen=True)
class UnlockedLeadRow(LeadLine):
    roi: float | None
    credit_cost: int
    unlocked_at: datetime
    is_active: bool = True
    bought_in_scrape: bool = False  # delivered by a bulk scrape: stored inactive, never listed
    provenance: str = ""  # marketplace.rules_leads.provenance_line: 'Demo data (generated)' for a generated lead
    sale_date: date | None = None  # the next sale or auction date (marketplace.rules_sale_dates), and where it comes from
    sale_source: str = ""
    # Closed by the county within the guarantee (unlock.service_refunds): what its record said, when the credits
    # came back and how many ('' / None / 0 for a purchase not refunded).
    closed_reason: str = ""
    refunded_at: datetime | None = None
    credits_back: int = 0


@dataclass(frozen=True)
class BulkScrapeRow:
    id: uuid.UUID
    created_at: datetime
    lead_count: int
    leads_generated: int
    credits_used: int
    status: str


@dataclass(frozen=True)
class ReferralSummary:
    referral_code: str
    referred_users: int


@dataclass(frozen=True)
class AccountDetails:
    first_name: str
    last_name: str
    email: str
    email_confirmed: bool
    member_since: datetime
    returning: bool = True  # signed in before the current session ("Welcome back"; a first sign-in: "Welcome")


@dataclass(frozen=True)
class PlatformOverview:
    users: int
    leads: int
    active_leads: int
    unlocks: int


def month_start(now: datetime | None = None) -> datetime:
    """Midnight UTC on the first day of ``now``'s month."""
    now = now or utcnow()
    return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def summary(session: Session, user_id: uuid.UUID, now: datetime | None = None) -> DashboardSummary:
    """The four stat cards. Raises ``LookupError`` when the user has no profile."""
    profile = session.get(Profile, user_id)
    if profile is None:
        raise LookupError(f"no profile for {user_id}")
    unlocked, avg_roi = session.exec(
        select(
            func.count(UserLead.id),
            # avg() skips NULLs: "averages unlocked leads that have an ROI".
            func.avg(Lead.roi),
        )
        .select_from(UserLead)
        .join(Lead, Lead.id == UserLead.lead_id)
        .where(UserLead.user_id == user_id)
    ).one()
    this_month = session.exec(
        select(func.count(UserLead.id)).where(
            UserLead.user_id == user_id, UserLead.unlocked_at >= month_start(now)
        )
    ).one()
    return DashboardSummary(
        leads_unlocked=int(unlocked or 0),
        credits_remaining=profile.credits_remaining,
        avg_roi=None if avg_roi is None else float(avg_roi),
        this_month=int(this_month or 0),
    )


def unlocked_leads(
    session: Session, user_id: uuid.UUID, limit: int = RECENT_LIMIT, offset: int = 0
) -> list[UnlockedLeadRow]:
    """The user's unlocks with their lead, newest first (ties: the later unlock
    first), ``limit`` rows from ``offset``. Archived leads are included."""
    rows = session.exec(
        select(UserLead, Lead)
        .join(Lead, Lead.id == UserLead.lead_id)
        .where(UserLead.user_id == user_id)
        .order_by(UserLead.unlocked_at.desc(), UserLead.id.desc())
        .offset(max(0, offset))
        .limit(limit)
    ).all()
    return [
        UnlockedLeadRow(
            lead_id=lead.id,
            address=display_street(lead.address),
            city=display_city(lead.city),
            state=lead.state,
            zip_code=lead.zip_code,
            lead_type=lead.lead_type,
            roi=lead.roi,
            credit_cost=unlock.credit_cost,
            unlocked_at=unlock.unlocked_at,
            is_active=lead.is_active,
            bought_in_scrape=lead.scrape_id is not None,
            provenance=provenance_line(lead.raw_data, lead.source),
            sale_date=lead.sale_date,
            sale_source=sale_dates.source_text(lead.raw_data) if lead.sale_date else "",
            closed_reason=unlock.refund_reason or "" if unlock.refunded_at else "",
            refunded_at=unlock.refunded_at,
            credits_back=unlock.refund_credits or 0 if unlock.refunded_at else 0,
        )
        for unlock, lead in rows
    ]


def bulk_scrapes(session: Session, user_id: uuid.UUID, limit: int = RECENT_LIMIT) -> list[BulkScrapeRow]:
    """The user's bulk scrapes, newest first (without their output)."""
    rows = session.exec(
        select(
            BulkScrape.id,
            BulkScrape.created_at,
            BulkScrape.lead_count,
            BulkScrape.leads_generated,
            BulkScrape.credits_used,
            BulkScrape.status,
        )
        .where(BulkScrape.user_id == user_id)
        .order_by(BulkScrape.created_at.desc())
        .limit(limit)
    ).all()
    return [BulkScrapeRow(*row) for row in rows]


def referrals(session: Session, user_id: uuid.UUID) -> ReferralSummary:
    profile = session.get(Profile, user_id)
    if profile is None:
        raise LookupError(f"no profile for {user_id}")
    referred = session.exec(select(func.count()).select_from(Profile).where(Profile.referred_by == user_id)).one()
    return ReferralSummary(referral_code=profile.referral_code, referred_users=int(referred or 0))


def account_details(session: Session, user_id: uuid.UUID) -> AccountDetails:
    row = session.exec(select(User, Profile).join(Profile, Profile.user_id == User.id).where(User.id == user_id)).first()
    if row is None:
        raise LookupError(f"no user {user_id}")
    user, profile = row
    return AccountDetails(
        first_name=profile.first_name,
        last_name=profile.last_name,
        email=user.email,
        email_confirmed=user.email_confirmed_at is not None,
        member_since=user.created_at,
        # Sessions are revoked, never deleted: a second one means this is not the first sign-in.
        returning=session.exec(
            select(func.count()).select_from(AuthSession).where(AuthSession.user_id == user_id)
        ).one() > 1,
    )


def platform_overview(session: Session) -> PlatformOverview:
    """Headline counts for the developer explorer. Leads are the marketplace's
    (``scrape_id IS NULL``), the rows the explorer's leads table lists; leads a
    bulk scrape delivered privately are not counted."""
    users = session.exec(select(func.count()).select_from(User).where(User.deleted_at.is_(None))).one()
    leads, active = session.exec(
        select(func.count(), func.coalesce(func.sum(sa.case((Lead.is_active == sa.true(), 1), else_=0)), 0))
        .select_from(Lead).where(Lead.scrape_id.is_(None))
    ).one()
    # Unlocks by users (credits or a subscription), not the leads a bulk scrape delivered.
    unlocks = session.exec(select(func.count()).select_from(UserLead).where(UserLead.purchase_type != "bulk_scrape")).one()
    return PlatformOverview(users=int(users), leads=int(leads), active_leads=int(active), unlocks=int(unlocks))


# --------------------------------------------------------------------------- session-owning reads for the UI


@dataclass(frozen=True)
class DashboardData:
    stats: DashboardSummary
    unlocked: list[UnlockedLeadRow]
    scrapes: list[BulkScrapeRow]
    account: AccountDetails


def load_dashboard(user_id: uuid.UUID) -> DashboardData:
    """Everything the dashboard shows on load, in one read (no write lock)."""
    from marketplace.platform.db import read_scope

    with read_scope() as session:
        return DashboardData(
            stats=summary(session, user_id),
            unlocked=unlocked_leads(session, user_id),
            scrapes=bulk_scrapes(session, user_id),
            account=account_details(session, user_id),
        )


def more_unlocked(user_id: uuid.UUID, offset: int) -> list[UnlockedLeadRow]:
    """The next page of the user's unlocks."""
    from marketplace.platform.db import read_scope

    with read_scope() as session:
        return unlocked_leads(session, user_id, offset=offset)

