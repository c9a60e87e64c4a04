"""Backups: a checked copy of the whole database, made by itself while the app runs.

- **The copy.**  SQLite: SQLite's online backup API (``sqlite3.Connection.backup``) in
  one step, from a connection of its own.  In WAL mode that step is one read
  transaction: the copy is the database as of one moment, and the phones' writes go on
  meanwhile (a reader never blocks a writer; ``bench/backup_bench.py`` measures it).
  Never a copy of the file, which could catch a write half done or miss the WAL.
  PostgreSQL: ``pg_dump`` (custom format) when it is installed, else a portable
  document of every table (:mod:`referee.web.store.portable`).
- **The check.**  A copy is written under a hidden name, checked (``PRAGMA
  integrity_check`` on the SQLite copy; ``pg_restore --list`` on a dump; a document
  read back), then renamed into place.  Only then are older copies pruned.
- **What is kept**: the newest copy of each of the last 7 days that have one and of
  each of the last 4 ISO weeks that have one (the rule of ``restic forget
  --keep-daily 7 --keep-weekly 4``).  Only files named as this module names them
  (``remi-YYYYMMDD-HHMMSS.db``, ``.dump``, ``.json.gz``; UTC) are ever removed.
- **One schedule per database.**  ``referee serve`` runs several worker processes, and
  several servers may share one database; each worker starts a :class:`Schedule`
  thread, which first takes the database's :class:`ScheduleLock` without waiting: on
  PostgreSQL an advisory lock in the database itself (servers on several machines make
  one schedule between them), on SQLite an exclusive ``flock`` on a file beside the
  database (``remi.db-backups.lock``).  The one that gets it makes the backups; the
  others try again every few minutes, so when that worker or server stops another takes
  over.  We chose a lock over gunicorn's arbiter hooks: the arbiter forks the workers,
  and a thread of its own could hold a lock (SQLite's, logging's) at the moment of a
  fork, leaving it held forever in the child; a lock dies with its process (or its
  connection).
- **Partial copies** are written beside where they go under a hidden name of this
  machine, process and a random token, and removed by the next backup into that folder
  once their process has ended.
- **Scheduling** is a plain thread waiting on an :class:`threading.Event`: it wakes
  every few minutes and backs up when the newest copy is a day old (a laptop that
  slept through the due time backs up when it wakes).  APScheduler would add a
  dependency and threads of its own for one daily job, and its documentation leaves
  running it in several worker processes to the application anyway.
- **Said, never silent.**  Each result is written to ``remi.db-backups.json`` beside the
  lock (the home page of the host reads it, whichever worker serves it) and to the log
  (``referee.backups``: a copy made at INFO, a failure at ERROR).
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import shutil
import socket
import sqlite3
import subprocess
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from glob import glob
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, request
from sqlalchemy.engine import URL, make_url

from referee.web.serving import addresses
from referee.web.store.filelock import locked_file

log = logging.getLogger("referee.backups")

KEEP_DAILY = 7
KEEP_WEEKLY = 4
EVERY = timedelta(days=1)
RETRY_AFTER_FAILURE = timedelta(hours=1)
WAKE_EVERY_SECONDS = 300.0
STAMP_FORMAT = "%Y%m%d-%H%M%S"
COPY_NAME = re.compile(r"remi-(\d{8}-\d{6})(?:-\d+)?\.(db|dump|json\.gz)")
SQLITE_HEADER = b"SQLite format 3\x00"
PG_DUMP_HEADER = b"PGDMP"
GZIP_HEADER = b"\x1f\x8b"


class BackupError(Exception):
    """A backup that could not be made or checked, said in a sentence."""


def utcnow() -> datetime:
    return datetime.now(UTC)


# -- where ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """The database backed up, where its copies go, and the files that say how it went."""

    url: URL
    folder: Path
    state: (
        Path  # a prefix: ``<state>.lock`` (who makes the backups), ``<state>.json`` (how it went)
    )

    @property
    def sqlite_file(self) -> Path | None:
        if self.url.get_backend_name() != "sqlite" or self.url.database in (None, "", ":memory:"):
            return None
        return Path(str(self.url.database))

    @property
    def lock_path(self) -> Path:
        return self.state.with_name(self.state.name + ".lock")

    @property
    def status_path(self) -> Path:
        return self.state.with_name(self.state.name + ".json")


def place_of(app: Flask) -> Place:
    """The backups of ``app``'s database: in ``BACKUP_DIR`` (default ``instance/backups``)."""
    from referee.web.store.extensions import sqlite_path

    url = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
    sqlite = sqlite_path(app)
    if sqlite is not None:
        url = url.set(database=str(sqlite))
        state = sqlite.with_name(sqlite.name + "-backups")
    else:
        # One lock per database: two servers of one database share it, of two do not.
        named = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{url.host}-{url.port}-{url.database}")
        state = Path(app.instance_path) / f"{url.get_backend_name()}-{named}-backups"
    folder = Path(app.config.get("BACKUP_DIR") or Path(app.instance_path) / "backups")
    return Place(url, folder.expanduser(), state)


# -- the copies -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Copy:
    path: Path
    made: datetime


def copies_in(folder: Path) -> list[Copy]:
    """The copies this module made in ``folder``, newest first (other files are not ours)."""
    found = []
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    for name in names:
        matched = COPY_NAME.fullmatch(name)
        if matched:
            made = datetime.strptime(matched.group(1), STAMP_FORMAT).replace(tzinfo=UTC)
            found.append(Copy(folder / name, made))
    return sorted(found, key=lambda copy: (copy.made, copy.path.name), reverse=True)


def to_keep(
    copies: Iterable[Copy], daily: int = KEEP_DAILY, weekly: int = KEEP_WEEKLY
) -> set[Path]:
    """The newest copy of each of the last ``daily`` days and ``weekly`` ISO weeks that have one."""
    newest_first = sorted(copies, key=lambda copy: (copy.made, copy.path.name), reverse=True)
    kept: set[Path] = set()
    periods: tuple[tuple[int, Callable[[datetime], object]], ...] = (
        (daily, lambda made: made.date()),
        (weekly, lambda made: made.isocalendar()[:2]),
    )
    for count, period in periods:
        seen: set[object] = set()
        for copy in newest_first:
            if len(seen) == count:
                break
            if period(copy.made) not in seen:
                seen.add(period(copy.made))
                kept.add(copy.path)
    return kept


def prune(folder: Path) -> list[Path]:
    """Remove the copies :func:`to_keep` leaves out; the ones removed."""
    copies = copies_in(folder)
    keep = to_keep(copies)
    removed = []
    for copy in copies:
        if copy.path not in keep:
            copy.path.unlink(missing_ok=True)
            removed.append(copy.path)
    return removed


def kind_of(url: URL) -> str:
    """How this database is copied: ``sqlite``, ``pg_dump`` or ``document``."""
    backend = url.get_backend_name()
    if backend == "sqlite":
        return "sqlite"
    if backend == "postgresql" and pg_tool("pg_dump") is not None:
        return "pg_dump"
    return "document"


SUFFIXES = {"sqlite": ".db", "pg_dump": ".dump", "document": ".json.gz"}


def new_copy_path(folder: Path, made: datetime, kind: str) -> Path:
    stem = "remi-" + made.astimezone(UTC).strftime(STAMP_FORMAT)
    path = folder / (stem + SUFFIXES[kind])
    number = 2
    while path.exists():
        path = folder / f"{stem}-{number}{SUFFIXES[kind]}"
        number += 1
    return path


def make_copy(place: Place, target: Path) -> Path:
    """Copy the database to ``target`` (which must not exist), checked; raises BackupError."""
    kind = kind_of(place.url)
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        raise BackupError(f"{target} exists already: choose another name or remove it")
    remove_partials(target.parent)
    partial = partial_path(target)
    _private(partial)
    try:
        if kind == "sqlite":
            assert place.sqlite_file is not None
            copy_sqlite(place.sqlite_file, partial)
        elif kind == "pg_dump":
            pg_dump(place.url, partial)
        else:
            from referee.web.store import portable

            portable.write(place.url, partial)
        os.replace(partial, target)
    except BackupError:
        partial.unlink(missing_ok=True)
        raise
    except (OSError, sqlite3.Error, subprocess.SubprocessError) as error:
        partial.unlink(missing_ok=True)
        raise BackupError(f"the copy could not be made: {error}") from error
    return target


PARTIAL_NAME = re.compile(r"\.(?P<name>.+)\.(?P<host>[^.]+)\.(?P<pid>\d+)\.[0-9a-f]{8}\.partial")
PARTIAL_FORGOTTEN_AFTER = timedelta(days=1)


def partial_path(target: Path) -> Path:
    """Where ``target`` is written before it is checked: hidden, beside it (so the rename
    into place is one step), named by this machine, this process and a random token (two
    backups, even on two machines sharing the folder, never write one file)."""
    return target.with_name(
        f".{target.name}.{host_label()}.{os.getpid()}.{secrets.token_hex(4)}.partial"
    )


def host_label() -> str:
    """This machine's name, as it goes in a partial copy's name."""
    return re.sub(r"[^A-Za-z0-9-]", "-", socket.gethostname()) or "host"


def remove_partials(folder: Path) -> list[Path]:
    """The partial copies in ``folder`` that no backup is writing any more, removed: those
    of a process of this machine that has ended, and any a day old (another machine's)."""
    removed = []
    host = host_label()
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    for name in names:
        found = PARTIAL_NAME.fullmatch(name)
        if found is None:
            continue
        path = folder / name
        try:
            age = utcnow() - datetime.fromtimestamp(path.stat().st_mtime, UTC)
        except OSError:
            continue
        ours_ended = found["host"] == host and not _running(int(found["pid"]))
        if ours_ended or age > PARTIAL_FORGOTTEN_AFTER:
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process
    return True


def _private(path: Path) -> None:
    """Create ``path`` empty, readable by its owner only: a copy holds every table's keys."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    os.close(descriptor)


def sqlite_connect(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(str(path), timeout=15, isolation_level=None)
    connection.execute("PRAGMA busy_timeout = 15000")
    return connection


def copy_sqlite(source: Path, target: Path) -> None:
    """The online backup API, in one step; the copy made a single file, then checked."""
    if not source.exists():
        raise BackupError(f"the database {source} does not exist")
    reading = sqlite_connect(source)
    writing = sqlite3.connect(str(target), isolation_level=None)
    try:
        # One step (pages=-1): one read transaction, so one moment of the database; a
        # step at a time would start over after every write of another connection.
        reading.backup(writing, pages=-1)
        writing.execute("PRAGMA journal_mode = DELETE")  # the copy needs no -wal beside it
        problems = integrity_problems(writing)
    finally:
        writing.close()
        reading.close()
    if problems:
        raise BackupError("the copy failed SQLite's integrity check: " + "; ".join(problems[:3]))


def integrity_problems(connection: sqlite3.Connection) -> list[str]:
    rows = [str(row[0]) for row in connection.execute("PRAGMA integrity_check").fetchall()]
    return [] if rows == ["ok"] else rows


# -- PostgreSQL's own tools -------------------------------------------------------------------


def pg_tool(name: str) -> str | None:
    """``pg_dump`` or ``pg_restore``: on the PATH, else Debian's newest."""
    found = shutil.which(name)
    if found:
        return found
    installed = sorted(
        glob(f"/usr/lib/postgresql/*/bin/{name}"),
        key=lambda path: int(re.sub(r"\D", "", Path(path).parts[-3]) or 0),
    )
    return installed[-1] if installed else None


def pg_environment(url: URL) -> dict[str, str]:
    """libpq's environment for ``url`` (the password never on a command line)."""
    env = dict(os.environ)
    for name, value in (
        ("PGHOST", url.host),
        ("PGPORT", url.port),
        ("PGUSER", url.username),
        ("PGPASSWORD", url.password),
        ("PGDATABASE", url.database),
    ):
        if value not in (None, ""):
            env[name] = str(value)
    return env


def run_pg_tool(name: str, url: URL, *arguments: str) -> subprocess.CompletedProcess[bytes]:
    tool = pg_tool(name)
    if tool is None:
        raise BackupError(f"{name} is not installed")
    done = subprocess.run(
        [tool, *arguments], env=pg_environment(url), capture_output=True, timeout=3600
    )
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        raise BackupError(f"{name} failed: " + (said[-1] if said else f"exit {done.returncode}"))
    return done


def pg_dump(url: URL, target: Path) -> None:
    run_pg_tool(
        "pg_dump", url, "--format=custom", "--no-owner", "--no-privileges", "--file", str(target)
    )
    # The check of a dump: pg_restore reads its whole table of contents.
    listing = run_pg_tool("pg_restore", url, "--list", str(target)).stdout.decode()
    if "TABLE DATA" not in listing or "alembic_version" not in listing:
        raise BackupError("the dump holds no table data: pg_dump wrote an incomplete archive")


# -- what happened ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Status:
    """The last good copy and the last failure (if it came after it), for the home page."""

    made_at: datetime | None = None
    path: str | None = None
    failed_at: datetime | None = None
    reason: str | None = None

    @property
    def failed(self) -> bool:
        return self.failed_at is not None


def read_status(place: Place) -> Status:
    try:
        saved = json.loads(place.status_path.read_text())
    except (OSError, ValueError):
        saved = {}
    newest = copies_in(place.folder)
    made = _moment(saved.get("made_at"))
    if newest and (made is None or newest[0].made > made):  # a copy made by hand meanwhile
        saved.update(made_at=newest[0].made.isoformat(), path=str(newest[0].path))
        made = newest[0].made
    failed = _moment(saved.get("failed_at"))
    if failed is not None and made is not None and made >= failed:
        failed = None
    return Status(
        made,
        saved.get("path") if made else None,
        failed,
        saved.get("reason") if failed else None,
    )


def _moment(value: Any) -> datetime | None:
    try:
        return datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def write_status(place: Place, status: Status) -> None:
    saved = {
        "made_at": status.made_at.isoformat() if status.made_at else None,
        "path": status.path,
        "failed_at": status.failed_at.isoformat() if status.failed_at else None,
        "reason": status.reason,
    }
    aside = place.status_path.with_name(
        f".{place.status_path.name}.{os.getpid()}.{secrets.token_hex(4)}"
    )
    try:
        aside.write_text(json.dumps(saved))
        os.replace(aside, place.status_path)
    except OSError as error:
        log.error("the backup status could not be written to %s: %s", place.status_path, error)


# -- one backup -------------------------------------------------------------------------------


def backup_target(given: str) -> Path:
    """Where ``referee backup GIVEN`` writes: into a folder (made if missing) when ``given``
    ends with a slash or is a folder; else a new file, named as a backup is.  Raises
    BackupError when it would be neither."""
    path = Path(given).expanduser()
    if given.endswith(("/", os.sep)) or path.is_dir():
        if path.exists() and not path.is_dir():
            raise BackupError(f"{path} is a file, not a folder: name a folder or a new file")
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise BackupError(f"the folder {path} could not be made: {error}") from error
        return path
    if not any(path.name.endswith(suffix) for suffix in SUFFIXES.values()):
        raise BackupError(
            f"{path} is neither a folder nor a backup's name: write {given}/ for a folder "
            "(made if missing), or end the file's name with "
            + ", ".join(sorted(set(SUFFIXES.values())))
        )
    if not path.parent.is_dir():
        raise BackupError(
            f"the folder {path.parent} does not exist: make it first, or write it with a / at the end"
        )
    return path


def back_up(
    place: Place, clock: Callable[[], datetime] = utcnow, target: Path | None = None
) -> Path:
    """One backup now: copied, checked, recorded; older copies pruned (only for a copy made
    into the backup folder).  Raises BackupError, recorded and logged, when it fails."""
    made = clock()
    into_folder = target is None
    try:
        if target is None:
            place.folder.mkdir(parents=True, exist_ok=True)
            target = new_copy_path(place.folder, made, kind_of(place.url))
        elif target.is_dir():
            target = new_copy_path(target, made, kind_of(place.url))
        path = make_copy(place, target)
    except (BackupError, OSError) as error:
        fail(place, str(error), made)
        raise error if isinstance(error, BackupError) else BackupError(str(error)) from error
    write_status(place, Status(made, str(path)))
    log.info("Backup made: %s", path)
    if into_folder:
        for removed in prune(place.folder):
            log.info("Old backup removed: %s", removed)
    return path


def fail(place: Place, reason: str, when: datetime) -> None:
    """A backup failed: said in the status (the home page) and in the log."""
    before = read_status(place)
    write_status(place, Status(before.made_at, before.path, when, reason))
    log.error("Backup failed: %s", reason)


def due(place: Place, now: datetime) -> bool:
    """Whether the next automatic copy is due: the newest is a day old (an hour after a failure)."""
    copies = copies_in(place.folder)
    if copies and now - copies[0].made < EVERY:
        return False
    status = read_status(place)
    return not (status.failed_at and now - status.failed_at < RETRY_AFTER_FAILURE)


# -- the schedule -----------------------------------------------------------------------------


class Schedule:
    """The automatic backups of one process, made only while it holds the lock."""

    def __init__(
        self,
        place: Place,
        clock: Callable[[], datetime] = utcnow,
        wake_every: float = WAKE_EVERY_SECONDS,
    ) -> None:
        self.place = place
        self.clock = clock
        self.wake_every = wake_every
        self.stopping = threading.Event()
        self.lock: ScheduleLock | None = None
        self.thread: threading.Thread | None = None

    def take_lock(self) -> bool:
        """Whether this process makes the backups (it keeps the lock until it ends)."""
        if self.lock is not None and self.lock.held():
            return True
        self.lock = None
        try:
            self.lock = ScheduleLock.take(self.place)
        except OSError as error:
            raise BackupError(f"backups cannot start: {error}") from error
        return self.lock is not None

    def tick(self) -> Path | None:
        """One wake-up: the copy made, if this process makes them and one was due."""
        starting = self.lock is None
        try:
            if not self.take_lock():
                return None
            if not starting and not due(self.place, self.clock()):
                return None
            return back_up(self.place, self.clock)  # at start (the lock just taken), then daily
        except BackupError as error:
            if starting and self.lock is None:  # back_up records and logs its own failures
                fail(self.place, str(error), self.clock())
            return None

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                self.tick()
            except Exception:  # the thread must go on; the next wake-up tries again
                log.exception("Backup failed")
            self.stopping.wait(self.wake_every)

    def start(self) -> None:
        self.thread = threading.Thread(target=self.run, name="remi-backups", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        if self.thread is not None:
            self.thread.join(30)
        if self.lock is not None:
            self.lock.release()
            self.lock = None


# The key of PostgreSQL's advisory lock on the backup schedule (any fixed number of ours).
PG_SCHEDULE_LOCK = 0x52454D49_4241434B  # "REMIBACK"
PG_SCHEDULE_LOCK -= 1 << 64 if PG_SCHEDULE_LOCK >= 1 << 63 else 0


class ScheduleLock:
    """Who makes a database's backups: one process of all the servers of that database.

    SQLite: an exclusive lock (``store/filelock``) on a file beside the database (every server of a SQLite
    file runs on the machine that holds it).  PostgreSQL: a session advisory lock in the
    database itself, so servers on several machines make one schedule between them; held
    by a connection of its own, and released when that connection ends (the process too).
    """

    def __init__(self, descriptor: int | None = None, connection: Any = None) -> None:
        self.descriptor = descriptor
        self.connection = connection

    @classmethod
    def take(cls, place: Place) -> ScheduleLock | None:
        """The lock if no other process holds it, else None; OSError when it cannot be asked."""
        if place.url.get_backend_name() != "postgresql":
            descriptor = try_lock(place.lock_path)
            return None if descriptor is None else cls(descriptor=descriptor)
        import psycopg

        try:
            connection = psycopg.connect(
                **pg_connect_arguments(place.url), autocommit=True, connect_timeout=10
            )
        except psycopg.Error as error:
            raise OSError(f"the database cannot be reached: {error}") from error
        try:
            taken = connection.execute(
                "SELECT pg_try_advisory_lock(%s)", (PG_SCHEDULE_LOCK,)
            ).fetchone()
        except psycopg.Error as error:
            connection.close()
            raise OSError(f"the database cannot be reached: {error}") from error
        if not (taken and taken[0]):
            connection.close()
            return None
        return cls(connection=connection)

    def held(self) -> bool:
        """Whether it is still held (a PostgreSQL connection that was cut lost it)."""
        if self.connection is None:
            return self.descriptor is not None
        try:
            self.connection.execute("SELECT 1")
        except Exception:
            self.release()
            return False
        return True

    def release(self) -> None:
        if self.descriptor is not None:
            os.close(self.descriptor)
            self.descriptor = None
        if self.connection is not None:
            try:
                self.connection.close()
            except Exception:
                pass
            self.connection = None


def pg_connect_arguments(url: URL) -> dict[str, Any]:
    """psycopg's keyword arguments for ``url``."""
    given = {
        "host": url.host,
        "port": url.port,
        "user": url.username,
        "password": url.password,
        "dbname": url.database,
    }
    return {name: value for name, value in given.items() if value not in (None, "")} | dict(
        url.query
    )


def try_lock(path: Path) -> int | None:
    """An exclusive lock on ``path`` if no other process holds it (its descriptor), else None.

    Raises OSError when the lock's file cannot be opened at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return locked_file(path, wait=False)


def in_use(place: Place) -> bool:
    """Whether a process is making this database's backups (a server with backups on)."""
    if place.url.get_backend_name() != "postgresql" and not place.lock_path.exists():
        return False  # nobody took it (and asking would leave the file behind)
    try:
        lock = ScheduleLock.take(place)
    except OSError:
        return False  # nobody could have taken it either
    if lock is None:
        return True
    lock.release()
    return False


def start_schedule(app: Flask) -> Schedule | None:
    """The automatic backups of a serving process (``BACKUPS=off`` turns them off)."""
    if str(app.config.get("BACKUPS", "on")).strip().lower() in ("off", "0", "false", "no"):
        return None
    log.setLevel(logging.INFO)
    schedule = Schedule(place_of(app))
    schedule.start()
    return schedule


# -- the home page of the host ----------------------------------------------------------------


def opened_on_the_host() -> bool:
    """Whether this request comes from the host's own browser, through 127.0.0.1 or
    localhost: the only page that shows where the backups are."""
    try:
        hostname = urlsplit(f"//{request.host}").hostname or ""
    except ValueError:  # a Host header that is no address
        return False
    return addresses.is_loopback(hostname) and addresses.is_loopback(request.remote_addr or "")


def status_for_the_host(app: Flask) -> Status | None:
    """The backups' status for the home page, when it was opened on the host (else None)."""
    if not opened_on_the_host():
        return None
    return read_status(place_of(app))
