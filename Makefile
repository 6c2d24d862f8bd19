# Touché: `make run` serves the app (installing what it needs first); `make test` runs every test;
# `make check` is the developers' fast loop: every tier but the fuzz and browser ones.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 5000
export FLASK_APP := tracker

.PHONY: run test check install browser bench clean

$(BIN)/flask: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[test]"
	touch $@

install: $(BIN)/flask

# Debian's Chromium for the browser tests (Playwright drives it; it never downloads a browser).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; fi; }

run: install
	$(BIN)/flask init-db
	$(BIN)/flask demo --if-empty
	@$(BIN)/flask setup-code --url http://127.0.0.1:$(PORT)
	@echo "Touché on http://127.0.0.1:$(PORT)"
	$(BIN)/waitress-serve --host 127.0.0.1 --port $(PORT) --call tracker:create_app

test: install browser
	$(BIN)/python -m pytest

check: install
	$(BIN)/python -m pytest tests/unit tests/integration tests/web

bench: install
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) .pytest_cache
