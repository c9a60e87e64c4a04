"""Keep the Indonesian catalogue up to date: ``python -m referee.web.show.catalog [update|missing]``.

``update`` extracts every message (templates, forms, and every engine
``define_message`` template, per ``babel.cfg``), merges them into
``translations/id/LC_MESSAGES/messages.po`` and compiles the ``.mo``.
``missing`` lists the messages that still have no Indonesian text (the test
``tests/web/test_i18n.py::test_every_engine_message_has_indonesian`` fails
while any engine message is missing).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from babel.messages.pofile import read_po

from referee.web.serving.paths import ROOT, TRANSLATIONS
from referee.web.show.i18n import compile_catalog

PO = TRANSLATIONS / "id" / "LC_MESSAGES" / "messages.po"
KEYWORDS = ["-k", "_l", "-k", "define_message:2", "-k", "define_text:2"]
WIDTH = "100"  # the width the committed .po is written in: an update changes only what changed


def update() -> None:
    pybabel = str(Path(sys.executable).with_name("pybabel"))
    with tempfile.TemporaryDirectory() as folder:
        pot = Path(folder) / "messages.pot"
        subprocess.run(
            [
                pybabel,
                "extract",
                "-F",
                "babel.cfg",
                *KEYWORDS,
                "--no-location",
                "--sort-output",
                "-o",
                str(pot),
                ".",
            ],
            cwd=ROOT,
            check=True,
        )
        subprocess.run(
            [
                pybabel,
                "update",
                "-i",
                str(pot),
                "-d",
                str(TRANSLATIONS),
                "-l",
                "id",
                "--no-fuzzy-matching",
                "--ignore-obsolete",
                "--width",
                WIDTH,
            ],
            cwd=ROOT,
            check=True,
        )
    compile_catalog(PO)


def missing() -> list[str]:
    with PO.open("rb") as handle:
        catalog = read_po(handle)
    return [str(message.id) for message in catalog if message.id and not message.string]


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "missing"
    if command == "update":
        update()
    for text in missing():
        print(text)
