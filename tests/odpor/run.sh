#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/odpor/run.sh BUILD: --search odpor (runtime/engine/odpor.c).
#
# 1. Optimality, on every spec of tests/odpor/specs/ (and five acyclic DVE
#    models of tests/dve/): the executions ODPOR
#    explores equal the Mazurkiewicz traces that brute.c counts (every
#    interleaving to its Foata normal form under the dependency of the
#    spec's table), with no sleep-set blocked execution, and the brute
#    force's interleavings are at least the traces. A spec may state:
#      // ODPOR-RUN-ARGS: ARGS     the checker's options (both runs)
#      // ODPOR-TRACES: N          the traces, counted by hand or published
#                                  (the header says which): ODPOR must agree
#      // ODPOR-TRACES-OF: SPEC    the traces are those the brute force
#                                  counts for SPEC (a spec of specs/ that
#                                  sorts before this one)
#      // ODPOR-NO-BRUTE: WHY      too many interleavings for brute.c (and
#                                  states for the breadth-first search)
#    Every spec has no violation (exit 0), and so says the breadth-first
#    search where the brute force runs (every breadth-first run here is
#    under --por off: the full graph).
#    Also the classics at more sizes, printed by classic_spec.py:
#    lastzero(2) and (4), indexer(14) (its hand count: 512 traces, 7 s of
#    CPU), readers-writers(R, W) for five (R, W) (hand counts W! (W+1)^R).
#    Then ten random specs of random_spec.py (choices, blocking guards):
#    executions equal the brute force's traces (blocked ones allowed).
#    Then twenty with a terminal predicate (whose cells are not visible):
#    the breadth-first search's verdict, executions = traces where ok.
# 2. The bugs: specs/lost_update.mc's invariant violation and the deadlock
#    of specs/philosophers.mc are found, and their traces replay (the
#    runtime replays every printed trace; a trace that does not is an
#    internal error, exit 2).
# 3. The rest of the contract: --max-depth (incomplete, exit 3; a violation
#    within the bound found as the breadth-first search finds it), a cycle
#    without it (incomplete, bound "cycle"), --symmetry on and --threads
#    (run without either, with notes), the refusals (liveness, --symmetry
#    verify, constraints), the report's "odpor" member.
#
# Needs jq, cc and python3; the runtime's headers for brute.c; checkers
# with the compiler's dependency table (McrtModel.deps).
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
use_build_dir "${1:?usage: tests/odpor/run.sh BUILD}"

need jq
make_work odpor

# build SPEC NAME [MCGEN-ARGS]: the checker $work/NAME and its C $work/NAME.c.
build() {
  spec=$1 name=$2
  shift 2
  (cd "$work" && "$mcgen" "$@" --emit-c -o "$name" "$spec" && "$mcgen" "$@" -o "$name" "$spec") \
    >"$work/$name.mcgen" 2>&1
}

# The DVE models of tests/dve/ whose runs all end (with --no-deadlock), for
# the dependency of DVE processes, rendezvous, committed states and the
# error state.
dve="buffered committed committed_sync index_out_of_range error_state_explored"
mkdir -p "$work/classic"
for c in "lastzero 2" "lastzero 4" "indexer 14" "readers 1 1" "readers 2 2" "readers 4 2" \
  "readers 3 3" "readers 5 1"; do
  # shellcheck disable=SC2086
  python3 "$root/tests/odpor/classic_spec.py" $c >"$work/classic/$(echo $c | tr ' ' _).mc" ||
    fail "classic_spec.py $c" "the generator failed"
done
for spec in "$root"/tests/odpor/specs/*.mc "$work"/classic/*.mc \
  $(for d in $dve; do echo "$root/tests/dve/$d.dve"; done); do
  name=$(basename "$spec" .mc)
  name=$(basename "$name" .dve)
  args=$(sed -n 's|^// ODPOR-RUN-ARGS: ||p' "$spec")
  case $spec in *.dve) args=--no-deadlock ;; esac
  want=$(sed -n 's|^// ODPOR-TRACES: ||p' "$spec")
  of=$(sed -n 's|^// ODPOR-TRACES-OF: ||p' "$spec")
  if [ -n "$of" ]; then
    want=$(sed -n 's/^traces //p' "$work/$of.count" 2>/dev/null)
    [ -n "$want" ] || { fail "$name" "no brute force count of $of"; continue; }
  fi
  if ! build "$spec" "$name"; then
    fail "$name" "mcgen failed: $(head -3 "$work/$name.mcgen")"
    continue
  fi
  # shellcheck disable=SC2086
  "$work/$name" --search odpor $args --report "$work/$name.json" >"$work/$name.out" 2>&1
  code=$?
  if [ $code != 0 ]; then
    fail "$name" "exit $code: $(grep '^result' "$work/$name.out")"
    continue
  fi
  execs=$(jq .odpor.executions "$work/$name.json")
  blocked=$(jq .odpor.sleep_set_blocked "$work/$name.json")
  [ "$blocked" = 0 ] || { fail "$name" "$blocked sleep-set blocked executions"; continue; }
  if [ -n "$want" ] && [ "$execs" != "$want" ]; then
    fail "$name" "$execs executions, the spec's header counts $want traces"
    continue
  fi
  if grep -q '^// ODPOR-NO-BRUTE:' "$spec"; then
    pass "$name: $execs executions, 0 blocked${want:+, as counted in its header}"
    continue
  fi
  if ! cc -std=c11 -O2 -D_GNU_SOURCE -Wall -Wextra -Werror -DCHECKER="\"$work/$name.c\"" \
    -I"$root/runtime" -o "$work/$name.brute" "$root/tests/odpor/brute.c" "$build_dir/libmcrt.a" -lm \
    -pthread >"$work/$name.cc" 2>&1; then
    fail "$name" "brute.c does not build: $(head -3 "$work/$name.cc")"
    continue
  fi
  # shellcheck disable=SC2086
  "$work/$name" --por off $args --symmetry off >"$work/$name.bfs" 2>&1 ||
    { fail "$name" "the breadth-first search does not say ok either"; continue; }
  "$work/$name.brute" >"$work/$name.count" || { fail "$name" "brute.c failed"; continue; }
  traces=$(sed -n 's/^traces //p' "$work/$name.count")
  inter=$(sed -n 's/^interleavings //p' "$work/$name.count")
  if [ "$execs" != "$traces" ]; then
    fail "$name" "ODPOR explored $execs executions, brute force counts $traces traces"
  elif [ "$inter" -lt "$traces" ]; then
    fail "$name" "$inter interleavings, fewer than the $traces traces"
  else
    pass "$name: $execs executions = $traces traces (of $inter interleavings), 0 blocked${want:+, as counted in its header}${of:+ (those of $of)}"
  fi
done

# 1b. Random specs with choices and blocking guards (random_spec.py): no
# trace missed, none explored twice (executions = brute force's traces;
# sleep-set blocked executions allowed here: see docs/DESIGN.md). The seeds
# are ones that missed traces before the engine handled choices and blocked
# processes, and more.
for seed in 3 5 6 7 11 34 37 38 40 75; do
  name=rand$seed
  python3 "$root/tests/odpor/random_spec.py" $seed >"$work/$name.mc" || { fail "$name" "generator"; continue; }
  if ! build "$work/$name.mc" "$name" || ! cc -std=c11 -O2 -D_GNU_SOURCE -Wall -Wextra -Werror \
    -DCHECKER="\"$work/$name.c\"" -I"$root/runtime" -o "$work/$name.brute" \
    "$root/tests/odpor/brute.c" "$build_dir/libmcrt.a" -lm -pthread >"$work/$name.cc" 2>&1; then
    fail "$name" "does not build"
    continue
  fi
  "$work/$name" --search odpor --no-deadlock --report "$work/$name.json" >"$work/$name.out" 2>&1
  code=$?
  "$work/$name" --no-deadlock --symmetry off >/dev/null 2>&1
  bfs=$?
  if [ $code != $bfs ]; then
    fail "$name" "exit $code with --search odpor, $bfs with the breadth-first search"
    continue
  fi
  [ $code = 1 ] && { pass "$name: a violation, as the breadth-first search finds"; continue; }
  "$work/$name.brute" >"$work/$name.count" || { fail "$name" "brute.c failed"; continue; }
  traces=$(sed -n 's/^traces //p' "$work/$name.count")
  execs=$(jq .odpor.executions "$work/$name.json")
  if [ "$execs" = "$traces" ]; then
    pass "$name: $execs executions = $traces traces, $(jq .odpor.sleep_set_blocked "$work/$name.json") blocked"
  else
    fail "$name" "ODPOR explored $execs executions, brute force counts $traces traces"
  fi
done

# 1c. The random specs with a terminal predicate (`terminal fin: x0 != 1;`,
# deadlocks checked): its cells are not visible, so it adds no trace, and
# the verdict is the breadth-first search's (a deadlock where it fails, an
# invariant violation); where none, executions = the brute force's traces.
tbad= tviol=0 tcount=0
for seed in $(seq 1 20); do
  name=term$seed
  { python3 "$root/tests/odpor/random_spec.py" $seed && echo "terminal fin: x0 != 1;"; } >"$work/$name.mc"
  build "$work/$name.mc" "$name" || { tbad="$tbad $seed(build)"; continue; }
  "$work/$name" --search odpor --report "$work/$name.json" >"$work/$name.out" 2>&1
  code=$?
  "$work/$name" --por off >"$work/$name.bfs" 2>&1
  bfs=$?
  [ $code = $bfs ] || { tbad="$tbad $seed(exit $code, BFS $bfs)"; continue; }
  [ $code = 1 ] && { tviol=$((tviol + 1)); continue; }
  if ! cc -std=c11 -O2 -D_GNU_SOURCE -DCHECKER="\"$work/$name.c\"" -I"$root/runtime" \
    -o "$work/$name.brute" "$root/tests/odpor/brute.c" "$build_dir/libmcrt.a" -lm -pthread >/dev/null 2>&1; then
    tbad="$tbad $seed(brute.c)"
    continue
  fi
  traces=$("$work/$name.brute" | sed -n 's/^traces //p')
  execs=$(jq .odpor.executions "$work/$name.json")
  [ "$execs" = "$traces" ] && tcount=$((tcount + 1)) || tbad="$tbad $seed($execs != $traces)"
done
if [ -z "$tbad" ] && [ $tviol -gt 0 ] && [ $tcount -gt 0 ]; then
  pass "terminal predicates: 20 random specs, $tviol violations as the breadth-first search finds, $tcount with executions = traces"
else
  fail "terminal predicates" "$tbad"
fi

# 2. The bugs, with traces that replay.
if build "$root/specs/lost_update.mc" lost_update; then
  "$work/lost_update" --search odpor --report "$work/lu.json" >"$work/lu.out" 2>&1
  code=$?
  if [ $code = 1 ] && grep -q "^result: violation: invariant 'counts_increments'" "$work/lu.out" &&
    [ "$(jq -r '.violations[0].kind' "$work/lu.json")" = invariant ]; then
    pass "lost_update: the lost update found, its trace of $(grep -c '^[0-9]* [a-z]' "$work/lu.out") steps replayed"
  else
    fail lost_update "exit $code: $(grep '^result' "$work/lu.out")"
  fi
else
  fail lost_update "mcgen failed"
fi
if build "$root/specs/philosophers.mc" philosophers; then
  "$work/philosophers" --search odpor --max-depth 30 >"$work/ph.out" 2>&1
  code=$?
  if [ $code = 1 ] && grep -q '^result: violation: deadlock' "$work/ph.out"; then
    pass "philosophers: the deadlock found under --max-depth 30, trace replayed"
  else
    fail philosophers "exit $code: $(grep '^result' "$work/ph.out")"
  fi
  # Without --max-depth the philosophers' state space has cycles.
  "$work/philosophers" --search odpor --no-deadlock --report "$work/cy.json" >"$work/cy.out" 2>&1
  code=$?
  if [ $code = 3 ] && [ "$(jq -r .bound_hit "$work/cy.json")" = cycle ] &&
    grep -q '^result: incomplete: an execution returned to a state' "$work/cy.out"; then
    pass "philosophers --no-deadlock: a cycle, incomplete (bound cycle), no endless loop"
  else
    fail "philosophers cycle" "exit $code: $(grep '^result' "$work/cy.out")"
  fi
  "$work/philosophers" --search odpor --no-deadlock --max-depth 8 --report "$work/md.json" \
    >"$work/md.out" 2>&1
  code=$?
  if [ $code = 3 ] && [ "$(jq -r .bound_hit "$work/md.json")" = max-depth ] &&
    [ "$(jq .odpor.max_depth "$work/md.json")" = 8 ]; then
    pass "philosophers --max-depth 8: incomplete (max-depth), $(jq .odpor.executions "$work/md.json") executions"
  else
    fail "philosophers --max-depth" "exit $code: $(grep '^result' "$work/md.out")"
  fi
else
  fail philosophers "mcgen failed"
fi

# A terminal predicate's cells are not visible (only the end state of an
# execution is checked against it): one that fails at the ends of some
# traces (thread 0 of lastzero(3) stops at the last zero, i == 0 only when
# every writer came first) is a deadlock that --search odpor finds, as the
# breadth-first search does.
sed 's/^terminal all_done: .*/terminal at_zero: found \&\& i == 0;/' \
  "$root/tests/odpor/specs/terminal_lastzero3.mc" >"$work/terminal_fails.mc"
if grep -q '^terminal at_zero' "$work/terminal_fails.mc" && build "$work/terminal_fails.mc" terminal_fails; then
  "$work/terminal_fails" --search odpor >"$work/tf.out" 2>&1
  code=$?
  "$work/terminal_fails" --por off >"$work/tf.bfs" 2>&1
  bfs=$?
  if [ $code = 1 ] && [ $bfs = 1 ] && grep -q '^result: violation: deadlock' "$work/tf.out" &&
    grep -q '^result: violation: deadlock' "$work/tf.bfs"; then
    pass "terminal_fails: the deadlock where the terminal predicate fails found, as by BFS"
  else
    fail terminal_fails "exit $code (BFS $bfs): $(grep '^result' "$work/tf.out")"
  fi
else
  fail terminal_fails "mcgen failed"
fi

# --max-depth D: a violation within D events is found, as the breadth-first
# search under the same bound finds it (a spec whose runs are all longer:
# the random specs of 1b, cut at 1 to 5 events, with deadlocks checked and,
# if the spec has an invariant, without). The races of events past the cut
# are not seen; without expanding the levels of cut executions (odpor.c's
# expand_cut) 11 of the --no-deadlock runs alone missed an invariant
# violation.
md_runs=0 md_viol=0 md_bad=
for seed in $(seq 1 60); do
  name=md$seed
  python3 "$root/tests/odpor/random_spec.py" $seed >"$work/$name.mc" && build "$work/$name.mc" "$name" ||
    { md_bad="$md_bad $seed(build)"; continue; }
  modes=deadlock
  grep -q '^invariant' "$work/$name.mc" && modes="deadlock --no-deadlock"
  for mode in $modes; do
    [ $mode = deadlock ] && mode=
    for d in 1 2 3 4 5; do
      # shellcheck disable=SC2086
      "$work/$name" --search odpor $mode --max-depth $d >"$work/md.out" 2>&1
      code=$?
      # shellcheck disable=SC2086
      "$work/$name" --por off $mode --max-depth $d >"$work/md.bfs" 2>&1
      bfs=$?
      md_runs=$((md_runs + 1))
      [ $bfs = 1 ] && md_viol=$((md_viol + 1))
      # (With both a deadlock and an invariant violation in reach, which
      # one is found first depends on the order of the search.)
      if { [ $code = 1 ] || [ $bfs = 1 ]; } && [ $code != $bfs ]; then
        md_bad="$md_bad $seed(${mode:+nd,}d$d:$code/$bfs)"
      fi
    done
  done
done
if [ -z "$md_bad" ] && [ $md_viol -gt 0 ]; then
  pass "--max-depth: $md_runs bounded runs, the $md_viol violations of the breadth-first search found"
else
  fail "--max-depth" "verdicts differ from the breadth-first search's:$md_bad"
fi

# What each kind of predicate reads (mcgen --deps-json, McrtDeps's
# *_reads lists): cells a, b, c, d are 0 to 3, one kind each; visible is
# their union.
printf '%s\n' 'model kinds;' 'var a: 0..1;' 'var b: 0..1;' 'var c: 0..1;' 'var d: 0..1;' \
  'action go when a == 0 { a = 1; }' 'invariant i: a <= 1;' 'reachable r: b == 0;' \
  'terminal t: c == 0;' 'constraint k: d == 0;' >"$work/kinds.mc"
got=$("$mcgen" --deps-json "$work/kinds.mc" 2>&1 | jq -c '[.predicate_reads, .visible]' 2>&1)
if [ "$got" = '[{"invariant":[0],"reachable":[1],"terminal":[2],"constraint":[3],"accepting":[]},[0,1,2,3]]' ]; then
  pass "predicate_reads: each kind's cells apart, visible their union"
else
  fail predicate_reads "$got"
fi

# --symmetry on and --threads 2: the same executions, in one thread and
# without symmetry reduction, each with a note on stderr, and the report
# says so (readers_writers.mc has two scalarsets; 54 traces by hand).
if build "$root/tests/odpor/specs/readers_writers.mc" rw_sym; then
  "$work/rw_sym" --search odpor --no-deadlock --symmetry on --threads 2 --report "$work/rw.json" \
    >"$work/rw.out" 2>"$work/rw.err"
  code=$?
  got=$(jq -c '[.odpor.executions, .odpor.sleep_set_blocked, .symmetry, .threads]' "$work/rw.json")
  if [ $code = 0 ] && [ "$got" = '[54,0,"off",1]' ] &&
    grep -q '^note: --search odpor runs in one thread (--threads 2 ignored)' "$work/rw.err" &&
    grep -q '^note: --search odpor explores .* without symmetry reduction' "$work/rw.err"; then
    pass "--symmetry on --threads 2: 54 executions, symmetry off and one thread, with notes"
  else
    fail "--symmetry on --threads 2" "exit $code, $got: $(head -2 "$work/rw.err" | tr '\n' '|')"
  fi
else
  fail "--symmetry on --threads 2" "mcgen failed"
fi

# 3. Refusals.
refused() { # NAME SPEC MESSAGE CHECKER-ARGS...
  rname=$1 rspec=$2 msg=$3
  shift 3
  if ! build "$rspec" "r_$rname"; then
    fail "refuse $rname" "mcgen failed"
    return
  fi
  "$work/r_$rname" --search odpor "$@" >"$work/r.out" 2>&1
  code=$?
  if [ $code = 2 ] && grep -q "^error: --search odpor: .*$msg" "$work/r.out"; then
    pass "refuse $rname"
  else
    fail "refuse $rname" "exit $code: $(head -2 "$work/r.out")"
  fi
}
refused liveness "$root/specs/filter.mc" "liveness"
refused symmetry-verify "$root/tests/odpor/specs/one_variable.mc" "symmetry verify" --symmetry verify
printf 'model c;\nvar n: 0..3;\naction inc when n < 3 { n = n + 1; }\nconstraint small: n < 2;\n' \
  >"$work/constraint.mc"
refused constraint "$work/constraint.mc" "constraint"

finish
