"""The Alembic history builds the whole schema and matches the models."""

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

from marketplace.platform.db import get_engine
from marketplace.platform.migrations import include_object


def test_models_and_migrations_agree(db_url):
    with get_engine(db_url).connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True, "include_object": include_object})
        diff = compare_metadata(context, SQLModel.metadata)
    assert diff == []


def test_every_table_exists(db_url):
    names = set(sa.inspect(get_engine(db_url)).get_table_names())
    expected = {
        "users", "profiles", "auth_sessions", "login_attempts", "email_outbox", "credit_ledger",
        "credit_purchases", "subscriptions", "super_admins", "user_leads", "bulk_scrapes",
        "webhook_requests", "leads", "lead_refresh_runs", "lead_facets", "test_checkouts", "alembic_version",
        "saved_searches", "saved_search_criteria", "notifications",
    }
    assert expected <= names


def test_marketplace_indexes_exist(db_url):
    indexes = {ix["name"] for ix in sa.inspect(get_engine(db_url)).get_indexes("leads")}
    assert {"ix_leads_active_confidence", "ix_leads_active_created", "ix_leads_active_roi",
            "ix_leads_active_price"} <= indexes


def test_0010_backfills_what_scrapes_delivered(db_url):
    """held_properties starts with every property existing scrapes delivered (a property already
    delivered twice, before the constraint, keeps one row per key)."""
    import uuid

    from alembic import command

    from marketplace.platform.db import session_scope
    from marketplace.platform.migrations import alembic_config, upgrade
    from marketplace.platform.models import BulkScrape, HeldProperty, Lead, UserLead
    from tests.factories import lead, make_user

    def migrate(step):
        with get_engine(db_url).begin() as conn:
            cfg = alembic_config(db_url)
            cfg.attributes["connection"] = conn
            step(cfg)

    def add_lead(s, **fields):
        """A lead row as the 0009 schema has it (later migrations add columns the model already has)."""
        existing = {c["name"] for c in sa.inspect(s.connection()).get_columns("leads")}
        table = sa.Table("leads", sa.MetaData(), *[c._copy() for c in Lead.__table__.columns if c.name in existing])
        row = lead(**fields)
        s.execute(sa.insert(table).values({name: getattr(row, name) for name in existing}))
        return row

    migrate(lambda cfg: command.downgrade(cfg, "0009"))
    try:
        user = make_user(db_url)
        with session_scope(db_url) as s:
            for listing in ("rc:1", "rc:1-relisted"):  # the same house, delivered by two scrapes
                scrape = BulkScrape(id=uuid.uuid4(), user_id=user.id, lead_count=1, leads_generated=1, params={},
                                    output=[])
                s.add(scrape)
                s.flush()
                row = add_lead(s, scrape_id=scrape.id, source_listing_id=listing, is_active=False,
                               address="12  Oak St")
                # Only the columns 0009 has (later migrations add some the model already has).
                s.execute(sa.insert(UserLead.__table__).values(user_id=user.id, lead_id=row.id, credit_cost=100,
                                                               purchase_type="bulk_scrape"))
            add_lead(s, external_id="market:1")  # a marketplace lead nobody received from a scrape
    finally:
        migrate(lambda cfg: command.upgrade(cfg, "head"))
    with session_scope(db_url) as s:
        keys = sorted(s.exec(sa.select(HeldProperty.key).where(HeldProperty.user_id == user.id)).scalars())
    assert keys == ["address:12 oak st|78701", "listing:rc:1", "listing:rc:1-relisted"]
    upgrade(db_url)  # at head: nothing to do


def test_0011_books_the_forfeit_of_accounts_deleted_before_it(db_url, new_user):
    """An account deleted before 0011 forfeited its balance without a ledger row: 0011 writes it,
    so balance = ledger holds for every account; downgrading removes it again."""
    from alembic import command
    from alembic.script import ScriptDirectory

    from marketplace.platform import migrations
    from marketplace.platform.db import session_scope
    from marketplace.platform.models import Profile, User, utcnow
    from marketplace.platform import ledger

    user = new_user(credits=300)
    with get_engine(db_url).begin() as conn:  # a deletion as the code before 0011 did it
        conn.execute(sa.delete(Profile.__table__).where(Profile.__table__.c.user_id == user.id))
        conn.execute(sa.update(User.__table__).where(User.__table__.c.id == user.id).values(deleted_at=utcnow()))
    cfg = migrations.alembic_config(db_url)
    command.downgrade(cfg, ScriptDirectory.from_config(cfg).get_revision("0011").down_revision)  # before 0011
    try:
        with session_scope() as session:
            assert ledger.ledger_sum(session, user.id) == 300
    finally:
        migrations.upgrade(db_url)
    with session_scope() as session:
        assert ledger.ledger_sum(session, user.id) == 0
        last = ledger.history(session, user.id, limit=1)[0]
        assert (last.delta, last.reason, last.balance_after) == (-300, "forfeited", 0)
