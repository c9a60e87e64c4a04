"""An exclusive lock on an open file, on every system the app is served from.

``flock`` where Python has ``fcntl`` (Linux, macOS: the kernel queues the waiting processes
and wakes the next one the moment the lock is free); ``msvcrt.locking`` on Windows, retried
every few milliseconds while another holds it; and POSIX record locks (``os.lockf``) on a
POSIX system without ``fcntl``, which exclude other processes but not the threads of one
process (SQLite's busy timeout and the database's own locks remain behind them).

Every lock here is released when its descriptor is closed, and dies with its process.
"""

from __future__ import annotations

import os
import sys
import time

if sys.platform == "win32":
    import msvcrt

    def lock(descriptor: int, *, wait: bool = True) -> bool:
        """Lock the open file ``descriptor`` exclusively; False if ``wait`` is False and
        another holds it."""
        os.lseek(descriptor, 0, os.SEEK_SET)
        while True:
            try:
                msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
                return True
            except OSError:
                if not wait:
                    return False
                time.sleep(0.005)

else:
    try:
        import fcntl
    except ImportError:  # a Python built without it
        fcntl = None  # type: ignore[assignment]

    def lock(descriptor: int, *, wait: bool = True) -> bool:
        """Lock the open file ``descriptor`` exclusively; False if ``wait`` is False and
        another holds it."""
        try:
            if fcntl is not None:
                fcntl.flock(descriptor, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            else:
                os.lockf(descriptor, os.F_LOCK if wait else os.F_TLOCK, 0)
        except (BlockingIOError, PermissionError):
            return False
        return True


def locked_file(path: str | os.PathLike[str], *, wait: bool = True) -> int | None:
    """Open (or create, owner only) ``path`` and lock it: its descriptor, to be closed to
    release the lock; None if ``wait`` is False and another holds it."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        if lock(descriptor, wait=wait):
            return descriptor
    except BaseException:
        os.close(descriptor)
        raise
    os.close(descriptor)
    return None
