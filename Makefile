# The project's two commands are `make run` and `make test`; the other targets serve them.
#
#   make run                 set up .venv, migrate, load demo data, serve http://127.0.0.1:8000/
#   make test                ruff, mypy, makemigrations --check, pytest (SQLite, in-process services)
#   CI=true make test        the same on PostgreSQL and Redis, with Chromium; fails if any is missing
#   make messages            extract translatable strings (needs GNU gettext) and compile them
#   make constraints         re-pin the packages the dependencies pull in, after editing pyproject.toml

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# pip >= 25.1 installs PEP 735 dependency groups (`--group`) straight from pyproject.toml.
PIP_VERSION := 26.3
PIP := $(BIN)/python -m pip --disable-pip-version-check --quiet --quiet
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

ifeq ($(CI),true)
export DATABASE_URL := postgres://postgres@127.0.0.1:5432/durak
# Database 1, so that a `make run` on database 0 of the same Redis never takes the tests' tasks.
export REDIS_URL := redis://127.0.0.1:6379/1
endif

# The rules engine compiled with mypyc (scripts/build_engine.py; docs/architecture.md). The script compares a
# hash of the compiled sources with the last build's and recompiles only when they differ; without a C
# compiler the engine runs interpreted.

# pytest-xdist's worker processes: the browser tests spend most of their time waiting on a bot or a page, so two
# of them share two cores well. Each worker has its own test database and Redis database (settings/test.py).
PYTEST_WORKERS ?= 2

.PHONY: run test ci-services chromium messages constraints engine

run: $(RUN_STAMP) engine
	$(BIN)/python manage.py migrate --noinput --verbosity 0
	$(BIN)/python manage.py load_demo
	exec $(BIN)/python manage.py run_site --host 127.0.0.1 --port 8000 --demo-password-file .demo-admin-password

test: $(DEV_STAMP) engine
ifeq ($(CI),true)
	$(MAKE) --no-print-directory ci-services
endif
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist worksteal

engine: | $(RUN_STAMP)
	$(BIN)/python scripts/build_engine.py

# CI runs against real services: install the browser if missing, refuse to go on without PostgreSQL
# and Redis (healthcheck exits 1), and create the database on a bare server.
ci-services: chromium
	$(BIN)/python manage.py create_database
	$(BIN)/python manage.py healthcheck

chromium:
	@if ! command -v chromium >/dev/null; then \
		echo "Installing Debian's chromium for the browser tests"; \
		apt-get update -qq; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	fi
	@chromium --version 2>/dev/null

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else "Python 3.11 is needed: make PYTHON=python3.11 ...")'
	$(PYTHON) -m venv $(VENV)
	$(PIP) install pip==$(PIP_VERSION)

$(RUN_STAMP): pyproject.toml constraints.txt | $(BIN)/python
	@echo "Installing the site's dependencies into $(VENV) (a minute the first time)"
	$(PIP) install --constraint constraints.txt --group run
	touch $@

$(DEV_STAMP): pyproject.toml constraints.txt | $(BIN)/python
	@echo "Installing the site's and the tests' dependencies into $(VENV) (a minute the first time)"
	$(PIP) install --constraint constraints.txt --group dev
	touch $@ $(RUN_STAMP)

messages: $(DEV_STAMP)
	@command -v xgettext >/dev/null || { echo "makemessages needs GNU gettext: apt-get install gettext"; exit 1; }
	$(BIN)/python manage.py makemessages --locale ru --no-obsolete \
		--ignore '.venv/*' --ignore 'staticfiles/*' --ignore 'tests/*' --ignore 'bench/*' \
		--ignore 'games/engine/*' --ignore 'games/bots/*' --ignore 'tournaments/pairing/*'
	$(BIN)/python manage.py compile_translations

constraints:
	rm -rf .venv-lock
	$(PYTHON) -m venv .venv-lock
	.venv-lock/bin/python -m pip --disable-pip-version-check -qq install pip==$(PIP_VERSION)
	.venv-lock/bin/python -m pip --disable-pip-version-check -qq install --group dev
	{ echo "# What the pinned dependencies of pyproject.toml pull in, pinned too. Made by 'make constraints'."; \
	  .venv-lock/bin/python -m pip freeze --exclude pip; } > constraints.txt
	rm -rf .venv-lock
