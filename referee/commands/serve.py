"""``referee serve``: the web app on a production server, for every phone at the table.

::

    referee serve                          # every network interface, port 5000 (HOST, PORT)
    HOST=127.0.0.1 referee serve           # this machine only
    referee serve --port 8000 --workers 2 --threads 8

It prints the addresses the phones can open and a QR code of the first.  The
web layer is imported only when the command runs, so the engine's commands
load no web package.
"""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve the web app to the phones at the table",
        description="Serve the web app with gunicorn and print the addresses phones can open.",
    )
    parser.add_argument(
        "--host", help="address to listen on (default $HOST, else 0.0.0.0: every interface)"
    )
    parser.add_argument("--port", help="port to listen on (default $PORT, else 5000)")
    parser.add_argument("--workers", help="worker processes (default $WORKERS, else 2)")
    parser.add_argument("--threads", help="threads per worker (default $THREADS, else 8)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from referee.web import serve

    return serve.main(host=args.host, port=args.port, workers=args.workers, threads=args.threads)
