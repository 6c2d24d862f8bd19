# Touché: `make run` serves the app (installing what it needs first); `make test` runs every test;
# `make check` is the developers' fast loop: the unit tier (every rule, the docs, the catalogs, the
# layers), on every core, in under a minute.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 5000
# Server threads for pages and commands; live followers wait on a pool of their own (tracker/web/serve.py).
THREADS ?= 16
export FLASK_APP := tracker

.PHONY: run test check install browser postgres bench clean mutation

$(BIN)/flask: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[test]"
	touch $@

# The gettext catalogs are compiled at every install: the .mo files are built, never committed.
install: $(BIN)/flask
	$(BIN)/python -m tracker.i18n.catalogs compile

# Debian's Chromium for the browser tests (Playwright drives it; it never downloads a browser).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; fi; }

# Debian's PostgreSQL server for the tests on PostgreSQL: they start a throwaway cluster of their
# own (initdb and pg_ctl in a temporary directory, a Unix socket only); no service is started here.
postgres:
	@ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; fi; }

run: install
	$(BIN)/flask init-db
	$(BIN)/flask demo --if-empty
	@$(BIN)/flask setup-code --url http://127.0.0.1:$(PORT)
	@echo "Touché on http://127.0.0.1:$(PORT)"
	$(BIN)/python -m tracker.web.serve --host 127.0.0.1 --port $(PORT) --threads $(THREADS)

# Every tier on every core (pytest-xdist): a test module whose tests share a costly module-wide
# fixture is kept on one worker (its xdist_group), the rest go wherever a worker is free. The
# browser tier runs after the others, in workers of its own: Playwright keeps a thread for its
# whole session, and a long import forks only in a process where no other thread runs.
JOBS ?= auto
FIRST_TIERS := tests/unit tests/integration tests/web tests/fuzz tests/crawl
test: install browser postgres
	$(BIN)/python -m pytest -n $(JOBS) --dist loadgroup $(FIRST_TIERS)
	$(BIN)/python -m pytest -n $(JOBS) --dist loadgroup tests/browser

check: install
	$(BIN)/python -m pytest -n $(JOBS) --dist loadgroup tests/unit

# Mutation testing of the pure rules against the fast unit tier (minutes, not part of `make test`).
# One target at a time on 2 workers, each cut off after MUTATION_TIME seconds; mutmut re-runs every
# mutant a target names, so each run measures the tests as they are now. A target the time limit
# cut short is listed in mutants/cut-short, and the score script reports its package PARTIAL and
# fails rather than pass a partial score off as complete. The targets are read from the tree, so a
# new ruleset or shared module is measured without editing this list: every ruleset package, every
# shared module, and `x_*` for the functions of tracker/rules/__init__.py.
MUTATION_TIME ?= 3600
MUTATION_RULESETS := $(notdir $(patsubst %/,%,$(dir $(wildcard tracker/rules/*/__init__.py))))
MUTATION_SHARED := $(filter-out __init__,$(basename $(notdir $(wildcard tracker/rules/*.py))))
MUTATION_TARGETS ?= $(addsuffix .*,$(MUTATION_SHARED) $(MUTATION_RULESETS)) x_*
mutation: install
	@mkdir -p mutants && : > mutants/cut-short
	@set -f; for target in $(MUTATION_TARGETS); do \
	  echo "== mutmut: tracker.rules.$$target"; \
	  timeout $(MUTATION_TIME) $(BIN)/python tests/mutation/run.py run --max-children 2 "tracker.rules.$$target" >/dev/null 2>&1; \
	  [ $$? -ne 124 ] || echo "$$target" >> mutants/cut-short; \
	done
	$(BIN)/python tests/mutation/score.py

# The benchmark also compares with the eventsourcing library, which only it needs (the bench extra).
bench: install
	$(BIN)/pip install --quiet -e ".[bench]"
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) .pytest_cache mutants
