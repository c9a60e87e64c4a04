"""The score sheet rendered once per change and shared by every phone that follows it.

Every phone at the table fetches the score sheet again after each change.  The sheet of a
long match is mostly its rounds, the same for every phone that sees the match at that
version, in that language, through that link: it is rendered once (:func:`kept_page`:
whoever asks meanwhile, in this worker or another, waits for that render) and kept by what
it was made from, in the worker and on disk for the other workers (:class:`SharedPages`).
What differs per request (the form tokens, a rematch's once-token, the flashed messages)
is left as marks in the kept page and filled in for each request.

A page is made of parts (``data-part``, between ``<!--{-->`` and ``<!--}-->`` markers): the
head, each round's row and entry, the totals, the chart.  The page lists each part's
digest; a phone that names the list it shows (the ``Live-Have`` header) gets only the parts
that changed (``Live-Patch``), or the whole page when the frame around the parts changed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import secrets
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask, current_app, g, get_flashed_messages
from markupsafe import Markup, escape

from referee.web.store import door, reads
from referee.web.store.reads import lock

PART_START, PART_END = "<!--{-->", "<!--}-->"  # around each part
SPACES = re.compile(r"\s+")
PART_ID = re.compile(r'data-part="([^"]+)"')
FRAME = "frame"
HAVE_HEADER, PATCH_HEADER = "Live-Have", "Live-Patch"
# A phone's list is one header; a longer one than this is not read (the page is sent whole).
HAVE_LIMIT = 7000

# What a kept page holds in place of what is made for each request.  Random per process,
# so that no name typed by a player can be one of them.
TOKEN_MARK = f"csrf-{secrets.token_hex(12)}"
ONCE_MARK = f"once-{secrets.token_hex(12)}"
FLASH_MARK = f"flash-{secrets.token_hex(12)}"
MARKS = (TOKEN_MARK, ONCE_MARK, FLASH_MARK)
# The messages a kept page shows where base.html shows this request's (the same markup).
FLASHED = f'<p class="flash {FLASH_MARK}" role="status">{FLASH_MARK}</p>'


def digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


@dataclass(frozen=True)
class Rendered:
    """A score sheet as rendered for one match at one version, with its parts."""

    match_id: int
    rules: str
    version: int
    title: str
    body: str
    parts: dict[str, tuple[str, str]] = field(default_factory=dict)  # id: (digest, html)
    listing: str = ""
    page: str = ""  # the whole page, around the body, with the marks

    @classmethod
    def split(cls, match_id: int, rules: str, version: int, title: str, body: str) -> Rendered:
        parts: dict[str, tuple[str, str]] = {}
        # The frame is what holds the parts, each part a space in it: a part more or less
        # in a list leaves it as it is.  (Found with str.find: a regular expression that
        # takes the shortest text between the markers tries every character of the page.)
        frame: list[str] = []
        start = 0
        while (opening := body.find(PART_START, start)) != -1:
            inside = opening + len(PART_START)
            closing = body.find(PART_END, inside)
            if closing == -1:
                break
            html = body[inside:closing]
            named = PART_ID.search(html)
            if named is None or named.group(1) in parts:
                raise ValueError("a part of the score sheet has no name of its own")
            parts[named.group(1)] = (digest(html), html)
            frame += (body[start:opening], " ")
            start = closing + len(PART_END)
        frame.append(body[start:])
        frame_text = SPACES.sub(" ", "".join(frame))
        listing = " ".join(
            [f"{FRAME}={digest(frame_text)}"]
            + [f"{name}={made}" for name, (made, _) in parts.items()]
        )
        return cls(match_id, rules, version, title, body, parts, listing)

    def changed_since(self, have: str) -> list[tuple[str, str]] | None:
        """The parts a phone showing ``have`` (a listing) lacks, as (id, html), or None if
        it cannot be brought up to date part by part (another frame, or no listing)."""
        if not have or len(have) > HAVE_LIMIT:
            return None
        shown = {name: made for name, _, made in (item.partition("=") for item in have.split())}
        if shown.get(FRAME) != self.listing.partition(" ")[0].partition("=")[2]:
            return None
        return [
            (name, html) for name, (made, html) in self.parts.items() if shown.get(name) != made
        ]


@contextmanager
def token_marks() -> Iterator[None]:
    """While a page to keep is rendered, every form token on it is the mark: Flask-WTF's
    ``csrf_token()`` answers what this request's ``g`` holds, so a template or macro that
    reaches the global one gets the mark too, never this requester's token."""
    name = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    missing = object()
    saved = g.pop(name, missing)
    setattr(g, name, TOKEN_MARK)
    try:
        yield
    finally:
        g.pop(name, None)
        if saved is not missing:
            setattr(g, name, saved)


def flash_marks(with_categories: bool = False, **_: Any) -> list[Any]:
    """``get_flashed_messages`` while a page to keep is rendered: one mark, which
    :func:`for_request` replaces with this request's messages (the kept page takes none)."""
    return [(FLASH_MARK, FLASH_MARK)] if with_categories else [FLASH_MARK]


def for_request(html: str, token: Callable[[], str]) -> Markup:
    """A kept page's text with this request's messages, form token and a fresh once-token."""
    if FLASHED in html:
        shown: list[tuple[str, str]] = get_flashed_messages(with_categories=True)  # type: ignore[assignment]
        html = html.replace(
            FLASHED,
            "\n".join(
                f'<p class="flash {escape(category)}" role="status">{escape(message)}</p>'
                for category, message in shown
            ),
        )
    if TOKEN_MARK in html:
        html = html.replace(TOKEN_MARK, token())
    if ONCE_MARK in html:
        html = html.replace(ONCE_MARK, door.new_token())
    return Markup(html)  # noqa: S704 - rendered by Jinja with autoescape; only marks replaced


def patch_document(
    rendered: Rendered, parts: list[tuple[str, str]], token: Callable[[], str]
) -> str:
    """The parts that changed, each in a ``<template>`` (a row stays a row), and the new listing."""
    pieces = [f'<template data-live-parts="{escape(rendered.listing)}"></template>']
    pieces += [
        f'<template data-part="{escape(name)}">{for_request(html, token)}</template>'
        for name, html in parts
    ]
    return "\n".join(pieces)


# The pages kept, by what they were made from (see :func:`page_key`).  Every use of the
# store goes through kept_page().
PAGES = reads.ByVersion(size=64)  # a page of 60 rounds, with its parts: about 300 kB
# One render per page at a time: the threads asking for the same page wait for it.
RENDERING = [threading.Lock() for _ in range(32)]
RENDERS = {"count": 0}  # renders made by this process (the tests count them)
COUNTING = threading.Lock()


def page_key(
    match_id: int,
    created_at: Any,
    generation: str | None,
    version: int,
    language: str,
    mode: str,
    key: str,
    root: str,
    table_name: str,
) -> Hashable:
    """What a kept page depends on: the match at this version (its creation time too: SQLite
    may give a purged match's id to a new one; and the database's generation: a restore
    brings back versions that were used already), the language, the link it was opened with
    (the key is in every address on it; a view link has no controls), where the app is
    mounted and the table's name (in the crumbs; renaming a table changes no match)."""
    return (
        "scoreboard",
        match_id,
        str(created_at),
        generation,
        version,
        language,
        mode,
        key,
        root,
        table_name,
    )


def kept_pages_folder(app: Flask) -> Path:
    """Where the workers of a server keep the pages they rendered for each other
    (``PAGES_DIR``, else the instance folder)."""
    return Path(app.config.get("PAGES_DIR") or app.instance_path) / "pages"


def kept_page(key: Hashable, make: Callable[[], tuple[Rendered, bool]]) -> Rendered:
    """The page kept under ``key`` (by this worker, else by another on disk), else the one
    ``make`` renders (kept if it says so).  One render per page at a time on this server:
    this worker's threads wait on a lock, the other workers on a lock file."""
    found = PAGES.get(key)
    if found is not None:
        return found  # type: ignore[return-value]
    with RENDERING[hash(key) % len(RENDERING)]:
        found = PAGES.get(key)
        if found is not None:
            return found  # type: ignore[return-value]
        shared = SharedPages(kept_pages_folder(current_app))
        with shared.turn(key):
            rendered = shared.load(key)
            keep = rendered is not None
            if rendered is None:
                rendered, keep = make()
                with COUNTING:
                    RENDERS["count"] += 1
                if keep:
                    shared.save(key, rendered)
        if keep:
            PAGES.put(key, rendered)  # type: ignore[arg-type]
        return rendered


class SharedPages:
    """The pages kept for the other workers of this server: files in the instance folder
    (as private as the database beside them), written whole and renamed into place, read
    only if they name the key asked for.  Anything amiss with them (a full disk, a file
    cut short) costs a render, never an error.

    A file holds the page and where its body stands in it, not the body and the parts
    again (three copies of the page's text to encode and write): the worker that reads it
    splits the body as the one that rendered it did, with the same marks, so every part
    keeps its digest."""

    FORMAT = 2  # the page and its body's place in it (1: body and parts written out too)
    PRUNE_AFTER = 15 * 60  # seconds: a page unread for that long is some versions old
    pruned = {"at": 0.0}

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def name(self, key: Hashable) -> str:
        return hashlib.blake2b(repr(key).encode(), digest_size=16).hexdigest()

    @contextmanager
    def turn(self, key: Hashable) -> Iterator[None]:
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            handle = os.open(self.folder / f"{self.name(key)}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            yield
            return
        try:
            lock(handle)
            yield
        finally:
            os.close(handle)  # and with it the lock

    def load(self, key: Hashable) -> Rendered | None:
        try:
            kept = json.loads((self.folder / f"{self.name(key)}.json").read_text("utf-8"))
            if kept["key"] != repr(key) or kept["format"] != self.FORMAT:
                return None
            # Another process's marks stand where this one's are looked for.
            theirs = kept["marks"]

            def ours(text: str) -> str:
                for mark, mine in zip(theirs, MARKS, strict=True):
                    text = text.replace(mark, mine)
                return text

            page = kept["page"]
            start, end = kept["body"]
            made = Rendered.split(**kept["made"], body=page[start:end])
            return dataclasses.replace(
                made,
                body=ours(made.body),
                parts={name: (digest, ours(html)) for name, (digest, html) in made.parts.items()},
                page=ours(page),
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def save(self, key: Hashable, rendered: Rendered) -> None:
        start = rendered.page.find(rendered.body)
        if start == -1:  # not a page around its body: each worker renders its own
            return
        path = self.folder / f"{self.name(key)}.json"
        passing = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            made = {
                "match_id": rendered.match_id,
                "rules": rendered.rules,
                "version": rendered.version,
                "title": rendered.title,
            }
            text = json.dumps(
                {
                    "key": repr(key),
                    "format": self.FORMAT,
                    "marks": MARKS,
                    "made": made,
                    "page": rendered.page,
                    "body": [start, start + len(rendered.body)],
                }
            )
            handle = os.open(passing, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(passing, path)
        except OSError:
            passing.unlink(missing_ok=True)
        self.prune()

    def prune(self) -> None:
        now = time.time()
        if now - self.pruned["at"] < 60:
            return
        self.pruned["at"] = now
        try:
            for old in self.folder.iterdir():
                if now - old.stat().st_mtime > self.PRUNE_AFTER:
                    old.unlink(missing_ok=True)
        except OSError:
            pass
