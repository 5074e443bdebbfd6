#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Exports: --graph, --dot and --tests on every spec of specs/ (with options
# that make its search complete and small enough) and on the scenario
# products of tests/scenario/products/.
#
#   --graph  jq reads it back: as many states and transitions as the
#            summary counts, one transition per action as often as the
#            summary's "actions fired" says (the search computes successors
#            with the generated expansion functions, the export with the
#            replay functions: two code paths), every target a state of the
#            graph; a second run writes the same bytes.
#   --dot    `dot -Tsvg` renders it; past --dot-max-states nothing is
#            written (a spec without violation), the warning and the
#            summary name the true number of states, and the exit code is
#            still the verdict's.
#   --tests  (without symmetry, so the graph's states are the spec's) every
#            path starts at an initial state and each step is a transition
#            of the graph whose target holds the values that replaying the
#            path from its start produced; the paths cover every transition
#            (or, with --tests-cover accepting, every accepting state), and
#            a path ends in an accepting state when one is reachable.
#
# Usage: tests/scenario/exports.sh [BUILD_DIR]
set -uo pipefail
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
use_build_dir "${1:-}"
make_work exports
need dot

# The cases: spec | mcgen options | checker options
cases=(
  "specs/bakery.mc||"
  "specs/filter.mc||"
  "specs/german.mc||--symmetry off"
  "specs/lcr.mc||"
  "specs/lost_update.mc|-D USE_CAS=true|"
  "specs/peterson.mc|-D N=3|"
  "specs/philosophers.mc||--no-deadlock"
  "specs/semaphore_net.mc||"
  "specs/two_phase.mc||"
  "tests/scenario/products/counter.mc|--scenario ThenReset|"
  "tests/scenario/products/mutex.mc|--scenario OneRoundEach|"
  "specs/lost_update.mc|--scenario Serial -D N=2 -D ROUNDS=1|--symmetry off"
  "tests/scenario/party.mc|--scenario SyncInterleaved|"
)

summary() { sed -n "s/^$2: *\([0-9]*\).*/\1/p" "$1" | head -1; }

# The paths of tests.json against graph.json (both without symmetry).
check_tests() {
  local graph=$1 tests=$2 cover=$3
  jq -e --slurpfile g "$graph" --arg cover "$cover" '
    . as $t
    | ($g[0]) as $g
    | ($g.transitions | map({key: "\(.from) \(.rule)", value: .to}) | from_entries) as $edge
    | ([$t.paths[] | .steps as $s
        | ($s[0].init == true and $g.states[$s[0].state].initial)
          and ([range(1; $s | length) | $edge["\($s[. - 1].state) \($s[.].rule)"] == $s[.].state] | all)
          and ([$s[] | .values == $g.states[.state].values] | all)
          and (.ends_accepting == $g.states[$s[-1].state].accepting)
       ] | all)
      and (if $cover == "transitions" then
             ([$t.paths[].steps as $s | range(1; $s | length) | "\($s[. - 1].state) \($s[.].rule)"]
              | unique | length) == $g.ntransitions
           else
             ([$t.paths[].steps[].state | select($g.states[.].accepting)] | unique | length)
             == ([$g.states[] | select(.accepting)] | length)
           end)
      and (([$g.states[] | select(.accepting)] | length) == 0 or ([$t.paths[] | .ends_accepting] | all))
  ' "$tests" >/dev/null
}

for c in "${cases[@]}"; do
  IFS='|' read -r spec margs rargs <<<"$c"
  name="$spec${margs:+ $margs}${rargs:+ $rargs}"
  # shellcheck disable=SC2086
  if ! "$mcgen" $margs -o "$work/checker" "$root/$spec" >"$work/out" 2>&1; then
    fail "$name: mcgen failed"; sed 's/^/  /' "$work/out"; continue
  fi
  # shellcheck disable=SC2086
  "$work/checker" $rargs --graph "$work/g1.json" --dot "$work/g.dot" --dot-max-states 120 \
    >"$work/out" 2>"$work/err"
  code=$?
  states=$(summary "$work/out" states) transitions=$(summary "$work/out" transitions)
  # Exit 0 or 1 (a violation: the export still shows the whole graph),
  # never 2: an export the checker does not write is a warning.
  if [ "$code" -gt 1 ]; then
    fail "$name: the checker exited $code"; sed 's/^/  /' "$work/err" | head; continue
  fi
  # --graph against the summary.
  fired=$(sed -n '/^actions fired:/,/^[a-z]/p' "$work/out" | sed -n 's/^  \([^ ]*\)  *\([0-9]*\)$/\1 \2/p' | sort)
  got_fired=$(jq -r '[.transitions[].action] | group_by(.) | map("\(.[0]) \(length)")[]' "$work/g1.json" | sort)
  want_fired=$(echo "$fired" | awk '$2 > 0' | sort)
  if ! jq -e --argjson s "$states" --argjson t "$transitions" \
       '.schema == "mcgen-graph" and .version == 1 and .bound_hit == null
        and .nstates == $s and .ntransitions == $t
        and (.states | length) == $s and (.transitions | length) == $t
        and ([.transitions[] | .to >= 0 and .to < $s and .from < $s] | all)
        and ([.states[] | select(.initial)] | length) > 0' "$work/g1.json" >/dev/null; then
    fail "$name: --graph does not match the summary ($states states, $transitions transitions)"
  elif [ "$got_fired" != "$want_fired" ]; then
    fail "$name: --graph's transitions per action differ from 'actions fired'"
    diff <(echo "$want_fired") <(echo "$got_fired") | sed 's/^/  /'
  else
    pass "$name: --graph ($states states, $transitions transitions)"
  fi
  # Deterministic.
  # shellcheck disable=SC2086
  "$work/checker" $rargs --graph "$work/g2.json" >/dev/null 2>&1
  cmp -s "$work/g1.json" "$work/g2.json" && pass "$name: --graph byte-identical twice" ||
    fail "$name: --graph differs between two runs"
  # --dot.
  if [ "$states" -le 120 ]; then
    if timeout 300 dot -Tsvg "$work/g.dot" >"$work/g.svg" 2>"$work/doterr" && grep -q '<svg' "$work/g.svg"; then
      pass "$name: dot -Tsvg renders --dot"
    else
      fail "$name: dot -Tsvg fails on --dot"; sed 's/^/  /' "$work/doterr" | head -5
    fi
  elif [ ! -e "$work/g.dot" ] &&
       grep -q "^warning: --dot $work/g.dot not written: the graph has $states states, more than" "$work/err" &&
       grep -q "^export: *--dot $work/g.dot: NOT WRITTEN: the graph has $states states" "$work/out"; then
    pass "$name: --dot not written past the cap, the true size ($states states) said"
  else
    fail "$name: --dot past the cap (exit $code)"; head -3 "$work/err"
  fi
  rm -f "$work/g.dot"
  # --tests, without symmetry.
  [ "$states" -le 4000 ] || continue
  for cover in transitions accepting; do
    # shellcheck disable=SC2086
    "$work/checker" $rargs --symmetry off --no-deadlock --liveness off --graph "$work/gs.json" \
      --tests "$work/t.json" --tests-cover $cover >/dev/null 2>"$work/err"
    if check_tests "$work/gs.json" "$work/t.json" $cover; then
      pass "$name: --tests covers the $cover ($(jq '.paths | length' "$work/t.json") paths)"
    else
      fail "$name: --tests ($cover) paths do not replay or do not cover"; head -5 "$work/err"
    fi
  done
done
# --tests past --tests-max-steps: refused with the paths' true number of
# steps and nothing written, and the exit code still the verdict: lost_update
# violates counts_increments (exit 1, its header). The true number is read
# off a file written with the cap exactly at it (the steps the file holds),
# then one below must refuse with that number. peterson (163,298 states
# under symmetry: 224,574 paths, 16 million steps) at the default cap is
# refused too (it used to write gigabytes), and exits 0, its verdict.
"$mcgen" -o "$work/lost" "$root/specs/lost_update.mc" >/dev/null 2>&1
"$work/lost" --symmetry off --no-deadlock --tests "$work/t1.json" --tests-max-steps 1000000 \
  >/dev/null 2>&1
steps=$(jq '[.paths[].steps | length] | add' "$work/t1.json" 2>/dev/null)
"$work/lost" --symmetry off --no-deadlock --tests "$work/t2.json" --tests-max-steps "$steps" \
  >/dev/null 2>&1; rc_at=$?
"$work/lost" --symmetry off --no-deadlock --tests "$work/t3.json" --tests-max-steps $((steps - 1)) \
  >"$work/out" 2>"$work/err"; rc_below=$?
if [ -n "$steps" ] && [ "$steps" -gt 1 ] && cmp -s "$work/t1.json" "$work/t2.json" &&
   [ ! -e "$work/t3.json" ] && [ "$rc_below" -eq 1 ] && [ "$rc_at" -eq 1 ] &&
   grep -q "^result: violation: invariant 'counts_increments'" "$work/out" &&
   grep -q "have $steps steps, more than --tests-max-steps $((steps - 1))" "$work/err"; then
  pass "lost_update: --tests written at --tests-max-steps $steps, refused at $((steps - 1)) with the true size, exit 1"
else
  fail "lost_update: --tests cap: steps=$steps rc at cap $rc_at, below $rc_below"; head -3 "$work/err"
fi
"$mcgen" -o "$work/pet" "$root/specs/peterson.mc" >/dev/null 2>&1
"$work/pet" --tests "$work/pt.json" >"$work/out" 2>"$work/err"; rc=$?
if [ "$rc" -eq 0 ] && [ ! -e "$work/pt.json" ] && grep -q '^result: ok' "$work/out" &&
   grep -Eq "paths covering the graph have [0-9]+ steps, more than --tests-max-steps 100000" "$work/err"; then
  pass "peterson: --tests refused at the default cap, nothing written, exit 0"
else
  fail "peterson: --tests at the default cap: exit $rc"; head -3 "$work/err"
fi
# --graph past --graph-max-states (default 100000): peterson's 163,298
# states (its header) are refused with that true size, exit 0. bakery's
# 3,430 states (its header) are written at --graph-max-states 3430 and
# refused at 3429.
"$work/pet" --graph "$work/pg.json" --report "$work/r.json" >"$work/out" 2>"$work/err"; rc=$?
if [ "$rc" -eq 0 ] && [ ! -e "$work/pg.json" ] && grep -q '^result: ok' "$work/out" &&
   grep -q "^warning: --graph $work/pg.json not written: the graph has 163298 states, more than --graph-max-states 100000" "$work/err" &&
   jq -e '.exit_code == 0 and .exports == [{"kind": "graph", "path": $p, "written": false,
          "trace_only": false, "error": "the graph has 163298 states, more than --graph-max-states 100000 allows"}]' \
     --arg p "$work/pg.json" "$work/r.json" >/dev/null; then
  pass "peterson: --graph refused at the default cap with the true size, exit 0, in the report"
else
  fail "peterson: --graph at the default cap: exit $rc"; head -3 "$work/err"
fi
"$mcgen" -o "$work/bakery" "$root/specs/bakery.mc" >/dev/null 2>&1
"$work/bakery" --graph "$work/b1.json" --graph-max-states 3430 >/dev/null 2>&1; rc_at=$?
"$work/bakery" --graph "$work/b2.json" --graph-max-states 3429 >/dev/null 2>"$work/err"; rc_below=$?
if [ "$rc_at" -eq 0 ] && [ "$rc_below" -eq 0 ] && [ "$(jq .nstates "$work/b1.json")" = 3430 ] &&
   [ ! -e "$work/b2.json" ] &&
   grep -q "the graph has 3430 states, more than --graph-max-states 3429 allows" "$work/err"; then
  pass "bakery: --graph written at --graph-max-states 3430, refused at 3429 with the true size"
else
  fail "bakery: --graph cap: exit $rc_at at the cap, $rc_below below"; head -3 "$work/err"
fi
# The export's copy of the graph within --memory: bakery's serial search
# (the full graph's, as under an export: --por off) fits in its peak (the
# report's memory_bytes) plus 64 KiB, the copy does not (6,957 transitions
# alone take 24 bytes each): not written, exit 0, --memory named.
"$work/bakery" --threads 1 --por off --report "$work/r.json" >/dev/null 2>&1
peak=$(jq .memory_bytes "$work/r.json")
"$work/bakery" --threads 1 --graph "$work/bm.json" --memory $((peak + 65536)) >"$work/out" 2>"$work/err"; rc=$?
if [ "$rc" -eq 0 ] && [ ! -e "$work/bm.json" ] && grep -q '^result: ok' "$work/out" &&
   grep -q "^warning: --graph $work/bm.json not written: the export needs more memory than the .* --memory leaves it" "$work/err"; then
  pass "bakery: --graph within --memory: not written, exit 0"
else
  fail "bakery: --graph under --memory $((peak + 65536)): exit $rc"; head -3 "$work/err"
fi
# A write error (a full disk: /dev/full) and a signal while the export
# explores (MCRT_TEST_PAUSE=export) leave the verdict alone: lost_update
# still exits 1 (its header), bakery 0, or 3 when the signal stops it
# (incomplete, as any signal after the search).
"$work/lost" --graph /dev/full --dot /dev/full --tests /dev/full --report "$work/r.json" \
  >"$work/out" 2>"$work/err"; rc=$?
if [ "$rc" -eq 1 ] && [ "$(grep -c '^warning: --[a-z]* /dev/full not written: a write failed: No space left on device' "$work/err")" -eq 3 ] &&
   jq -e '.exit_code == 1 and ([.exports[] | .written] == [false, false, false])' "$work/r.json" >/dev/null; then
  pass "lost_update: exports on a full disk: warnings, exit 1"
else
  fail "lost_update: exports on a full disk: exit $rc"; head -3 "$work/err"
fi
paused() { # paused SIGNAL CHECKER ARGS...: the run, signalled in the export
  local sig=$1; shift
  rm -f "$work/perr"
  MCRT_TEST_PAUSE=export "$@" >"$work/out" 2>"$work/perr" &
  local pid=$! i
  for i in $(seq 200); do grep -q 'mcrt-test-pause: export' "$work/perr" 2>/dev/null && break; sleep 0.05; done
  kill -"$sig" "$pid" 2>/dev/null
  wait "$pid"
}
paused TERM "$work/lost" --symmetry off --graph "$work/sig.json"; rc=$?
if [ "$rc" -eq 1 ] && [ ! -e "$work/sig.json" ] &&
   grep -q "^warning: --graph $work/sig.json not written: interrupted by SIGTERM" "$work/perr"; then
  pass "lost_update: SIGTERM in the export: not written, exit 1"
else
  fail "lost_update: SIGTERM in the export: exit $rc"; head -3 "$work/perr"
fi
paused TERM "$work/bakery" --graph "$work/sig.json" --report "$work/r.json"; rc=$?
if [ "$rc" -eq 3 ] && [ ! -e "$work/sig.json" ] &&
   jq -e '.exit_code == 3 and .bound_hit == "interrupted" and .stopped_in == "end"' "$work/r.json" >/dev/null; then
  pass "bakery: SIGTERM in the export: not written, exit 3"
else
  fail "bakery: SIGTERM in the export: exit $rc"; head -3 "$work/perr"
fi
# The violation's path in red: lost_update's lost update, 4 steps after the
# initial state: 5 states and 4 transitions highlighted.
"$mcgen" -o "$work/lost" "$root/specs/lost_update.mc" >/dev/null 2>&1
"$work/lost" --dot "$work/lost.dot" --dot-max-states 300 >"$work/out" 2>&1
nodes=$(grep -v -- '->' "$work/lost.dot" | grep -c 'color=red')
edges=$(grep -- '->' "$work/lost.dot" | grep -c 'color=red')
if [ "$nodes" -eq 5 ] && [ "$edges" -eq 4 ] && timeout 300 dot -Tsvg "$work/lost.dot" >/dev/null 2>&1; then
  pass "lost_update: --dot highlights the 4-step trace (5 states, 4 transitions) and renders"
else
  fail "lost_update: --dot highlights $nodes states and $edges transitions, expected 5 and 4"
fi
# Past --dot-max-states (default 200; lost_update has more states under
# symmetry, as many as its --graph holds), the violation's path alone is
# drawn: the same 5 states and 4 transitions, all red, with a warning
# giving the graph's size; exit 1.
"$work/lost" --graph "$work/lg.json" >/dev/null 2>&1
lstates=$(jq .nstates "$work/lg.json")
"$work/lost" --dot "$work/path.dot" --report "$work/r.json" >"$work/out" 2>"$work/err"; rc=$?
nodes=$(grep -v -- '->' "$work/path.dot" | grep -c 'label=.*color=red')
all=$(grep -v -- '->' "$work/path.dot" | grep -c '^  s[0-9]* \[label=')
edges=$(grep -- '->' "$work/path.dot" | grep -v '^  init' | grep -c 'color=red')
if [ "$rc" -eq 1 ] && [ "$nodes" -eq 5 ] && [ "$all" -eq 5 ] && [ "$edges" -eq 4 ] &&
   [ "$lstates" -gt 200 ] &&
   grep -q "^warning: --dot $work/path.dot: the violation's path alone: the graph has $lstates states" "$work/err" &&
   jq -e '.exports[0].written and .exports[0].trace_only' "$work/r.json" >/dev/null &&
   timeout 300 dot -Tsvg "$work/path.dot" >/dev/null 2>&1; then
  pass "lost_update: --dot past the cap draws the 4-step trace alone (5 states, 4 transitions), exit 1"
else
  fail "lost_update: --dot past the cap: exit $rc, $nodes red of $all states, $edges red transitions"; head -3 "$work/err"
fi
finish
