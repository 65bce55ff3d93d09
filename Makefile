# boardlab: `make run` starts the main job, `make test` runs the whole suite.
# Both set up a local .venv and install everything they need on a fresh machine.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)

.PHONY: run test bench bench-ab lint venv fast chromium postgres play clean screenshots

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

venv: $(STAMP) fast

# The compiled rollouts (src/boardlab/fast/, optional): rebuilt in place when their sources change. Without a C
# compiler the build says so and the games play their rollouts in pure Python.
FAST_SRC := $(wildcard src/boardlab/fast/_*.pyx src/boardlab/fast/*.pxi src/boardlab/fast/*.h)
FAST_STAMP := src/boardlab/fast/.built
# With a C compiler here, `make test` requires the compiled rollouts (the differential test fails, not skips).
REQUIRE_FAST := $(shell command -v cc >/dev/null 2>&1 && echo 1)

$(FAST_STAMP): $(STAMP) $(FAST_SRC) setup.py
	$(PY) setup.py -q build_ext --inplace
	touch $(FAST_STAMP)

fast: $(FAST_STAMP)

# Debian's Chromium for the browser tests (Playwright cannot download browsers here).
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; \
	fi

# Debian's PostgreSQL server, for the tests that run the storage on PostgreSQL (a throwaway server each).
postgres:
	@if ! command -v initdb >/dev/null && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq postgresql >/dev/null; \
	fi

run: venv
	$(VENV)/bin/boardlab serve

play: venv
	$(VENV)/bin/boardlab play blast-radius --seat 0=human --seat 1=random

test: venv chromium postgres
	BOARDLAB_REQUIRE_POSTGRES=1 BOARDLAB_REQUIRE_FAST=$(REQUIRE_FAST) $(PY) -m pytest -n 2 -q

bench: venv
	$(PY) bench/run.py $(BENCH_ARGS)

# Every game's table at 1280x800 and 390x844 (docs/screenshots/), taken by the browser tests (a few minutes).
screenshots: venv chromium
	BOARDLAB_UPDATE_SCREENSHOTS=1 $(PY) -m pytest -q -p no:randomly tests/browser/test_table_page_screenshots.py

# Same-run A/B against an earlier commit: `make bench-ab BASE=597800e` (wall-clock rates, alternating) and,
# with valgrind installed, `make bench-ab BASE=597800e AB=instructions` (instruction counts, exact).
BASE ?= HEAD~1
AB ?= playouts
bench-ab: venv
	@tmp=$$(mktemp -d) && git archive $(BASE) src | tar -x -C $$tmp && \
		$(PY) bench/ab_$(AB).py $$tmp/src src; status=$$?; rm -rf $$tmp; exit $$status

lint: venv
	$(VENV)/bin/ruff check src tests bench docs/examples docs/research
	$(VENV)/bin/ruff format --check src tests bench docs/examples docs/research

clean:
	rm -rf $(VENV) artifacts .pytest_cache build $(FAST_STAMP) src/boardlab/fast/*.so src/boardlab/fast/_*.c
