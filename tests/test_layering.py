"""The engine stands alone: importing it loads nothing of the web layer."""

from __future__ import annotations

import subprocess
import sys

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
