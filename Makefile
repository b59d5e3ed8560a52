# Two entry points for people (README's quick start) and CI: `make demo`, `make test`.
# Each installs missing Debian packages and (re)builds as needed.
BUILD ?= build
# CI turns warnings into errors; local builds keep going.
WERROR ?= $(if $(CI),ON,OFF)
JOBS ?= $(shell nproc)
FUZZ_SECONDS ?= 30

.PHONY: all deps build demo test test-slow san-build asan tsan thread-safety fuzz format format-check clean
all: build

deps:
	@scripts/install-deps.sh

# CI compiles with line tables only (-g1: backtraces keep file and line, and the build takes
# about a quarter less time than with full -g); local builds keep CMake's -O2 -g.
DEBUG_INFO ?= $(if $(CI),-g1,-g)

build: deps
	@cmake -S . -B $(BUILD) -G Ninja -DSTRATA_WERROR=$(WERROR) "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 $(DEBUG_INFO) -DNDEBUG" >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The key-strategy study at a laptop's size: 500,000 rows per table keyed by
# auto-increment, plain int, UUIDv4 char(36) and ULID, a 16 MiB buffer pool (smaller than the
# UUID table), the report in $(DEMO_OUT). MARIADB=1 runs the same on a private MariaDB too
# (scripts/install-deps.sh mariadb first).
DEMO_OUT ?= $(BUILD)/demo-keys
DEMO_ROWS ?= 500000
demo: build
	@$(BUILD)/cli/strata experiment keys --rows $(DEMO_ROWS) --buffer-pool 16M --out $(DEMO_OUT) $(if $(MARIADB),--mariadb)

test: build
	@ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -LE slow

# The long suites (millions of model operations); CI runs them too.
test-slow: build
	@ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -L slow

# Unit tests again under AddressSanitizer and UndefinedBehaviorSanitizer, built by clang at -O1
# with asserts on. The same build holds the libFuzzer targets (`make fuzz`), so that CI
# compiles the sanitized tree once, not once for the tests and again for the fuzzers.
SAN_BUILD ?= build-san
san-build: deps
	@CXX=clang++ cmake -S . -B $(SAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g" \
	  -DSTRATA_SANITIZE=ON -DSTRATA_FUZZ=ON -DSTRATA_BENCH=OFF -DSTRATA_WERROR=$(WERROR) >/dev/null
	@cmake --build $(SAN_BUILD) -j $(JOBS)

asan: san-build
	@ctest --test-dir $(SAN_BUILD) --output-on-failure -j $(JOBS) -LE slow

# The lock rules written with engine/thread_annotations.h (GUARDED_BY, REQUIRES, ...): clang
# builds with -Wthread-safety, so the sanitizer build checks them, as errors here and in CI.
thread-safety: WERROR = ON
thread-safety: san-build

# The concurrency suites (row locks, isolation levels and their histories, group commit, early
# lock release, hot rows, purge beside writers, the buffer pool and its cleaner, the redo log)
# under ThreadSanitizer: only the test files of those suites are built (engine_tsan_test), and
# only the tests whose threads share the engine's state run (tests/tsan.supp says what is left
# out, and why), with asserts on, at -O1 (TSan's overhead, not the optimiser, sets the pace).
TSAN_FILTER ?= LockTest.*:IsolationTest.*:HistoryTest.*:HotRowTest.*:BufferPoolTest.*:RedoLogTest.*:Levels/HistoryAnomalyTest.*:Shapes/KillShapesTest.WithoutAKill*/RandomKeys*:Shapes/KillShapesTest.WithoutAKill*/GrowingUpdatesAndDeletes:Shapes/KillShapesTest.WithoutAKill*/OffPageValues
tsan: deps
	@cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 $(DEBUG_INFO)" \
	  -DSTRATA_TSAN=ON -DSTRATA_WERROR=$(WERROR) >/dev/null
	@cmake --build build-tsan -j $(JOBS) --target engine_tsan_test
	@TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$(CURDIR)/tests/tsan.supp" \
	  build-tsan/tests/engine_tsan_test --gtest_filter='$(TSAN_FILTER)'

# libFuzzer targets (clang, ASan+UBSan), each run for FUZZ_SECONDS from the seed corpus.
fuzz: san-build
	@tests/fuzz/run.sh $(SAN_BUILD) $(FUZZ_SECONDS)

# Layout is .clang-format's: `format` applies it, `format-check` (CI) names every file that
# differs and fails.
# The sources: git's list in a checkout (new files not yet added included), else every .h/.cc
# below the module folders.
SOURCES_CMD = git ls-files --cached --others --exclude-standard '*.h' '*.cc' 2>/dev/null || find ondisk sqltext engine sql inspect viz datasets experiments cli tests -name '*.h' -o -name '*.cc'

format:
	@($(SOURCES_CMD)) | xargs clang-format -i

format-check: deps
	@($(SOURCES_CMD)) | xargs clang-format --dry-run --Werror

clean:
	rm -rf $(BUILD) $(SAN_BUILD) build-tsan
