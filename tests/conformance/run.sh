#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# BEEM conformance: mcgen's checkers against BEEM's published state spaces.
#
# Usage: tests/conformance/run.sh [BUILD_DIR] [options]
#   BUILD_DIR        where mcgen was built (default: build, from the repo root)
#   --limit N        instances with at most N states (default 1000000)
#   --min N          and at least N states (default 0)
#   --only REGEX     only instances whose name matches (grep -E)
#   --compile-all    first check that every dve/*.dve compiles (mcgen and the
#                    C compiler), whatever its size or completeness
#   --compile-only   only that check
#   --cflags FLAGS   C flags for the checkers (default -O0: for the instances
#                    under 10^5 states compiling dominates; measured on 90
#                    of them, -O0 takes 2.3 CPU minutes, -O1 4.8)
#   --timeout S      seconds allowed per checker run (default 900)
#   --jobs N         instances checked at once (default 1)
# Environment: BEEM_DIR overrides the suite's place, ../shared/suites/beem
# from the repo root (see tools/suite-dir beem); CONFORMANCE_KNOWN the known-
# differences file (default tests/conformance/known.txt).
#
# For every row of beem_expected.csv with complete=yes and states <= N:
# compile dve/NAME.dve with mcgen, run the checker with --por off (the full
# graph; the default reduces it) and --no-deadlock (DVE
# has no deadlock property; BEEM counts deadlock states instead) and compare
# the report with BEEM's figures: states exactly, and transitions
# (stat_edges), deadlock states (stat_deadlocks) and BFS levels
# (stat_bfs_levels: the initial level counts, so depth + 1) wherever BEEM
# published them. One row per instance:
#   NAME  EXPECTED (states edges deadlocks levels)  GOT (same)  VERDICT [reason]
# with "-" where BEEM published nothing. Verdicts: PASS; FAIL (a figure
# differs); ERROR (mcgen rejected the model, the checker found a violation,
# stopped early, crashed or timed out); KNOWN (a failure listed with its
# reason and evidence in tests/conformance/known.txt: not counted as a
# failure; an instance listed there that passes is a FAIL, so the list stays
# true). The last line is the tally; the exit status is 1 on any FAIL or
# ERROR (or a compile failure with --compile-all), 2 on a usage error.
#
# Without the suite the script says so loudly and checks nothing (exit 0:
# skipped, not passed).
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/conformance/lib.sh
. "$root/tests/conformance/lib.sh"
take_build_dir "${1:-}" && shift

limit=1000000 min=0 only= compile_all=0 compile_only=0 cflags=-O0 timeout_s=900 jobs=1
read_options run.sh "--limit --min --only --compile-all --compile-only --cflags --timeout --jobs" "$@"
numbers_or_exit run.sh "$limit" "$min" "$timeout_s" "$jobs"
conformance_setup run.sh dve "BEEM conformance"

# name states complete edges deadlocks levels, one instance a line.
expected_rows() { "$root/tools/beem-expected" "$beem"; }

# Checks one instance; prints its row and writes its verdict to
# $work/NAME.verdict.
check_one() {
  local name=$1 states=$2 edges=$3 dead=$4 levels=$5
  local dve=$beem/dve/$name.dve dir=$work/$name verdict reason= got="- - - -"
  mkdir -p "$dir"
  if [ ! -f "$dve" ]; then
    verdict=ERROR reason="no file dve/$name.dve"
  elif ! (cd "$dir" && "$mcgen" -o "$dir/checker" --cflags "$cflags" "$dve") >"$dir/mcgen.txt" 2>&1; then
    verdict=ERROR reason="mcgen: $(first_error "$dir/mcgen.txt")"
  else
    # --por off: BEEM's figures are the full graph's (the default reduces).
    timeout "$timeout_s" "$dir/checker" --no-deadlock --por off --quiet --report "$dir/report.json" \
      >"$dir/out.txt" 2>&1
    local rc=$?
    if [ "$rc" = 124 ]; then
      verdict=ERROR reason="timed out after $timeout_s s"
    elif [ "$rc" != 0 ] || [ ! -f "$dir/report.json" ]; then
      verdict=ERROR reason="checker exit $rc: $(first_error "$dir/out.txt")"
    else
      local gs ge gd gl
      gs=$(json_num states "$dir/report.json")
      ge=$(json_num transitions "$dir/report.json")
      gd=$(json_num deadlocks "$dir/report.json")
      gl=$(json_num bfs_levels "$dir/report.json")
      got="$gs $ge ${gd:--} ${gl:--}"
      verdict=PASS
      [ "$gs" = "$states" ] || reason="$reason; states differ"
      [ "$edges" = - ] || [ "$ge" = "$edges" ] || reason="$reason; transitions differ"
      [ "$dead" = - ] || [ "${gd:-}" = "$dead" ] || reason="$reason; deadlocks differ"
      [ "$levels" = - ] || [ "${gl:-}" = "$levels" ] || reason="$reason; BFS levels differ"
      [ -z "$reason" ] || verdict=FAIL
    fi
  fi
  reason=${reason#; }
  apply_known "$name"
  printf '%-22s %-36s %-36s %s %s\n' "$name" "$states $edges $dead $levels" "$got" \
    "$verdict" "$reason"
  echo "$verdict" >"$work/$name.verdict"
  rm -rf "$dir"
}

# Compiles one .dve file to a checker (C at -O0: only that it builds counts).
compile_one() {
  local dve=$1 name
  name=$(basename "$dve" .dve)
  local dir=$work/compile/$name
  mkdir -p "$dir"
  if (cd "$dir" && "$mcgen" -o "$dir/checker" --cflags -O0 "$dve") >"$dir/mcgen.txt" 2>&1; then
    echo ok >"$work/compile/$name.result"
  else
    echo "COMPILE-FAIL $name: $(first_error "$dir/mcgen.txt")"
    echo fail >"$work/compile/$name.result"
  fi
  rm -rf "$dir"
}

export beem mcgen cflags timeout_s work known_file
export -f check_one compile_one apply_known known_reason json_num first_error

status=0
echo "BEEM conformance: $beem, mcgen $mcgen, checkers built with $cflags"

if [ "$compile_all" = 1 ]; then
  mkdir -p "$work/compile"
  shopt -s nullglob
  files=("$beem"/dve/*.dve)
  shopt -u nullglob
  if [ -n "$only" ]; then
    mapfile -t files < <(printf '%s\n' "${files[@]}" | grep -E "/($only)\.dve$")
  fi
  echo "== every dve/*.dve compiles (${#files[@]} files)"
  printf '%s\n' "${files[@]}" | xargs -P "$jobs" -I{} bash -c 'compile_one "$1"' _ {}
  ok=$(cat "$work"/compile/*.result 2>/dev/null | grep -c '^ok$')
  bad=$(cat "$work"/compile/*.result 2>/dev/null | grep -c '^fail$')
  echo "compile: $ok of ${#files[@]} compile, $bad fail"
  [ "$bad" = 0 ] && [ "$ok" = "${#files[@]}" ] || status=1
  [ "$compile_only" = 1 ] && exit $status
fi

# Instances: complete, within the limit, matching --only.
expected_rows | awk -v lim="$limit" -v min="$min" '$3 == "yes" && $2 <= lim && $2 >= min' \
  >"$work/selected"
if [ -n "$only" ]; then
  awk -v re="^($only)\$" '$1 ~ re' "$work/selected" >"$work/selected.only"
  mv "$work/selected.only" "$work/selected"
fi
over=$(expected_rows | awk -v lim="$limit" '$3 == "yes" && $2 > lim' | wc -l)
incomplete=$(expected_rows | awk '$3 != "yes"' | wc -l)
total=$(wc -l <"$work/selected")

echo "== $total complete instances with $min to $limit states (--no-deadlock)"
printf '%-22s %-36s %-36s %s\n' instance "expected: states edges deadlocks levels" \
  "got: states edges deadlocks levels" verdict
awk '{ print $1, $2, $4, $5, $6 }' "$work/selected" |
  xargs -P "$jobs" -L 1 bash -c 'check_one "$@"' _

conformance_finish run.sh tally instances "$over over the limit of $limit states" \
  "$incomplete without a complete BEEM count"
