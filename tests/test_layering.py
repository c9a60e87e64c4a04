"""The engine stands alone (importing it loads nothing of the web layer), its modules and the
web layer's packages import in layers, and no module of referee imports round a circle."""

from __future__ import annotations

import ast
import pkgutil
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp

import referee
from referee import rulesets

ROOT = Path(__file__).resolve().parents[1]

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


def test_the_import_contracts_are_kept() -> None:
    """The layers declared in pyproject.toml ([tool.importlinter]): the engine imports
    nothing of the web layer, the shared types load no solver or game, the solvers call no
    game's hooks, and the web layer's packages import downwards only (imports inside
    functions count)."""
    linter = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run(
        [str(linter), "--no-cache"], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_every_web_package_has_its_layer() -> None:
    web = Path(referee.__file__).parent / "web"
    packages = {path.name for path in web.iterdir() if (path / "__init__.py").exists()}
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (layers,) = [
        c["layers"] for c in contracts["contracts"] if c.get("containers") == ["referee.web"]
    ]
    layered = {name.strip() for layer in layers for name in layer.split(":")}
    assert layered == packages, "a new web package needs its layer in pyproject.toml"


def import_graph() -> grimp.ImportGraph:
    """Every import among referee's modules, those inside functions included (not those for
    type checking only), and the registry's: it imports each game it finds by name."""
    graph = grimp.build_graph("referee", exclude_type_checking_imports=True, cache_dir=None)
    for game in pkgutil.iter_modules(rulesets.__path__):
        if not game.name.startswith("_"):
            graph.add_import(importer="referee.rulesets", imported=f"referee.rulesets.{game.name}")
    return graph


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The modules that import each other round a circle, circle by circle (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            circle = []
            while True:
                member = stack.pop()
                circle.append(member)
                if member == module:
                    break
            if len(circle) > 1:
                found.append(sorted(circle))

    for module in sorted(graph.modules):
        if module.startswith("referee") and module not in index:
            visit(module)
    return found


def test_no_module_of_referee_imports_itself_round_a_circle() -> None:
    assert cycles(import_graph()) == []


def test_the_circle_check_sees_a_circle_through_the_registry() -> None:
    graph = import_graph()
    graph.add_import(importer="referee.melds", imported="referee.rulesets")  # the old melds.py
    assert ["referee.gin", "referee.melds", "referee.rulesets", "referee.rulesets.gin"] in [
        [
            m
            for m in circle
            if m in {"referee.gin", "referee.melds", "referee.rulesets", "referee.rulesets.gin"}
        ]
        for circle in cycles(graph)
    ]


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


# The pages and the API build a write and hand it to the door (referee/web/store/door.py):
# the session, the commit and the comparison of what a phone saw are the door's.
NOT_IN_VIEWS = re.compile(
    r"db\.session|work\.commit|work\.stale|work\.expect|changed_since\(|changed_once\("
)


def test_pages_and_the_api_write_only_through_the_door() -> None:
    web = Path(referee.__file__).parent / "web"
    wrong = [
        f"{path.relative_to(web)}:{number}: {line.strip()}"
        for package in ("views", "api")
        for path in sorted((web / package).rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if NOT_IN_VIEWS.search(line)
        and "Rendered.changed_since" not in line
        and "def changed_since(self" not in line
    ]
    assert not wrong, "writes outside the door:\n" + "\n".join(wrong)


# What a phone saw is compared with the match by the door alone (door.save, save_table): a
# page or an operation hands it over in its write (door.Seen) and renders the Conflict.
COMPARES_WHAT_WAS_SEEN = re.compile(r"\bdoor\.(moved|outdated|changed|version_of)\b")


def _compared_outside_the_door(web: Path) -> list[str]:
    return [
        f"{path.relative_to(web)}: {line.strip()}"
        for package in ("views", "api")
        for path in sorted((web / package).rglob("*.py"))
        for line in path.read_text().splitlines()
        if COMPARES_WHAT_WAS_SEEN.search(line)
    ]


def test_only_the_door_compares_what_the_phone_saw() -> None:
    found = _compared_outside_the_door(Path(referee.__file__).parent / "web")
    assert not found, "versions compared outside the door:\n" + "\n".join(found)


def test_comparison_check_sees_a_comparison(tmp_path: Path) -> None:
    (tmp_path / "views").mkdir()
    (tmp_path / "api").mkdir()
    (tmp_path / "views" / "page.py").write_text(
        "if door.changed(write, match):\n    pass\nnumber = door.version_of(x)\n"
    )
    (tmp_path / "api" / "op.py").write_text("stale = door.outdated(found, seen)\n")
    assert _compared_outside_the_door(tmp_path) == [
        "views/page.py: if door.changed(write, match):",
        "views/page.py: number = door.version_of(x)",
        "api/op.py: stale = door.outdated(found, seen)",
    ]


def test_pages_and_the_api_are_kept_from_every_module_of_the_store_but_three() -> None:
    """The contract lists what views and api may not import; a new module of the store is
    forbidden to them unless it is the door, the models or the reads."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (forbidden,) = [
        c["forbidden_modules"]
        for c in contracts["contracts"]
        if c.get("source_modules") == ["referee.web.views", "referee.web.api"]
    ]
    store = Path(referee.__file__).parent / "web" / "store"
    every = {f"referee.web.store.{path.stem}" for path in store.glob("*.py")}
    allowed = {f"referee.web.store.{name}" for name in ("__init__", "door", "models", "reads")}
    assert set(forbidden) == every - allowed
