#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ThreadSanitizer on the multi-threaded search: a few checkers built with
# -fsanitize=thread against the runtime built with it too (BUILD/tsan, `make
# BUILD/tsan/libmcrt.a`), run at --threads 4, in fixed order unless a case
# says --order free. Any report of a data race (or other error) fails the
# case; so does an output that differs from --threads 1's. The cases cover the expand and insert phases with many
# windows (big.mc: more than one window per level), symmetry reduction by
# sorted canonical forms (peterson.mc), the compact fingerprint set's region
# locks (big.mc with --compact-set), liveness (filter.mc; mcs.1: windows
# expanded by several threads; wide_live.mc: the edge table, the property
# bits and the ids in the set written by every thread in the parallel
# commit, in both id layouts; in each, the check after the search: the
# union-find decomposition and the judging of components on 4 threads,
# analysis/scc.c and fair.c), a violation with a trace (philosophers.mc), a run-time error
# (tests/e2e/specs, the first spec expecting one), and --order free (the
# expand phase inserting into the shared set, the set grown before it) on
# exhaustive searches, whose answers are --threads 1's.
#
# Usage: tests/threads/tsan.sh [BUILD_DIR]
set -uo pipefail
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
use_build_dir "${1:-}"
RT=$build_dir/tsan
[ -f "$RT/libmcrt.a" ] || { echo "FAIL $RT/libmcrt.a is missing: make ${1:-build}/tsan/libmcrt.a"; exit 1; }
make_work tsan

summary() { # FILE: stdout without times and memory (as tests/threads/run.sh)
  grep -vE '^(time|memory|bytes/state):' "$1" |
    sed -E 's/, [0-9.]+ permutations tried per state//; s/^(liveness: .*) \([0-9.]+ s\)$/\1/'
}

# case NAME SPEC "MCGEN ARGS" "RUN ARGS": the output is compared byte for
# byte, which only fixed order promises after a stop: RUN ARGS without
# --order get --order fixed (the free cases are exhaustive searches).
case_() {
  local name=$1 spec=$2 margs=$3 rargs=$4 bin=$work/$1
  [[ $rargs == *--order* ]] || rargs="$rargs --order fixed"
  # shellcheck disable=SC2086
  if ! MCGEN_RUNTIME=$RT "$mcgen" $margs --cflags "-O1 -g -fsanitize=thread" -o "$bin" "$spec" \
    >"$work/mcgen.out" 2>&1; then
    fail "$name: build failed: $(head -3 "$work/mcgen.out" | tr '\n' ' ')"
    return
  fi
  # shellcheck disable=SC2086
  TSAN_OPTIONS="halt_on_error=1 exitcode=66" timeout 600 "$bin" $rargs --progress 0 --threads 1 \
    >"$work/o1" 2>"$work/e1"
  local c1=$?
  # shellcheck disable=SC2086
  TSAN_OPTIONS="halt_on_error=1 exitcode=66" timeout 600 "$bin" $rargs --progress 0 --threads 4 \
    >"$work/o4" 2>"$work/e4"
  local c4=$?
  if grep -q 'ThreadSanitizer' "$work/e4" || [ "$c4" = 66 ]; then
    fail "$name: ThreadSanitizer: $(grep -m3 -E 'WARNING|SUMMARY' "$work/e4" | tr '\n' ' ')"
  elif [ "$c1" != "$c4" ]; then
    fail "$name: exit $c4 at --threads 4, $c1 at --threads 1"
  elif ! diff <(summary "$work/o1") <(summary "$work/o4") >/dev/null; then
    fail "$name: the output at --threads 4 differs from --threads 1"
  else
    pass "$name: no race reported at --threads 4 (exit $c4, $(sed -n 's/^states: *\([0-9]*\).*/\1 states/p' "$work/o4"))"
  fi
}

case_ big tests/cli/specs/big.mc "" "--max-states 200000"
case_ big-compact tests/cli/specs/big.mc "" "--max-states 200000 --compact-set" # region locks
case_ peterson specs/peterson.mc "-D N=6" "--symmetry-method sorted"
case_ filter specs/filter.mc "" ""
case_ mcs-liveness tests/liveness/beem/mcs.1.mc "" ""
case_ philosophers specs/philosophers.mc "" ""
case_ wide tests/threads/wide.mc "" "--no-deadlock" # the parallel commit
case_ wide-live tests/threads/wide_live.mc "" "" # the parallel commit writing the edge table
case_ wide-live-fp128 tests/threads/wide_live.mc "" "--fingerprint 128" # ids beside the table
case_ peterson-fp128 specs/peterson.mc "-D N=6" "--fingerprint 128" # the set grown by every thread
case_ peterson-free specs/peterson.mc "-D N=6" "--order free"
case_ wide-free tests/threads/wide.mc "" "--no-deadlock --order free"
case_ wide-free-compact tests/threads/wide.mc "" "--no-deadlock --order free --compact-set"
err=$(grep -l 'EXPECT-OUTPUT: .*error' tests/e2e/specs/*.mc | head -1)
[ -n "$err" ] && case_ "$(basename "$err" .mc)" "$err" "" ""

finish
