# pqpan: a thin wrapper around CMake. `make run` and `make test` set up a fresh Debian 12
# machine themselves (scripts/deps.sh).
BUILD      ?= build
BUILD_ASAN ?= build-asan
BUILD_FUZZ ?= build-fuzz
BUILD_M4   ?= build-m4
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX     ?= /usr/local
FUZZ_SECONDS ?= 10

WEB        ?= $(BUILD)/web
WEB_PORT   ?= 8000

.PHONY: all deps build run docs test test-unit test-asan test-fuzz test-web web web-serve bench bench-web m4 bench-m4 install clean

all: build

deps:
	@scripts/deps.sh --check 2>/dev/null || scripts/deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

run: build
	./$(BUILD)/pqpan reproduce --out out
	scripts/mesh_summary.sh ./$(BUILD)/pqpan

# Rewrites the generated regions of docs/*.md from the CLI's output (scripts/gen_docs.sh;
# tests/integration/docs_fresh.sh fails when they are stale).
docs: build
	scripts/gen_docs.sh ./$(BUILD)/pqpan .
	python3 python/tools/gen_options.py ./$(BUILD)/pqpan python/pqpan/_options.py

# The main suite runs last so its ctest summary closes the output. `make test NO_WEB=1`
# leaves out the browser test (test-web) and says so.
test: test-fuzz test-asan test-web test-unit

test-unit: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

test-asan: deps
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DPQPAN_SANITIZE=ON >/dev/null
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	ctest --test-dir $(BUILD_ASAN) --output-on-failure -j $(JOBS) -LE 'ct|integration'

test-fuzz: deps
	CC=clang cmake -S . -B $(BUILD_FUZZ) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPQPAN_FUZZ=ON -DPQPAN_TESTS=OFF -DPQPAN_FUZZ_SECONDS=$(FUZZ_SECONDS) >/dev/null
	cmake --build $(BUILD_FUZZ) -j $(JOBS)
	ctest --test-dir $(BUILD_FUZZ) --output-on-failure -j $(JOBS) -L fuzz

# The web page (docs/WEB.md): libpqpan and the CLI compiled with Emscripten into a static
# site in $(WEB); web-serve serves it on http://127.0.0.1:$(WEB_PORT)/.
web: deps
	web/build.sh $(WEB) $(JOBS)

web-serve: web
	cd $(WEB) && python3 -m http.server --bind 127.0.0.1 $(WEB_PORT)

# Headless chromium over the page: its figures against `pqpan estimate` (tests/web/).
ifeq ($(NO_WEB),1)
test-web:
	@echo "test-web: SKIPPED: the browser test was left out on request (NO_WEB=1)"
else
test-web: build web
	tests/web/run.sh test $(WEB) $(BUILD)/pqpan $(BUILD)/web-test
endif

# The page's update time in chromium against the < 50 ms target (tests/web/bench_page.js).
bench-web: web
	tests/web/run.sh bench $(WEB)

# Cycles/op (pqpan bench kem; pqpan bench sig: ML-DSA signing over 1000 messages; pqpan
# bench ecdh: P-256), then instructions/op from callgrind when valgrind is present, then
# pqpan sweep's rows/s/core.
bench: build
	@for b in $(BUILD)/bench_*; do [ -x "$$b" ] || continue; echo "== $$b"; "$$b" || exit 1; done
	./$(BUILD)/pqpan bench kem
	./$(BUILD)/pqpan bench sig
	./$(BUILD)/pqpan bench ecdh
	scripts/bench_kem.sh ./$(BUILD)/pqpan
	scripts/bench_ir.sh ./$(BUILD)/pqpan sig
	scripts/bench_ir.sh ./$(BUILD)/pqpan ecdh
	scripts/bench_sweep.sh ./$(BUILD)/pqpan

# Cortex-M4 cross build of the core with the assembly backend (CMakePresets.json
# `cortex-m4`, -Os; `cortex-m4-o2` builds build-m4-o2 with -O2, `cortex-m4-portable[-o2]`
# the portable C alone). Its QEMU tests run in `make test`.
m4: deps
	cmake --preset cortex-m4 >/dev/null
	cmake --build $(BUILD_M4) -j $(JOBS)

# Code size, stack and instruction counts per operation on the Cortex-M4 (QEMU):
# writes docs/M4.md and data/cycles/pqpan_m4.csv.
bench-m4: build
	scripts/bench_m4.sh $(BUILD)

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_FUZZ) $(BUILD_M4) $(BUILD_M4)-o2 $(BUILD_M4)-portable $(BUILD_M4)-portable-o2 out
