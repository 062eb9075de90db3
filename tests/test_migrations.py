"""The Alembic history builds the whole schema and matches the models."""

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import SQLModel

from marketplace.db import get_engine
from marketplace.migrations import include_object


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
