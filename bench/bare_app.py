"""The peer of the load benchmark: a bare Flask endpoint returning a constant, served by
gunicorn with exactly the settings ``referee serve`` uses (``referee.web.serve``).

    python bench/bare_app.py --port 8001     # http://127.0.0.1:8001/
"""

from __future__ import annotations

import argparse
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication

from referee.web.serve import gunicorn_options, settings_from


def create_bare_app() -> Flask:
    app = Flask(__name__)

    @app.get("/")
    def constant() -> Any:
        return {"ok": True}

    return app


class BareServer(BaseApplication):  # type: ignore[misc]
    def __init__(self, settings: Any) -> None:
        self.settings = settings
        super().__init__()

    def load_config(self) -> None:
        options = gunicorn_options(self.settings)
        options.pop("when_ready")  # the referee's banner; nothing to announce here
        for name, value in options.items():
            self.cfg.set(name, value)

    def load(self) -> Flask:
        return create_bare_app()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", default="8001")
    parser.add_argument("--workers")
    parser.add_argument("--threads")
    args = parser.parse_args()
    settings = settings_from(
        {"host": "127.0.0.1", "port": args.port, "workers": args.workers, "threads": args.threads},
        {},
    )
    BareServer(settings).run()


if __name__ == "__main__":
    main()
