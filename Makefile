# SPDX-License-Identifier: MIT
# mcgen: a model-checker generator.
#
#   make demo   installs what is missing, builds, compiles a bundled spec and
#               runs its checker
#   make test   installs what is missing and runs every test
#   make install PREFIX=DIR, make uninstall PREFIX=DIR (the docs and examples
#               go to DIR/share/doc/mcgen)
#   make deb    the Debian package build/deb/mcgen_VERSION_ARCH.deb
#
# Objects go to build/; header dependencies are tracked with -MMD. CPPFLAGS
# and LDFLAGS from the environment or the command line are added (the
# Debian package's hardening flags), CFLAGS is the Makefile's.

CC      ?= cc
WARN    := -Wall -Wextra -Werror
CFLAGS  := -std=c11 -O2 -g $(WARN) -D_GNU_SOURCE -MMD -MP
ASAN    := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
TSAN    := -fsanitize=thread
B       := build

# The compiler's folders are its layers, lowest first (docs/STYLE.md 1): a
# file calls only into its own layer or below (tests/layers/folders.sh, with
# COMPILER_LAYERS).
COMPILER_SRCS := compiler/core/util.c compiler/core/diag.c compiler/core/paths.c \
                 compiler/ast/ast.c compiler/ast/types.c compiler/front/front.c \
                 compiler/front/mc/lex.c compiler/front/mc/parse.c \
                 compiler/front/dve/dve_parse.c compiler/front/dve/dve_lower.c \
                 compiler/front/pnml/pnml.c compiler/front/pnml/petri.c \
                 compiler/front/murphi/murphi_lex.c compiler/front/murphi/murphi_parse.c \
                 compiler/front/murphi/murphi_lower.c \
                 compiler/analysis/check.c compiler/analysis/layout.c \
                 compiler/analysis/extern.c compiler/analysis/scenario.c \
                 compiler/analysis/deps.c \
                 compiler/emit/emit.c compiler/emit/symmetry.c \
                 compiler/lsp/uri.c compiler/lsp/rpc.c compiler/lsp/index.c compiler/lsp/lsp.c
COMPILER_LAYERS := core ast front analysis emit lsp
COMPILER_MAIN := compiler/main.c
# runtime/: a folder per layer (docs/DESIGN.md, "Runtime layers"), main.c
# and mcrt.h at the top. runtime/mpi/mpi.c is the MPI engine: built by
# mpicc into its own library (libmcrt_mpi.a, for `mcgen --mpi`), never into
# libmcrt.a.
RUNTIME_SRCS  := $(filter-out runtime/mpi/mpi.c,$(sort $(wildcard runtime/*.c runtime/*/*.c)))

# libclang (Debian libclang-dev) reads the C of `extern` declarations
# (compiler/analysis/extern.c); without it mcgen builds and refuses `extern`.
LLVM_CONFIG ?= llvm-config
CLANG_INC  := $(shell $(LLVM_CONFIG) --includedir 2>/dev/null)
CLANG_LIB  := $(shell $(LLVM_CONFIG) --libdir 2>/dev/null)
ifneq ($(wildcard $(CLANG_INC)/clang-c/Index.h),)
CLANG_CFLAGS := -DMCGEN_HAVE_LIBCLANG -isystem $(CLANG_INC)
CLANG_LIBS   := -L$(CLANG_LIB) -Wl,-rpath,$(CLANG_LIB) -lclang
endif

COMPILER_OBJS := $(COMPILER_SRCS:%.c=$(B)/%.o)
RUNTIME_OBJS  := $(RUNTIME_SRCS:%.c=$(B)/%.o)
RUNTIME_ASAN_OBJS := $(RUNTIME_SRCS:%.c=$(B)/asan/%.o)
RUNTIME_TSAN_OBJS := $(RUNTIME_SRCS:%.c=$(B)/tsan/%.o)

UNIT_TESTS := $(patsubst tests/unit/%.c,$(B)/tests/%,$(sort $(wildcard tests/unit/*/*.c)))

.PHONY: FORCE all deps test-deps demo test unit-tests e2e-tests diag-tests malformed-tests cli-tests trail-tests \
        asan-runtime bench bench-compile bench-mpi bench-por bench-threads bench-rumur bench-murphi \
        bench-beem \
        bench-symmetry bench-liveness bench-extern bench-disk bench-compact bench-mcc bench-profile \
        liveness-tests mpi-tests spdx-tests clean conformance conformance-tests docs-tests debug-tests editors-tests \
        layers-tests lsp-tests pnml-tests petri-tests threads-tests disk-tests murphi-tests \
        install uninstall install-tests deb deb-tests extern-tests scenario-tests odpor-tests matrix-tests

all: $(B)/mcgen $(B)/libmcrt.a

# The MPI runtime, only where Open MPI's wrapper compiler is installed: the
# rest of the build never needs MPI.
MPICC   ?= mpicc
HAVE_MPICC := $(shell command -v $(MPICC) 2>/dev/null)
ifneq ($(HAVE_MPICC),)
all: $(B)/libmcrt_mpi.a
endif

$(B)/mpi/runtime/mpi/mpi.o: runtime/mpi/mpi.c
	@mkdir -p $(dir $@)
	$(MPICC) $(CPPFLAGS) $(CFLAGS) -Iruntime -DMCRT_MPI -c -o $@ $<

$(B)/libmcrt_mpi.a: $(B)/mpi/runtime/mpi/mpi.o
	ar rcs $@ $^

$(B)/mcgen: $(COMPILER_OBJS) $(B)/compiler/main.o
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(XML_LIBS) $(CLANG_LIBS) $(CJSON_LIBS)

# cJSON (Debian libcjson-dev) reads and writes the language server's JSON
# (compiler/lsp/).
CJSON_LIBS = $(shell pkg-config --libs libcjson 2>/dev/null || echo -lcjson)

# The commit mcgen is built from, for mcgen --version: its hash, with
# -dirty when the tree has changes; empty outside git (tools/build-deb sets
# the one it packages). main.o is rebuilt when it changes: commit.stamp
# holds it, rewritten only then.
MCGEN_COMMIT ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null)$(shell \
  git rev-parse HEAD >/dev/null 2>&1 && ! git diff --quiet HEAD -- 2>/dev/null && echo -dirty)
$(B)/commit.stamp: FORCE
	@mkdir -p $(B)
	@echo '$(MCGEN_COMMIT)' | cmp -s - $@ || echo '$(MCGEN_COMMIT)' >$@
$(B)/compiler/main.o: $(B)/commit.stamp
$(B)/compiler/main.o: CFLAGS += -DMCGEN_COMMIT='"$(MCGEN_COMMIT)"'
FORCE:

$(B)/compiler/analysis/extern.o: compiler/analysis/extern.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(CLANG_CFLAGS) -c -o $@ $<

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# libxml2 reads PNML (compiler/front/pnml/pnml.c).
XML_CFLAGS = $(shell pkg-config --cflags libxml-2.0 2>/dev/null || echo -I/usr/include/libxml2)
XML_LIBS   = $(shell pkg-config --libs libxml-2.0 2>/dev/null || echo -lxml2)
$(B)/compiler/front/pnml/pnml.o: CFLAGS += $(XML_CFLAGS)

# A runtime file includes the headers of its layer and the layers below by
# their path under runtime/ (`#include "store/store.h"`).
$(RUNTIME_OBJS) $(RUNTIME_ASAN_OBJS) $(RUNTIME_TSAN_OBJS): CFLAGS += -Iruntime

$(B)/libmcrt.a: $(RUNTIME_OBJS)
	ar rcs $@ $^

# The runtime built with sanitizers, linked into the checkers of the tests.
$(B)/asan/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(ASAN) -c -o $@ $<

$(B)/asan/libmcrt.a: $(RUNTIME_ASAN_OBJS)
	ar rcs $@ $^

asan-runtime: $(B)/asan/libmcrt.a

# The runtime under ThreadSanitizer, for the checkers of tests/threads/tsan.sh.
$(B)/tsan/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TSAN) -c -o $@ $<

$(B)/tsan/libmcrt.a: $(RUNTIME_TSAN_OBJS)
	ar rcs $@ $^

# Unit tests: tests/unit/compiler/*.c link the compiler stages,
# tests/unit/runtime/*.c the runtime; all under the sanitizers, each stage
# compiled once (build/asan/) for every test that links it.
COMPILER_ASAN_OBJS := $(COMPILER_SRCS:%.c=$(B)/asan/%.o)
$(B)/asan/compiler/front/pnml/pnml.o: CFLAGS += $(XML_CFLAGS)
$(B)/asan/compiler/analysis/extern.o: CFLAGS += $(CLANG_CFLAGS)
# Every compiler file includes mcgen.h, at the top of compiler/.
$(COMPILER_OBJS) $(B)/compiler/main.o $(COMPILER_ASAN_OBJS): CFLAGS += -Icompiler
# Kept between runs (make would delete them as intermediate files).
.SECONDARY: $(COMPILER_ASAN_OBJS) $(RUNTIME_ASAN_OBJS)

$(B)/tests/compiler/%: tests/unit/compiler/%.c $(COMPILER_ASAN_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(XML_CFLAGS) $(ASAN) $(CLANG_CFLAGS) -Icompiler -o $@ $< $(COMPILER_ASAN_OBJS) -lcriterion $(XML_LIBS) $(CLANG_LIBS) $(CJSON_LIBS)

$(B)/tests/runtime/%: tests/unit/runtime/%.c $(RUNTIME_ASAN_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(ASAN) -Iruntime -o $@ $< $(RUNTIME_ASAN_OBJS) -lcriterion -lm -pthread

# Debian packages the build and the tests need; installed when missing.
DEB_BUILD := gcc make m4 libxxhash-dev libxml2-dev pkg-config libclang-dev libcjson-dev
DEB_CLANG := clang
DEB_TEST  := libcriterion-dev rumur spin jq gdb man-db groff-base graphviz vim python3-jsonschema
DEB_MPI   := openmpi-bin libopenmpi-dev
# Node.js and npm run the editor tests; only when npm is missing, since
# another Node.js (NodeSource's, which brings its own npm) conflicts with
# Debian's npm package.
DEB_NODE  := nodejs npm
deps:
	@./tools/install-deps $(DEB_BUILD)

test-deps:
	@./tools/install-deps $(DEB_BUILD) $(DEB_TEST) $(DEB_CLANG) $(DEB_MPI)
	@command -v npm >/dev/null || ./tools/install-deps $(DEB_NODE)

demo: deps
	$(MAKE) all
	@echo
	@echo '== mcgen specs/filter.mc: Peterson'"'"'s filter lock, 3 processes, mutual exclusion and'
	@echo '   starvation freedom under weak fairness'
	cd $(B) && ./mcgen ../specs/filter.mc && ./filter_checker
	@echo
	@echo '== mcgen specs/lost_update.mc: a lost update, found under symmetry reduction (exit 1 expected)'
	cd $(B) && ./mcgen ../specs/lost_update.mc && { ./lost_update_checker; test $$? -eq 1; }

# The suites `make test` runs (after the unit tests are built), one a line.
# TEST_SUITES run two at a time (the machine's two cores; each one's output
# printed whole when it ends), the longest first; TEST_SUITES_ALONE one
# after another with nothing beside them: they measure time (signals, a stop
# within a limit), use every core themselves, or move $(B) away
# (install-tests). tools/run-suites prints each one's time at the end.
TEST_JOBS ?= 2
TEST_SUITES := layers-tests
TEST_SUITES += spdx-tests
TEST_SUITES += e2e-tests
TEST_SUITES += por-tests
TEST_SUITES += conformance-tests
TEST_SUITES += matrix-tests
TEST_SUITES += trail-tests
TEST_SUITES += deb-tests
TEST_SUITES += odpor-tests
TEST_SUITES += liveness-tests
TEST_SUITES += murphi-tests
TEST_SUITES += unit-tests
TEST_SUITES += diag-tests
TEST_SUITES += scenario-tests
TEST_SUITES += petri-tests
TEST_SUITES += lsp-tests
TEST_SUITES += docs-tests
TEST_SUITES += editors-tests
TEST_SUITES += pnml-tests
TEST_SUITES += extern-tests
TEST_SUITES += debug-tests
TEST_SUITES_ALONE := cli-tests
TEST_SUITES_ALONE += malformed-tests
TEST_SUITES_ALONE += threads-tests
TEST_SUITES_ALONE += mpi-tests
TEST_SUITES_ALONE += disk-tests
TEST_SUITES_ALONE += install-tests

test: test-deps
	$(MAKE) all asan-runtime $(UNIT_TESTS)
	MAKE="$(MAKE)" tools/run-suites -j $(TEST_JOBS) $(TEST_SUITES) --alone $(TEST_SUITES_ALONE)

# Every source file names its licence (tools/spdx says which files are).
spdx-tests:
	tools/spdx --check

# The compiler never frees (it is short-lived, docs/STYLE.md 6): no leak checks
# for its tests; the runtime's are checked. A binary that runs over 10
# minutes fails, its process group killed: a test child that spins forever
# left Criterion's runner waiting with no end (its own --timeout did not
# stop such a child here).
unit-tests: $(UNIT_TESTS)
	@set -e; for t in $(UNIT_TESTS); do echo "== $$t"; \
	  case $$t in */compiler/*) ASAN_OPTIONS=detect_leaks=0 timeout -k 10 600 $$t;; \
	  *) timeout -k 10 600 $$t;; esac || \
	  { echo "FAIL: $$t (exit $$?; 124: over 10 minutes)"; exit 1; }; done

# The runtime's files, and the compiler's, call each other only downwards
# through their layers (docs/DESIGN.md), without cycles.
layers-tests: all
	tests/layers/run.sh $(B)
	tests/layers/folders.sh $(B) compiler $(COMPILER_LAYERS)

# The same answers at --threads 1, 2 and 4 (tests/threads/run.sh: every
# spec, the liveness and symmetry oracles, the BEEM instances under 20000
# states), then checkers built with ThreadSanitizer at 4 threads.
threads-tests: all $(B)/tsan/libmcrt.a
	tests/threads/run.sh $(B)
	tests/threads/tsan.sh $(B)

cli-tests: all asan-runtime
	tests/cli/run.sh $(B)
	tests/cli/signals.sh $(B)
	tests/cli/watch.sh $(B)

# Trails written, replayed and refused; every report and trail the specs
# give validated against docs/schema/ (python3-jsonschema).
trail-tests: all
	tests/trail/run.sh $(B)

diag-tests: all
	tests/diag/run.sh $(B)

# --disk, --checkpoint, --resume: the same answers with the log and the
# frontier on disk, a full disk, SIGKILL at random moments, damaged checkpoints.
disk-tests: all
	tests/disk/run.sh $(B)

# Scenarios: the operators' languages against a brute-force evaluator, then
# model + scenario products, exports and simulation (tests/scenario/).
scenario-tests: all
	tests/scenario/run.sh $(B)
	tests/scenario/products.sh $(B)
	tests/scenario/exports.sh $(B)
	tests/scenario/simulate.sh $(B)
# --search odpor: its executions against brute-force trace counts, the bugs
# it must find, its bounds and refusals (tests/odpor/run.sh).
odpor-tests: all
	tests/odpor/run.sh $(B)

# `extern` C against the same logic in .mc: same counts, verdicts, traces.
extern-tests: all
	tests/extern/run.sh $(B)

malformed-tests: all
	tests/malformed/run.sh $(B)

# Petri nets: hand-counted nets, and the PNML mcgen must refuse.
pnml-tests: all
	tests/pnml/run.sh $(B)

# Rumur's test suite (../shared/suites/murphi) through the Murphi front end:
# each model's directives, partial-order reduction on against off, Rumur's
# recorded counts (tests/murphi/suite.py says what is checked).
murphi-tests: all
	tests/murphi/run.sh $(B)

# mcgen --net-info: semiflows, bounds and workflow soundness of the nets in
# tests/petri/nets, then the bounds of every MCC net against its answers.
petri-tests: all
	tests/petri/run.sh $(B)

# Every example of docs/LANGUAGE.md compiles and checks as it says; every
# command of README.md runs as printed (tests/docs/readme.sh).
docs-tests: all
	tests/docs/run.sh $(B)
	tests/docs/readme.sh $(B)

# Generated C for debuggers: its #line directives (tests/debug/lines.sh),
# then gdb on a `mcgen --debug` checker (tests/debug/gdb.sh).
debug-tests: all
	tests/debug/lines.sh $(B)
	tests/debug/gdb.sh $(B)
	tests/debug/shape.sh $(B)

# mcgen --lsp driven by a scripted client over pipes (tests/lsp/run.py):
# diagnostics on open, edit and fix, definition, hover, symbols, hostile
# input, memory over 1,000 edits.
lsp-tests: all
	tests/lsp/run.py $(B)

# The editors' syntax files against every spec (tests/editors/run.sh): the
# TextMate grammar through vscode-textmate (installed by npm ci), Vim's.
editors-tests:
	tests/editors/run.sh

e2e-tests: all asan-runtime
	tests/e2e/compilers.sh $(B)
	MCGEN_RUNTIME=$(CURDIR)/$(B)/asan \
	MCGEN_TEST_CFLAGS="-Werror $(ASAN)" tests/e2e/run_specs.sh $(B)
	MCGEN_RUNTIME=$(CURDIR)/$(B)/asan MCGEN_TEST_CFLAGS="-Werror $(ASAN)" tests/e2e/run_ltl.sh $(B)

# Random liveness specs against tests/liveness/random_live.py's own
# fair-cycle oracle, under the serial and the parallel liveness engine at
# 1, 2 and 4 threads (tests/liveness/fuzz.py; make conformance: LIVE_SEEDS).
liveness-tests: all
	tests/liveness/fuzz.py $(B) --seeds 1-200
	tests/liveness/fuzz.py $(B) --sym --seeds 100001-100060

# Partial-order reduction: mcgen --deps against hand-derived tables, then
# the checker's --por against --por off (tests/por/run.sh): the specs, and
# the BEEM instances up to 10^5 states (make conformance: from there up to
# LIMIT); and the default (--por auto): on where it fits, off with a reason;
# then random specs with planted traps, seeds 1-300 (tests/por/fuzz.py;
# POR_FUZZ_SEEDS=A-B for others; make conformance: 1 to 5000, POR_SEEDS).
por-tests: all
	tests/por/run.sh $(B)

# Every checker option with every other against the serial run, and random
# SIGINT/SIGTERM with checkpoints resumed (tests/matrix/run.py).
matrix-tests: all
	tests/matrix/run.py $(B)

# The MPI engine (mcgen --mpi) under mpirun -np 1..4 against the serial
# checker (tests/mpi/run.sh); it says so loudly and skips without mpirun.
mpi-tests: all
	tests/mpi/run.sh $(B)

# BEEM conformance (tests/conformance/run.sh): every complete instance up to
# LIMIT states against BEEM's published figures, after checking that every
# dve/*.dve compiles, then (tests/conformance/ltl.sh) the LTL verdicts of the
# dve_props/ files on those instances (the serial liveness engine and the
# parallel one at 2 and 4 threads, with the same lasso shapes), then
# LIVE_SEEDS and LIVE_SYM_SEEDS random liveness specs (tests/liveness/
# fuzz.py, make test: liveness-tests' seeds). make test runs the instances under
# 10^5 states, and the LTL verdicts on instances under 10^4 states (50 files,
# about 2 CPU minutes). Then the MCC Petri nets (tests/conformance/mcc.sh):
# every instance compiles or is refused for a tallied reason, and every one
# up to MCC_LIMIT states matches all nine published answers; make test runs
# those under 10^5 states (71 nets, about 3 CPU minutes). Then the BEEM
# instances of make test's conformance run (up to PAR_LIMIT states, 90)
# at --threads 2 and 4 and under mpirun -np 1 to 4 against the serial
# checker and BEEM's figures (make test: those up to 2 * 10^4 states with
# threads, four with MPI).
LIMIT ?= 1000000
MCC_LIMIT ?= 10000000
POR_SEEDS ?= 1-5000
PAR_LIMIT ?= 100000
LIVE_SEEDS ?= 1-2000
LIVE_SYM_SEEDS ?= 100001-100500
conformance: all
	tests/conformance/run.sh $(B) --compile-all --limit $(LIMIT)
	tests/conformance/ltl.sh $(B) --limit $(LIMIT)
	tests/liveness/fuzz.py $(B) --seeds $(LIVE_SEEDS)
	tests/liveness/fuzz.py $(B) --sym --seeds $(LIVE_SYM_SEEDS)
	tests/conformance/mcc.sh $(B) --compile-all --limit $(MCC_LIMIT)
	POR_BEEM_MIN=100001 POR_BEEM_LIMIT=$(LIMIT) POR_FUZZ_SEEDS=$(POR_SEEDS) tests/por/run.sh $(B)
	tests/threads/run.sh $(B) --beem-limit $(PAR_LIMIT)
	tests/mpi/run.sh $(B) --beem-limit $(PAR_LIMIT)
	tests/murphi/record.sh --check

conformance-tests: all
	tests/conformance/selftest.sh $(B)
	tests/conformance/run.sh $(B) --limit 100000
	tests/conformance/ltl.sh $(B) --limit 10000
	tests/conformance/mcc.sh $(B) --limit 100000 --cflags -O0

# mcgen against Rumur (bench/run.sh), then against SPIN on BEEM (bench/beem.sh),
# C through `extern` against the same logic in .mc (bench/extern.sh), then
# mcgen's own compile times (bench/compile.sh).
bench: all
	bench/run.sh
	bench/beem.sh
	bench/extern.sh
	bench/compile.sh $(if $(BEFORE),--before $(BEFORE))

# Each table of docs/performance.md has a target that reruns it, alone.
# mcgen against Rumur on the four bench models, symmetry off (bench/run.sh).
bench-rumur: all
	bench/run.sh --repeat 3 --no-symmetry

# mcgen against Rumur on the Murphi source itself (German, the DASH-like
# directory), one thread and two.
bench-murphi: all
	bench/murphi.sh --repeat 3

# mcgen against SPIN's pan, full search and reduced, on ten BEEM instances.
bench-beem: all
	bench/beem.sh --repeat 3

# Exact symmetry reduction against Rumur's exhaustive and heuristic ones.
bench-symmetry: all
	bench/symmetry.sh --timeout 60 --repeat 2

# What checking liveness costs, against --liveness off.
bench-liveness: all
	bench/liveness.sh --repeat 3

# C called through `extern` against the same logic in .mc.
bench-extern: all
	bench/extern.sh

# RAM per state with --disk, then with --disk --compact-set up to 5 * 10^8
# states (grid3.794: a quarter of an hour and 3 GiB).
bench-disk: all
	bench/disk.sh grid3.216 adding.6 grid3.465
	MODES=disk-compact bench/disk.sh grid3.216 grid3.465 grid3.794

# The compact fingerprint set against the word layout (micro-benchmark).
bench-compact: all
	bench/compact.sh

# Petri nets: fifteen MCC instances of 10^6 to 10^7 states, one thread.
bench-mcc: all
	bench/mcc.sh

# MPI: states/s with 2 ranks against 1, bytes sent per state (bench/mpi.sh).
bench-mpi: all
	bench/mpi.sh

# Partial-order reduction against SPIN's on BEEM: the small instances, then
# the large ones (bench/por.sh).
bench-por: all
	bench/por.sh --repeat 2
	bench/por.sh --repeat 2 --large

# States per second with 2 threads against 1, both orders (bench/threads.sh;
# nine rounds: the best of a run of a few tenths of a second needs that
# many on this shared machine, five left up to a sixth between two runs).
bench-threads: all
	bench/threads.sh --repeat 9 --order free
	bench/threads.sh --repeat 9 --order fixed

# Where one thread's instructions go, per transition and by phase
# (callgrind; bench/profile.sh): the six BEEM instances of issue 42 and the
# Rumur models german and philosophers.
bench-profile: all
	bench/profile.sh

# Compile times of the largest BEEM models and specs; BEFORE=/other/mcgen
# builds each with that mcgen too and prints the ratios.
bench-compile: all
	bench/compile.sh $(if $(BEFORE),--before $(BEFORE))

# make install PREFIX=DIR [DESTDIR=STAGE]: mcgen finds the other files
# relative to its own location (compiler/core/paths.c), so the tree below PREFIX
# keeps working when moved or copied elsewhere as a whole. The paths are
# quoted for the shell by sq: a PREFIX may hold spaces, backquotes and '.
PREFIX  ?= /usr/local
I       := $(DESTDIR)$(PREFIX)
# $(call sq,TEXT): TEXT as one shell word, whatever it holds.
sq = '$(subst ','\'',$(1))'
QI      = $(call sq,$(I))
MANS    := man/mcgen.1 man/mcgen-checker.1
TEMPLATES := $(sort $(wildcard templates/*.m4))
# The documentation under share/doc/mcgen keeps the tree's layout (README.md
# links docs/...), the journal included (docs/performance.md and scaling.md
# link to it), with LICENSE; specs/ are the examples, with the C
# stop_and_wait.mc calls.
DOC     := $(QI)/share/doc/mcgen
DOCS    := README.md LICENSE $(sort $(wildcard docs/*.md))
JOURNAL := $(sort $(wildcard docs/journal/*.md))
# The JSON Schemas of the report, the trail and the exports (docs/schema/).
SCHEMAS := $(sort $(wildcard docs/schema/*.json))
EXAMPLES := $(sort $(wildcard specs/*.mc))
EXAMPLES_C := $(sort $(wildcard specs/serial/*))
# mcrt.pc, for other build systems, goes to PREFIX/PKGCONFIGDIR (the Debian
# package: the multiarch directory); Vim's files to PREFIX/VIMDIR, which
# Vim reads when PREFIX is /usr.
PKGCONFIGDIR ?= lib/pkgconfig
VIMDIR  := share/vim/vimfiles
VIMFILES := editors/vim/syntax/mc.vim editors/vim/ftdetect/mc.vim
# The version, where mcgen --version reads it.
VERSION := $(shell sed -n 's/^\#define MCGEN_VERSION "\(.*\)"/\1/p' compiler/mcgen.h)
install: all
	install -d $(QI)/bin $(QI)/lib/mcgen $(QI)/include/mcgen $(QI)/share/mcgen/templates \
	  $(QI)/share/man/man1 $(DOC)/docs/journal $(DOC)/docs/schema $(DOC)/examples/serial \
	  $(QI)/$(PKGCONFIGDIR) $(QI)/$(VIMDIR)/syntax $(QI)/$(VIMDIR)/ftdetect
	install -m 755 $(B)/mcgen $(QI)/bin/mcgen
	install -m 644 $(B)/libmcrt.a $(QI)/lib/mcgen/libmcrt.a
	[ ! -f $(B)/libmcrt_mpi.a ] || install -m 644 $(B)/libmcrt_mpi.a $(QI)/lib/mcgen/libmcrt_mpi.a
	install -m 644 runtime/mcrt.h $(QI)/include/mcgen/mcrt.h
	install -m 644 $(TEMPLATES) $(QI)/share/mcgen/templates/
	install -m 644 $(MANS) $(QI)/share/man/man1/
	install -m 644 README.md LICENSE $(DOC)/
	install -m 644 $(filter docs/%,$(DOCS)) $(DOC)/docs/
	install -m 644 $(JOURNAL) $(DOC)/docs/journal/
	install -m 644 $(SCHEMAS) $(DOC)/docs/schema/
	install -m 644 $(EXAMPLES) $(DOC)/examples/
	install -m 644 $(EXAMPLES_C) $(DOC)/examples/serial/
	{ printf 'prefix=%s\n' $(call sq,$(PREFIX)); sed 's/@VERSION@/$(VERSION)/' runtime/mcrt.pc.in; } \
	  >$(QI)/$(PKGCONFIGDIR)/mcrt.pc
	for f in $(VIMFILES); do \
	  install -m 644 $$f $(QI)/$(VIMDIR)/$${f#editors/vim/}; done

uninstall:
	rm -f $(QI)/bin/mcgen $(QI)/lib/mcgen/libmcrt.a $(QI)/lib/mcgen/libmcrt_mpi.a \
	  $(QI)/include/mcgen/mcrt.h $(QI)/$(PKGCONFIGDIR)/mcrt.pc \
	  $(patsubst editors/vim/%,$(QI)/$(VIMDIR)/%,$(VIMFILES))
	for f in $(TEMPLATES) $(MANS); do \
	  case $$f in *.m4) d=share/mcgen/templates ;; *) d=share/man/man1 ;; esac; \
	  rm -f $(QI)/$$d/$${f##*/}; done
	rm -f $(addprefix $(DOC)/,$(DOCS) $(JOURNAL) $(SCHEMAS)) \
	  $(patsubst specs/%,$(DOC)/examples/%,$(EXAMPLES) $(EXAMPLES_C))
	for d in lib/mcgen include/mcgen share/mcgen/templates share/mcgen \
	  share/doc/mcgen/docs/journal share/doc/mcgen/docs/schema share/doc/mcgen/docs \
	  share/doc/mcgen/examples/serial \
	  share/doc/mcgen/examples share/doc/mcgen $(PKGCONFIGDIR) $(VIMDIR)/syntax \
	  $(VIMDIR)/ftdetect $(VIMDIR) share/vim; do \
	  [ ! -d $(QI)/$$d ] || rmdir --ignore-fail-on-non-empty $(QI)/$$d; done

# Installs into a temporary prefix, moves $(B) away for the while, and runs
# the installed mcgen (tests/install/run.sh).
install-tests: all
	tests/install/run.sh $(B)

# make deb: the Debian package $(B)/deb/mcgen_VERSION_ARCH.deb, built by
# dpkg-buildpackage from a copy of the tree (tools/build-deb, debian/);
# make deb-tests checks it and installs it into a clean Debian root
# (tests/deb/run.sh).
DEB_PACKAGING := dpkg-dev debhelper fakeroot lintian debootstrap llvm
deb:
	@./tools/install-deps $(DEB_BUILD) $(DEB_MPI) $(DEB_PACKAGING)
	tools/build-deb $(B)

deb-tests: deb all
	tests/deb/run.sh $(B)

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
