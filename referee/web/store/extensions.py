"""The Flask extensions, created unbound and bound to an app in :func:`referee.web.create_app`."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask_babel import Babel
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

# Stable constraint names, so that Alembic (batch mode on SQLite) can find them again.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
babel = Babel()
csrf = CSRFProtect()


def sqlite_path(app: Flask) -> Path | None:
    """The file of a SQLite database URL (None for another database or one in memory)."""
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if not url.startswith("sqlite:///") or url == "sqlite:///:memory:":
        return None
    path = Path(url.removeprefix("sqlite:///").split("?")[0])
    if not path.is_absolute():  # Flask-SQLAlchemy puts relative SQLite files in the instance folder
        path = Path(app.instance_path) / path
    return path
