"""The engine stands alone: importing it loads nothing of the web layer."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import referee

WEB_PACKAGES = (
    "flask",
    "flask_sqlalchemy",
    "sqlalchemy",
    "wtforms",
    "flask_wtf",
    "flask_babel",
    "flask_talisman",
    "flask_limiter",
)


def test_engine_imports_no_web_package() -> None:
    probe = (
        "import sys, importlib, pathlib, referee\n"
        "root = pathlib.Path(referee.__file__).parent\n"
        "for path in sorted(root.rglob('*.py')):\n"
        "    parts = path.relative_to(root.parent).with_suffix('').parts\n"
        "    if 'web' in parts or parts[-1] == '__main__':\n"
        "        continue\n"
        "    name = '.'.join(parts[:-1] if parts[-1] == '__init__' else parts)\n"
        "    importlib.import_module(name)\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], check=True, capture_output=True, text=True
    ).stdout.split()
    assert not [name for name in loaded if name.split(".")[0] in WEB_PACKAGES]
    assert not [name for name in loaded if name.startswith("referee.web")]


# The web layer's packages, lowest first: a module imports only from its own rank or below.
# The app factory (``referee.web``) and the entry points (``serve``, ``restore``) sit above all.
WEB_RANKS = {
    "serving": 0,  # how the app meets the machine: paths, settings, addresses, headers, logs
    "store": 1,  # the database, the replays, the summaries and the one write path
    "show": 2,  # what a player reads: words, labels, score sheets, statistics
    "play": 3,  # what a change to a table means: rounds, seats, names, links, documents
    "forms": 4,  # the interface: forms, pages and the API
    "views": 4,
    "api": 4,
}


def _web_imports(path: Path) -> list[tuple[int, str]]:
    """Every ``referee.web`` package or module that this file imports (at any depth), by line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("referee.web"):
            parts = (node.module or "").split(".")
            if len(parts) > 2:
                found.append((node.lineno, parts[2]))
            else:
                found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [
                (node.lineno, alias.name.split(".")[2])
                for alias in node.names
                if alias.name.startswith("referee.web.")
            ]
    return found


def test_web_packages_import_downwards_only() -> None:
    web = Path(referee.__file__).parent / "web"
    packages = {path.name for path in web.iterdir() if (path / "__init__.py").exists()}
    assert packages == set(WEB_RANKS), "a new web package needs its rank in WEB_RANKS"
    wrong = []
    for package, rank in WEB_RANKS.items():
        for path in sorted((web / package).rglob("*.py")):
            for line, target in _web_imports(path):
                if WEB_RANKS.get(target, len(WEB_RANKS)) > rank:
                    wrong.append(f"{path.relative_to(web)}:{line} imports {target}")
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_layer_check_sees_an_upward_import(tmp_path: Path) -> None:
    upward = tmp_path / "upward.py"
    upward.write_text("def late():\n    from referee.web.views import pages\n")
    assert _web_imports(upward) == [(2, "views")]
    assert WEB_RANKS["views"] > WEB_RANKS["store"]


# Every write ends in the unit of work (referee/web/store/work.py): it alone commits.
COMMITTING = frozenset({"store"})


def _commits(path: Path) -> list[int]:
    """The lines of ``path`` that call a ``commit`` method (``session.commit()``,
    ``connection.commit()``, ``db.session.commit()``...)."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "commit"
        and not (isinstance(node.func.value, ast.Name) and node.func.value.id == "work")
    ]


def test_only_the_store_commits() -> None:
    web = Path(referee.__file__).parent / "web"
    wrong = [
        f"{path.relative_to(web)}:{line}"
        for path in sorted(web.rglob("*.py"))
        if path.relative_to(web).parts[0] not in COMMITTING
        for line in _commits(path)
    ]
    assert not wrong, "commits outside the unit of work (store/work.py):\n" + "\n".join(wrong)


def test_commit_check_sees_a_commit(tmp_path: Path) -> None:
    view = tmp_path / "view.py"
    view.write_text("def save():\n    db.session.commit()\n    work.commit(match)\n")
    assert _commits(view) == [2]
