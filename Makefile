# Two entry points for people (README's quick start) and CI: `make demo`, `make test`.
# Each installs missing Debian packages and (re)builds as needed.
BUILD ?= build
# CI turns warnings into errors; local builds keep going.
WERROR ?= $(if $(CI),ON,OFF)
JOBS ?= $(shell nproc)
FUZZ_SECONDS ?= 30

.PHONY: all deps build demo test test-slow asan fuzz format clean
all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -G Ninja -DSTRATA_WERROR=$(WERROR) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The inspector on real MariaDB files bundled in tests/data: a random-UUID key against an
# auto-increment one, same rows.
DEMO_UUID = tests/data/mariadb-history/hist/t_uuid.ibd
DEMO_AUTOINC = tests/data/mariadb-history/hist/t_autoinc.ibd
demo: build
	@$(BUILD)/cli/strata inspect summary $(DEMO_UUID) $(DEMO_AUTOINC)
	@$(BUILD)/cli/strata inspect extents --illustrate $(DEMO_UUID) $(DEMO_AUTOINC)
	@$(BUILD)/cli/strata inspect index $(DEMO_UUID) $(DEMO_AUTOINC)

test: build
	@ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -LE slow

# The long suites (millions of model operations); CI runs them too.
test-slow: build
	@ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -L slow

# Unit tests again under AddressSanitizer and UndefinedBehaviorSanitizer.
asan: deps
	@cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSTRATA_SANITIZE=ON -DSTRATA_WERROR=$(WERROR) >/dev/null
	@cmake --build build-asan -j $(JOBS)
	@ctest --test-dir build-asan --output-on-failure -j $(JOBS) -LE slow

# libFuzzer targets (clang), each run for FUZZ_SECONDS from the seed corpus.
fuzz: deps
	@CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTRATA_FUZZ=ON -DSTRATA_TESTS=ON >/dev/null
	@cmake --build build-fuzz -j $(JOBS) --target fuzz_targets
	@tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)

format:
	@git ls-files '*.h' '*.cc' | xargs clang-format -i

clean:
	rm -rf $(BUILD) build-asan build-fuzz
