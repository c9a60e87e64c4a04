"""A PostgreSQL database of one's own for a test module (when TEST_PG_URL is set).

The cluster that ``make test`` starts has one test database, which the test
workers share; a module that fills a database makes its own beside it (the
role may create databases) and drops it at the end.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import sqlalchemy as sa

POSTGRESQL = pytest.param(
    "postgresql",
    marks=pytest.mark.skipif(not os.environ.get("TEST_PG_URL"), reason="TEST_PG_URL not set"),
)
DATABASES = ["sqlite", POSTGRESQL]


@contextmanager
def own_pg_database(tag: str) -> Iterator[str]:
    """The URL of a new, empty database on the test cluster, dropped afterwards."""
    base = sa.engine.make_url(os.environ["TEST_PG_URL"])
    name = f"{base.database}_{tag}_{os.getpid()}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
