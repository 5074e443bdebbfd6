#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Liveness oracles: mcgen's verdicts on temporal properties against answers
# that do not come from mcgen.
#
#   1. BEEM (tests/liveness/beem/*.mc): hand translations of BEEM instances.
#      The published row of each (recorded verbatim in
#      tests/liveness/beem/beem_expected.csv) gives the state count, the
#      edges, the BFS levels, the deadlocks and the LTL verdicts. A spec's
#      directives must repeat that row (a typo cannot slip through), its
#      graph must have BEEM's counts (the evidence that the translation is
#      exact), it must deadlock exactly when BEEM counts deadlocks, and each
#      property, checked alone, must get BEEM's verdict.
#   2. SPIN (tests/liveness/spin/*.mc, and the specs of tests/e2e/specs/
#      and specs/ with a SPIN-TWIN directive): specs with a Promela twin in
#      tests/oracle/spin/ whose `ltl` formulas say the same as the spec's
#      properties. SPIN's recorded output (NAME.TAG.spin.txt) gives the
#      verdict, and the state count where the twin has the same atomicity;
#      with spin installed the twin is rerun and must match the recording.
#
# Usage: tests/e2e/run_ltl.sh [BUILD_DIR] [SPEC.mc...]
# Environment:
#   MCGEN_CFLAGS, MCGEN_TEST_CFLAGS, MCGEN_TIMEOUT   as for run_specs.sh
#   BEEM_DIR   the BEEM suite (default: what tools/suite-dir beem finds);
#              when its beem_expected.csv exists, the recorded rows must
#              equal its rows
#
# Directives in a BEEM spec's header comment:
#   // BEEM-ROW: phils.1            the instance (first column of the CSV)
#   // BEEM-STATES: 80              BEEM's states, stat_edges, stat_deadlocks
#   // BEEM-EDGES: 212
#   // BEEM-DEADLOCKS: 1
#   // RUN-ARGS: --no-deadlock      checker options for the verdict runs
#   // BEEM-VERDICT: P1 no  GF eat0 property P1 of the spec is BEEM's P1;
#                                   yes = holds; the formula is a comment
# Directives in a SPIN spec's header comment:
#   // SPIN-TWIN: filter.pml        the Promela twin in tests/oracle/spin/
#   // SPIN-VERDICT: PROP TAG       property PROP of the spec gets SPIN's
#                                   verdict recorded in TWIN.TAG.spin.txt
#                                   (errors: 0 = holds, an acceptance cycle =
#                                   violated); the twin's `PAN: TAG ...` line
#                                   says which ltl formula and pan options
#   // SPIN-GRAPH: TAG              TWIN.TAG.spin.txt is pan without a claim:
#                                   its stored states and transitions (less
#                                   the initial one) must be mcgen's counts
#   // RUN-ARGS: ...                checker options for the verdict runs
# Each property is checked alone: the spec is copied with every other
# `property` line removed (so each property must be written on one line).
#
# A "holds" verdict must be exit 0; a "violated" one exit 1 with a
# violation of kind "liveness" named after the property, whose trace is a
# lasso (loop_start inside the trace). The last line is `N passed, N failed`
# (plus `, N skipped`); the exit status is non-zero if anything failed.
set -uo pipefail   # no -e: a failing check is counted, not fatal

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/e2e/lib.sh
. "$root/tests/e2e/lib.sh"
beem_specs_dir=$root/tests/liveness/beem
spin_specs_dir=$root/tests/liveness/spin
spin_dir=$root/tests/oracle/spin
recorded_csv=$beem_specs_dir/beem_expected.csv
beem_dir=$("$root/tools/suite-dir" beem || true)
take_build_dir "${1:-}" '*.mc' && shift

if ! cases_given specs "$@"; then
  shopt -s nullglob
  specs=("$beem_specs_dir"/*.mc "$spin_specs_dir"/*.mc)
  # and the end-to-end specs that name a SPIN twin
  for s in "$root"/tests/e2e/specs/*.mc "$root"/specs/*.mc; do
    grep -q '^//[[:space:]]*SPIN-TWIN:' "$s" && specs+=("$s")
  done
  shopt -u nullglob
fi

make_work ltl
tmp_root=$work

# only_property SPEC NAME OUT: SPEC with every `property` line but NAME's removed.
only_property() {
  awk -v keep="$3" '
    /^[[:space:]]*property[[:space:]]/ {
      n = $0; sub(/^[[:space:]]*property[[:space:]]+/, "", n); sub(/[[:space:]]*:.*/, "", n)
      if (n != keep) next
    }
    { print }' "$1" >"$2"
}

# check_verdict NAME WHAT RC DIR PROP EXPECTED: EXPECTED is holds or violated.
check_verdict() {
  local name=$1 what=$2 rc=$3 dir=$4 prop=$5 want=$6 got kinds loop len
  case $rc in
    0) got=holds ;;
    1) got=violated ;;
    *) got="exit $rc: $(head -n 1 "$dir/out.txt") $(head -n 1 "$dir/err.txt")" ;;
  esac
  check_eq "$name" "$what" "$want" "$got"
  [ "$want" = violated ] && [ "$got" = violated ] || return 0
  # A forall property's instance is named PROP(x=v).
  kinds=$(jq_field "$dir/r.json" '[.violations[] | "\(.kind) \(.name)"] | join(", ")')
  if [[ $kinds == "liveness $prop" || $kinds == "liveness $prop("*")" ]]; then
    pass "$name" "$what: the violation is $kinds"
  else
    fail "$name" "$what: the violation expected liveness $prop got $kinds"
  fi
  loop=$(jq_field "$dir/r.json" '.violations[0].loop_start')
  len=$(jq_field "$dir/r.json" '.violations[0].trace | length')
  if [[ $loop =~ ^[0-9]+$ ]] && [[ $len =~ ^[0-9]+$ ]] && [ "$loop" -lt "$len" ]; then
    pass "$name" "$what: lasso trace, $len states, loop from $loop"
  else
    fail "$name" "$what: expected a lasso (loop_start < trace length), got loop_start $loop, length $len"
  fi
}

# check_property NAME SPEC PROP RUN_ARGS WHAT EXPECTED: SPEC with PROP as
# its only property, built in $work/PROP and run with RUN_ARGS, gets the
# verdict EXPECTED (check_verdict); false when it could not be run.
check_property() {
  local name=$1 spec=$2 prop=$3 rargs=$4 what=$5 want=$6
  local pdir=$work/$3 pspec=$work/$3/$1.mc pbin
  mkdir -p "$pdir"
  only_property "$spec" "$pspec" "$prop"
  if ! grep -q "^[[:space:]]*property[[:space:]]*$prop[[:space:]]*:" "$pspec"; then
    fail "$name" "no 'property $prop:' line in the spec"
    return 1
  fi
  if ! pbin=$(build_checker "$pdir" "$pspec"); then
    fail "$name" "$prop: compile: $(log_errors "$pdir/mcgen.log")"
    return 1
  fi
  check_verdict "$name" "$what" "$(run_checker "$pbin" "$pdir" "$rargs")" "$pdir" "$prop" "$want"
}

# csv_field LINE N: field N of a beem_expected.csv line (the one quoted
# field, parameters, holds no other comma that matters: it is blanked).
csv_field() { echo "$1" | sed 's/"[^"]*"/params/' | cut -d, -f"$2"; }
# beem_answer LINE PROP: yes or no, BEEM's answer for LTL property PROP.
beem_answer() {
  csv_field "$1" 17 | tr ';' '\n' | sed -n "s/^$2:ltl:\([a-z]*\):.*/\1/p"
}

have_live_csv=0
if [ -f "$beem_dir/beem_expected.csv" ]; then
  have_live_csv=1
else
  echo "SKIP live BEEM table ($beem_dir/beem_expected.csv not found): comparing with the recorded rows only"
fi
have_spin=0
if command -v spin >/dev/null 2>&1; then
  have_spin=1
else
  echo "SKIP live spin (not installed): comparing with the recorded SPIN outputs only"
fi

# --- BEEM --------------------------------------------------------------------
beem_spec() {
  local spec=$1 name row line live states edges deadlocks levels work bin rc
  name=$(basename "$spec" .mc)
  row=$(first_directive "$spec" BEEM-ROW)
  line=$(grep "^$row," "$recorded_csv" | head -n 1)
  if [ -z "$row" ] || [ -z "$line" ]; then
    fail "$name" "no BEEM-ROW directive, or row '$row' not in $recorded_csv"
    return
  fi
  if [ "$have_live_csv" -eq 1 ]; then
    live=$(grep "^$row," "$beem_dir/beem_expected.csv" | head -n 1)
    check_eq "$name" "recorded row = $beem_dir/beem_expected.csv row" "$live" "$line"
  fi
  states=$(csv_field "$line" 5)
  edges=$(csv_field "$line" 7)
  deadlocks=$(csv_field "$line" 8)
  levels=$(csv_field "$line" 10)
  check_eq "$name" "BEEM complete" yes "$(csv_field "$line" 6)"
  check_eq "$name" "BEEM-STATES vs the row" "$states" "$(first_directive "$spec" BEEM-STATES)"
  check_eq "$name" "BEEM-EDGES vs the row" "$edges" "$(first_directive "$spec" BEEM-EDGES)"
  check_eq "$name" "BEEM-DEADLOCKS vs the row" "$deadlocks" "$(first_directive "$spec" BEEM-DEADLOCKS)"

  work=$(mktemp -d "$tmp_root/$name.XXXX")
  if ! bin=$(build_checker "$work/graph" "$spec"); then
    fail "$name" "compile: $(log_errors "$work/graph/mcgen.log")"
    return
  fi
  # The state graph: BEEM's counts. BFS levels count the initial level.
  rc=$(run_checker "$bin" "$work/graph" "--liveness off --no-deadlock")
  check_eq "$name" "graph run (--liveness off --no-deadlock) exit" 0 "$rc"
  check_eq "$name" "states (BEEM vs mcgen)" "$states" "$(jq_field "$work/graph/r.json" .states)"
  check_eq "$name" "transitions (BEEM stat_edges vs mcgen)" "$edges" "$(jq_field "$work/graph/r.json" .transitions)"
  check_eq "$name" "depth (BEEM stat_bfs_levels - 1 vs mcgen)" "$((levels - 1))" \
    "$(jq_field "$work/graph/r.json" .depth)"
  # Deadlocks: mcgen finds one exactly when BEEM counts some.
  mkdir -p "$work/deadlock"
  rc=$(run_checker "$bin" "$work/deadlock" "--liveness off")
  if [ "$deadlocks" -gt 0 ]; then
    check_eq "$name" "deadlock found (BEEM counts $deadlocks)" "1 deadlock" \
      "$rc $(jq_field "$work/deadlock/r.json" '.violations[0].kind')"
  else
    check_eq "$name" "no deadlock (BEEM counts none)" 0 "$rc"
  fi

  # The verdicts, one property at a time.
  local rargs prop answer want recorded_answer
  rargs=$(first_directive "$spec" RUN-ARGS)
  while read -r prop answer _; do
    [ -z "$prop" ] && continue
    recorded_answer=$(beem_answer "$line" "$prop")
    check_eq "$name" "BEEM-VERDICT $prop vs the row" "$recorded_answer" "$answer"
    want=holds
    [ "$recorded_answer" = no ] && want=violated
    check_property "$name" "$spec" "$prop" "$rargs" "$prop (BEEM $row: $recorded_answer)" "$want"
  done < <(directive "$spec" BEEM-VERDICT)
}

# --- SPIN --------------------------------------------------------------------
# spin_errors FILE: pan's error count; spin_stored FILE: its stored states;
# spin_transitions FILE: its transitions, less the one it counts for the
# initial state (stored + matched: the initial state is stored without a
# transition), i.e. the successors generated, as mcgen counts them.
spin_errors() { sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' "$1" | head -n 1; }
spin_stored() { sed -n 's/^ *\([0-9][0-9]*\) states, stored.*/\1/p' "$1" | head -n 1; }
spin_transitions() {
  local t
  t=$(sed -n 's/^ *\([0-9][0-9]*\) transitions (= .*/\1/p' "$1" | head -n 1)
  [ -n "$t" ] && echo $((t - 1))
}

# spin_live NAME TWIN DIR: rerun every PAN line of TWIN into DIR (once).
spin_live() {
  [ -d "$3" ] && return 0
  mkdir -p "$3"
  if ! "$spin_dir/record.sh" --out "$3" "$2" >"$3/record.log" 2>&1; then
    fail "$1" "live spin: record.sh failed on $2: $(tail -n 3 "$3/record.log" | tr '\n' ' ')"
  fi
}

# spin_compare_live NAME WHAT REC LIVEDIR: the live run of REC's tag agrees.
spin_compare_live() {
  local live=$4/$(basename "$3")
  [ "$have_spin" -eq 1 ] || return 0
  check_eq "$1" "$2: live spin (errors, stored states) = recorded $(basename "$3")" \
    "$(spin_errors "$3") $(spin_stored "$3")" "$(spin_errors "$live") $(spin_stored "$live")"
}

spin_spec() {
  local spec=$1 name twin base rargs graph work bin rc rec errs want
  name=$(basename "$spec" .mc)
  twin=$(first_directive "$spec" SPIN-TWIN)
  base=${twin%.pml}
  rargs=$(first_directive "$spec" RUN-ARGS)
  graph=$(first_directive "$spec" SPIN-GRAPH)
  if [ -z "$twin" ] || [ ! -f "$spin_dir/$twin" ]; then
    fail "$name" "no SPIN-TWIN directive, or $spin_dir/$twin missing"
    return
  fi
  work=$(mktemp -d "$tmp_root/$name.XXXX")
  [ "$have_spin" -eq 1 ] && spin_live "$name" "$twin" "$tmp_root/live-$base"

  # The state graph: SPIN's without a never claim (-DNOCLAIM) is mcgen's.
  if [ -n "$graph" ]; then
    rec=$spin_dir/$base.$graph.spin.txt
    if [ ! -f "$rec" ]; then
      fail "$name" "graph: recording $rec missing (tests/oracle/spin/record.sh)"
    elif ! bin=$(build_checker "$work/graph" "$spec"); then
      fail "$name" "compile: $(log_errors "$work/graph/mcgen.log")"
    else
      rc=$(run_checker "$bin" "$work/graph" "--liveness off --no-deadlock $rargs")
      check_eq "$name" "graph run (--liveness off --no-deadlock) exit" 0 "$rc"
      check_eq "$name" "states (SPIN stored, no claim, vs mcgen)" "$(spin_stored "$rec")" \
        "$(jq_field "$work/graph/r.json" .states)"
      check_eq "$name" "transitions (SPIN transitions - 1, no claim, vs mcgen)" \
        "$(spin_transitions "$rec")" "$(jq_field "$work/graph/r.json" .transitions)"
      spin_compare_live "$name" graph "$rec" "$tmp_root/live-$base"
    fi
  fi

  # The verdicts, one property at a time.
  local prop tag
  while read -r prop tag _; do
    [ -z "$prop" ] && continue
    rec=$spin_dir/$base.$tag.spin.txt
    if [ ! -f "$rec" ]; then
      fail "$name" "$prop: recording $rec missing (tests/oracle/spin/record.sh)"
      continue
    fi
    errs=$(spin_errors "$rec")
    case $errs in
      0) want=holds ;;
      [1-9]*) want=violated
              if ! grep -q 'acceptance cycle' "$rec"; then
                fail "$name" "$prop: $(basename "$rec") reports an error that is not an acceptance cycle"
                continue
              fi ;;
      *) fail "$name" "$prop: no 'errors: N' line in $(basename "$rec")"; continue ;;
    esac
    check_property "$name" "$spec" "$prop" "$rargs" "$prop (SPIN $base.$tag: errors: $errs)" "$want" ||
      continue
    spin_compare_live "$name" "$prop" "$rec" "$tmp_root/live-$base"
  done < <(directive "$spec" SPIN-VERDICT)
}

if [ ! -x "$mcgen" ]; then
  echo "FAIL run_ltl: $mcgen not found (build it with make)"
  echo "0 passed, 1 failed"
  exit 1
fi
for spec in "${specs[@]}"; do
  if [ ! -f "$spec" ]; then fail "$(basename "$spec" .mc)" "no such spec $spec"; continue; fi
  if grep -q '^//[[:space:]]*BEEM-ROW:' "$spec"; then
    beem_spec "$spec"
  elif grep -q '^//[[:space:]]*SPIN-TWIN:' "$spec"; then
    spin_spec "$spec"
  else
    fail "$(basename "$spec" .mc)" "neither a BEEM-ROW nor a SPIN-TWIN directive"
  fi
done

finish
