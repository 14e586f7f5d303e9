# Two commands matter: `make run` (the service on the embedded default) and `make test`.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test test-fast file-seconds lint structure format prod bench install install-dev js-deps clean lock lock-upgrade cluster cluster-stop

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) on PATH (or make PYTHON=python3)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# Installs come from the locks (every package, direct and transitive, pinned with its hashes);
# requirements*.txt are the human lists the locks are compiled from (`make lock`, docs/decisions/configuration.md).
$(VENV)/.installed: requirements.lock $(BIN)/python
	$(BIN)/pip install --quiet --require-hashes -r requirements.lock
	touch $@

$(VENV)/.installed-dev: requirements.lock requirements-dev.lock $(BIN)/python
	$(BIN)/pip install --quiet --require-hashes -r requirements-dev.lock
	touch $@ $(VENV)/.installed

# After changing requirements.txt or requirements-dev.txt: `make lock` re-resolves, keeping every
# pin it can (commit both .lock files); `make lock-upgrade` moves everything to the newest allowed.
LOCK_FLAGS := --quiet --generate-hashes --allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links
lock: $(BIN)/python
	$(BIN)/pip install --quiet pip-tools==7.6.2
	$(BIN)/pip-compile $(LOCK_FLAGS) $(LOCK_ARGS) -o requirements.lock requirements.txt
	$(BIN)/pip-compile $(LOCK_FLAGS) $(LOCK_ARGS) -c requirements.lock -o requirements-dev.lock requirements-dev.txt

lock-upgrade: LOCK_ARGS = --upgrade
lock-upgrade: lock

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

# Each target says its mode (APP_ENV): settings treat a run with DATABASE_URL/REDIS_URL and no
# APP_ENV as production.
run: export APP_ENV = local
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo --base-url http://$(HOST):$(PORT)
	@echo ""
	@echo "Serving on http://$(HOST):$(PORT)/ : the steps above take a demo order; that page repeats them (and makes a new kiosk pairing code)."
	@echo "API docs http://$(HOST):$(PORT)/api/docs/   Stop with Ctrl-C."
	PORT=$(PORT) SESSION_COOKIE_SECURE=$${SESSION_COOKIE_SECURE:-false} $(BIN)/python -m config.serve -b $(HOST) -p $(PORT) config.asgi:application

# The browser apps' development tools (ESLint, TypeScript: package.json, pinned by package-lock.json).
node_modules/.installed: package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "need node and npm on PATH (the browser apps' lint and unit tests)"; exit 1; }
	npm ci --no-audit --no-fund
	touch $@

js-deps: node_modules/.installed

lint: install-dev js-deps
	node_modules/.bin/eslint .
	node_modules/.bin/tsc -p jsconfig.json  # strict checkJs over the JSDoc types of all of static/ but vendored code
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache  # the layers (pyproject.toml [tool.importlinter], docs/decisions/structure.md)
	$(BIN)/python scripts/structure.py  # circles, imports running back up, ignores: none may grow
	APP_ENV=test $(BIN)/mypy  # types (pyproject.toml [tool.mypy]; the Django plugin loads the settings)

# The structure's measurements (scripts/structure.py; `-v` lists each import counted): fails when
# one is over the limit at the top of the script. `make lint` runs it too.
structure: install-dev
	$(BIN)/python scripts/structure.py -v

format: install-dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# The suite runs on TEST_WORKERS pytest-xdist workers (each with its own database, Redis database
# and key prefix: tests/support/parallel.py), a test file on one worker, the longest files first
# (tests/support/ordering.py); 0 runs it in one process. Three on two cores: the live and browser
# tests mostly wait (timers, pages), and two workers kept the cores 45 % busy.
# Run after them, with nothing beside them: the schema fuzz (pytest-xdist runs only one of
# schemathesis's per-operation items). The pulled-cable test runs on the workers: its cable lies
# between two network namespaces of its own, and the host's network never changes
# (tests/support/cable.py; tests/video/call/test_cable_leaves_the_host_alone_browser.py).
TEST_WORKERS ?= 3
FUZZ_TESTS = tests/api/test_api_fuzz.py
ALONE_TESTS = $(FUZZ_TESTS)
# Each run ends with its wall time (from make's start; pytest prints its own and the 30 slowest)
# and how busy the machine's cores were meanwhile (/proc/stat: all its work, not only this run's),
# which tells whether more workers could help (cores idle) or not (cores full).
# The workers' part leaves var/junit.xml: scripts/file_seconds.py turns a quiet run's into the
# seconds the workers are balanced by (tests/file_seconds.json).
STARTED := $(shell date +%s)
CPU_JIFFIES = awk '/^cpu /{print $$2+$$3+$$4+$$7+$$8+$$9, $$2+$$3+$$4+$$5+$$6+$$7+$$8+$$9}' /proc/stat 2>/dev/null
CPU_STARTED := $(shell $(CPU_JIFFIES))
WALL_TIME = @echo "$@: wall time $$(( $$(date +%s) - $(STARTED) )) s"; \
	[ -z "$(CPU_STARTED)" ] || $(CPU_JIFFIES) | awk -v start="$(CPU_STARTED)" '{split(start, s, " "); \
	if ($$2 > s[2]) printf "$@: cores busy %d %% of the time (the whole machine)\n", 100 * ($$1 - s[1]) / ($$2 - s[2])}'
test: export APP_ENV = test
test: install-dev lint
	$(BIN)/python manage.py makemigrations --check --dry-run
	@if [ -f tests/video_js/package.json ] && command -v npm >/dev/null 2>&1; then npm ci --prefix tests/video_js --no-audit --no-fund; fi
	@if [ -f tests/realtime_js/package.json ] && command -v npm >/dev/null 2>&1; then npm ci --prefix tests/realtime_js --no-audit --no-fund; fi
	node --test tests/js/  # the browser apps' stores, formatting and words (Node's test runner)
	CACHE_KEY_PREFIX=kiosk-test $(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile $(addprefix --ignore=,$(ALONE_TESTS)) --junitxml=var/junit.xml $(PYTEST_ARGS)
	$(if $(PYTEST_ARGS),,CACHE_KEY_PREFIX=kiosk-test $(BIN)/pytest $(ALONE_TESTS))
	$(WALL_TIME)

# tests/file_seconds.json (the order tests/support/ordering.py runs the files in), from a whole run
# of the workers' part on a quiet machine: a run beside other work measures the load, not the files.
file-seconds: export APP_ENV = test
file-seconds: install-dev
	CACHE_KEY_PREFIX=kiosk-test $(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile $(addprefix --ignore=,$(ALONE_TESTS)) --junitxml=var/junit.xml $(PYTEST_ARGS)
	$(BIN)/python scripts/file_seconds.py var/junit.xml
	$(WALL_TIME)

# Every test that starts no server process and no browser (tests/conftest.py marks the others
# `live`): the quick answer while working, on the same workers.
test-fast: export APP_ENV = test
test-fast: install-dev
	CACHE_KEY_PREFIX=kiosk-test $(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile -m "not live" $(addprefix --ignore=,$(FUZZ_TESTS)) $(PYTEST_ARGS)
	$(WALL_TIME)

# The production process set of the Procfile (web, worker, beat) on PostgreSQL + Redis.
prod: export APP_ENV = production
prod: install
	@test -n "$$DATABASE_URL" -a -n "$$REDIS_URL" || { echo "make prod needs DATABASE_URL and REDIS_URL"; exit 1; }
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput -v 0
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m config.procman start  # honcho, with a stop timeout past the drain

# Benchmarks need PostgreSQL, Redis and wrk (apt-get install wrk); each prints its reference ratio.
bench: install-dev
	$(BIN)/python bench/ceiling.py
	$(BIN)/python bench/kiosk_poll.py
	$(BIN)/python bench/accept_race.py
	@for b in ws_fanout webhook_throughput routing; do [ ! -f bench/$$b.py ] || $(BIN)/python bench/$$b.py; done

clean:
	rm -rf $(VENV) var

# The production process set behind HAProxy and PgBouncer on this machine (deploy/, docs/deploy.md):
# two web processes, a worker and beat, PostgreSQL and Redis of its own, from Debian packages.
cluster: install
	deploy/cluster.sh start

cluster-stop:
	deploy/cluster.sh stop
