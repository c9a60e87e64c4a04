"""Keys never reach the logs: a logging filter that masks table keys in every line.

A table's edit and view keys are the whole of its access control, and they
travel in the path (``/t/<key>/m/3``) and in the ``Referer`` header.  The
filter masks them in the formatted message and in the traceback, wherever the
line came from (the access log, the error log, the app's own logger).
"""

from __future__ import annotations

import logging
import re

MASK = "•••"
# The segment after /t/ or /v/ (the table routes), and any other run that looks like a key
# (token_urlsafe(24) is 32 characters; a key is at most 64), wherever another route puts one.
KEY_IN_PATH = re.compile(r"(/[tv]/)[^/\s?#\"']+")
KEY_ANYWHERE = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32,64}(?![A-Za-z0-9_-])")


def mask_keys(text: str) -> str:
    """``text`` with every table key replaced by •••.

    >>> mask_keys('"GET /t/Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0/m/3/live HTTP/1.1" 200')
    '"GET /t/•••/m/3/live HTTP/1.1" 200'
    """
    return KEY_ANYWHERE.sub(MASK, KEY_IN_PATH.sub(rf"\g<1>{MASK}", text))


class KeyMaskingFilter(logging.Filter):
    """Rewrites each record into its masked text (attach it to the handlers)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = mask_keys(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = mask_keys(record.exc_text)
        if record.stack_info:
            record.stack_info = mask_keys(record.stack_info)
        return True


KEY_MASKING = KeyMaskingFilter()
