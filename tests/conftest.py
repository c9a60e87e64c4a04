"""Shared test settings.

Hypothesis runs without per-example deadlines: CI machines are shared and a
slow moment must not fail a property that holds. The ``ci`` profile (chosen
by ``HYPOTHESIS_PROFILE=ci``) is the same with derandomised examples.
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

_MADE_INSTANCE = pytest.StashKey[str]()


def pytest_configure(config) -> None:
    """Each pytest process keeps the apps' own files (kept pages, backups' state, secret keys)
    in a folder of its own, removed at the end, not in the repository's ``instance/``.

    Each pytest worker gets its own PostgreSQL database: tests of the migrations take
    theirs down to nothing, which must not happen under another worker's tests."""
    if "INSTANCE_DIR" not in os.environ:
        os.environ["INSTANCE_DIR"] = tempfile.mkdtemp(prefix="remi-instance-")
        config.stash[_MADE_INSTANCE] = os.environ["INSTANCE_DIR"]
    url = os.environ.get("TEST_PG_URL")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return
    import sqlalchemy as sa

    server, shared = url.rsplit("/", 1)
    name = f"{shared}_{worker}"
    admin = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        connection.exec_driver_sql(f"CREATE DATABASE {name}")
    admin.dispose()
    os.environ["TEST_PG_URL"] = f"{server}/{name}"


def pytest_unconfigure(config) -> None:
    made = config.stash.get(_MADE_INSTANCE, None)
    if made:
        shutil.rmtree(made, ignore_errors=True)
