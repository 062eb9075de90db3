"""Many new rows into one table, inside the caller's transaction: PostgreSQL's COPY (psycopg 3
``cursor.copy``), one executemany INSERT elsewhere. The ingestion's batches use it for the rows they add
(properties, signals, recorded sales, index points, leads).

- ``insert_rows(conn, table, rows)``: every row a dict with the same keys; a column the rows leave out
  gets its model default (``Column(default=...)``, which COPY would not apply) or the server's;
- ``new_ids(conn, table, n)``: n ids from the table's sequence (PostgreSQL), so rows can be COPYed with
  their ids known beforehand.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection


def _python_defaults(table: sa.Table, present: set[str]) -> dict[str, Any]:
    values = {}
    for column in table.columns:
        default = column.default
        if column.name in present or default is None or column.primary_key:
            continue
        if default.is_scalar:
            values[column.name] = default.arg
        elif default.is_callable:
            values[column.name] = default.arg(None)
    return values


def insert_rows(conn: Connection, table: sa.Table, rows: list[dict]) -> None:
    if not rows:
        return
    if conn.dialect.name != "postgresql":
        conn.execute(sa.insert(table), rows)
        return
    from psycopg.types.json import Jsonb

    defaults = _python_defaults(table, set(rows[0]))
    columns = [*rows[0], *defaults]
    json_columns = {c.name for c in table.columns if isinstance(c.type, sa.JSON)}
    dated = {c.name for c in table.columns if isinstance(c.type, sa.types.TypeDecorator)}
    processors = {name: table.c[name].type.process_bind_param for name in dated if name in columns}
    dialect = conn.dialect
    names = ", ".join(f'"{c}"' for c in columns)
    with conn.connection.driver_connection.cursor() as cursor:
        with cursor.copy(f'COPY "{table.name}" ({names}) FROM STDIN') as copy:
            for row in rows:
                full = {**row, **defaults} if defaults else row
                out = []
                for name in columns:
                    value = full[name]
                    if value is not None:
                        if name in json_columns:
                            value = Jsonb(value)
                        elif name in processors:
                            value = processors[name](value, dialect)
                    out.append(value)
                copy.write_row(out)


def new_ids(conn: Connection, table: sa.Table, n: int) -> list[int]:
    """n fresh ids of ``table`` (PostgreSQL: its id sequence)."""
    return list(conn.execute(
        sa.text("SELECT nextval(pg_get_serial_sequence(:table, 'id')) FROM generate_series(1, :n)"),
        {"table": table.name, "n": n}).scalars())
