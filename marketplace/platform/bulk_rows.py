"""Many new rows into one table, inside the caller's transaction: PostgreSQL's COPY (psycopg 3
``cursor.copy``), one executemany INSERT elsewhere. The ingestion's batches use it for the rows they add
(properties, signals, recorded sales, index points, leads).

- ``insert_rows(conn, table, rows)``: every row a dict with the same keys; a column the rows leave out
  gets its model default (``Column(default=...)``, which COPY would not apply) or the server's;
- ``new_ids(conn, table, n)``: n ids from the table's sequence (PostgreSQL), so rows can be COPYed with
  their ids known beforehand;
- ``update_rows(conn, table, rows, columns, fixed)``: rows (each its ``id`` and ``columns``) written over
  the stored ones; on PostgreSQL the rows are COPYed into a temporary staging table and merged with one
  ``UPDATE ... FROM`` that writes only the rows whose columns are distinct from the stored ones
  (``IS DISTINCT FROM``); elsewhere one executemany UPDATE. ``fixed`` sets the same value on every row
  written (``updated_at``). Returns how many rows were written on PostgreSQL (the rows given elsewhere);
- ``any_of(conn, column, values)``: the condition "column is one of values": one array parameter on
  PostgreSQL (``= ANY``, one query however many values), an IN list elsewhere (the caller chunks it).
"""

from __future__ import annotations

import operator
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
    defaults = _python_defaults(table, set(rows[0]))
    columns = [*rows[0], *defaults]
    _copy(conn, table, f'"{table.name}"', columns, ({**row, **defaults} for row in rows) if defaults else rows)


def _copy(conn: Connection, table: sa.Table, target: str, columns: list[str], rows: Any) -> None:
    """COPY ``rows`` (dicts) into ``target`` (``table`` or a staging copy of it), with the values bound as
    ``table``'s column types bind them (JSON as jsonb, the models' type decorators applied)."""
    from psycopg.types.json import Jsonb

    json_columns = {c.name for c in table.columns if isinstance(c.type, sa.JSON)}
    dated = {c.name for c in table.columns if isinstance(c.type, sa.types.TypeDecorator)}
    processors = {name: table.c[name].type.process_bind_param for name in dated if name in columns}
    dialect = conn.dialect
    names = ", ".join(f'"{c}"' for c in columns)
    # the columns whose values are converted, by position; the others are written as they are
    converted = [(i, Jsonb if name in json_columns else (lambda v, p=processors[name]: p(v, dialect)))
                 for i, name in enumerate(columns) if name in json_columns or name in processors]
    pick = operator.itemgetter(*columns) if len(columns) > 1 else (lambda row: (row[columns[0]],))
    with conn.connection.driver_connection.cursor() as cursor:
        with cursor.copy(f"COPY {target} ({names}) FROM STDIN") as copy:
            write = copy.write_row
            for full in rows:
                out = pick(full)
                if converted:
                    out = list(out)
                    for i, convert in converted:
                        if out[i] is not None:
                            out[i] = convert(out[i])
                write(out)


def update_rows(conn: Connection, table: sa.Table, rows: list[dict], columns: tuple[str, ...] | list[str],
                fixed: dict[str, Any] | None = None) -> int:
    """Write ``columns`` of each row over the stored row of the same ``id`` (module docstring)."""
    if not rows:
        return 0
    fixed = fixed or {}
    if conn.dialect.name != "postgresql":
        statement = sa.update(table).where(table.c.id == sa.bindparam("p_id")).values(
            **fixed, **{c: sa.bindparam(f"p_{c}") for c in columns})
        conn.execute(statement, [{"p_id": row["id"], **{f"p_{c}": row[c] for c in columns}} for row in rows])
        return len(rows)
    stage = f"stage_{table.name}"
    names = ["id", *columns]
    selected = ", ".join(f'"{c}"' for c in names)
    conn.exec_driver_sql(f'DROP TABLE IF EXISTS {stage}')
    # The staging table has the target's column types and none of its constraints; it goes at commit.
    conn.exec_driver_sql(f'CREATE TEMP TABLE {stage} ON COMMIT DROP AS SELECT {selected} FROM "{table.name}" '
                         f'WITH NO DATA')
    _copy(conn, table, stage, names, rows)

    def compared(side: str, column: str) -> str:  # json has no equality: compare as jsonb
        cast = "::jsonb" if isinstance(table.c[column].type, sa.JSON) else ""
        return f'{side}."{column}"{cast}'

    sets = [f'"{c}" = s."{c}"' for c in columns] + [f'"{c}" = :f_{c}' for c in fixed]
    merged = conn.execute(sa.text(
        f'UPDATE "{table.name}" AS t SET {", ".join(sets)} FROM {stage} AS s WHERE t.id = s.id AND '
        f'({", ".join(compared("t", c) for c in columns)}) IS DISTINCT FROM '
        f'({", ".join(compared("s", c) for c in columns)})'
    ).bindparams(*[sa.bindparam(f"f_{c}", v, type_=table.c[c].type) for c, v in fixed.items()]))
    conn.exec_driver_sql(f"DROP TABLE {stage}")
    return merged.rowcount


IN_CHUNK = 900  # values per IN list where a look-up is chunked (SQLite's old limit of 999 variables per statement)


def any_of(conn: Connection, column: Any, values: list) -> Any:
    """``column`` is one of ``values`` (module docstring)."""
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import ARRAY

        return column == sa.any_(sa.bindparam(None, list(values), type_=ARRAY(column.type)))
    return column.in_(values)


def new_ids(conn: Connection, table: sa.Table, n: int) -> list[int]:
    """n fresh ids of ``table`` (PostgreSQL: its id sequence)."""
    return list(conn.execute(
        sa.text("SELECT nextval(pg_get_serial_sequence(:table, 'id')) FROM generate_series(1, :n)"),
        {"table": table.name, "n": n}).scalars())
