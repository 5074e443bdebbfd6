#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# MPI tests: checkers built by `mcgen --mpi` under `mpirun --oversubscribe
# -np 1..4` against the serial checker of the same spec (whose own counts
# tests/e2e checks against Rumur, and tests/conformance against BEEM).
# Prints `PASS name`, `FAIL name: why`; ends with `N passed, N failed`, and
# exits non-zero on a failure. Without mpirun or the MPI runtime it says so
# loudly and exits 0 (`make test` runs it whatever is installed).
#
# Usage: tests/mpi/run.sh [BUILD_DIR] [--beem-limit N]
#   BUILD_DIR      default: build, from the repo root
#   --beem-limit N every complete BEEM instance of at most N states (make
#                  conformance: those of the conformance run) instead of the
#                  four below
#
# Checks:
#   - tests/mpi/unit_mpi.c, the engine's pieces (Criterion, built with mpicc);
#   - every spec of specs/, the symmetry and error specs of tests/e2e/specs
#     and two of tests/cli/specs, and BEEM instances of the conformance run
#     (../shared/suites/beem, when present): on 1, 2, 3 and 4 ranks, and on
#     2 and 3 ranks of 2 threads (the violations and traces of as many
#     ranks of one thread, byte for byte; with --fixed-trace, those of
#     1 to 4 ranks and 2 ranks of 2 threads the same as one rank's), the same
#     exit code, verdict, violation kind and property, and trace length as
#     the serial checker; when the search was exhaustive the same states,
#     transitions, depth and deadlocks; no replay error (rank 0 replays each
#     trace and checks every state against its owner's set). For BEEM also
#     the published states, edges and deadlocks (beem_expected.csv);
#   - bounds: --max-states and --max-steps stop at exactly the bound;
#     --max-depth gives the serial counts; --memory bounds each rank; a
#     round's buffer that cannot grow ends the search (exit 3, memory);
#     --progress lines come from rank 0; --symmetry verify agrees;
#   - a --mpi checker run without mpirun is one rank, with the serial counts;
#   - liveness, nets and --simulate on several ranks are refused (exit 2,
#     naming how to check them); on one rank liveness is checked, as by the
#     serial checker; --graph is rank 0's, the serial one;
#   - SIGINT to every rank: a partial report, exit 3 from mpirun; SIGTERM
#     and SIGINT to mpirun at several delays: a partial report with
#     consistent counts, every rank exiting (3) before Open MPI's SIGKILL;
#   - a call of C that never returns: --extern-timeout ends the run with its
#     run-time error and trace; SIGINT while it runs, a partial report;
#   - the checker needs nothing from the build tree (ldd), and its direct
#     dependencies are libc, libm and the MPI library only.
# Specs run with the checker options of their RUN-ARGS header and mcgen's of
# MCGEN-ARGS, as tests/e2e/run_specs.sh does.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
build_arg=
beem_limit=
while [ $# -gt 0 ]; do
  case $1 in
  --beem-limit) beem_limit=$2; shift 2 ;;
  *) build_arg=$1; shift ;;
  esac
done
use_build_dir "$build_arg"
unset MCGEN_RUNTIME CC
# CI runs as root; Open MPI refuses that without these.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# One machine: shared memory between the ranks, no network probing.
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none

if ! command -v mpirun >/dev/null || ! command -v mpicc >/dev/null ||
  [ ! -f "$build_dir/libmcrt_mpi.a" ]; then
  echo "************************************************************************"
  echo "SKIP tests/mpi: Open MPI (mpirun, mpicc) or $build_dir/libmcrt_mpi.a is"
  echo "missing: install openmpi-bin and libopenmpi-dev (make test-deps), then"
  echo "make all. NOTHING about mcgen --mpi was tested."
  echo "************************************************************************"
  echo "0 passed, 0 failed"
  exit 0
fi

make_work mpi
# Open MPI's session directories under this run's own directory: mpiruns of
# two runs at once (two checkouts) raced to create /tmp/ompi.HOST.UID and one
# failed with 'File exists'.
export OMPI_MCA_orte_tmpdir_base=$work
cd "$work" || exit 2

mpi() { timeout 120 mpirun --oversubscribe -np "$@"; }

# The engine's pieces on their own (tests/mpi/unit_mpi.c: the packed log at
# every width, ownership, the order of violations): mpicc and Criterion.
if ! mpicc -std=c11 -O1 -g -Wall -Wextra -Werror -D_GNU_SOURCE -DMCRT_MPI -I"$root/runtime" \
  -o unit_mpi "$root/tests/mpi/unit_mpi.c" "$build_dir/libmcrt.a" -lcriterion -lm >unit.out 2>&1; then
  fail unit "cannot build tests/mpi/unit_mpi.c: $(head -c 300 unit.out | tr '\n' '|')"
elif ./unit_mpi >unit.out 2>&1; then
  pass "unit ($(grep -o 'Tested: [0-9]*' unit.out | head -1))"
else
  fail unit "$(grep -m3 FAIL unit.out | tr '\n' '|')"
fi

# What must agree between two reports: the verdict, the violation and its
# trace length; the counts only when the search was exhaustive (a search
# stopped by a violation counts what it met so far, in its own order).
summary='{verdict, exit_code, bound_hit,
  violation: (.violations[0] | if . then {kind, name, steps: (.trace | length)} else null end),
  counts: (if .bound_hit == null and (.violations | length) == 0
           then {states, transitions, depth, deadlocks} else null end),
  reachables, accepting}'

# build NAME SRC [mcgen args...]: NAME_s (serial) and NAME_m (--mpi).
build() {
  local name=$1 src=$2
  shift 2
  "$mcgen" "$@" -o "${name}_s" "$src" >"$name.mcgen" 2>&1 &&
    "$mcgen" --mpi "$@" -o "${name}_m" "$src" >>"$name.mcgen" 2>&1
}

# compare NAME [checker args...]: the serial run against 1..4 ranks, and
# against 2 and 3 ranks of 2 threads each (NxT), whose violation and trace
# must also be those of N ranks of one thread, step for step; where there
# is a violation, with --fixed-trace every number of ranks gives the
# violations and traces of one rank, step for step.
compare() {
  local name=$1 run np rc threads why=
  shift
  # --por off: the MPI engine goes without the reduction, the serial default not.
  "./${name}_s" --threads 1 --por off --report "$name.s.json" "$@" >"$name.s.out" 2>&1
  local want_rc=$?
  jq -S "$summary" "$name.s.json" >"$name.s.sum" 2>/dev/null || why="serial run: no report (exit $want_rc)"
  for run in 1 2 3 4 2x2 3x2; do
    [ -n "$why" ] && break
    np=${run%x*}
    if [ "$np" = "$run" ]; then
      mpi "$np" "./${name}_m" --report "$name.$np.json" "$@" >"$name.$np.out" 2>&1
      rc=$?
    else
      mpi "$np" "./${name}_m" --threads "${run#*x}" --report "$name.$run.json" "$@" >"$name.$run.out" 2>&1
      rc=$?
      if ! jq -e '.threads == '"${run#*x}"'' "$name.$run.json" >/dev/null 2>&1; then
        why="-np $np --threads ${run#*x}: $(jq -c '{threads}' "$name.$run.json" 2>&1) ($(head -c 300 "$name.$run.out" | tr '\n' '|'))"
        break
      elif ! cmp -s <(jq -S .violations "$name.$run.json") <(jq -S .violations "$name.$np.json"); then
        why="-np $np --threads ${run#*x}: not the violations and traces of -np $np"
        break
      fi
      np=$run
    fi
    if [ "$rc" -ne "$want_rc" ]; then
      why="-np $np: exit $rc, serial $want_rc ($(head -c 300 "$name.$np.out" | tr '\n' '|'))"
    elif grep -q 'internal error\|trace replay' "$name.$np.out"; then
      why="-np $np: $(grep -m1 'internal error\|trace replay' "$name.$np.out")"
    elif ! jq -S "$summary" "$name.$np.json" >"$name.$np.sum" 2>/dev/null; then
      why="-np $np: no report"
    elif ! cmp -s "$name.s.sum" "$name.$np.sum"; then
      why="-np $np differs from serial: $(diff "$name.s.sum" "$name.$np.sum" | grep '^[<>]' | tr '\n' ' ' | head -c 400)"
    fi
  done
  # --fixed-trace: where there is a trace, every number of ranks (and of
  # threads in a rank) prints the one of one rank, step for step.
  if [ -z "$why" ] && [ "$want_rc" = 1 ]; then
    for run in 1 2 3 4 2x2; do
      np=${run%x*}
      threads=1
      [ "$np" != "$run" ] && threads=${run#*x}
      mpi "$np" "./${name}_m" --fixed-trace --threads "$threads" --report "$name.f$run.json" "$@" \
        >"$name.f$run.out" 2>&1
      rc=$?
      if [ "$rc" -ne "$want_rc" ] || ! jq -S "$summary" "$name.f$run.json" >"$name.f$run.sum" 2>/dev/null ||
        ! cmp -s "$name.s.sum" "$name.f$run.sum"; then
        why="--fixed-trace -np $run: exit $rc, or not the serial verdict and trace length ($(head -c 300 "$name.f$run.out" | tr '\n' '|'))"
      elif ! cmp -s <(jq -S .violations "$name.f$run.json") <(jq -S .violations "$name.f1.json"); then
        why="--fixed-trace -np $run: not the trace of one rank: $(diff <(jq -c '.violations[]?.trace[]?' "$name.f1.json") <(jq -c '.violations[]?.trace[]?' "$name.f$run.json") | head -c 300 | tr '\n' ' ')"
      fi
      [ -n "$why" ] && break
    done
  fi
  [ -z "$why" ] && return 0
  echo "$why"
  return 1
}

# check_spec SRC: prints its PASS or FAIL line (several run at once).
check_spec() {
  local src=$1 name margs rargs why
  name=$(basename "$src" .mc)
  margs=$(first_directive "$src" MCGEN-ARGS)
  rargs=$(first_directive "$src" RUN-ARGS)
  # Liveness is refused on several ranks (checked below): safety only here.
  grep -qE '^[[:space:]]*(property|fairness)\b' "$src" && rargs="$rargs --liveness off"
  # shellcheck disable=SC2086 # the header's arguments are words
  if ! build "$name" "$src" $margs; then
    echo "FAIL spec-$name: mcgen: $(head -c 300 "$name.mcgen" | tr '\n' '|')"
  elif why=$(compare "$name" $rargs); then
    echo "PASS spec-$name ($(jq -r '.verdict + ", " + (.states|tostring) + " states"' "$name.s.json"))"
  else
    echo "FAIL spec-$name: $why"
  fi
}

# check_beem INSTANCE: the same, plus BEEM's published figures.
check_beem() {
  local inst=$1 states edges deadlocks why
  read -r _ states _ edges deadlocks _ < <("$root/tools/beem-expected" "$beem" | grep "^$inst ")
  # (Some instances publish no edge or deadlock count: "-", not compared.)
  [ "$edges" = - ] && edges=null
  [ "$deadlocks" = - ] && deadlocks=null
  if ! build "$inst" "$beem/dve/$inst.dve"; then
    echo "FAIL beem-$inst: mcgen: $(head -c 300 "$inst.mcgen" | tr '\n' '|')"
  elif ! why=$(compare "$inst" --no-deadlock); then
    echo "FAIL beem-$inst: $why"
  elif ! jq -e --argjson s "$states" --argjson e "$edges" --argjson d "$deadlocks" \
    '.states == $s and ($e == null or .transitions == $e) and ($d == null or .deadlocks == $d)' \
    "$inst.4.json" >/dev/null; then
    echo "FAIL beem-$inst: 4 ranks: $(jq -c '{states, transitions, deadlocks}' "$inst.4.json"), BEEM: $states states, $edges edges, $deadlocks deadlocks"
  else
    echo "PASS beem-$inst ($states states, $edges edges, $deadlocks deadlocks, as BEEM; null: not published)"
  fi
}

# BEEM: a few instances of the conformance run (tests/conformance), with and
# without deadlocks, against the serial checker and BEEM's figures.
cases=()
for f in "$root"/specs/*.mc "$root"/tests/e2e/specs/{sym_loops,sym_mix,sym_trace,runtime_error,no_initial_state,init_bindings,shortest_level,shortest_error}.mc \
  "$root"/tests/cli/specs/{bug,deadlock}.mc; do
  cases+=("check_spec|$f")
done
if find_suite beem "mcgen --mpi on BEEM instances"; then
  beem=$suite
  if [ -n "$beem_limit" ]; then
    while read -r inst states complete _; do
      [ "$complete" = yes ] && [ "$states" -le "$beem_limit" ] && cases+=("check_beem|$inst")
    done < <("$root/tools/beem-expected" "$beem")
  else
    for inst in adding.1 leader_election.1 brp.1 bakery.3; do cases+=("check_beem|$inst"); done
  fi
fi
# Three at a time: most of a case's time is mpirun starting up.
i=0
for c in "${cases[@]}"; do
  "${c%%|*}" "${c#*|}" >"case.$i.result" & # function|argument: a path may hold blanks
  i=$((i + 1))
  while [ "$(jobs -rp | wc -l)" -ge 3 ]; do wait -n; done
done
wait
for j in $(seq 0 $((i - 1))); do
  line=$(cat "case.$j.result")
  echo "$line"
  case $line in PASS*) passed=$((passed + 1)) ;; *) failed=$((failed + 1)) ;; esac
done

# ---------------------------------------------------------------------------
# Bounds, on peterson.mc (163298 states, 1143086 transitions).

t_bounds() {
  local np
  for np in 1 3; do
    mpi "$np" ./peterson_m --max-states 1000 --report ms.json >ms.out 2>&1
    jq -e '.exit_code == 3 and .bound_hit == "max-states" and .states == 1000' ms.json >/dev/null ||
      { echo "--max-states 1000 on $np ranks: $(jq -c '{exit_code, bound_hit, states}' ms.json 2>&1)"; return 1; }
    mpi "$np" ./peterson_m --max-steps 5000 --report st.json >st.out 2>&1
    jq -e '.exit_code == 3 and .bound_hit == "max-steps" and .transitions == 5000' st.json >/dev/null ||
      { echo "--max-steps 5000 on $np ranks: $(jq -c '{exit_code, bound_hit, transitions}' st.json 2>&1)"; return 1; }
  done
  compare peterson --max-depth 20 || return 1
  # --max-depth beyond the last level: exhaustive after all, as serially.
  compare lcr --max-depth 1000
}
if why=$(t_bounds); then pass "bounds (--max-states, --max-steps exact; --max-depth)"; else fail bounds "$why"; fi

# --memory bounds each rank (peterson.mc needs about 5.7 MiB per rank on 2);
# --progress lines come from rank 0 alone, with every rank's totals; a
# --mpi checker started without mpirun is one rank, with the serial counts.
t_memory_progress_alone() {
  # Every rank stays under the bound: its round buffers, the threads'
  # buffers and the receive buffer included. Two threads three times: where
  # the bound falls depends on how the threads shared the windows (the
  # receive buffer's growth went over it in a third of the runs of 3 ranks
  # of 2 threads at 3M, before every rank said it had room for it).
  local np t m bytes
  for m in 2M:2097152 3M:3145728 4M:4194304; do
    bytes=${m#*:} m=${m%:*}
    for np in 1 2 3; do
      for t in 1 2 2 2; do
        rm -f mem.json
        mpi $np ./peterson_m --memory $m --threads $t --report mem.json >mem.out 2>&1
        jq -e --argjson b "$bytes" '(.exit_code == 3 and .bound_hit == "memory" or .exit_code == 0)
            and ([.mpi.per_rank[].peak_bytes] | max) <= $b' mem.json >/dev/null ||
          { echo "--memory $m on $np ranks of $t threads: $(jq -c '{exit_code, bound_hit, per_rank: [.mpi.per_rank[].peak_bytes]}' mem.json 2>&1)"; return 1; }
      done
    done
  done
  mpi 2 ./peterson_m --memory 4M --report mem.json >mem.out 2>&1
  jq -e '.exit_code == 3 and .bound_hit == "memory"' mem.json >/dev/null ||
    { echo "--memory 4M on 2 ranks: $(jq -c '{exit_code, bound_hit}' mem.json 2>&1)"; return 1; }
  mpi 2 ./peterson_m --progress 0.01 >prog.out 2>&1
  grep -q '^progress: [0-9]* states .* on 2 ranks' prog.out ||
    { echo "--progress on 2 ranks: no progress line: $(head -c 300 prog.out)"; return 1; }
  [ "$(grep -c '^progress: ' prog.out)" -lt 1000 ] || { echo "too many progress lines"; return 1; }
  ./peterson_s --por off --report alone_s.json >alone_s.out 2>&1
  ./peterson_m --report alone.json >alone.out 2>&1
  jq -e --slurpfile s alone_s.json '.mpi.ranks == 1 and .states == $s[0].states and
    .transitions == $s[0].transitions and .verdict == $s[0].verdict and .por == "off" and
    .por_mode == "auto" and .por_off_reason == "the MPI engine"' alone.json >/dev/null ||
    { echo "without mpirun: $(jq -c '{ranks: .mpi.ranks, states, transitions, verdict, por, por_mode, por_off_reason}' alone.json 2>&1)"; return 1; }
}
if why=$(t_memory_progress_alone); then pass "memory-progress-alone (--memory per rank, progress from rank 0, one rank without mpirun)"; else fail memory-progress-alone "$why"; fi

# The same number of ranks gives the same trace at every run (the partition
# and the order of every exchange are fixed); other numbers give one of the
# same length (checked above).
t_same_trace() {
  local spec
  for spec in philosophers sym_trace; do
    mpi 3 "./${spec}_m" --trace-format json --quiet >"$spec.t1" 2>/dev/null
    mpi 3 "./${spec}_m" --trace-format json --quiet >"$spec.t2" 2>/dev/null
    grep -q '"trace"' "$spec.t1" || { echo "$spec: no trace: $(head -c 200 "$spec.t1")"; return 1; }
    cmp -s "$spec.t1" "$spec.t2" || { echo "$spec: two runs on 3 ranks print different traces"; return 1; }
  done
}
if why=$(t_same_trace); then pass "same-trace (two runs on 3 ranks)"; else fail same-trace "$why"; fi

# Scenarios and accepting predicates: the accepting states are counted on
# every rank and summed (mutex.mc's OneRoundEach has one, owned by one rank
# only), and a complete search where none holds is a violation on any
# number of ranks.
t_accepting() {
  local why
  build mutex_scn "$root/tests/scenario/products/mutex.mc" --scenario OneRoundEach ||
    { echo "mcgen: $(head -c 300 mutex_scn.mcgen)"; return 1; }
  why=$(compare mutex_scn) || { echo "scenario OneRoundEach: $why"; return 1; }
  jq -e '.accepting == 1' mutex_scn.4.json >/dev/null ||
    { echo "scenario OneRoundEach on 4 ranks: $(jq -c '{accepting}' mutex_scn.4.json) accepting states, 1 expected"; return 1; }
  build accepting_never "$root/tests/mpi/specs/accepting_never.mc" ||
    { echo "mcgen: $(head -c 300 accepting_never.mcgen)"; return 1; }
  why=$(compare accepting_never) || { echo "accepting_never: $why"; return 1; }
  jq -e '.exit_code == 1' accepting_never.2.json >/dev/null ||
    { echo "accepting_never on 2 ranks: exit $(jq .exit_code accepting_never.2.json), expected 1"; return 1; }
}
if why=$(t_accepting); then pass "accepting (a scenario's accepting states summed over 1-4 ranks; none reachable is a violation)"; else fail accepting "$why"; fi

# --graph is written by rank 0 alone, the serial checker's graph; --simulate
# runs in one process: refused on 2 ranks.
t_exports() {
  ./philosophers_s --graph g_s.json --quiet >/dev/null 2>&1
  mpi 3 ./philosophers_m --graph g_3.json --quiet >/dev/null 2>&1
  cmp -s g_s.json g_3.json || { echo "--graph on 3 ranks differs from the serial one"; return 1; }
  mpi 2 ./philosophers_m --simulate 3 >sim.out 2>&1
  local rc=$?
  [ "$rc" -eq 2 ] && grep -q -- '--simulate runs in one process' sim.out ||
    { echo "--simulate on 2 ranks: exit $rc: $(head -c 200 sim.out)"; return 1; }
}
if why=$(t_exports); then pass "exports (--graph from rank 0, --simulate refused)"; else fail exports "$why"; fi

# Shortest counterexamples (docs/DESIGN.md). When one level's expansion
# meets violations of two lengths (dl_vs_inv.mc: an invariant of the next
# level, 2 steps, before a deadlock of this level, 1 step), the serial
# search, the threads and every number of ranks report the shortest. When it
# meets several of the shortest length (shortest_kept.mc: two invariants
# and an error, 2 steps each), the serial search reports the first it met,
# the MPI engine the least by (kind, fingerprint): the same one at every
# number of ranks, with a trace of the same length.
t_level_kinds() {
  local sum='[.exit_code, .violations[0].kind, (.violations[0].trace | length)]' np t o
  build dl_vs_inv "$root/tests/mpi/specs/dl_vs_inv.mc" || { echo "mcgen: $(head -c 300 dl_vs_inv.mcgen)"; return 1; }
  for t in 1 2 4; do
    for o in fixed free; do
      ./dl_vs_inv_s --threads $t --order $o --por off --report dvi.s.json >/dev/null 2>&1
      [ "$(jq -c "$sum" dvi.s.json)" = '[1,"deadlock",2]' ] ||
        { echo "--threads $t --order $o: $(jq -c "$sum" dvi.s.json 2>&1)"; return 1; }
    done
  done
  for np in 1 2 3; do
    mpi $np ./dl_vs_inv_m --report "dvi.$np.json" >/dev/null 2>&1
    [ "$(jq -c "$sum" "dvi.$np.json")" = '[1,"deadlock",2]' ] ||
      { echo "$np ranks: $(jq -c "$sum" "dvi.$np.json" 2>&1)"; return 1; }
  done
  local kept=$root/tests/e2e/specs/shortest_kept.mc
  build kept "$kept" || { echo "mcgen: $(head -c 300 kept.mcgen)"; return 1; }
  ./kept_s --threads 1 --no-deadlock --report kept.s.json >/dev/null 2>&1
  [ "$(jq -c '[.exit_code, .violations[0].name, (.violations[0].trace | length)]' kept.s.json)" = '[1,"not_zero",3]' ] ||
    { echo "shortest_kept serial: $(jq -c '.violations[0]' kept.s.json 2>&1 | head -c 300)"; return 1; }
  for np in 1 2 3; do
    mpi $np ./kept_m --no-deadlock --report "kept.$np.json" >/dev/null 2>&1
    [ "$(jq -c '[.exit_code, (.violations[0].trace | length)]' "kept.$np.json")" = '[1,3]' ] &&
      cmp -s <(jq -c '.violations[0] | {kind, name}' kept.1.json) <(jq -c '.violations[0] | {kind, name}' "kept.$np.json") ||
      { echo "shortest_kept, $np ranks: $(jq -c '.violations[0]' "kept.$np.json" 2>&1 | head -c 300)"; return 1; }
  done
}
if why=$(t_level_kinds); then pass "level-kinds (a shortest trace at every setting; of several, the same length)"; else fail level-kinds "$why"; fi

# --search odpor runs in one process: on one rank (without mpirun, or
# -np 1) it gives the serial checker's answer; on 2 ranks it is refused.
t_odpor() {
  ./philosophers_s --search odpor --max-depth 6 --report od_s.json >od_s.out 2>&1
  local rc_s=$? run
  for run in alone np1; do
    if [ $run = alone ]; then
      ./philosophers_m --search odpor --max-depth 6 --report "od_$run.json" >"od_$run.out" 2>&1
    else
      mpi 1 ./philosophers_m --search odpor --max-depth 6 --report "od_$run.json" >"od_$run.out" 2>&1
    fi
    local rc=$?
    [ "$rc" -eq "$rc_s" ] && [ "$rc" -eq 1 ] &&
      [ "$(jq -c '[.verdict, .violations[0].kind, (.violations[0].trace | length), .odpor.events, .por_off_reason]' "od_$run.json")" = \
        "$(jq -c '[.verdict, .violations[0].kind, (.violations[0].trace | length), .odpor.events, .por_off_reason]' od_s.json)" ] ||
      { echo "$run: exit $rc (serial $rc_s): $(jq -c '[.verdict, .odpor, .por_off_reason]' "od_$run.json" 2>&1) vs $(jq -c '[.verdict, .odpor, .por_off_reason]' od_s.json 2>&1)"; return 1; }
  done
  mpi 2 ./philosophers_m --search odpor --max-depth 6 >od_2.out 2>&1
  rc=$?
  [ "$rc" -ne 0 ] && grep -q -- '--search odpor: it runs in one process: run this checker without mpirun (or mpirun -np 1)' od_2.out ||
    { echo "2 ranks: exit $rc: $(head -c 200 od_2.out)"; return 1; }
}
if why=$(t_odpor); then pass "odpor (one rank as serially, refused on 2 ranks)"; else fail odpor "$why"; fi

# A rank is one thread by default (the checker's default, the cores online,
# is for runs without MPI: every run above but NxT used it); --threads 2 in
# a rank (compared above on every case) says so in the report.
t_threads() {
  mpi 2 ./peterson_m --report thr.json >/dev/null 2>&1
  jq -e '.verdict == "ok" and .threads == 1 and .mpi.ranks == 2' thr.json >/dev/null ||
    { echo "default: $(jq -c '{verdict, threads}' thr.json 2>&1)"; return 1; }
  mpi 2 ./peterson_m --threads 2 --report thr2.json >/dev/null 2>&1
  jq -e '.verdict == "ok" and .threads == 2 and .mpi.ranks == 2 and (.thread_phases_s.expand > 0)' thr2.json >/dev/null ||
    { echo "--threads 2: $(jq -c '{verdict, threads, thread_phases_s}' thr2.json 2>&1)"; return 1; }
}
if why=$(t_threads); then pass "threads (one per rank by default; --threads 2 in each rank)"; else fail threads "$why"; fi

# A buffer of a round that cannot grow (MCRT_MPI_BUFFER_LIMIT makes a
# 64 KiB one fail as if the system had refused it) ends the search at that
# round: every rank exits 3 and the report says the memory bound, with one
# thread per rank and with two. (Before: the rank aborted.)
t_buffer() {
  local t r
  for t in 1 2; do
    rm -f buf.rc.*
    MCRT_MPI_BUFFER_LIMIT=65536 mpi 2 -x MCRT_MPI_BUFFER_LIMIT sh -c \
      './peterson_m --threads '"$t"' --report buf.json >buf.out 2>&1; echo $? >buf.rc.$OMPI_COMM_WORLD_RANK'
    for r in 0 1; do
      [ "$(cat "buf.rc.$r" 2>/dev/null)" = 3 ] ||
        { echo "--threads $t: rank $r exit $(cat "buf.rc.$r" 2>/dev/null), expected 3 ($(head -c 200 buf.out))"; return 1; }
    done
    jq -e '.exit_code == 3 and .bound_hit == "memory" and .verdict == "incomplete" and .states > 0' buf.json >/dev/null ||
      { echo "--threads $t: $(jq -c '{exit_code, bound_hit, verdict, states}' buf.json 2>&1)"; return 1; }
  done
}
if why=$(t_buffer); then pass "buffer (a round's buffer that cannot grow: incomplete, exit 3 on every rank)"; else fail buffer "$why"; fi

t_verify() {
  compare lost_update --symmetry verify || return 1
  jq -e '.symmetry_verify == "agree"' lost_update.2.json >/dev/null ||
    { echo "symmetry_verify: $(jq -c .symmetry_verify lost_update.2.json)"; return 1; }
}
if why=$(t_verify); then pass "symmetry-verify"; else fail symmetry-verify "$why"; fi

# ---------------------------------------------------------------------------
# Liveness (filter.mc has a property under weak fairness).

t_liveness() {
  mpi 2 ./filter_m --symmetry off >live2.out 2>&1
  local rc=$?
  [ "$rc" -eq 2 ] || { echo "2 ranks: exit $rc, expected 2"; return 1; }
  grep -q 'liveness properties are not checked on several MPI ranks.*without mpirun.*--liveness off' live2.out ||
    { echo "2 ranks: message: $(head -c 300 live2.out)"; return 1; }
  ./filter_s --symmetry off --report live_s.json >/dev/null 2>&1
  mpi 1 ./filter_m --symmetry off --report live1.json >/dev/null 2>&1
  ./filter_m --symmetry off --report live0.json >/dev/null 2>&1 # no mpirun: one rank
  local f
  # (one thread: the serial search checks it, as a rank is one thread
  # unless --threads says otherwise)
  for f in live1.json live0.json; do
    jq -e --slurpfile s live_s.json '.liveness.status == "ok" and .liveness.status == $s[0].liveness.status and
      .states == $s[0].states and .threads == 1' "$f" >/dev/null ||
      { echo "$f: $(jq -c '{states, liveness, threads}' "$f")"; return 1; }
  done
}
if why=$(t_liveness); then pass "liveness (refused on 2 ranks, checked on one)"; else fail liveness "$why"; fi

# A place/transition net's answers are gathered in one process: refused on
# 2 ranks (exit 2), the serial checker's on one.
t_net() {
  local net=$root/tests/pnml/nets/cycle.pnml
  [ -f "$net" ] || { echo "no $net"; return 1; }
  build cycle "$net" || { echo "mcgen: $(head -c 300 cycle.mcgen)"; return 1; }
  mpi 2 ./cycle_m --liveness off >net2.out 2>&1
  local rc=$?
  [ "$rc" -eq 2 ] && grep -q "place/transition net.*one rank" net2.out ||
    { echo "2 ranks: exit $rc: $(head -c 300 net2.out)"; return 1; }
  ./cycle_s --liveness off --report net_s.json >/dev/null 2>&1
  mpi 1 ./cycle_m --liveness off --report net1.json >/dev/null 2>&1
  jq -S "$summary" net_s.json >net_s.sum && jq -S "$summary" net1.json >net1.sum &&
    cmp -s net_s.sum net1.sum || { echo "1 rank: $(diff net_s.sum net1.sum | tr '\n' ' ')"; return 1; }
}
if why=$(t_net); then pass "pnml (refused on 2 ranks, as serially on one)"; else fail pnml "$why"; fi

# ---------------------------------------------------------------------------
# Signals: cli/specs/big.mc (10^8 states) on 2 ranks, each waiting at its
# first round (MCRT_TEST_PAUSE) until SIGINT reaches it, as a scheduler or
# Ctrl-C in a terminal delivers it to every rank.

# Sends SIGINT to the ranks (pids $1), waits for mpirun ($bg_pid) and checks
# the partial result of $2.json: exit 3, interrupted by SIGINT, at least $3
# states.
sigint_ranks() {
  local ranks=$1 name=$2 states=$3
  # shellcheck disable=SC2086 # the ranks' pids
  kill -INT $ranks
  wait "$bg_pid"
  local rc=$?
  bg_pid=
  [ "$rc" -eq 3 ] || { echo "mpirun exit $rc, expected 3 ($(head -c 300 "$name.err"))"; return 1; }
  jq -e --argjson n "$states" '.bound_hit == "interrupted" and .signal == "SIGINT" and
      .exit_code == 3 and .states >= $n' "$name.json" >/dev/null ||
    { echo "report: $(jq -c '{bound_hit, signal, exit_code, states}' "$name.json" 2>&1)"; return 1; }
}

t_signal() {
  "$mcgen" --mpi -o big_m "$root/tests/cli/specs/big.mc" >big.mcgen 2>&1 || { echo "mcgen failed"; return 1; }
  MCRT_TEST_PAUSE=search mpirun --oversubscribe -x MCRT_TEST_PAUSE -np 2 ./big_m --report big.json >big.out 2>big.err &
  bg_pid=$!
  local i ranks=
  for i in $(seq 1 200); do
    [ "$(grep -c 'mcrt-test-pause: search' big.err)" -ge 2 ] && ranks=$(pgrep -P "$bg_pid" -x big_m | tr '\n' ' ')
    [ "$(echo "$ranks" | wc -w)" -eq 2 ] && break
    sleep 0.1
  done
  if [ -z "$ranks" ]; then
    kill -TERM "$bg_pid"; wait "$bg_pid"
    echo "the ranks never paused: $(head -c 300 big.err)"
    return 1
  fi
  sleep 0.5
  sigint_ranks "$ranks" big 1 || return 1
  grep -q '^result: incomplete: the search was interrupted by SIGINT' big.out ||
    { echo "summary: $(head -1 big.out)"; return 1; }
}
# (Not in a subshell: the exit trap must see bg_pid.)
if t_signal >sigint.why; then pass "sigint (partial report, exit 3)"; else fail sigint "$(cat sigint.why)"; fi

# A signal that reaches a rank while MPI_Init runs (up to a second, before
# the run installs its handlers) waits, blocked, until the run takes it: a
# partial report and exit 3, not a rank killed without one. The test sends
# SIGTERM to rank processes as soon as /proc says they block it and have no
# handler yet; if the ranks got past MPI_Init first, the signal falls in
# the search, which must end the same way (the PASS line says which).
t_early_signal() {
  rm -f early.json
  mpirun --oversubscribe -np 2 ./big_m --report early.json >early.out 2>early.err &
  bg_pid=$!
  local i p blk cgt sent= early=0
  for i in $(seq 1 400); do
    for p in $(pgrep -P "$bg_pid" -x big_m); do
      case " $sent " in *" $p "*) continue ;; esac
      blk=$(awk '/^SigBlk:/ {print $2}' "/proc/$p/status" 2>/dev/null) || continue
      cgt=$(awk '/^SigCgt:/ {print $2}' "/proc/$p/status" 2>/dev/null) || continue
      [ -n "$blk" ] && [ -n "$cgt" ] || continue
      if (((0x$cgt >> 14) & 1)); then # SIGTERM (15) caught: the run's handlers
        :
      elif (((0x$blk >> 14) & 1)); then # blocked: main() has run, MPI_Init has not returned
        early=$((early + 1))
      else
        continue # not yet in main()
      fi
      kill -TERM "$p" && sent="$sent $p"
    done
    [ "$(echo "$sent" | wc -w)" -ge 2 ] && break
    sleep 0.005
  done
  wait "$bg_pid"
  local rc=$?
  bg_pid=
  [ "$(echo "$sent" | wc -w)" -ge 2 ] || { echo "never saw the two ranks block SIGTERM"; return 1; }
  [ "$rc" -eq 3 ] || { echo "mpirun exit $rc, expected 3 ($(head -c 300 early.err))"; return 1; }
  jq -e '.bound_hit == "interrupted" and .signal == "SIGTERM" and .exit_code == 3' early.json >/dev/null ||
    { echo "report: $(jq -c '{bound_hit, signal, exit_code, states}' early.json 2>&1)"; return 1; }
  echo "$early of 2 ranks signalled before their handlers were installed"
}
if t_early_signal >early.why; then pass "early signal ($(cat early.why))"; else fail early-signal "$(cat early.why)"; fi

# ---------------------------------------------------------------------------
# Signals sent to mpirun, as `timeout`, a scheduler or Ctrl-C on mpirun send
# them: Open MPI forwards SIGTERM to every rank a second later and SIGKILLs
# them odls_base_sigkill_timeout (1 s) after that. On tests/mpi/specs/wide.mc
# (wide levels: rounds end mid-level) at several delays into the search,
# each run must give
# rank 0's partial report, with as many states as the ranks' sets hold, and
# end before the SIGKILL: mpirun gone less than 1.9 s after the signal, so
# the ranks exited (3) by themselves. mpirun's own exit code is Open MPI's
# (1 when it was signalled).

t_signal_mpirun() {
  "$mcgen" --mpi -o wide_m "$root/tests/mpi/specs/wide.mc" >wide.mcgen 2>&1 ||
    { echo "mcgen: $(head -c 300 wide.mcgen)"; return 1; }
  local sig delay t0 t1 ms
  for sig in TERM INT; do
    for delay in 0 0.4 1.5; do
      rm -f wide.json
      : >wide.err # no progress line of the previous run
      timeout 60 mpirun --oversubscribe -np 2 ./wide_m --progress 0.1 --report wide.json \
        >wide.out 2>wide.err &
      bg_pid=$!
      local i # the delay runs from the first progress line: the search has begun
      for i in $(seq 1 300); do
        grep -q '^progress:' wide.err && break
        sleep 0.05
      done
      sleep "$delay"
      # mpirun itself, not timeout(1), which would also signal the whole
      # process group: mpirun takes a second signal as "abort now".
      t0=$(date +%s%N)
      kill -"$sig" "$(pgrep -P "$bg_pid" -x mpirun)"
      wait "$bg_pid"
      t1=$(date +%s%N)
      bg_pid=
      ms=$(((t1 - t0) / 1000000))
      local at="SIG$sig after $delay s"
      [ "$ms" -lt 1900 ] ||
        { echo "$at: mpirun took $ms ms: the ranks were killed ($(head -c 200 wide.err))"; return 1; }
      jq -e '.bound_hit == "interrupted" and .exit_code == 3 and .states > 0 and
             (.signal == "SIGTERM" or .signal == "SIGINT") and
             ([.mpi.per_rank[].states] | add) == .states' wide.json >/dev/null ||
        { echo "$at: report: $(jq -c '{bound_hit, signal, exit_code, states, r: .mpi.per_rank}' \
            wide.json 2>&1 | head -c 300)"; return 1; }
      grep -q '^result: incomplete: the search was interrupted by SIG' wide.out ||
        { echo "$at: summary: $(head -1 wide.out)"; return 1; }
    done
  done
}
if t_signal_mpirun >sigmpirun.why; then
  pass "signals to mpirun (partial report, ranks exit 3 before the SIGKILL)"
else
  fail sigmpirun "$(cat sigmpirun.why)"
fi

# ---------------------------------------------------------------------------
# A call of C that never returns (cli/specs/hang.mc: next(3) loops for
# ever). With --extern-timeout, on 2 ranks and on 2 ranks of 2 threads, the
# search ends with the run-time error naming the call and its trace of 4
# steps (hand count in hang.mc), as serially (tests/cli). Without a limit,
# SIGINT to every rank while the call runs (the ranks have used 0.5 s of
# CPU between them, which only the call takes) ends the run in order: a
# partial report, exit 3 from mpirun.

t_extern_timeout() {
  "$mcgen" --mpi -o hang_m "$root/tests/cli/specs/hang.mc" >hang.mcgen 2>&1 ||
    { echo "mcgen: $(head -c 300 hang.mcgen)"; return 1; }
  local args rc
  for args in "" "--threads 2"; do
    # shellcheck disable=SC2086 # ARGS is a word list
    mpi 2 ./hang_m $args --por off --extern-timeout 0.5 --report hang.json >hang.out 2>hang.err
    rc=$?
    [ "$rc" -eq 1 ] || { echo "-np 2 $args: exit $rc, expected 1 ($(head -c 300 hang.err))"; return 1; }
    grep -q "^result: violation: run-time error: extern fn 'next' did not return within 0.5 s (--extern-timeout): next(x = 3)" hang.out ||
      { echo "-np 2 $args: summary: $(grep -m1 '^result' hang.out)"; return 1; }
    jq -e '.violations[0].kind == "runtime-error" and (.violations[0].trace | length) == 5' hang.json >/dev/null ||
      { echo "-np 2 $args: report: $(jq -c '.violations[0] | {kind, n: (.trace | length)}' hang.json 2>&1)"; return 1; }
  done
}
if why=$(t_extern_timeout); then pass "extern call past --extern-timeout (2 ranks, 2 ranks of 2 threads)"; else fail extern-timeout "$why"; fi

# The CPU time, in clock ticks, of the processes whose pids are given.
cpu_ticks() {
  local p n=0
  for p; do n=$((n + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0))); done
  echo "$n"
}

t_extern_signal() {
  [ -x hang_m ] || { echo "no hang_m (see extern-timeout)"; return 1; }
  mpirun --oversubscribe -np 2 ./hang_m --por off --extern-timeout 0 --report hang_s.json \
    >hang_s.out 2>hang_s.err &
  bg_pid=$!
  local i ranks= hz
  hz=$(getconf CLK_TCK)
  for i in $(seq 1 200); do
    ranks=$(pgrep -P "$bg_pid" -x hang_m | tr '\n' ' ')
    # shellcheck disable=SC2086 # two pids
    [ "$(echo "$ranks" | wc -w)" -eq 2 ] && [ "$(cpu_ticks $ranks)" -ge $((hz / 2)) ] && break
    ranks=
    sleep 0.05
  done
  if [ -z "$ranks" ]; then
    kill -TERM "$bg_pid"; wait "$bg_pid"
    bg_pid=
    echo "the ranks never got inside the call: $(head -c 300 hang_s.err)"
    return 1
  fi
  sigint_ranks "$ranks" hang_s 4
}
# (Not in a subshell: the exit trap must see bg_pid.)
if t_extern_signal >extsig.why; then
  pass "SIGINT during a call of C (partial report, exit 3)"
else
  fail extern-signal "$(cat extsig.why)"
fi

# ---------------------------------------------------------------------------
# Shipping: nothing from the build tree, and only libc, libm and libmpi as
# direct dependencies (a cluster node needs Open MPI's runtime, nothing else).

t_ldd() {
  local l deps
  deps=$(ldd ./peterson_m) || { echo "ldd failed"; return 1; }
  if grep -F -e "$root" -e "$build_dir" <<<"$deps"; then
    echo "ldd lists the build tree"; return 1
  fi
  grep -q 'libmpi\.so' <<<"$deps" || { echo "ldd: no libmpi: $(tr '\n' ' ' <<<"$deps")"; return 1; }
  for l in $(objdump -p ./peterson_m | awk '$1 == "NEEDED" {print $2}'); do
    case $l in libc.so.* | libm.so.* | libmpi.so.*) ;; *) echo "needs $l"; return 1 ;; esac
  done
}
if why=$(t_ldd); then pass "ldd (libc, libm, libmpi only)"; else fail ldd "$why"; fi

finish
