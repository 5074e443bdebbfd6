#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# MCC conformance: mcgen's Petri net checkers against the Model Checking
# Contest's answers (../shared/suites/mcc, its README).
#
# Usage: tests/conformance/mcc.sh [BUILD_DIR] [options]
#   BUILD_DIR        where mcgen was built (default: build, from the repo root)
#   --limit N        instances whose oracle says at most N states (default 10^7)
#   --min N          and at least N states (default 0)
#   --only REGEX     only instances whose name matches (grep -E)
#   --compile-all    first check that every instance compiles (mcgen and the C
#                    compiler) or is refused for a reason, tallied by reason
#   --cflags FLAGS   C flags for the checkers (default -O1)
#   --timeout S      seconds allowed per checker run (default 900)
# Environment: MCC_DIR overrides the suite's place, ../shared/suites/mcc
# beside the repo root or a parent.
#
# For every row of mcc_pt_expected.csv with states <= N: compile the net,
# run its checker with --mcc and compare all nine answers: STATES,
# TRANSITIONS, MAX_TOKEN_IN_PLACE, MAX_TOKEN_PER_MARKING, then
# ReachabilityDeadlock, OneSafe, QuasiLiveness, StableMarking, Liveness.
# One row per instance: NAME  VERDICT  [what differs]. Verdicts: PASS; FAIL
# (an answer differs: a wrong answer); PARTIAL (the checker said
# CANNOT_COMPUTE for some answers, every answer it gave is right: a counter
# too narrow for the net without a proven bound); ERROR (refused, crashed,
# timed out). The last line is the tally; the exit status is 1 on any FAIL
# or ERROR, 2 on a usage error. PARTIAL is reported, not a failure: the
# answers given are checked all the same.
#
# Without the suite the script says so loudly and checks nothing (exit 0).
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/conformance/lib.sh
. "$root/tests/conformance/lib.sh"
take_build_dir "${1:-}" && shift

limit=10000000 min=0 only= compile_all=0 cflags=-O1 timeout_s=900
read_options mcc.sh "--limit --min --only --compile-all --cflags --timeout" "$@"

find_suite mcc "MCC CONFORMANCE" || exit 0
mcc=$suite
[ -x "$mcgen" ] || { echo "mcc.sh: no $mcgen (make all)" >&2; exit 2; }
make_work conformance-mcc

fails=0 errors=0 passes=0 partials=0

# --compile-all: every instance compiles, or is refused with a message;
# refusals tallied by their message (ids stripped).
if [ "$compile_all" -eq 1 ]; then
  declare -A reasons=()
  ncomp=0 nref=0 nbad=0
  while IFS=, read -r inst _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ file; do
    [ "$inst" = instance ] && continue
    file=${file%$'\r'} # the CSV has CRLF line ends
    [ -n "$only" ] && ! grep -qE "$only" <<<"$inst" && continue
    if "$mcgen" --emit-c -o "$work/c_$inst" "$mcc/$file" >"$work/c.out" 2>&1; then
      if ${CC:-cc} -std=c11 -fsyntax-only -Wall -Wextra -Werror -I"$root/runtime" \
          "$work/c_$inst.c" 2>"$work/cc.out"; then
        ncomp=$((ncomp + 1))
      else
        echo "COMPILE-FAIL $inst: the C compiler rejected the generated C: $(head -1 "$work/cc.out")"
        nbad=$((nbad + 1))
      fi
    elif grep -q "error:" "$work/c.out"; then
      r=$(grep -m1 "error:" "$work/c.out" | sed -e 's/.*error: //' -e "s/'[^']*'/'X'/g")
      reasons[$r]=$((${reasons[$r]:-0} + 1))
      nref=$((nref + 1))
    else
      echo "COMPILE-FAIL $inst: mcgen failed without a message"
      nbad=$((nbad + 1))
    fi
    rm -f "$work/c_$inst.c"
  done <"$mcc/mcc_pt_expected.csv"
  echo "compile-all: $ncomp compiled, $nref refused, $nbad failed"
  for r in "${!reasons[@]}"; do echo "  refused ${reasons[$r]}x: $r"; done
  [ "$nbad" -eq 0 ] || errors=$((errors + nbad))
fi

while IFS=, read -r inst _ _ states trans mtp mtm dl os ql sm live _ _ _ _ _ _ file; do
  [ "$inst" = instance ] && continue
  file=${file%$'\r'} # the CSV has CRLF line ends
  [ "$states" -le "$limit" ] 2>/dev/null && [ "$states" -ge "$min" ] || continue
  [ -n "$only" ] && ! grep -qE "$only" <<<"$inst" && continue
  exe=$work/$inst
  if ! "$mcgen" --cflags "$cflags" -o "$exe" "$mcc/$file" >"$work/mcgen.out" 2>&1; then
    printf '%-40s ERROR  mcgen: %s\n' "$inst" "$(grep -m1 error "$work/mcgen.out" || head -1 "$work/mcgen.out")"
    errors=$((errors + 1))
    continue
  fi
  timeout "$timeout_s" "$exe" --mcc --progress 0 >"$work/out" 2>"$work/err"
  rc=$?
  rm -f "$exe" "$exe.c"
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
    printf '%-40s ERROR  checker exit %d: %s\n' "$inst" "$rc" "$(head -c 200 "$work/err")"
    errors=$((errors + 1))
    continue
  fi
  diffs="" unknown=""
  check() { # check KIND NAME EXPECTED
    local got
    got=$(awk -v k="$1" -v n="$2" '$1 == k && $2 == n { print $3 }' "$work/out")
    if [ "$got" = CANNOT_COMPUTE ] || { [ "$1" = STATE_SPACE ] && grep -q "STATE_SPACE CANNOT_COMPUTE" "$work/out"; }; then
      unknown="$unknown $2"
    elif [ "$got" != "$3" ]; then
      diffs="$diffs $2=${got:-none}(expected $3)"
    fi
  }
  check STATE_SPACE STATES "$states"
  check STATE_SPACE TRANSITIONS "$trans"
  check STATE_SPACE MAX_TOKEN_IN_PLACE "$mtp"
  check STATE_SPACE MAX_TOKEN_PER_MARKING "$mtm"
  check FORMULA ReachabilityDeadlock "$dl"
  check FORMULA OneSafe "$os"
  check FORMULA QuasiLiveness "$ql"
  check FORMULA StableMarking "$sm"
  check FORMULA Liveness "$live"
  if [ -n "$diffs" ]; then
    printf '%-40s FAIL  %s\n' "$inst" "$diffs"
    fails=$((fails + 1))
  elif [ -n "$unknown" ]; then
    printf '%-40s PARTIAL  not computed:%s\n' "$inst" "$unknown"
    partials=$((partials + 1))
  else
    printf '%-40s PASS  %s states\n' "$inst" "$states"
    passes=$((passes + 1))
  fi
done <"$mcc/mcc_pt_expected.csv"

echo "mcc: $passes passed, $partials partial, $fails failed, $errors errors"
[ "$fails" -eq 0 ] && [ "$errors" -eq 0 ]
