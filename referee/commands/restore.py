"""``referee restore PATH [--yes]``: put a backup back in place of the whole database.

It says what the file holds and what it replaces, and asks before replacing
anything (``--yes``: do not ask).  A file that is not a Remi Referee backup of a
known schema is refused with the reason; an older one is migrated forward.  The
database in use is first copied to the backup folder (``remi-before-restore-...``).
Stop the server first: a running one is refused.
"""

from __future__ import annotations

import argparse
import sys
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

    try:
        app = create_app()
    except SettingError as error:
        print(f"referee restore: {error}", file=sys.stderr)
        return 2
    try:
        backup = restore.inspect(Path(args.path).expanduser())
        print(f"{backup.path}: {backup.describe()}.")
        prepared = restore.prepare(app, backup)
    except restore.Refused as error:
        print(f"referee restore: {error}", file=sys.stderr)
        return 2
    try:
        database = prepared.place.sqlite_file or prepared.place.url.render_as_string()
        holds = restore._counted(prepared.current).removeprefix(": ") or "nothing yet"
        print(f"It replaces everything in {database} (now: {holds}).")
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
        prepared.discard()
    if restored.safety_copy:
        print(f"The database as it was is kept in {restored.safety_copy}.")
    print(f"Restored{restore._counted(restored.counts)}.")
    if restored.differences:
        for difference in restored.differences:
            print(difference)
        print(
            "Some summaries differ from the log: run `flask --app referee.web history check --fix`."
        )
        return 1
    print("history check: every summary agrees with the log.")
    return 0
