#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Random simulation (--simulate RUNS --depth D --seed S): it finds the lost
# update of specs/lost_update.mc (the invariant, with its trace) and the
# deadlock of specs/philosophers.mc; the same seed gives the same output
# byte for byte; a simulation that finds nothing says it is not a proof and
# exits 3, never 0; --depth and --seed alone are refused.
#
# Usage: tests/scenario/simulate.sh [BUILD_DIR]
set -uo pipefail
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
use_build_dir "${1:-}"
make_work simulate
cd "$work" || exit 1 # a violation's trail goes to the current directory

"$mcgen" -o "$work/lost" "$root/specs/lost_update.mc" >/dev/null || exit 1
"$mcgen" -o "$work/cas" -D USE_CAS=true "$root/specs/lost_update.mc" >/dev/null || exit 1
"$mcgen" -o "$work/phil" "$root/specs/philosophers.mc" >/dev/null || exit 1

"$work/lost" --simulate 100 --depth 20 --seed 7 >"$work/a" 2>&1
code=$?
if [ "$code" -eq 1 ] && grep -q "^violation: invariant 'counts_increments' does not hold" "$work/a" &&
   grep -q '^result: violation: .*random simulation' "$work/a" && grep -q '^1 read(' "$work/a"; then
  pass "lost_update: the lost update found, with its trace"
else
  fail "lost_update: exit $code"; sed 's/^/  /' "$work/a" | head -20
fi
"$work/lost" --simulate 100 --depth 20 --seed 7 >"$work/b" 2>&1
cmp -s "$work/a" "$work/b" && pass "lost_update: the same seed, the same output" ||
  fail "lost_update: two runs with seed 7 differ"

"$work/phil" --simulate 100 --depth 50 --seed 1 >"$work/a" 2>&1
code=$?
if [ "$code" -eq 1 ] && grep -q '^violation: deadlock' "$work/a"; then
  pass "philosophers: the deadlock found"
else
  fail "philosophers: exit $code"; sed 's/^/  /' "$work/a" | head -20
fi

"$work/cas" --simulate 30 --depth 40 --seed 5 >"$work/a" 2>&1
code=$?
if [ "$code" -eq 3 ] && grep -q '^result: incomplete: no violation in 30 random runs of up to 40 steps (seed 5); not a proof' "$work/a"; then
  pass "lost_update with compare-and-swap: no violation, not a proof, exit 3"
else
  fail "lost_update with compare-and-swap: exit $code"; sed 's/^/  /' "$work/a" | head -10
fi

"$work/cas" --seed 5 >"$work/a" 2>&1
code=$?
[ "$code" -eq 2 ] && grep -q -- '--simulate' "$work/a" && pass "--seed without --simulate refused" ||
  fail "--seed without --simulate: exit $code"
finish
