"""Migration 0025: properties are identified by parcel first (two parcels may share a street address) and a
parcel-only property has no address; the signals and leads of existing properties survive the change."""

import pytest
import sqlalchemy as sa
from alembic import command

from marketplace.platform.db import get_engine
from marketplace.platform.migrations import alembic_config, upgrade
from marketplace.platform.models import PropertySignal

PROPS = sa.table("properties", sa.column("id"), sa.column("address_key"), sa.column("address"),
                 sa.column("state"), sa.column("zip_code"), sa.column("parcel_id"), sa.column("created_at"),
                 sa.column("updated_at"))
SIGNALS = PropertySignal.__table__
LEADS = sa.table("leads", sa.column("id"), sa.column("property_id"))


def _migrate(db_url, step):
    with get_engine(db_url).begin() as conn:
        cfg = alembic_config(db_url)
        cfg.attributes["connection"] = conn
        step(cfg)


def _property(conn, pid, key, zip_code, parcel):
    from marketplace.platform.models import utcnow

    now = utcnow()
    conn.execute(sa.insert(PROPS).values(id=pid, address_key=key, address=key.upper() if key else None, state="IL",
                                         zip_code=zip_code, parcel_id=parcel, created_at=now, updated_at=now))


def test_0025_keeps_signals_and_leads_and_lets_parcels_share_an_address(db_url):
    from marketplace.platform.models import Lead, utcnow
    from tests.factories import lead

    _migrate(db_url, lambda cfg: command.downgrade(cfg, "0020"))
    try:
        with get_engine(db_url).begin() as conn:
            _property(conn, 1, "11904 ann st", "60406", "24252010800000")
            now = utcnow()
            conn.execute(sa.insert(SIGNALS).values(id=7, property_id=1, dataset_id="d", record_key="r1",
                                                   kind="tax_delinquent", details={}, status="open",
                                                   first_seen_at=now, last_seen_at=now, retrieved_at=now))
            row = lead(property_id=1, external_id="pr:1")
            existing = {c["name"] for c in sa.inspect(conn).get_columns("leads")}
            # Only the 0024 schema's columns (a later column's Python default would be inserted too).
            table = sa.Table("leads", sa.MetaData(), *[c._copy() for c in Lead.__table__.columns if c.name in existing])
            conn.execute(sa.insert(table).values({n: getattr(row, n) for n in existing}))
            with pytest.raises(sa.exc.IntegrityError):  # the old rule: one property per address
                with conn.begin_nested():
                    _property(conn, 2, "11904 ann st", "60406", "24252010810000")
    finally:
        _migrate(db_url, lambda cfg: command.upgrade(cfg, "head"))
    with get_engine(db_url).begin() as conn:
        assert conn.execute(sa.select(SIGNALS.c.id, SIGNALS.c.property_id)).all() == [(7, 1)]
        assert conn.execute(sa.select(LEADS.c.property_id)).scalars().all() == [1]
        _property(conn, 2, "11904 ann st", "60406", "24252010810000")  # a second parcel at the address
        _property(conn, 3, None, None, "24252010820000")               # a parcel-only property
        _property(conn, 4, None, None, "24252010830000")
        _property(conn, 5, "1 main st", "60406", None)                 # an address-only property
        with pytest.raises(sa.exc.IntegrityError):  # ... is still one per address
            with conn.begin_nested():
                _property(conn, 6, "1 main st", "60406", None)
    with pytest.raises(RuntimeError, match="share the address '11904 ann st' 60406"):
        _migrate(db_url, lambda cfg: command.downgrade(cfg, "0020"))
    with get_engine(db_url).begin() as conn:
        conn.execute(sa.delete(PROPS).where(PROPS.c.id == 2))
    _migrate(db_url, lambda cfg: command.downgrade(cfg, "0020"))  # parcel-only properties go
    try:
        with get_engine(db_url).connect() as conn:
            assert conn.execute(sa.select(PROPS.c.id).order_by(PROPS.c.id)).scalars().all() == [1, 5]
            assert conn.execute(sa.select(SIGNALS.c.id)).scalars().all() == [7]
    finally:
        _migrate(db_url, lambda cfg: command.upgrade(cfg, "head"))
    indexes = {ix["name"] for ix in sa.inspect(get_engine(db_url)).get_indexes("properties")}
    assert {"uq_properties_address_zip_no_parcel", "ix_properties_address_zip"} <= indexes
    upgrade(db_url)  # at head: nothing to do
