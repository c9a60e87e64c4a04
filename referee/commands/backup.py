"""``referee backup [PATH]``: a checked copy of the whole database, now.

::

    referee backup                      # into the backup folder (BACKUP_DIR, else instance/backups)
    referee backup /media/usb/          # into a folder (made if missing), named by the time
    referee backup friday.db            # to a file of that name (never over an existing one)

SQLite: SQLite's online backup, checked with ``PRAGMA integrity_check``; PostgreSQL:
``pg_dump`` when it is installed, else a document of every table (``.json.gz``).  The
database is the app's (``DATABASE_URL``, else the SQLite file in ``instance/``).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "backup",
        help="copy the whole database now (checked), to restore with `referee restore`",
        description="Make a checked copy of the app's whole database.",
    )
    parser.add_argument(
        "path",
        nargs="?",
        help="a folder or a new file (default: the backup folder, $BACKUP_DIR or instance/backups)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from referee.web import create_app
    from referee.web.serving.settings import SettingError
    from referee.web.store import backups

    try:
        app = create_app()
    except SettingError as error:
        print(f"referee backup: {error}", file=sys.stderr)
        return 2
    place = backups.place_of(app)
    try:
        target = backups.backup_target(args.path) if args.path else None
        path = backups.back_up(place, target=target)
    except backups.BackupError as error:
        print(f"referee backup: the backup failed: {error}", file=sys.stderr)
        return 2
    print(f"Backup made and checked: {path}")
    print(f"Put it back with: referee restore {path}")
    return 0
