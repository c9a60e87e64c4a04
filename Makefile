# The two commands of the README: `make run` and `make test`.
# Both create and use a local .venv; `make test` also installs and starts what
# the tests need (Chromium for the browser tests, a throwaway PostgreSQL).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export PIP_DISABLE_PIP_VERSION_CHECK := 1
export DEBIAN_FRONTEND := noninteractive

.PHONY: run test lint typecheck pytest system-deps pg-start pg-stop bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,bench]'
	touch $@

# `make run` installs only what the app needs; the server prints the addresses phones can open.
# HOST=127.0.0.1 keeps it to this machine; PORT, WORKERS, THREADS, PUBLIC_URL: see the README.
APP_STAMP := $(VENV)/.installed-app

$(APP_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e .
	touch $@

run: $(APP_STAMP)
	$(BIN)/flask --app referee.web db upgrade --directory migrations
	$(BIN)/referee serve

# Chromium and PostgreSQL come from Debian's packages; skip what is already there.
system-deps:
	@need=""; \
	[ -x /usr/bin/chromium ] || need="$$need chromium"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need="$$need postgresql"; \
	if [ -n "$$need" ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -q && apt-get install -y -q --no-install-recommends $$need >/dev/null; \
	  else echo "please install:$$need (Debian packages)"; fi; \
	fi

pg-start:
	@.ci/pg_start

pg-stop:
	@.ci/pg_stop --purge

lint: $(STAMP)
	$(BIN)/ruff check referee tests bench
	$(BIN)/ruff format --check referee tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

test: $(STAMP) system-deps lint typecheck
	@set -e; \
	if url=$$(.ci/pg_start 2>/dev/null | tail -1) && [ -n "$$url" ]; then export TEST_PG_URL=$$url; \
	else echo "PostgreSQL not available: its tests will be skipped"; fi; \
	trap '.ci/pg_stop --purge >/dev/null 2>&1 || true' EXIT; \
	HYPOTHESIS_PROFILE=ci $(BIN)/pytest -q -n 2 --dist loadfile

bench: $(STAMP)
	$(BIN)/python bench/gin_bench.py
	$(BIN)/python bench/table_bench.py
	$(BIN)/python bench/history_bench.py
	$(BIN)/python bench/table_move_bench.py

clean:
	rm -rf $(VENV) build *.egg-info
