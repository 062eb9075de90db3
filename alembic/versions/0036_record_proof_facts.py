"""A public-record lead keeps the record that proves it as facts, not as lines (issue 39, item 4)

``leads.raw_data`` of a lead made from public records held its proving record as two display lines,
``source_line`` ('Public record: <publisher>, <title>, record <key>, retrieved <ISO day>') and
``dataset_line`` (the same up to ', record '), and every provenance entry its own ``source_line``; the
pages cut them apart again. Now ``raw_data["proof"]`` holds {"publisher", "title", "record_key",
"retrieved_at" (ISO instant)} and the lines are written when shown (``platform.leads.public_record_line``).

Upgrade: the proof is the provenance entry whose line is the lead's ``source_line`` (they were written
together from the same signal); the lines go. A lead whose entry cannot be found keeps the line's own
words: its publisher-and-title part as the title and its key (the line reads the same, without the retrieval day). Downgrade writes
the lines back from the proof.

Revision ID: 0036
Revises: 0035
Create Date: 2026-11-29
"""
import re

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql


revision = '0036'
down_revision = '0035'
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
LEADS = sa.table("leads", sa.column("id"), sa.column("property_id", sa.Integer()),
                 sa.column("raw_data", JSON))
_LINE = re.compile(r"^Public record: (?P<who>.*), record (?P<key>.*), retrieved (?P<day>\d{4}-\d{2}-\d{2})$")


def _line(publisher, title, record_key, retrieved_at):
    """The line as records.service_titles.source_line wrote it before this migration."""
    who = f"{publisher}, {title}" if publisher and publisher != title else title
    line = f"Public record: {who}, record {record_key}"
    return line + (f", retrieved {str(retrieved_at)[:10]}" if retrieved_at else "")


def _public_record_leads(conn):
    return conn.execute(sa.select(LEADS.c.id, LEADS.c.raw_data).where(LEADS.c.property_id.is_not(None))).all()


def _proof(raw):
    line = raw.get("source_line")
    for entry in raw.get("provenance") or ():
        if isinstance(entry, dict) and entry.get("source_line") == line:
            return {"publisher": entry.get("publisher") or "", "title": entry.get("title") or "",
                    "record_key": entry.get("record_key") or "", "retrieved_at": entry.get("retrieved_at")}
    match = _LINE.match(str(line or ""))
    if match:
        return {"publisher": "", "title": match["who"], "record_key": match["key"], "retrieved_at": None}
    dataset_line = str(raw.get("dataset_line") or "")
    if dataset_line.startswith("Public record: "):
        return {"publisher": "", "title": dataset_line.removeprefix("Public record: "), "record_key": "",
                "retrieved_at": None}
    return None


def upgrade() -> None:
    conn = op.get_bind()
    for lead_id, raw in _public_record_leads(conn):
        if not isinstance(raw, dict) or "proof" in raw or not ({"source_line", "dataset_line"} & raw.keys()):
            continue
        proof = _proof(raw)
        new = {k: v for k, v in raw.items() if k not in ("source_line", "dataset_line")}
        if proof is not None:
            new["proof"] = proof
        if isinstance(raw.get("provenance"), list):
            new["provenance"] = [{k: v for k, v in e.items() if k != "source_line"} if isinstance(e, dict) else e
                                 for e in raw["provenance"]]
        conn.execute(sa.update(LEADS).where(LEADS.c.id == lead_id).values(raw_data=new))


def downgrade() -> None:
    conn = op.get_bind()
    for lead_id, raw in _public_record_leads(conn):
        if not isinstance(raw, dict) or not isinstance(raw.get("proof"), dict):
            continue
        proof = raw["proof"]
        new = {k: v for k, v in raw.items() if k != "proof"}
        line = _line(proof.get("publisher"), proof.get("title"), proof.get("record_key"),
                     proof.get("retrieved_at") or "")
        new["source_line"], new["dataset_line"] = line, line.split(", record ")[0]
        if isinstance(raw.get("provenance"), list):
            new["provenance"] = [
                {**e, "source_line": _line(e.get("publisher"), e.get("title"), e.get("record_key"),
                                           e.get("retrieved_at") or "")} if isinstance(e, dict) else e
                for e in raw["provenance"]]
        conn.execute(sa.update(LEADS).where(LEADS.c.id == lead_id).values(raw_data=new))
