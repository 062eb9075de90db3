"""Migration 0021: leads.unlock_count starts as the live accounts holding an unlock record of each lead."""

import sqlalchemy as sa
from alembic import command

from marketplace.platform.db import get_engine, session_scope
from marketplace.platform.migrations import alembic_config, upgrade
from marketplace.platform.models import Lead, User, UserLead, utcnow
from tests.factories import lead, make_user


def _migrate(db_url, step):
    with get_engine(db_url).begin() as conn:
        cfg = alembic_config(db_url)
        cfg.attributes["connection"] = conn
        step(cfg)


def test_0021_backfills_the_count_from_user_leads(db_url):
    def add_lead(s):
        """A lead row as the 0018 schema has it (no unlock_count yet)."""
        existing = {c["name"] for c in sa.inspect(s.connection()).get_columns("leads")}
        assert "unlock_count" not in existing
        table = sa.Table("leads", sa.MetaData(), *[c._copy() for c in Lead.__table__.columns if c.name in existing])
        row = lead()
        values = {name: getattr(row, name) for name in existing}
        # Before 0020 the owner flags were NOT NULL booleans (unknown did not exist yet).
        values.update({flag: bool(values.get(flag)) for flag in ("absentee_owner", "out_of_state_owner")})
        s.execute(sa.insert(table).values(values))
        return row.id

    _migrate(db_url, lambda cfg: command.downgrade(cfg, "0018"))
    try:
        users = [make_user(db_url) for _ in range(3)]
        with session_scope(db_url) as s:
            held_by_two, held_by_closed, nobody = add_lead(s), add_lead(s), add_lead(s)
            # Only the columns 0018 has (later migrations add some the model already has).
            for user_id, lead_id in ((users[0].id, held_by_two), (users[1].id, held_by_two),
                                     (users[2].id, held_by_closed), (users[2].id, held_by_two)):
                s.execute(sa.insert(UserLead.__table__).values(user_id=user_id, lead_id=lead_id, credit_cost=100))
            # A closed account's records stay, but it holds nothing.
            s.execute(sa.update(User.__table__).where(User.__table__.c.id == users[2].id).values(deleted_at=utcnow()))
    finally:
        _migrate(db_url, lambda cfg: command.upgrade(cfg, "head"))
    leads = Lead.__table__
    with get_engine(db_url).connect() as conn:
        counts = dict(conn.execute(sa.select(leads.c.id, leads.c.unlock_count)).all())
    assert (counts[held_by_two], counts[held_by_closed], counts[nobody]) == (2, 0, 0)
    indexes = {ix["name"] for ix in sa.inspect(get_engine(db_url)).get_indexes("leads")}
    assert "ix_leads_active_unlock_count" in indexes
    upgrade(db_url)  # at head: nothing to do
