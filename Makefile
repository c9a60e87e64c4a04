# The two commands of the README: `make run` and `make test`.
# Both create and use a local .venv; `make test` also installs and starts what
# the tests need (Chromium for the browser tests, a throwaway PostgreSQL).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export PIP_DISABLE_PIP_VERSION_CHECK := 1
export DEBIAN_FRONTEND := noninteractive

.PHONY: run test lock lint typecheck docs pytest system-deps pg-start pg-stop bench clean image

# Python 3.11 or newer, said before anything is installed (and of a .venv made before).
NEEDS_PYTHON := -c 'import sys; sys.exit(sys.version_info < (3, 11))'
TOO_OLD = { echo "Remi Referee needs Python 3.11 or newer; $(1) is $$($(1) -V 2>&1)." \
	"Install one and run again with PYTHON=python3.11 (or newer)."; exit 1; }

$(BIN)/python:
	@$(PYTHON) $(NEEDS_PYTHON) 2>/dev/null || $(call TOO_OLD,$(PYTHON))
	$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); exit 1; }

# An install that fails takes the .venv with it, so the next `make` starts clean.
INSTALL = { $(1); } || { rm -rf $(VENV); echo "The install failed (.venv removed): see above."; exit 1; }
CHECK_VENV = @$(BIN)/python $(NEEDS_PYTHON) || { rm -rf $(VENV); $(call TOO_OLD,$(BIN)/python); }

# Every install takes the versions of the lock files, checked against their hashes, then
# the project itself without its dependencies (and with the locked setuptools, not a fresh
# one): requirements/app.txt for `make run`, requirements/dev.txt (the same versions, and
# the dev and bench extras) for `make test`. `make lock` writes them again from
# pyproject.toml, each package at its newest version within the bounds given there
# (`make lock UPGRADE=` adds a new dependency and keeps the other versions as locked).
# setuptools: pyproject.toml's [build-system].
LOCKED_BUILD := setuptools>=77
UPGRADE := --upgrade
LOCK := $(BIN)/uv pip compile pyproject.toml - --universal --python-version 3.11 \
	--generate-hashes $(UPGRADE) --quiet --custom-compile-command 'make lock'

$(STAMP): pyproject.toml requirements/dev.txt | $(BIN)/python
	$(CHECK_VENV)
	$(call INSTALL,$(BIN)/pip install -q --upgrade pip \
	  && $(BIN)/pip install -q --require-hashes -r requirements/dev.txt \
	  && $(BIN)/pip install -q --no-deps --no-build-isolation -e .)
	touch $@

lock: $(STAMP)
	echo '$(LOCKED_BUILD)' | $(LOCK) --extra postgresql -o requirements/app.txt
	echo '$(LOCKED_BUILD)' | $(LOCK) --extra dev --extra bench -c requirements/app.txt -o requirements/dev.txt

# `make run` installs only what the app needs (and psycopg, for PostgreSQL); the server prints the addresses phones can open.
# HOST=127.0.0.1 keeps it to this machine; PORT, WORKERS, THREADS, PUBLIC_URL: see the README.
APP_STAMP := $(VENV)/.installed-app

$(APP_STAMP): pyproject.toml requirements/app.txt | $(BIN)/python
	$(CHECK_VENV)
	$(call INSTALL,$(BIN)/pip install -q --upgrade pip \
	  && $(BIN)/pip install -q --require-hashes -r requirements/app.txt \
	  && $(BIN)/pip install -q --no-deps --no-build-isolation -e .)
	touch $@

# requirements/app.txt holds the postgresql extra: DATABASE_URL=postgresql://... make run works.
# `referee serve` brings the database up to date itself before it serves.
run: $(APP_STAMP)
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

# The documentation site (mkdocs.yml), built strictly: a page missing from the nav, a broken
# link or anchor fails it. It lands in build/site (git-ignored); open build/site/index.html.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir build/site

test: $(STAMP) system-deps lint typecheck docs
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

# The container image (Containerfile); BASE=... builds it on another Python 3.11+ image.
CONTAINER ?= podman
image:
	$(CONTAINER) build --format docker $(if $(BASE),--build-arg BASE=$(BASE)) -t remi-referee -f Containerfile .

clean:
	rm -rf $(VENV) build *.egg-info
