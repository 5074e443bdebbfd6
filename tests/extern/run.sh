#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Differential tests of `extern` (compiler/analysis/extern.c): each NAME_c.mc
# calls C (NAME.h, NAME.c) where its twin NAME.mc says the same in pure .mc.
# Both are compiled and checked; they must give the same verdict, the same
# counts (states, transitions, deadlocks) and the same traces (each step's
# action, parameters and state; the run-time error's text and position differ,
# one names the C function). The pure twin's counts are also checked against
# the hand counts of its header (EXPECT-STATES, EXPECT-TRANSITIONS,
# EXPECT-EXIT, EXPECT-TRACE-STEPS), so the pair is anchored to something other
# than mcgen. Both checkers run with the twin's RUN-ARGS and --order fixed (at
# more than one thread, the default, only fixed order gives the same trace and
# the same counts at a violation from run to run).
#
# Usage: tests/extern/run.sh [BUILD_DIR] [NAME_c.mc...]
# One line per check (PASS/FAIL); the last line is `N passed, N failed`;
# the exit status is non-zero if anything failed. Needs jq.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
take_build_dir "${1:-}" '*.mc' && shift
cases_given cases "$@" || cases=("$root"/tests/extern/*_c.mc)

make_work extern

# What must agree: the verdict, the counts and the traces.
summary='{verdict, states, transitions, deadlocks,
          violations: [.violations[] | {kind, name,
                       trace: [.trace[] | {action, rule, params, state}]}]}'

# run SPEC TAG ARGS: builds it and runs it with ARGS; exit status in
# $work/TAG.rc, report in $work/TAG.json
run() {
  local spec=$1 tag=$2 args=$3
  mkdir -p "$work/$tag"
  if ! (cd "$work/$tag" && "$mcgen" --cflags -Werror -o checker "$spec") \
      >"$work/$tag.err" 2>&1; then
    echo "mcgen failed: $(head -c 400 "$work/$tag.err")"
    return 1
  fi
  # --por off: the hand counts are the full graph's, and the twins' dependency
  # tables differ (a call to C reads and writes what its signature allows).
  # shellcheck disable=SC2086  # ARGS is a word list
  (cd "$work/$tag" && timeout 120 ./checker --por off $args --report "$work/$tag.json") >"$work/$tag.out" 2>&1
  echo $? >"$work/$tag.rc"
}

for c_spec in "${cases[@]}"; do
  name=$(basename "$c_spec" _c.mc)
  mc_spec=$(dirname "$c_spec")/$name.mc
  args="$(first_directive "$mc_spec" RUN-ARGS) --order fixed"
  if ! why=$(run "$mc_spec" mc "$args") || ! why=$(run "$c_spec" c "$args"); then
    fail "$name" "$why"
    continue
  fi
  problems=""
  want=$(first_directive "$mc_spec" EXPECT-EXIT)
  [ "$(cat "$work/mc.rc")" = "${want:-0}" ] || problems+=" $name.mc exits $(cat "$work/mc.rc"), expected ${want:-0};"
  for pair in "EXPECT-STATES .states" "EXPECT-TRANSITIONS .transitions" \
              "EXPECT-TRACE-STEPS .violations[0].trace|length-1"; do
    want=$(first_directive "$mc_spec" "${pair%% *}")
    [ -n "$want" ] || continue
    got=$(jq -r "${pair#* }" "$work/mc.json")
    [ "$got" = "$want" ] || problems+=" $name.mc: ${pair%% *} $got, expected $want (hand count);"
  done
  [ "$(cat "$work/c.rc")" = "$(cat "$work/mc.rc")" ] ||
    problems+=" exit $(cat "$work/c.rc") with C, $(cat "$work/mc.rc") in .mc;"
  if ! diff <(jq -S "$summary" "$work/mc.json") <(jq -S "$summary" "$work/c.json") >"$work/diff"; then
    problems+=" reports differ: $(head -c 600 "$work/diff");"
  fi
  if [ -z "$problems" ]; then
    pass "$name ($(jq -r '.verdict + ", " + (.states|tostring) + " states"' "$work/c.json"))"
  else
    fail "$name" "$problems"
  fi
done
finish
