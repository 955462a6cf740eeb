# The README's commands. Each one sets up what it needs on a fresh machine by itself.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

NODE_STAMP := node_modules/.installed

.PHONY: run test bench lock browser-deps icu-deps node-deps lint-js clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): pyproject.toml constraints.txt Makefile | $(BIN)/python icu-deps
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[dev,web,paper,postgres,scale,rl,train]'
	touch $(STAMP)

## PyICU (account names' UTS #39 skeletons) is built against the system's ICU: Debian's
## libicu-dev, pkg-config and a C++ compiler
icu-deps:
	@if ! pkg-config --exists icu-uc 2>/dev/null || ! command -v g++ >/dev/null; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q libicu-dev pkg-config g++; \
	fi

## make lock: resolve pyproject.toml's ranges afresh in a throwaway virtualenv and write the
## result to constraints.txt (the versions every install then gets); run make test after it
lock:
	rm -rf .lock-venv
	$(PY) -m venv .lock-venv
	.lock-venv/bin/python -m pip install -q --upgrade pip
	.lock-venv/bin/python -m pip install -q -e '.[dev,web,paper,postgres,scale,rl,train]'
	{ sed -n '/^#/p' constraints.txt; .lock-venv/bin/python -m pip freeze --exclude-editable; } > constraints.new
	mv constraints.new constraints.txt
	rm -rf .lock-venv

## make run: install, then start the web app on SQLite (data/asobiba.db) and print its address
run: $(STAMP)
	$(BIN)/asobiba serve --host $(HOST) --port $(PORT) --data-dir data

## the browser client's tools (ESLint, and axe-core for the accessibility tests), installed
## into ./node_modules from package-lock.json; nothing of it is served to players
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

node-deps: $(NODE_STAMP)

## make lint-js: ESLint over asobiba/web
lint-js: $(NODE_STAMP)
	npx --no-install eslint --max-warnings 0 asobiba/web asobiba/games tests

## make test: install (Python packages; Debian chromium, CJK fonts, PostgreSQL; npm tools), then every check
test: $(STAMP) browser-deps $(NODE_STAMP)
	$(BIN)/ruff check .
	npx --no-install eslint --max-warnings 0 asobiba/web asobiba/games tests
	$(BIN)/mypy asobiba
	$(BIN)/python -m pytest -n 2 -p no:cacheprovider --durations=25 tests

## Debian's chromium for the Playwright tests (the Playwright browser download is unreachable),
## CJK fonts so Japanese renders, PostgreSQL's and Redis's server binaries for the store and
## multi-process tests (throwaway instances on free ports), poppler's pdftoppm for the paper tests
browser-deps:
	@if [ ! -x /usr/bin/chromium ] || ! fc-list 2>/dev/null | grep -qi 'noto sans cjk' \
	    || ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
	    || [ ! -x /usr/bin/redis-server ] || [ ! -x /usr/bin/pdftoppm ] || ! command -v npm >/dev/null; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q chromium fonts-noto-cjk postgresql redis-server poppler-utils; \
	fi

## make bench: every benchmark with its quick defaults (peers need: pip install -e '.[bench]')
bench: $(STAMP)
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[dev,bench]'
	@for f in bench/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache node_modules
