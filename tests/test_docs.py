"""The documentation carries the rules the referee enforces and the match file it reads.

docs/rules.md and docs/match-format.md are the charter's RULES.md and MATCH_FORMAT.md, kept in
the repository so that a clone has them; beside a checkout of the charter (``../shared``) they
must be the same text. Every ruleset the engine registers must have its rules there.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CHARTER = ROOT.parent / "shared"


@pytest.mark.parametrize(
    ("page", "charter_file"), [("rules.md", "RULES.md"), ("match-format.md", "MATCH_FORMAT.md")]
)
def test_docs_copy_is_the_charters_text(page: str, charter_file: str) -> None:
    charter = CHARTER / charter_file
    if not charter.is_file():
        pytest.skip(f"no {charter} beside this checkout to compare with")
    copy = (DOCS / page).read_text(encoding="utf-8")
    assert copy == charter.read_text(encoding="utf-8"), (
        f"docs/{page} differs from {charter}: copy the charter's text again"
    )


def test_every_registered_ruleset_has_its_rules_in_the_docs() -> None:
    rules = (DOCS / "rules.md").read_text(encoding="utf-8")
    headings = set(re.findall(r"^## `([a-z0-9-]+)`", rules, flags=re.MULTILINE))
    assert RULESETS, "the engine registers no ruleset"
    missing = sorted(set(RULESETS) - headings)
    assert not missing, f"rulesets without a section in docs/rules.md: {missing}"


def test_every_page_of_the_docs_is_in_the_site() -> None:
    site = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    in_nav = set(re.findall(r"[\w/.-]+\.md", site))
    pages = {path.relative_to(DOCS).as_posix() for path in DOCS.rglob("*.md")}
    assert pages - in_nav == set(), "pages no reader can reach from the site's menu"
    assert in_nav - pages == set(), "the menu names pages that do not exist"


WORK_HISTORY = re.compile(r"\bissue ?#?\d+|\bsession \d+", re.IGNORECASE)


def test_no_work_history_in_the_projects_text() -> None:
    texts = [ROOT / "README.md", *DOCS.rglob("*.md"), *(ROOT / "bench").glob("*.md")]
    for folder in ("referee", "tests", "bench"):
        texts += (ROOT / folder).rglob("*.py")
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in texts
        if path.is_file()
        for match in WORK_HISTORY.finditer(path.read_text(encoding="utf-8"))
    ]
    assert not found, "the git log keeps the work's history, not the project's files"
