# Two commands matter: `make run` (the service on the embedded default) and `make test`.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint format prod bench install install-dev js-deps clean

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) on PATH (or make PYTHON=python3)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

# Each target says its mode (APP_ENV): settings treat a run with DATABASE_URL/REDIS_URL and no
# APP_ENV as production.
run: export APP_ENV = local
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo
	@echo ""
	@echo "Service on http://$(HOST):$(PORT)/ (links to everything)  API docs http://$(HOST):$(PORT)/api/docs/  admin http://$(HOST):$(PORT)/admin/ (admin@demo.test)"
	@echo "Kiosk app http://$(HOST):$(PORT)/kiosk/  (pair it with the kiosk app code printed above)"
	@echo "Agent dashboard http://$(HOST):$(PORT)/agent/  (agent1@burgers.demo.test)  Owner panel http://$(HOST):$(PORT)/panel/  (owner@burgers.demo.test); every demo password is demo-password-1"
	@[ -n "$$PROCESSOR_SECRET_KEY" ] || echo "Demo payments: no money moves. Card 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined."
	PORT=$(PORT) SESSION_COOKIE_SECURE=$${SESSION_COOKIE_SECURE:-false} $(BIN)/python -m config.serve -b $(HOST) -p $(PORT) config.asgi:application

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache  # the layers (pyproject.toml [tool.importlinter], docs/decisions.md)

format: install-dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

test: export APP_ENV = test
test: install-dev lint
	$(BIN)/python manage.py makemigrations --check --dry-run
	@if [ -f tests/video_js/package.json ] && command -v npm >/dev/null 2>&1; then npm ci --prefix tests/video_js --no-audit --no-fund; fi
	@if [ -f tests/realtime_js/package.json ] && command -v npm >/dev/null 2>&1; then npm ci --prefix tests/realtime_js --no-audit --no-fund; fi
	CACHE_KEY_PREFIX=kiosk-test $(BIN)/pytest $(PYTEST_ARGS)

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
	@for b in ws_fanout webhook_throughput; do [ ! -f bench/$$b.py ] || $(BIN)/python bench/$$b.py; done

clean:
	rm -rf $(VENV) var
