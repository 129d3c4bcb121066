# pqsig — convenience targets. `make price` runs the main job; `make test` builds and runs every test.
BUILD ?= build
GENERATOR ?= Ninja
CMAKE_FLAGS ?=

.PHONY: all deps configure build test price bench clean interop-deps install price-engines

all: build

deps:
	@bash scripts/deps.sh

configure: deps
	@cmake -S . -B $(BUILD) -G $(GENERATOR) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j$$(nproc)

# Independent implementations used as test oracles (installed at test time, never committed).
interop-deps:
	@PQSIG_DEPS_EXTRA=1 bash scripts/deps.sh
	@bash scripts/interop-deps.sh

test: build interop-deps
	@ctest --test-dir $(BUILD) --output-on-failure -j$$(nproc)

# `make price` builds only the library and build/pqsig-price (`pqsig price` alone: no verifier
# service, no client, no tests or benchmarks), measures, then builds the full CLI build/pqsig.
# PRICE_ARGS passes options: make price PRICE_ARGS="--quick --html r.html"
PRICE_ARGS ?=
price: configure
	@cmake --build $(BUILD) -j$$(nproc) --target pqsig_price
	@./$(BUILD)/pqsig-price price --stream $(PRICE_ARGS)
	@cmake --build $(BUILD) -j$$(nproc) --target pqsig_cli

# The JavaScript engines of `pqsig price --engine` (bench/engines: Node >= 24, workerd,
# @noble/post-quantum), pinned by bench/engines/package-lock.json; run as subprocesses, never linked.
price-engines:
	@bash scripts/price-engines.sh

bench: build
	@./$(BUILD)/pqsig_bench --benchmark_min_time=0.2

# Install the CLI, libpqsig (.so + .a), headers, pkg-config + CMake files, man page and completions.
# `make install PREFIX=$$HOME/.local` needs no root; DESTDIR=... stages (packagers).
PREFIX ?= /usr/local
install: configure
	@cmake --build $(BUILD) -j$$(nproc) --target pqsig_install_set
	@cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	@rm -rf $(BUILD)
