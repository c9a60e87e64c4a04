"""``referee restore PATH [--yes]``: put a backup back in place of the whole database.

It says what the file holds and what it replaces, and asks before replacing
anything (``--yes``: do not ask).  A file that is not a Remi Referee backup of a
known schema is refused with the reason; an older one is migrated forward.  The file
is read back whole and checked in a staging copy before anything in use is touched
(docs/restore.md says exactly what is checked and kept).  The database in use is first
copied to the backup folder (``remi-before-restore-...``).  Refused while any server
serves the database, on any machine: stop them first.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "restore",
        help="put a backup back in place of the whole database (asks first)",
        description="Replace the app's whole database with a backup made by `referee backup`.",
    )
    parser.add_argument("path", help="the backup: a .db, .dump or .json.gz file")
    parser.add_argument("--yes", action="store_true", help="do not ask for a confirmation")
    parser.set_defaults(run=run)


def confirmed(question: str) -> bool:
    try:
        answer = input(f"{question} [y/N] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes", "ya")


def run(args: argparse.Namespace) -> int:
    from referee.web import create_app, restore
    from referee.web.serving.settings import SettingError

    started = time.time()
    try:
        # No migration here: a database that is not there yet stays so until the restore.
        app = create_app({"AUTO_MIGRATE": False, "SECRET_KEY": "restore", "BACKUPS": "off"})
    except SettingError as error:
        print(f"referee restore: {error}", file=sys.stderr)
        return 2
    made_now = _made_by_create_app(app, started)
    prepared = None
    try:
        backup = restore.inspect(Path(args.path).expanduser())
        print(f"{backup.path}: {backup.describe()}.")
        prepared = restore.prepare(app, backup)
        database = prepared.place.sqlite_file or prepared.place.url.render_as_string()
        holds = restore.counted(prepared.current).removeprefix(": ") or "nothing yet"
        print(
            f"It was read back whole and checked. It replaces everything in {database} (now: {holds})."
        )
        if prepared.current.get("tables"):
            print(f"The database in use is first copied to {prepared.place.folder}.")
        if prepared.migrated_from:
            print(f"Its schema ({prepared.migrated_from}) is migrated to this version's.")
        if not args.yes and not confirmed("Restore it?"):
            print("Nothing was changed.")
            return 1
        restored = restore.apply(prepared)
    except restore.Refused as error:
        print(f"referee restore: {error}", file=sys.stderr)
        return 2
    finally:
        if prepared is not None:
            prepared.discard()
        if made_now is not None and made_now.exists() and made_now.stat().st_size == 0:
            made_now.unlink()  # the empty file the app made on its way: nothing was restored
    if restored.safety_copy:
        print(f"The database as it was is kept in {restored.safety_copy}.")
    if restored.replaced_schema:
        print(f"Its tables are also kept in the schema {restored.replaced_schema}.")
    print(f"Restored{restore.counted(restored.counts)}.")
    if restored.differences:
        for difference in restored.differences:
            print(difference)
        print(
            "Some summaries differ from the log: run `flask --app referee.web history check --fix`."
        )
        return 1
    print("history check: every summary agrees with the log.")
    return 0


def _made_by_create_app(app: Any, started: float) -> Path | None:
    """The SQLite file the app created empty when it was made (None: it was there before)."""
    from referee.web.store.extensions import sqlite_path

    path = sqlite_path(app)
    try:
        if path is not None and path.stat().st_size == 0 and path.stat().st_mtime >= started - 1:
            return path
    except OSError:
        pass
    return None
