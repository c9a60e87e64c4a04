"""The whole database as one portable document: every table's rows, in gzip'd JSON.

The backup of a PostgreSQL database where ``pg_dump`` is not installed, and the way a
backup moves between kinds of database (a SQLite backup restored into PostgreSQL is
read into this form first).  ``remi-referee-backup/1``::

    {"format": "remi-referee-backup/1", "revision": "0006_seating",
     "tables": {"card_tables": {"columns": ["id", "name", ...], "rows": [[1, "Meja", ...]]},
                ...}}

``revision`` is the Alembic revision of the schema the rows were read from; the rows
are loaded into a database migrated to exactly that revision, then migrated forward.
Moments are ISO 8601 strings, JSON columns stay JSON.  The table names and columns are
read from the database itself, so every table is in it, whatever revision added it.
"""

from __future__ import annotations

import gzip
import json
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import URL, Connection

FORMAT = "remi-referee-backup/1"
VERSION_TABLE = "alembic_version"


class DocumentError(ValueError):
    """A file that is not a readable backup document."""


def _plain(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, bytes):
        raise DocumentError("a binary column cannot be written to the document")
    return value


def revision_of(connection: Connection) -> str | None:
    if not sa.inspect(connection).has_table(VERSION_TABLE):
        return None
    return connection.execute(sa.text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()


def document_of(connection: Connection) -> dict[str, Any]:
    """Every table of the database (one transaction: one moment of it)."""
    metadata = sa.MetaData()
    metadata.reflect(connection)
    tables = {}
    for table in metadata.sorted_tables:
        if table.name == VERSION_TABLE:
            continue
        order = list(table.primary_key.columns) or list(table.columns)
        rows = connection.execute(sa.select(table).order_by(*order))
        tables[table.name] = {
            "columns": [column.name for column in table.columns],
            "rows": [[_plain(value) for value in row] for row in rows],
        }
    return {"format": FORMAT, "revision": revision_of(connection), "tables": tables}


def write(url: URL, target: Path) -> None:
    """The document of the database at ``url``, written to ``target`` and read back."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            if connection.dialect.name == "postgresql":  # one snapshot for every table
                connection.exec_driver_sql(
                    "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"
                )
            document = document_of(connection)
    finally:
        engine.dispose()
    with gzip.open(target, "wt", encoding="utf-8") as out:
        json.dump(document, out, ensure_ascii=False, separators=(",", ":"))
    written = read(target)
    for name, table in document["tables"].items():
        if len(written["tables"][name]["rows"]) != len(table["rows"]):
            raise DocumentError(f"the document read back lacks rows of {name}")


def read(path: Path) -> dict[str, Any]:
    """A document from its file; raises DocumentError when it is not one."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as file:
            document = json.load(file)
    except (OSError, EOFError, ValueError) as error:
        raise DocumentError(f"it cannot be read as a backup document ({error})") from error
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise DocumentError("it is not a Remi Referee backup document")
    tables = document.get("tables")
    if not isinstance(tables, dict) or not all(
        isinstance(t, dict)
        and isinstance(t.get("columns"), list)
        and isinstance(t.get("rows"), list)
        for t in tables.values()
    ):
        raise DocumentError("its tables are not in the form of a backup document")
    return document


def _value(column: sa.Column[Any], value: Any) -> Any:
    if value is None:
        return None
    kind = column.type
    if isinstance(kind, sa.DateTime) and isinstance(value, str):
        moment = datetime.fromisoformat(value)
        if kind.timezone and moment.tzinfo is None:  # SQLite keeps UTC without its zone
            moment = moment.replace(tzinfo=UTC)
        return moment
    if isinstance(kind, sa.Date) and isinstance(value, str):
        return date.fromisoformat(value)
    if isinstance(kind, sa.Boolean):
        return bool(value)
    return value


def load(connection: Connection, document: dict[str, Any]) -> int:
    """Insert the document's rows into the empty tables of a database migrated to its
    revision; the number of rows.  Raises DocumentError for a table or column it lacks."""
    metadata = sa.MetaData()
    metadata.reflect(connection)
    tables = document["tables"]
    unknown = set(tables) - set(metadata.tables)
    if unknown:
        raise DocumentError(f"it holds tables this schema does not have: {sorted(unknown)}")
    count = 0
    for table in metadata.sorted_tables:
        if table.name not in tables:
            continue
        columns = tables[table.name]["columns"]
        missing = [name for name in columns if name not in table.columns]
        if missing:
            raise DocumentError(f"{table.name} has columns this schema does not have: {missing}")
        rows = [
            {
                name: _value(table.columns[name], value)
                for name, value in zip(columns, row, strict=True)
            }
            for row in tables[table.name]["rows"]
        ]
        connection.execute(table.delete())  # what the migrations wrote (its generation)
        for start in range(0, len(rows), 1000):
            connection.execute(table.insert(), rows[start : start + 1000])
        count += len(rows)
    if connection.dialect.name == "postgresql":  # the ids were given: the sequences follow
        for table in metadata.sorted_tables:
            for column in table.primary_key.columns:
                if isinstance(column.type, sa.Integer) and column.autoincrement:
                    connection.execute(
                        sa.text(
                            "SELECT setval(pg_get_serial_sequence(:t, :c),"
                            f" COALESCE((SELECT max({column.name}) FROM {table.name}), 0) + 1,"
                            " false) WHERE pg_get_serial_sequence(:t, :c) IS NOT NULL"
                        ),
                        {"t": table.name, "c": column.name},
                    )
    return count
