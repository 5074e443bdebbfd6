#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Partial-order reduction: the dependency tables (mcgen --deps) and the
# checker's --por. Each check prints `PASS name` or `FAIL name: why`; the
# last line is exactly `N passed, N failed`, and the exit status is non-zero
# on a failure.
#
# Usage: tests/por/run.sh [BUILD_DIR]     (default: build, from the repo root)
#
#   deps.mc      mcgen --deps and --deps-json against the sets derived by
#                hand in the spec's header (deps.expected is that text)
#   ignoring.mc  a violation reachable only past a cycle of independent
#                actions: found with the cycle proviso, missed without it
#                (MCRT_POR_NO_PROVISO=1), as counted by hand in its header
#   proviso_weak.mc  reduced expansions with one new successor and an old
#                one (the weak proviso), the violation still found; missed
#                without the proviso
#   credit.mc    a reduced expansion whose only successor in the set is old
#                but was expanded fully at an earlier level (the proviso's
#                second form), as counted by hand in its header
#   ordered_key.mc  an enabling set from `i > 0`: 3 states reduced, 4
#                full, as counted by hand in its header
#   error_mark.dve  two processes whose transitions may take DVE's error
#                state stay independent (the error state's mark is no write
#                of the first process's state): 3 states, by hand
#   credit.mc again under MCRT_POR_WHY=1: why each expansion was reduced
#                or not, as its header counts them
#   costly.mc    closures that reduce but cost much: the sampling backs off
#                and, under the default, retires; with a reachable that
#                first holds after that, each state's expansion is still
#                counted once at 2 and 4 threads (the replayed window)
#   futile.mc, futile_visible.mc  tables that rule out any reduction: the
#                reduction is skipped, with the reason in the summary and
#                the report, and the full graph of the headers' counts;
#                the default drops the reduction there and says why
# Then --por on against --por off on every spec of specs/, tests/e2e/specs
# and tests/dve (DVE's error state among them)
# and on the BEEM instances with POR_BEEM_MIN to POR_BEEM_LIMIT states
# (default 0 to 10^5: 90 instances, about 3 CPU minutes; make conformance
# runs those above 10^5 up to 10^6; BEEM_DIR: the suite's place), each
# with deadlocks checked (the run stops at the first), and where there is
# one, again without (every deadlock state kept: the same count): the same verdict (the same violated
# property, or deadlock), no more states, a counterexample that the checker
# replays (it prints a trace only after replaying it through the generated
# code: a genuine run); the same counts at --threads 1 and 2, and with
# symmetry; liveness refused. Then the default (--por auto): on where it
# fits, with fewer states than --por off on specs/german.mc, off with the
# reason elsewhere. Last, tests/por/fuzz.py on seeds of random_spec.py (the
# block at the end).
set -uo pipefail   # no -e: a failing check is counted, not fatal

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
specs=$root/tests/por/specs
use_build_dir "${1:-}"

make_work por
need_mcgen
need jq

# ---------------------------------------------------------------------------
# mcgen --deps: the text, and the JSON's lists (cells by index, as the
# header of deps.mc numbers them).

if "$mcgen" --deps "$specs/deps.mc" >"$work/deps.txt" 2>"$work/err" &&
   diff -u "$specs/deps.expected" "$work/deps.txt" >"$work/diff"; then
  pass deps-text
else
  fail deps-text "$(head -c 400 "$work/diff" "$work/err" | tr '\n' '|')"
fi

"$mcgen" --deps-json "$specs/deps.mc" >"$work/deps.json" 2>"$work/err"
want_json() { # name jq-filter expected
  local got
  got=$(jq -c "$2" "$work/deps.json" 2>&1)
  if [ "$got" = "$3" ]; then pass "$1"; else fail "$1" "$2 is $got, expected $3"; fi
}
want_json deps-json-cells '.cells' '["a[Id_1].v","a[Id_1].ok","a[Id_2].v","a[Id_2].ok","n","s","k"]'
want_json deps-json-guard '[.rules[].guard]' '[[1],[3],[4],[],[],[0,2,4,6]]'
want_json deps-json-read '[.rules[].read]' '[[0,1,5],[2,3,5],[4,6],[],[],[0,2,4,6]]'
want_json deps-json-write '[.rules[].write]' '[[0,5],[2,5],[1,3,4],[6],[6],[4]]'
want_json deps-json-process '[.rules[].process]' '[0,1,2,3,4,5]'
want_json deps-json-processes '.processes' '["bump(Id_1)","bump(Id_2)","pick","flip(Id_1)","flip(Id_2)","reset_n"]'
want_json deps-json-visible '.visible' '[0,2,4,6]'
want_json deps-json-enables '[.rules[].enables_or_disables]' '[[5],[5],[0,1,5],[5],[5],[2]]'

# The generated checker carries the same tables (mc_deps) and builds clean.
if (cd "$work" && "$mcgen" -o deps --cflags "-Werror" "$specs/deps.mc" >"$work/err" 2>&1) &&
   grep -q '\.deps = &mc_deps' "$work/deps.c" &&
   grep -A1 'mc_deps_write\[\] = {' "$work/deps.c" | tail -1 | grep -q '^  0, 5, 2, 5, 1, 3, 4, 6, 6, 4$'; then
  pass deps-emitted
else
  fail deps-emitted "$(head -c 400 "$work/err" | tr '\n' '|')"
fi

# ---------------------------------------------------------------------------
# The cycle proviso.

if (cd "$work" && "$mcgen" -o ignoring "$specs/ignoring.mc" >"$work/err" 2>&1); then
  "$work/ignoring" --por on --report "$work/ignoring.json" >"$work/on.txt" 2>&1
  rc_on=$?
  MCRT_POR_NO_PROVISO=1 "$work/ignoring" --por on >"$work/noprov.txt" 2>&1
  rc_noprov=$?
  if [ $rc_on -eq 1 ] && grep -q "invariant 'y_zero' does not hold" "$work/on.txt" &&
     grep -q '^states: *3 distinct' "$work/on.txt"; then
    pass proviso-finds-violation
  else
    fail proviso-finds-violation "exit $rc_on: $(head -c 300 "$work/on.txt" | tr '\n' '|')"
  fi
  got=$(jq -c '[.por, .por_reduced_expansions, .por_full_expansions, .por_pruned_rules]' \
    "$work/ignoring.json" 2>&1)
  if [ "$got" = '["on",1,1,1]' ] &&
     grep -q '^por: *on: 1 expansions reduced, 1 full; 1 enabled action bindings pruned' "$work/on.txt"; then
    pass proviso-report
  else
    fail proviso-report "report $got; summary: $(grep '^por:' "$work/on.txt")"
  fi
  # The same spec without the proviso misses it: what the test above guards.
  if [ $rc_noprov -eq 0 ] && grep -q '^states: *2 distinct' "$work/noprov.txt"; then
    pass proviso-needed
  else
    fail proviso-needed "exit $rc_noprov: $(head -c 300 "$work/noprov.txt" | tr '\n' '|')"
  fi
else
  fail proviso-build "$(head -c 300 "$work/err" | tr '\n' '|')"
fi

# The weak form of the proviso: reduced expansions with an old successor,
# the violation still found (counted by hand in the spec's header).
if (cd "$work" && "$mcgen" -o proviso_weak "$specs/proviso_weak.mc" >"$work/err" 2>&1); then
  "$work/proviso_weak" --progress 0 --por on --report "$work/pw.json" >"$work/on.txt" 2>&1
  rc_on=$?
  MCRT_POR_NO_PROVISO=1 "$work/proviso_weak" --progress 0 --por on >"$work/noprov.txt" 2>&1
  rc_noprov=$?
  got=$(jq -c '[.states, .transitions, .por_reduced_expansions, .por_full_expansions,
    .por_pruned_rules]' "$work/pw.json" 2>&1)
  if [ $rc_on -eq 1 ] && grep -q "invariant 'y_zero' does not hold" "$work/on.txt" &&
     [ "$got" = "[5,7,3,1,3]" ] && grep -q '^4 set_y' "$work/on.txt" &&
     [ $rc_noprov -eq 0 ] && grep -q '^states: *4 distinct' "$work/noprov.txt"; then
    pass proviso-weak
  else
    fail proviso-weak "exit $rc_on / $rc_noprov, report $got: $(grep -E '^(result|por):' \
      "$work/on.txt" | tr '\n' '|')"
  fi
else
  fail proviso-weak-build "$(head -c 300 "$work/err" | tr '\n' '|')"
fi

# The proviso's second form: a reduced expansion whose successor in the
# set is old but was expanded fully at an earlier level (the header's
# counts).
if (cd "$work" && "$mcgen" -o credit "$specs/credit.mc" >"$work/err" 2>&1); then
  "$work/credit" --progress 0 --no-deadlock --por on --report "$work/cr.json" >/dev/null 2>&1
  got=$(jq -c '[.states, .transitions, .por_reduced_expansions, .por_full_expansions,
    .por_pruned_rules]' "$work/cr.json" 2>&1)
  if [ "$got" = "[8,16,1,7,1]" ]; then
    pass proviso-fully-expanded
  else
    fail proviso-fully-expanded "report $got"
  fi
else
  fail credit-build "$(head -c 300 "$work/err" | tr '\n' '|')"
fi

# reduced_counts NAME SPEC LINE...: SPEC's checker run with --por on and
# --no-deadlock prints each LINE (an ERE) at the start of a line of its
# summary.
reduced_counts() {
  local name=$1 spec=$2 line
  shift 2
  if ! (cd "$work" && "$mcgen" -o "$name" "$spec" >"$work/err" 2>&1); then
    fail "$name-build" "$(head -c 300 "$work/err" | tr '\n' '|')"
    return
  fi
  "$work/$name" --progress 0 --no-deadlock --por on >"$work/on.txt" 2>&1
  for line; do
    grep -Eq "^$line" "$work/on.txt" && continue
    fail "$name" "$(grep -E '^(states|transitions|deadlocks|por):' "$work/on.txt" | tr '\n' '|')"
    return
  done
  pass "$name"
}

# An enabling set from an ordered key conjunct (`i > 0`): counted by hand in
# the spec's header.
reduced_counts ordered-key "$specs/ordered_key.mc" 'states: *3 distinct' 'deadlocks: *1 ' \
  'por: *on: 1 expansions reduced, 2 full; 1 enabled'

# DVE's error state: its mark (the first process in its error state) is no
# write of that process's state cell outside the error state, so rules of
# two processes that may both reset stay independent (counted by hand in
# the spec's header; 4 states when the mark counted).
reduced_counts error-mark "$specs/error_mark.dve" 'states: *3 distinct' 'transitions: *2 ' \
  'deadlocks: *1 ' 'por: *on: 1 expansions reduced, 2 full; 1 enabled'

# MCRT_POR_WHY=1: why each expansion was reduced or not, on credit.mc as
# its header counts them (x == 0: every closure holds every enabled rule,
# 3 states; (1,1), (1,2): flip's closure fails the proviso, inc_y's holds
# all; (0,3), (1,3): one successor; (1,0) reduced).
if (cd "$work" && "$mcgen" -o credit_why "$specs/credit.mc" >"$work/err" 2>&1); then
  MCRT_POR_WHY=1 "$work/credit_why" --progress 0 --no-deadlock --por on >"$work/on.txt" 2>&1
  got=$(sed -n 's/^por why: \([0-9]*\) .*/\1/p' "$work/on.txt" | tr '\n' ' ')
  if [ "$got" = "0 2 0 0 3 2 1 0 " ]; then
    pass por-why
  else
    fail por-why "counts $got, expected 0 2 0 0 3 2 1 0: $(grep 'por why' "$work/on.txt" | tr '\n' '|')"
  fi
else
  fail por-why-build "$(head -c 300 "$work/err" | tr '\n' '|')"
fi

# Static futility: the tables rule out any reduction, so the checker says
# why and expands every state fully (the counts in the specs' headers).
futile() { # name reason states transitions
  if (cd "$work" && "$mcgen" -o "$1" "$specs/$1.mc" >"$work/err" 2>&1); then
    "$work/$1" --progress 0 --no-deadlock --por on --report "$work/$1.json" >"$work/on.txt" 2>&1
    local rc=$? got
    got=$(jq -c '[.por, .por_skipped, .states, .transitions, .por_full_expansions]' \
      "$work/$1.json" 2>&1)
    if [ $rc -eq 0 ] && [ "$got" = "[\"on\",\"$2\",$3,$4,null]" ] &&
       grep -q "^por: *skipped: $2, so no state can be reduced" "$work/on.txt"; then
      pass "$1"
    else
      fail "$1" "exit $rc, report $got: $(grep -E '^(states|por):' "$work/on.txt" | tr '\n' '|')"
    fi
    # The default drops the reduction there (threads keep the free order),
    # and says why: the same graph.
    "$work/$1" --progress 0 --no-deadlock --report "$work/$1.d.json" >"$work/d.txt" 2>&1
    rc=$?
    got=$(jq -c '[.por, .por_mode, .por_off_reason, .states, .transitions]' "$work/$1.d.json" 2>&1)
    if [ $rc -eq 0 ] && [ "$got" = "[\"off\",\"auto\",\"$2\",$3,$4]" ] &&
       grep -qF "por:           off ($2, so no state can be reduced)" "$work/d.txt"; then
      pass "$1-default"
    else
      fail "$1-default" "exit $rc, report $got: $(grep -E '^(states|por):' "$work/d.txt" | tr '\n' '|')"
    fi
  else
    fail "$1-build" "$(head -c 300 "$work/err" | tr '\n' '|')"
  fi
}
futile futile "every action binding that is not visible depends on every other one" 4 6
futile futile_visible "every action binding writes a cell a property reads (visible)" 4 4

# Sampling: closures that never reduce are tried less and less; the full
# graph of the header's count, and the same figures at --threads 1 and 2.
if (cd "$work" && "$mcgen" -o sampled "$specs/sampled.mc" >"$work/err" 2>&1); then
  "$work/sampled" --progress 0 --por on --threads 1 --report "$work/s1.json" >"$work/t1.txt" 2>&1
  "$work/sampled" --progress 0 --por on --threads 2 --report "$work/s2.json" >"$work/t2.txt" 2>&1
  got=$(jq -c '[.states, .transitions, .por_reduced_expansions, .por_full_expansions]' \
    "$work/s1.json" 2>&1)
  no_closure=$(jq '.por_skipped_expansions' "$work/s1.json" 2>&1)
  if [ "$got" = "[128,256,0,128]" ] && [ "$no_closure" -gt 0 ] 2>/dev/null &&
     [ "$no_closure" -lt 128 ] &&
     grep -q "^por: .*; $no_closure of the full expansions did not try" "$work/t1.txt" &&
     [ "$(grep -E '^(states|transitions|por):' "$work/t1.txt")" = \
       "$(grep -E '^(states|transitions|por):' "$work/t2.txt")" ]; then
    pass "sampled ($no_closure of 128 expansions skipped the closures)"
  else
    fail sampled "report $got, skipped $no_closure: $(grep '^por:' "$work/t1.txt" "$work/t2.txt" |
      tr '\n' '|')"
  fi
else
  fail sampled-build "$(head -c 300 "$work/err" | tr '\n' '|')"
fi

# Sampling by cost: closures that reduce every state they are tried at but
# cost far more than the successor they cut are tried less and less; every
# state when told to (the header's 511), and the same figures at --threads
# 1 and 2.
if (cd "$work" && "$mcgen" -o costly "$specs/costly.mc" >"$work/err" 2>&1); then
  "$work/costly" --progress 0 --no-deadlock --por on --threads 1 --report "$work/c1.json" \
    >"$work/t1.txt" 2>&1
  "$work/costly" --progress 0 --no-deadlock --por on --threads 2 >"$work/t2.txt" 2>&1
  MCRT_POR_NO_SAMPLING=1 "$work/costly" --progress 0 --no-deadlock --por on \
    --report "$work/c0.json" >/dev/null 2>&1
  all=$(jq -c '[.states, .transitions, .por_reduced_expansions, .por_full_expansions,
    .por_pruned_rules, .por_skipped_expansions]' "$work/c0.json" 2>&1)
  read -r states reduced no_closure < <(jq -r \
    '[.states, .por_reduced_expansions, .por_skipped_expansions] | @tsv' "$work/c1.json" \
    2>/dev/null)
  if [ "$all" = "[511,510,255,256,255,0]" ] && [ "${states:-0}" -gt 511 ] &&
     [ "$states" -lt 65536 ] && [ "$reduced" -gt 0 ] && [ "$no_closure" -gt 0 ] &&
     [ "$(grep -E '^(states|transitions|por):' "$work/t1.txt")" = \
       "$(grep -E '^(states|transitions|por):' "$work/t2.txt")" ]; then
    pass "costly ($states states, $no_closure of the expansions skipped the closures)"
  else
    fail costly "every state $all; sampled ${states:-?} states, ${reduced:-?} reduced, \
${no_closure:-?} skipped: $(grep '^por:' "$work/t1.txt" "$work/t2.txt" | tr '\n' '|')"
  fi
else
  fail costly-build "$(head -c 300 "$work/err" | tr '\n' '|')"
fi

# --memory counts the reduction's tables: the set's growth checked the bound
# without them, and costly.mc under --memory 2M ran to the end at 2,105,694
# bytes accounted, past the 2,097,152 it was given. Whether it stops or
# not, the peak stays within the bound, at 1 and 2 threads.
if [ -x "$work/costly" ]; then
  for t in 1 2; do
    "$work/costly" --progress 0 --no-deadlock --por on --threads "$t" --memory 2M \
      --report "$work/cm.json" >/dev/null 2>&1
    read -r peak states < <(jq -r '[.memory_bytes, .states] | @tsv' "$work/cm.json" 2>/dev/null)
    if [ -n "$peak" ] && [ "$peak" -le 2097152 ] && [ "${states:-0}" -gt 0 ]; then
      pass "costly --memory 2M --threads $t: $peak bytes at most, $states states"
    else
      fail "costly-memory-t$t" "peak '${peak:-?}' bytes of 2097152, '${states:-?}' states"
    fi
  done
fi

# The default retires a reduction that does not pay even at the largest
# sampling period (costly.mc: the closures cost far more than they cut):
# the summary and the report say at which depth; the graph and that depth
# are the same at --threads 1, 2 and 4, and the threads run free order from
# there (the report's thread_order, thread_free_from_depth); --por on, as
# asked, never retires.
if [ -x "$work/costly" ]; then
  for t in 1 2 4; do
    "$work/costly" --progress 0 --no-deadlock --threads $t --report "$work/r$t.json" \
      >"$work/r$t.txt" 2>&1
  done
  ret=$(jq -c '[.states, .transitions, .depth, .por_reduced_expansions, .por_retired_depth]' \
    "$work/r1.json" 2>&1)
  depth=$(jq .por_retired_depth "$work/r1.json" 2>/dev/null)
  on_ret=$(jq -c '.por_retired_depth' "$work/c1.json" 2>&1)
  if [[ "$depth" =~ ^[0-9]+$ ]] && [ "$depth" -gt 0 ] &&
     [ "$(jq -c '[.states, .transitions, .depth, .por_reduced_expansions, .por_retired_depth]' \
          "$work/r2.json" 2>&1)" = "$ret" ] &&
     [ "$(jq -c '[.states, .transitions, .depth, .por_reduced_expansions, .por_retired_depth]' \
          "$work/r4.json" 2>&1)" = "$ret" ] &&
     grep -q "^por: .*; retired at depth $depth (" "$work/r1.txt" &&
     [ "$(jq -c '[.thread_order, .thread_free_from_depth]' "$work/r2.json" 2>&1)" = \
       "[\"free\",$((depth + 1))]" ] &&
     grep -q "^time: .*, fixed order, free from depth $((depth + 1))$" "$work/r2.txt" &&
     [ "$on_ret" = null ] && ! grep -q 'retired' "$work/t1.txt"; then
    pass "default-retires (costly: at depth $depth; $ret at 1, 2 and 4 threads)"
  else
    fail default-retires "1 thread $ret, 2 $(jq -c '[.states, .por_retired_depth, .thread_order, .thread_free_from_depth]' "$work/r2.json" 2>&1), --por on $on_ret: $(grep -E '^(por|time):' "$work/r1.txt" "$work/r2.txt" | tr '\n' '|')"
  fi
fi

# After the retirement, a window where a reachable property first holds
# is expanded a second time for the serial commit (threads.c,
# commit_replay): the report still counts each state's expansion once, the
# same full and skipped expansions at every thread count.
if [ -x "$work/costly" ] && { cat "$specs/costly.mc"
     echo 'reachable late: x == 200 && y == 150;'; } >"$work/late.mc" &&
   (cd "$work" && "$mcgen" -o late late.mc >"$work/err" 2>&1); then
  counts='[.states, .transitions, .por_full_expansions, .por_skipped_expansions, .por_retired_depth]'
  for t in 1 2 4; do
    "$work/late" --progress 0 --no-deadlock --threads $t --report "$work/l$t.json" \
      >"$work/l$t.txt" 2>&1
  done
  ret=$(jq -c "$counts" "$work/l1.json" 2>&1)
  if [[ "$ret" =~ ^\[65536,130560,65536,[0-9]+,[0-9]+\]$ ]] &&
     grep -q '^reachable late: reached' "$work/l1.txt" &&
     [ "$(jq -c "$counts" "$work/l2.json" 2>&1)" = "$ret" ] &&
     [ "$(jq -c "$counts" "$work/l4.json" 2>&1)" = "$ret" ]; then
    pass "retired-replay-counts (costly with a late reachable: $ret at 1, 2 and 4 threads)"
  else
    fail retired-replay-counts "1 thread $ret, 2 $(jq -c "$counts" "$work/l2.json" 2>&1), 4 $(jq -c "$counts" "$work/l4.json" 2>&1)"
  fi
elif [ -x "$work/costly" ]; then
  fail retired-replay-counts-build "$(head -c 300 "$work/err" | tr '\n' '|')"
fi

# ---------------------------------------------------------------------------
# --por on against --por off.

# verdict FILE: the result line's verdict and what it names.
verdict() {
  sed -n 's/^result: *//p' "$1" | head -1 | sed 's/ (.*//'
}
states_of() { sed -n 's/^states: *\([0-9]*\) distinct.*/\1/p' "$1" | head -1; }

# compare NAME CHECKER ARGS...: the run with --por on against --por off.
compare() {
  local name=$1 checker=$2
  shift 2
  timeout 300 "$checker" --progress 0 "$@" --por off >"$work/off.txt" 2>&1
  local rc_off=$?
  timeout 300 "$checker" --progress 0 "$@" --por on >"$work/on.txt" 2>&1
  local rc_on=$?
  local v_off v_on s_off s_on
  v_off=$(verdict "$work/off.txt") v_on=$(verdict "$work/on.txt")
  s_off=$(states_of "$work/off.txt") s_on=$(states_of "$work/on.txt")
  if [ $rc_off -ne $rc_on ] || [ "$v_off" != "$v_on" ]; then
    fail "$name" "--por off: exit $rc_off '$v_off'; --por on: exit $rc_on '$v_on'"
  elif [ $rc_on -eq 0 ] && [ "${s_on:-x}" -gt "${s_off:-0}" ] 2>/dev/null; then
    fail "$name" "--por on found $s_on states, --por off $s_off"
  elif [ $rc_on -ne 0 ] && [ $rc_on -ne 1 ] && [ $rc_on -ne 3 ]; then
    fail "$name" "exit $rc_on: $(head -c 300 "$work/on.txt" | tr '\n' '|')"
  elif grep -q 'error: trace replay' "$work/on.txt"; then
    fail "$name" "the counterexample does not replay: $(grep 'error: trace replay' "$work/on.txt")"
  elif [ $rc_on -eq 1 ] && ! grep -q '^0 ' "$work/on.txt" &&
       ! grep -q 'no initial state\|holds in no reachable state\|no accepting state' "$work/on.txt"; then
    fail "$name" "a violation without a trace: $(head -c 300 "$work/on.txt" | tr '\n' '|')"
  else
    pass "$name ($v_on; states $s_off -> $s_on)"
  fi
}

# Failures --por on once missed: each spec's header counts by hand why, and
# its Rumur twin (NAME.m, recorded in NAME.rumur.txt) reports the same error
# after the same rules. --por on and the default must find --por off's
# violation with the same trace, at --threads 1, 2 and 4, with and without
# deadlock checks (or only without: a spec whose deadlock comes first), and
# the twin's rules must be the trace's.
missed() { # name verdict-pattern [deadlock-modes]
  local name=$1 want=$2 modes=${3:-"with --no-deadlock"} rc_off rc_on t dl por ok=1 why=""
  if ! (cd "$work" && "$mcgen" -o "$name" "$specs/$name.mc" >"$work/err" 2>&1); then
    fail "$name-build" "$(head -c 300 "$work/err" | tr '\n' '|')"
    return
  fi
  for t in 1 2 4; do
    for dl in $modes; do
      [ "$dl" = with ] && dl=""
      for por in "--por on" ""; do
        # shellcheck disable=SC2086
        "$work/$name" --progress 0 --threads $t $dl --por off >"$work/off.txt" 2>&1
        rc_off=$?
        # shellcheck disable=SC2086
        "$work/$name" --progress 0 --threads $t $dl $por >"$work/on.txt" 2>&1
        rc_on=$?
        if [ $rc_off -ne 1 ] || [ $rc_on -ne 1 ] ||
           ! grep -q "^result: violation: $want" "$work/on.txt" ||
           [ "$(verdict "$work/off.txt")" != "$(verdict "$work/on.txt")" ] ||
           [ "$(grep -E '^[0-9]+ ' "$work/off.txt")" != "$(grep -E '^[0-9]+ ' "$work/on.txt")" ]; then
          ok=0
          why="--threads $t $dl ${por:-(default)}: exit $rc_off / $rc_on: $(grep -E \
            '^(result|states|por):' "$work/on.txt" | tr '\n' '|')"
        fi
      done
    done
  done
  # The twin's rules, in order, against the trace's actions (step 0 is the
  # initial state).
  local twin ours
  twin=$(sed -n 's/^Rule "\([^"]*\)".* fired\.$/\1/p' "$specs/$name.rumur.txt" | tr '\n' ' ')
  ours=$(sed -n 's/^[1-9][0-9]* \([A-Za-z_0-9]*\).*/\1/p' "$work/on.txt" | tr '\n' ' ')
  if ! grep -q '1 error(s) found' "$specs/$name.rumur.txt" || [ "$twin" != "$ours" ]; then
    ok=0
    why="$why; Rumur's trace '$twin', --por on's '$ours'"
  fi
  if [ $ok -eq 1 ]; then
    pass "$name ($(verdict "$work/on.txt"); trace $ours)"
  else
    fail "$name" "$why"
  fi
}
missed guard_fails "run-time error: index 3 is out of range 0..1"
missed in_param "assert failed"
missed index_rewritten "invariant 'never_bad' does not hold" --no-deadlock

for spec in "$root"/specs/*.mc "$root"/tests/e2e/specs/*.mc "$root"/tests/dve/*.dve; do
  base=$(basename "$spec"); base=${base%.*}
  if ! (cd "$work" && "$mcgen" -o "c_$base" "$spec" >"$work/err" 2>&1); then
    continue # a spec written to be refused (tests/dve has some)
  fi
  run_args=$(sed -n 's|^// RUN-ARGS: *||p' "$spec" | head -1)
  # --liveness off: --por refuses liveness (checked below).
  # shellcheck disable=SC2086
  compare "spec-$base" "$work/c_$base" --liveness off $run_args
  rm -f "$work/c_$base" "$work/c_$base.c"
done

# The default, --por auto: the reduction on for the safety search, so that
# specs/german.mc (no liveness property; 852 states in the full graph, its
# Rumur twin's count) gives fewer states than --por off with the same
# verdict, the counts of --por on, and a summary and report that say the
# graph is reduced and how to get the full one. Where --por on is refused
# (liveness: specs/filter.mc) or the answers are the whole graph's or a
# bounded one's, off, the counts those of --por off, and the summary says
# why.
por_fields() { jq -c '[.por, .por_mode, .por_reduced_graph, .por_off_reason]' "$1" 2>&1; }
counts_of() { jq -c '[.exit_code, .states, .transitions, .depth, .deadlocks]' "$1" 2>&1; }
if (cd "$work" && "$mcgen" -o german "$root/specs/german.mc" >"$work/err" 2>&1 &&
    "$mcgen" -o filter "$root/specs/filter.mc" >>"$work/err" 2>&1); then
  (cd "$work" && ./german --progress 0 --threads 1 --report def.json >def.txt 2>&1)
  rc_def=$?
  (cd "$work" && ./german --progress 0 --threads 1 --por off --report off.json >off.txt 2>&1)
  rc_off=$?
  (cd "$work" && ./german --progress 0 --threads 1 --por on --report on.json >on.txt 2>&1)
  s_def=$(jq .states "$work/def.json" 2>/dev/null) s_off=$(jq .states "$work/off.json" 2>/dev/null)
  if [ $rc_def = 0 ] && [ $rc_off = 0 ] && [ "$s_off" = 852 ] && [ -n "$s_def" ] &&
     [ "$s_def" -lt "$s_off" ] &&
     [ "$(counts_of "$work/def.json")" = "$(counts_of "$work/on.json")" ] &&
     [ "$(por_fields "$work/def.json")" = '["on","auto",true,null]' ] &&
     grep -q "^states: *$s_def distinct (reduced by partial-order reduction; --por off for the full graph)$" \
       "$work/def.txt" &&
     grep -q "^por: *on: .*(states and transitions above are the reduced graph's; --por off for the full graph)$" \
       "$work/def.txt"; then
    pass "default-reduces (german: $s_def states, $s_off with --por off, both ok)"
  else
    fail default-reduces "exit $rc_def/$rc_off, states $s_def/$s_off, report $(por_fields "$work/def.json"); $(grep -E '^(states|por):' "$work/def.txt" | tr '\n' '|')"
  fi
  # --por off: the full graph, no por line, the report says the mode.
  if [ "$(por_fields "$work/off.json")" = '["off","off",false,null]' ] &&
     ! grep -q '^por:' "$work/off.txt" && ! grep -q 'reduced by' "$work/off.txt" &&
     [ "$(por_fields "$work/on.json")" = '["on","on",true,null]' ]; then
    pass default-explicit-modes
  else
    fail default-explicit-modes "off $(por_fields "$work/off.json"), on $(por_fields "$work/on.json")"
  fi
  # The same default at 2 threads (free order falls back to fixed under POR).
  (cd "$work" && ./german --progress 0 --threads 2 --report def2.json >def2.txt 2>&1)
  if [ "$(counts_of "$work/def2.json")" = "$(counts_of "$work/def.json")" ]; then
    pass default-threads
  else
    fail default-threads "$(counts_of "$work/def2.json") at 2 threads, $(counts_of "$work/def.json") at 1"
  fi
  # default_off NAME CHECKER REASON [ARGS...]: off by default, with REASON in
  # the summary and the report, and the counts of --por off.
  default_off() {
    local name=$1 checker=$2 why=$3
    shift 3
    rm -rf "$work/ck"
    (cd "$work" && "./$checker" --progress 0 --threads 1 "$@" --report d.json >d.txt 2>&1)
    local rc=$?
    rm -rf "$work/ck"
    (cd "$work" && "./$checker" --progress 0 --threads 1 --por off "$@" --report o.json >o.txt 2>&1)
    if [ $rc = 2 ] || [ "$(counts_of "$work/d.json")" != "$(counts_of "$work/o.json")" ]; then
      fail "$name" "exit $rc; $(counts_of "$work/d.json") by default, $(counts_of "$work/o.json") with --por off: $(head -c 200 "$work/d.txt" | tr '\n' '|')"
    elif ! grep -qF "por:           off ($why)" "$work/d.txt" ||
         [ "$(por_fields "$work/d.json")" != "[\"off\",\"auto\",false,\"$why\"]" ]; then
      fail "$name" "$(grep '^por:' "$work/d.txt"); report $(por_fields "$work/d.json")"
    else
      pass "$name"
    fi
  }
  default_off default-off-liveness filter "liveness properties are checked"
  default_off default-off-max-depth german "--max-depth bounds the search" --max-depth 6
  default_off default-off-graph german "--graph, --dot and --tests export the whole graph" \
    --graph g.json
  default_off default-off-checkpoint german "--checkpoint" --checkpoint ck
  # An explicit --por on keeps its refusal with liveness (above: liveness-
  # refused) and with checkpoints.
  (cd "$work" && ./german --progress 0 --por on --checkpoint ck2 >ck.txt 2>&1)
  rc=$?
  if [ $rc = 2 ] && grep -q 'error: --checkpoint is not available with --por on' "$work/ck.txt"; then
    pass default-on-checkpoint-refused
  else
    fail default-on-checkpoint-refused "exit $rc: $(head -c 200 "$work/ck.txt" | tr '\n' '|')"
  fi
  # Into a file first: under pipefail, `--help | grep -q` fails when grep
  # stops reading before the help is written (SIGPIPE).
  "$work/german" --help >"$work/help.txt" 2>&1
  if grep -q -- '--por auto|on|off' "$work/help.txt" &&
     grep -q '(default auto: on for the safety search' "$work/help.txt"; then
    pass default-help
  else
    fail default-help "$(grep -A3 -- '--por' "$work/help.txt")"
  fi
  "$work/german" --por maybe >"$work/bad.txt" 2>&1
  rc=$?
  if [ $rc = 2 ] && grep -q "bad value 'maybe' for --por (expected auto, on or off)" "$work/bad.txt"; then
    pass default-bad-value
  else
    fail default-bad-value "exit $rc: $(head -c 200 "$work/bad.txt")"
  fi
else
  fail default-build "$(head -c 300 "$work/err" | tr '\n' '|')"
fi

# ---------------------------------------------------------------------------
# The shortest trace under the default (docs/DESIGN.md, "The shortest
# trace"). specs/shortest.mc, counted by hand in its header: the reduced
# graph meets its violation at depth 9 (10 states), the full graph at depth
# 3. The default prints --por off's trace, step for step (its only 3-step
# one: init, inc_b x3), which is also its Rumur twin's (shortest.m,
# recorded in shortest.rumur.txt), with the reduced search's counts and a
# trace: line and report that give both searches; --por on prints the
# 9-step trace with a hint; a second search stopped by --max-states,
# --memory or SIGTERM prints the 9-step trace, said to be possibly not the
# shortest, exit 1. At --threads 1 and 2.
steps_of() { sed -n 's/^\([0-9][0-9]*\) \([A-Za-z_0-9]*\).*/\2/p' "$1" | tr '\n' ' '; }
trace_of() { grep -E '^([0-9]+ |    )' "$1"; }
st_json() { jq -c "$2" "$1" 2>&1; }
long='init inc_a inc_a inc_a inc_c inc_c inc_c inc_b inc_b inc_b '
short='init inc_b inc_b inc_b '
if (cd "$work" && "$mcgen" -o shortest "$specs/shortest.mc" >"$work/err" 2>&1); then
  rumur_steps="init $(sed -n 's/^Rule "\([^"]*\)".* fired\.$/\1/p' "$specs/shortest.rumur.txt" | tr '\n' ' ')"
  for t in 1 2; do
    run_s() { # tag args...: a run of shortest at --threads t, its exit code in rc_TAG
      local tag=$1
      shift
      (cd "$work" && ./shortest --progress 0 --threads "$t" "$@" --report "sh_$tag.json" \
        >"sh_$tag.txt" 2>"sh_$tag.err")
      eval "rc_$tag=$?"
    }
    run_s def
    run_s off --por off
    run_s on --por on
    # shellcheck disable=SC2154 # rc_* are set by run_s
    if [ "$rc_def" = 1 ] && [ "$rc_off" = 1 ] && [ "$(steps_of "$work/sh_def.txt")" = "$short" ] &&
       [ "$(trace_of "$work/sh_def.txt")" = "$(trace_of "$work/sh_off.txt")" ] &&
       [ "$(steps_of "$work/sh_off.txt")" = "$rumur_steps" ] &&
       grep -q '1 error(s) found' "$specs/shortest.rumur.txt" &&
       grep -q "^result: violation: invariant 'b_low' does not hold" "$work/sh_def.txt" &&
       grep -q '^trace: *the shortest, depth 3: partial-order reduction met a violation at depth 9 (10 states); the full graph searched to depth 10 (' "$work/sh_def.txt" &&
       [ "$(states_of "$work/sh_def.txt")" = 10 ] &&
       [ "$(st_json "$work/sh_def.json" '[.exit_code, .states, .depth, .bound_hit, .shortest_trace.status, .shortest_trace.trace_depth, .shortest_trace.reduced_trace_depth, .shortest_trace.full_search, .shortest_trace.full_max_depth, .shortest_trace.full_bound_hit, (.shortest_trace.full_states <= 20), [.violations[0].trace[].action]]')" = \
         '[1,10,9,null,"shortest",3,9,"violation",10,null,true,["init","inc_b","inc_b","inc_b"]]' ] &&
       [ "$(st_json "$work/sh_off.json" .shortest_trace)" = null ]; then
      pass "shortest-default-t$t (trace $short= --por off's = Rumur's; reduced depth 9)"
    else
      fail "shortest-default-t$t" "exit $rc_def/$rc_off, trace '$(steps_of "$work/sh_def.txt")', --por off '$(steps_of "$work/sh_off.txt")', Rumur '$rumur_steps'; $(grep -E '^(trace|states):' "$work/sh_def.txt" | tr '\n' '|') $(st_json "$work/sh_def.json" .shortest_trace)"
    fi
    if [ "$rc_on" = 1 ] && [ "$(steps_of "$work/sh_on.txt")" = "$long" ] &&
       grep -q '^trace: *may not be the shortest: --por on searched a reduced graph (violation at depth 9); --por off, or the default --por auto, prints the shortest$' "$work/sh_on.txt" &&
       [ "$(st_json "$work/sh_on.json" '[.shortest_trace.status, .shortest_trace.full_search]')" = '["may-not-be-shortest","not-run"]' ]; then
      pass "shortest-por-on-t$t (the reduced graph's 9 steps, with the hint)"
    else
      fail "shortest-por-on-t$t" "exit $rc_on, trace '$(steps_of "$work/sh_on.txt")'; $(grep '^trace:' "$work/sh_on.txt")"
    fi
    # The second search's order, said where it ran on threads: the order
    # asked for (free by default, fixed with --order fixed), not the
    # reduced search's (fixed where it reduces: the time: line's).
    run_s fix --order fixed
    if [ "$t" = 1 ]; then
      want_order='null' want_line=' gave this trace$'
    else
      want_order='"free"' want_line=", $t threads, free order) gave this trace\$"
    fi
    if grep -q "^trace: .*$want_line" "$work/sh_def.txt" &&
       [ "$(st_json "$work/sh_def.json" .shortest_trace.full_thread_order)" = "$want_order" ] &&
       { [ "$t" = 1 ] || { grep -q "^trace: .*, $t threads, fixed order) gave this trace\$" "$work/sh_fix.txt" &&
         [ "$(st_json "$work/sh_fix.json" .shortest_trace.full_thread_order)" = '"fixed"' ] &&
         grep -q '^time: .*, fixed order$' "$work/sh_def.txt"; }; }; then
      pass "shortest-order-t$t (the second search's order on the trace: line and in the report)"
    else
      fail "shortest-order-t$t" "$(grep -E '^(trace|time):' "$work/sh_def.txt" "$work/sh_fix.txt" | tr '\n' '|') $(st_json "$work/sh_def.json" .shortest_trace.full_thread_order)"
    fi
    # fallback TAG BOUND-NAME SUMMARY-PATTERN: the second search stopped.
    fallback() {
      local tag=$1 bound=$2 pat=$3 rc
      rc=$(eval "echo \$rc_$tag")
      if [ "$rc" = 1 ] && [ "$(steps_of "$work/sh_$tag.txt")" = "$long" ] &&
         grep -q "^result: violation: invariant 'b_low' does not hold" "$work/sh_$tag.txt" &&
         grep -q "^trace: *MAY NOT BE THE SHORTEST: it is the reduced graph's (partial-order reduction), depth 9; the full graph's search to depth 10 for a shorter one stopped: $pat.*; --por off (with room for its search) prints the shortest$" "$work/sh_$tag.txt" &&
         [ "$(st_json "$work/sh_$tag.json" '[.exit_code, .verdict, .bound_hit, .shortest_trace.status, .shortest_trace.full_search, .shortest_trace.full_bound_hit, .shortest_trace.trace_depth]')" = \
           "[1,\"violation\",null,\"may-not-be-shortest\",\"stopped\",\"$bound\",9]" ]; then
        pass "shortest-fallback-$tag-t$t (the 9-step trace, the warning, exit 1)"
      else
        fail "shortest-fallback-$tag-t$t" "exit $rc, trace '$(steps_of "$work/sh_$tag.txt")'; $(grep '^trace:' "$work/sh_$tag.txt") $(st_json "$work/sh_$tag.json" .shortest_trace) $(head -c 200 "$work/sh_$tag.err")"
      fi
    }
    run_s maxst --max-states 12
    fallback maxst max-states '--max-states 12 was reached, after 12 states'
    # The reduced search holds about 1.4 MiB (its frontier's first chunk is
    # 1 MiB): the full search's share of 2 MiB cannot hold its own.
    run_s mem --memory 2M
    fallback mem memory 'the --memory limit of 2.0 MiB was reached (the reduced search holds '
    MCRT_TEST_PAUSE=shortest "$work/shortest" --progress 0 --threads "$t" \
      --report "$work/sh_sig.json" >"$work/sh_sig.txt" 2>"$work/sh_sig.err" &
    pid=$!
    for _ in $(seq 100); do grep -q 'mcrt-test-pause: shortest' "$work/sh_sig.err" 2>/dev/null && break; sleep 0.1; done
    kill -TERM "$pid" 2>/dev/null
    wait "$pid"
    rc_sig=$?
    fallback sig interrupted 'the search was interrupted by SIGTERM'
    # --quiet keeps the warning: it qualifies the trace printed.
    run_s quiet --max-states 12 --quiet
    if [ "$rc_quiet" = 1 ] && grep -q '^trace: *MAY NOT BE THE SHORTEST' "$work/sh_quiet.txt" &&
       ! grep -q '^states:' "$work/sh_quiet.txt"; then
      pass "shortest-fallback-quiet-t$t"
    else
      fail "shortest-fallback-quiet-t$t" "exit $rc_quiet: $(head -c 300 "$work/sh_quiet.txt" | tr '\n' '|')"
    fi
  done
else
  fail shortest-build "$(head -c 300 "$work/err" | tr '\n' '|')"
fi
# With symmetry (specs/shortest_sym.mc, its header): the default's trace is
# --por off's 3 steps, with the reduction of symmetry on and off, and
# --symmetry verify compares the violations shown: they agree.
if (cd "$work" && "$mcgen" -o shortest_sym "$specs/shortest_sym.mc" >"$work/err" 2>&1); then
  ok=1 why=""
  for sym in on off; do
    "$work/shortest_sym" --progress 0 --symmetry $sym >"$work/ss_def.txt" 2>&1
    rc_def=$?
    "$work/shortest_sym" --progress 0 --symmetry $sym --por off >"$work/ss_off.txt" 2>&1
    if [ $rc_def != 1 ] || [ "$(steps_of "$work/ss_def.txt")" != "$short" ] ||
       [ "$(trace_of "$work/ss_def.txt")" != "$(trace_of "$work/ss_off.txt")" ] ||
       ! grep -q '^trace: *the shortest, depth 3: partial-order reduction met a violation at depth 9 (10 states)' "$work/ss_def.txt"; then
      ok=0 why="$why --symmetry $sym: exit $rc_def, trace '$(steps_of "$work/ss_def.txt")' $(grep '^trace:' "$work/ss_def.txt");"
    fi
  done
  "$work/shortest_sym" --progress 0 --symmetry verify >"$work/ss_v.txt" 2>&1
  rc_v=$?
  if [ $rc_v != 1 ] || [ "$(grep -c '^trace: *the shortest, depth 3' "$work/ss_v.txt")" != 2 ] ||
     ! grep -q '^symmetry verify: the verdicts agree' "$work/ss_v.txt"; then
    ok=0 why="$why --symmetry verify: exit $rc_v, $(grep -E '^(trace|symmetry verify):' "$work/ss_v.txt" | tr '\n' '|')"
  fi
  if [ $ok = 1 ]; then pass "shortest-symmetry (3 steps, symmetry on, off, verify)"; else fail shortest-symmetry "$why"; fi
else
  fail shortest-sym-build "$(head -c 300 "$work/err" | tr '\n' '|')"
fi

# Threads and symmetry: the same counts as the serial reduced run.
if (cd "$work" && "$mcgen" -o peterson -D N=4 "$root/specs/peterson.mc" >"$work/err" 2>&1); then
  "$work/peterson" --progress 0 --por on --threads 1 --symmetry off >"$work/t1.txt" 2>&1
  "$work/peterson" --progress 0 --por on --threads 2 --symmetry off >"$work/t2.txt" 2>&1
  if [ "$(grep -E '^(states|transitions|por):' "$work/t1.txt")" = \
       "$(grep -E '^(states|transitions|por):' "$work/t2.txt")" ] && [ -n "$(states_of "$work/t1.txt")" ]; then
    pass threads-same-counts
  else
    fail threads-same-counts "$(grep -E '^(states|por):' "$work/t1.txt" "$work/t2.txt" | tr '\n' '|')"
  fi
  compare symmetry-peterson "$work/peterson" --symmetry on
  "$work/peterson" --progress 0 --por on --symmetry off --liveness on >"$work/live.txt" 2>&1
  rc=$?
  if [ $rc -eq 2 ] && grep -q 'error: --por on cannot be used while liveness' "$work/live.txt"; then
    pass liveness-refused
  else
    fail liveness-refused "exit $rc: $(head -c 300 "$work/live.txt" | tr '\n' '|')"
  fi
else
  fail peterson-build "$(head -c 300 "$work/err" | tr '\n' '|')"
fi

# deadlocks NAME CHECKER: with --no-deadlock, the whole graph: the reduced
# one must hold every deadlock state of the full one (stubborn sets keep
# each reachable), so the same count, and no more states. The run above
# stops at the first deadlock; this one checks all of them.
deadlocks_of() { sed -n 's/^deadlocks: *\([0-9]*\) .*/\1/p' "$1" | head -1; }
deadlocks() {
  local name=$1 checker=$2
  timeout 300 "$checker" --progress 0 --threads 1 --no-deadlock --por off >"$work/off.txt" 2>&1
  local rc_off=$?
  timeout 300 "$checker" --progress 0 --threads 1 --no-deadlock --por on >"$work/on.txt" 2>&1
  local rc_on=$?
  local d_off d_on s_off s_on
  d_off=$(deadlocks_of "$work/off.txt") d_on=$(deadlocks_of "$work/on.txt")
  s_off=$(states_of "$work/off.txt") s_on=$(states_of "$work/on.txt")
  if [ $rc_off -ne 0 ] || [ $rc_on -ne 0 ] || [ -z "$d_off" ] || [ -z "$s_on" ]; then
    fail "$name" "--no-deadlock: exit $rc_off / $rc_on: $(head -c 300 "$work/on.txt" | tr '\n' '|')"
  elif [ "$d_on" != "$d_off" ]; then
    fail "$name" "--por on reaches $d_on deadlock states, --por off $d_off"
  elif [ "$s_on" -gt "$s_off" ]; then
    fail "$name" "--no-deadlock: --por on found $s_on states, --por off $s_off"
  else
    pass "$name (all $d_on deadlock states; states $s_off -> $s_on)"
  fi
}

# BEEM: every complete instance up to the limit.
limit=${POR_BEEM_LIMIT:-100000}
min=${POR_BEEM_MIN:-0}
if beem=$("$root/tools/suite-dir" beem); then
  # tools/beem-expected parses the CSV (its parameters field is quoted and
  # may hold commas): name states complete ...
  "$root/tools/beem-expected" "$beem" |
    awk -v lim="$limit" -v min="$min" '$3 == "yes" && $2 <= lim && $2 >= min { print $1 }' \
    >"$work/beem.txt"
  echo "== $(wc -l <"$work/beem.txt") BEEM instances with $min to $limit states"
  while read -r inst; do
    if (cd "$work" && "$mcgen" -o beem "$beem/dve/$inst.dve" >"$work/err" 2>&1); then
      compare "beem-$inst" "$work/beem" --threads 1
      if grep -q '^result: violation: deadlock' "$work/off.txt"; then
        deadlocks "beem-$inst-deadlocks" "$work/beem"
      fi
    else
      fail "beem-$inst" "does not compile: $(head -c 200 "$work/err" | tr '\n' '|')"
    fi
  done <"$work/beem.txt"
else
  fail beem "no BEEM suite found (tools/suite-dir beem; BEEM_DIR)"
fi

# ---------------------------------------------------------------------------
# Random specs (tests/por/random_spec.py, tests/por/fuzz.py): --por on and the
# default against --por off on fixed seeds, with the options each seed draws
# (threads, symmetry, deadlocks, -D, --max-states, --max-depth). With 77daf64's
# find_keys rule reverted (a key after a conjunct that may fail), seeds 1,
# 130, 139, 146 and 277 say "ok" against --por off's violation; with its
# analyse_rule part reverted (the collection of an `x in EXPR` parameter
# read as its guard), seeds 70 and 155. With the precise pass's `written`
# set removed from compiler/analysis/deps.c (an index cell the action rewrites
# before it indexes through it: tests/por/specs/index_rewritten.mc), 17 of
# seeds 1-200 (10, 28, 50, 56, 59, ...), from the REWRITE traps.
# POR_FUZZ_SEEDS (e.g. 1-5000, make conformance) runs others. Every failing seed is a FAIL;
# the spec is kept under $POR_FUZZ_KEEP (default /tmp/mcgen-porfuzz-failed).
# mcgen --deps on an action whose parameter is a range written in place (no
# state variable's type): two bindings, two rules (it counted none and wrote
# past its tables, a segfault on most random specs).
printf 'model range_param;\nvar x: 0..1;\naction put(q: 0..1) { x = q; }\n' >"$work/rp.mc"
if "$mcgen" --deps "$work/rp.mc" >"$work/rp.txt" 2>&1 &&
   [ "$(head -1 "$work/rp.txt")" = "1 cells, 2 rules, 1 processes" ]; then
  pass deps-range-param
else
  fail deps-range-param "$(head -c 300 "$work/rp.txt" | tr '\n' '|')"
fi

fuzz_seeds=${POR_FUZZ_SEEDS:-1-300}
fuzz_keep=${POR_FUZZ_KEEP:-${TMPDIR:-/tmp}/mcgen-porfuzz-failed}
if command -v python3 >/dev/null; then
  python3 "$root/tests/por/fuzz.py" "$build_dir" --seeds "$fuzz_seeds" --jobs 2 \
    --keep "$fuzz_keep" >"$work/fuzz.txt" 2>&1
  fuzz_rc=$?
  fuzz_sum=$(tail -1 "$work/fuzz.txt")
  while IFS= read -r line; do
    fail "fuzz-${line#FAIL }" "(spec and options under $fuzz_keep)"
  done < <(grep '^FAIL ' "$work/fuzz.txt")
  if [ $fuzz_rc -eq 0 ] && [[ $fuzz_sum =~ ^[0-9]+\ passed,\ 0\ failed$ ]]; then
    pass "fuzz (seeds $fuzz_seeds: $fuzz_sum; $(grep '^== ' "$work/fuzz.txt" | sed 's/^== //'))"
  elif ! grep -q '^FAIL ' "$work/fuzz.txt"; then
    fail fuzz "exit $fuzz_rc: $(tail -c 400 "$work/fuzz.txt" | tr '\n' '|')"
  fi
else
  fail fuzz "python3 is not installed"
fi

finish
