"""An UPDATE of several rows at once, in one round trip on every database."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Connection


class ManyRows:
    """An UPDATE run for several rows of values: ``executemany`` on SQLite; on PostgreSQL
    one statement over the rows, sent as one JSON array (one round trip, and none of the
    driver's pipeline work for a handful of rows).

    ``build`` makes the statement from ``value(name)``: a bound parameter for each row on
    SQLite, the column of the row on PostgreSQL (``per_row`` names them and their types);
    any other name is a parameter shared by every row.  ``name`` names the rows' parameter
    (``<name>_rows``) and their alias: statements of several in one (:meth:`cte`) need
    their own.
    """

    def __init__(
        self,
        per_row: Mapping[str, Any],
        build: Callable[[Callable[[str], Any]], sa.Update],
        *,
        name: str = "given",
    ) -> None:
        self.per_row = tuple(per_row)
        self.rows_name = f"{name}_rows"
        self.each = build(lambda column: sa.bindparam(column, type_=per_row.get(column)))
        given = (
            sa.func.jsonb_to_recordset(sa.bindparam(self.rows_name, type_=sa.Text).cast(JSONB))
            .table_valued(*(sa.column(column, kind) for column, kind in per_row.items()))
            .render_derived(name=name, with_types=True)
        )
        self.at_once = build(
            lambda column: given.c[column] if column in per_row else sa.bindparam(column)
        )

    def cte(self, name: str) -> sa.CTE:
        """The PostgreSQL statement as a part of a bigger one, returning a row for each
        row updated (its parameters: :meth:`parameters`)."""
        return self.at_once.returning(sa.literal_column("1").label("moved")).cte(name)

    def parameters(self, rows: Sequence[Mapping[str, Any]]) -> dict[str, str]:
        """The rows as the PostgreSQL statement takes them: one JSON array."""
        return {self.rows_name: json.dumps([dict(row) for row in rows], default=datetime.isoformat)}

    @staticmethod
    def counts_rows(connection: Connection) -> bool:
        """Whether :meth:`execute`'s rowcount is the rows updated by all of ``rows``."""
        return (
            connection.dialect.name == "postgresql"
            or connection.dialect.supports_sane_multi_rowcount
        )

    def execute(
        self, connection: Connection, rows: Sequence[Mapping[str, Any]], **shared: Any
    ) -> Any:
        if connection.dialect.name == "postgresql":
            return connection.execute(self.at_once, shared | self.parameters(rows))
        return connection.execute(self.each, [shared | dict(row) for row in rows])
