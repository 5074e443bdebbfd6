#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# End-to-end runner: compile every spec with mcgen, run its checker, and check
# what the spec's header comment says it must do (docs/STYLE.md rule 11).
#
# Usage: tests/e2e/run_specs.sh [BUILD_DIR] [SPEC.mc...]
#   BUILD_DIR  where mcgen was built (default: build, from the repo root)
#   SPEC       specs to run (default: specs/*.mc, tests/e2e/specs/*.mc and the
#              DVE models tests/dve/*.dve, whose directives are the same)
# Environment:
#   MCGEN_CFLAGS       C flags for the generated checker
#                      (default: -O2 -std=c11 -Wall -Wextra -Werror)
#   MCGEN_TEST_CFLAGS  appended to them, e.g. -fsanitize=address,undefined
#   MCGEN_TIMEOUT      seconds allowed per checker run (default 300)
#
# Directives, one per line in the spec's header comment:
#   // MCGEN-ARGS: -D N=3          mcgen options
#   // RUN-ARGS: --no-deadlock     checker options; --order fixed is added
#                                  unless EXPECT-EXIT is 0 (the counts and
#                                  trace at a stop are the serial search's)
#   // EXPECT-EXIT: 0              checker exit code (0 ok, 1 violation, 3 incomplete)
#   // EXPECT-STATES: 142          from the JSON report
#   // EXPECT-TRANSITIONS: 249
#   // EXPECT-OUTPUT: text         substring of the checker's stdout (repeatable)
#   // EXPECT-TRACE-STEPS: 5       steps of the first violation's trace
#   // EXPECT-LOOP-START: 3        its loop_start (liveness lasso; null: none)
#   // EXPECT-JQ: PROGRAM          a jq program that prints true on the report
#   // ORACLE: filter.m            Murphi twin in tests/oracle/
#   // ORACLE-RUN-ARGS: ...        checker options for the oracle comparison
#                                  (default: RUN-ARGS)
#   // ORACLE-MCGEN-ARGS: ...      mcgen options added for the oracle comparison
#   // SYMMETRY-CHECK-MCGEN-ARGS: -D N=4  mcgen options added for the symmetry
#                                  checks below (a size where the unreduced
#                                  run and all N! permutations are cheap)
#   // ORACLE-VARIANT: S | M | R   another comparison: mcgen options M, checker
#                                  options R against NAME.S.rumur.txt
# The twin's own header gives Rumur's arguments (`-- RUMUR-ARGS:`) and, for a
# spec that fails on purpose, those of the violating run
# (`-- RUMUR-VIOLATION-ARGS:`, `-- RUMUR-VIOLATION-SED:`); Rumur's output is
# recorded in tests/oracle/NAME.rumur.txt (NAME.violation.rumur.txt,
# NAME.symmetry.rumur.txt for `-- RUMUR-SYMMETRY-ARGS:`), see
# tests/oracle/README.md and tests/oracle/record.sh.
#
# Checks, one output line each:
#   - the spec compiles, the checker exits as expected, the report's counts,
#     output and trace length are as expected;
#   - bound oracle: for each N of the twin's `-- RUMUR-BOUNDS:` header,
#     mcgen's counts under --max-depth N equal Rumur's under --bound N
#     (recorded in NAME.bound-N.rumur.txt);
#   - oracle: mcgen's full-graph counts (under ORACLE-RUN-ARGS and
#     ORACLE-MCGEN-ARGS, or the main run's if there are none) equal Rumur's
#     recorded "N states, M rules fired", and both agree on the verdict;
#     when the main run is the oracle run, EXPECT-STATES/-TRANSITIONS must
#     also equal Rumur's (expectations come from the oracle, not from mcgen);
#   - symmetry oracle: when the twin has `-- RUMUR-SYMMETRY-ARGS:` (Rumur's
#     exhaustive symmetry reduction, one state per class), mcgen with the
#     oracle run's arguments but --symmetry on must give the counts recorded
#     in NAME.symmetry.rumur.txt (a SKIP while the checker answers that
#     --symmetry on is not implemented);
#   - violation oracle: Rumur's recorded violating run and mcgen's main run
#     agree on the verdict and on the length of the (BFS-shortest) trace;
#   - symmetry: `--symmetry verify` agrees and exits as the unreduced run;
#     the exhaustive and sorted canonical forms give the same counts;
#   - live: when rumur is installed, the twin is rerun and its counts must
#     equal the recorded ones (otherwise a loud SKIP).
# The last line is exactly `N passed, N failed` (plus `, N skipped`); the exit
# status is non-zero if anything failed.
set -uo pipefail   # no -e: a failing check is counted, not fatal

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/e2e/lib.sh
. "$root/tests/e2e/lib.sh"
oracle_dir=$root/tests/oracle
take_build_dir "${1:-}" '*.mc' '*.dve' && shift

if ! cases_given specs "$@"; then
  shopt -s nullglob
  specs=("$root"/specs/*.mc "$root"/tests/e2e/specs/*.mc "$root"/tests/dve/*.dve)
  shopt -u nullglob
fi

# rumur_counts FILE: "STATES RULES" from a verifier's output, or nothing.
rumur_counts() {
  sed -n 's/^[[:space:]]*\([0-9][0-9]*\) states, \([0-9][0-9]*\) rules fired.*/\1 \2/p' "$1" | tail -n 1
}
# rumur_verdict FILE: ok or violation.
rumur_verdict() {
  if grep -q 'No error found' "$1"; then echo ok; else echo violation; fi
}
# rumur_trace_steps FILE: rules fired in the printed counterexample.
rumur_trace_steps() {
  sed -n '/error trace for the error/,/End of the error trace/p' "$1" | grep -c '^Rule .* fired\.$'
}

have_rumur=0
if command -v rumur >/dev/null 2>&1; then
  have_rumur=1
else
  echo "SKIP live rumur (not installed): comparing with the recorded Rumur outputs only"
fi

make_work e2e
tmp_root=$work

# live_rumur NAME SRC ARGS OUT: build and run a Rumur verifier, output in OUT.
live_rumur() {
  local name=$1 src=$2 args=$3 out=$4 dir
  dir=$(mktemp -d "$tmp_root/rumur.XXXX")
  # shellcheck disable=SC2086  # ARGS is a word list by design
  if ! rumur $args --output "$dir/v.c" "$src" >"$dir/gen.log" 2>&1; then
    fail "$name" "live rumur: rumur rejected $(basename "$src"): $(head -n 3 "$dir/gen.log" | tr '\n' ' ')"
    return 1
  fi
  if ! cc -O2 "$dir/v.c" -o "$dir/v" -lpthread >"$dir/cc.log" 2>&1; then
    fail "$name" "live rumur: cc failed on the verifier of $(basename "$src")"
    return 1
  fi
  timeout "$time_limit" "$dir/v" >"$out" 2>/dev/null
  return 0
}

# check_symmetry NAME BIN WORK RUN_ARGS: under the spec's own arguments,
#   - `--symmetry verify` (safety only: --liveness off) says the verdicts
#     with and without the reduction agree (or, when the run without it
#     stops at a bound, that they are not compared), and exits as the run
#     without it;
#   - the exhaustive canonicaliser (all N! permutations, the reference) and
#     the sorted one find the same number of states and transitions.
check_symmetry() {
  local name=$1 bin=$2 work=$3 args d v_rc u_rc
  args=$(echo " $4 " | sed 's/ --symmetry  *[a-z]* / /g; s/^  *//; s/  *$//')
  args="${args:+$args }--liveness off"
  d=$work/verify
  mkdir -p "$d"
  u_rc=$(run_checker "$bin" "$d" "$args --symmetry off")
  v_rc=$(run_checker "$bin" "$d" "$args --symmetry verify")
  if grep -q '^symmetry verify: the verdicts agree' "$d/out.txt"; then
    pass "$name" "--symmetry verify: the verdicts agree"
  elif [ "$u_rc" = 3 ] && grep -q '^symmetry verify: not compared, .* stopped early' "$d/out.txt"; then
    pass "$name" "--symmetry verify: not compared (a run stopped at a bound)"
  else
    fail "$name" "--symmetry verify [$args]: $(grep -m 1 '^symmetry verify' "$d/out.txt" || excerpt_file "$d/err.txt")"
  fi
  check_eq "$name" "--symmetry verify exit (= without reduction)" "$u_rc" "$v_rc"
  [ "$(jq_field "$d/r.json" .symmetry)" = on ] || return 0 # no scalarset in the state
  local e_rc s_rc
  e_rc=$(run_checker "$bin" "$d" "$args --symmetry on --symmetry-method exhaustive")
  if [ "$e_rc" = 2 ] && grep -q 'too many to enumerate' "$d/err.txt"; then
    skip "$name" "symmetry methods: $(head -n 1 "$d/err.txt")"
    return 0
  fi
  local e_counts
  e_counts="$e_rc $(jq_field "$d/r.json" '"\(.states) \(.transitions)"')"
  s_rc=$(run_checker "$bin" "$d" "$args --symmetry on --symmetry-method sorted")
  check_eq "$name" "symmetry methods: exit, states, transitions (exhaustive vs sorted)" \
    "$e_counts" "$s_rc $(jq_field "$d/r.json" '"\(.states) \(.transitions)"')"
}
excerpt_file() { head -c 300 "$1" | tr '\n' ' '; }

for spec in "${specs[@]}"; do
  name=$(basename "$spec" | sed 's/\.\(mc\|dve\)$//')
  if [ ! -f "$spec" ]; then fail "$name" "no such spec $spec"; continue; fi
  work=$(mktemp -d "$tmp_root/$name.XXXX")

  margs=$(first_directive "$spec" MCGEN-ARGS)
  rargs=$(first_directive "$spec" RUN-ARGS)
  exp_exit=$(first_directive "$spec" EXPECT-EXIT)
  exp_states=$(first_directive "$spec" EXPECT-STATES)
  exp_trans=$(first_directive "$spec" EXPECT-TRANSITIONS)
  exp_steps=$(first_directive "$spec" EXPECT-TRACE-STEPS)
  exp_loop=$(first_directive "$spec" EXPECT-LOOP-START)
  oracle=$(first_directive "$spec" ORACLE)
  o_rargs=$(first_directive "$spec" ORACLE-RUN-ARGS)
  o_margs=$(first_directive "$spec" ORACLE-MCGEN-ARGS)
  # A run expected to stop (a violation, a bound) is checked against the
  # serial search's counts and trace, which at more than one thread (the
  # default: the cores online) only --order fixed promises; an exhaustive
  # run keeps the default order, whose counts are the same.
  if [ "$exp_exit" != 0 ] && [[ " $rargs " != *" --order "* ]]; then
    rargs="${rargs:+$rargs }--order fixed"
  fi
  separate_oracle_run=0
  if grep -q '^//[[:space:]]*ORACLE-RUN-ARGS:' "$spec"; then
    separate_oracle_run=1
  else
    o_rargs=$rargs          # default: the checker arguments of the main run
  fi
  [ -n "$o_margs" ] && separate_oracle_run=1

  # --- the spec's own expectations -------------------------------------------
  main_ok=0
  if [ ! -x "$mcgen" ]; then
    fail "$name" "compile: $mcgen not found (build it with make)"
  elif ! bin=$(build_checker "$work/main" "$spec" "$margs"); then
    fail "$name" "compile: mcgen${margs:+ $margs} failed: $(log_errors "$work/main/mcgen.log")"
  else
    pass "$name" "compile"
    main_ok=1
    rc=$(run_checker "$bin" "$work/main" "$rargs")
    report=$work/main/r.json
    [ -n "$exp_exit" ] && check_eq "$name" "exit" "$exp_exit" "$rc"
    [ -n "$exp_states" ] && check_eq "$name" "states" "$exp_states" "$(jq_field "$report" .states)"
    [ -n "$exp_trans" ] && check_eq "$name" "transitions" "$exp_trans" "$(jq_field "$report" .transitions)"
    [ -n "$exp_steps" ] && check_eq "$name" "trace steps" "$exp_steps" \
      "$(jq_field "$report" '.violations[0].trace | length - 1')"
    [ -n "$exp_loop" ] && check_eq "$name" "loop start" "$exp_loop" \
      "$(jq_field "$report" '.violations[0].loop_start')"
    while IFS= read -r want; do
      [ -z "$want" ] && continue
      if grep -qF -- "$want" "$work/main/out.txt"; then
        pass "$name" "output contains \"$want\""
      else
        fail "$name" "output expected to contain \"$want\" got: $(head -c 300 "$work/main/out.txt" | tr '\n' ' ')"
      fi
    done < <(directive "$spec" EXPECT-OUTPUT)
    while IFS= read -r want; do
      [ -z "$want" ] && continue
      if [ "$(jq -r "$want" "$report" 2>&1)" = true ]; then
        pass "$name" "report satisfies $want"
      else
        fail "$name" "report does not satisfy $want: $(jq -c "$want" "$report" 2>&1 | head -c 200)"
      fi
    done < <(directive "$spec" EXPECT-JQ)
    sym_margs=$(first_directive "$spec" SYMMETRY-CHECK-MCGEN-ARGS)
    if [ -z "$sym_margs" ]; then
      check_symmetry "$name" "$bin" "$work" "$rargs"
    elif sbin=$(build_checker "$work/symcheck" "$spec" "$margs $sym_margs"); then
      check_symmetry "$name" "$sbin" "$work/symcheck" "$rargs"
    else
      fail "$name" "symmetry checks: mcgen $margs $sym_margs failed: $(log_errors "$work/symcheck/mcgen.log")"
    fi
  fi

  [ -z "$oracle" ] && continue

  # --- oracle: Rumur's recorded full-graph counts ------------------------------
  twin=$oracle_dir/$oracle
  tbase=${oracle%.m}
  recorded=$oracle_dir/$tbase.rumur.txt
  if [ ! -f "$twin" ] || [ ! -f "$recorded" ]; then
    fail "$name" "oracle: $twin or its recording $recorded is missing"
    continue
  fi
  read -r r_states r_rules <<<"$(rumur_counts "$recorded")"
  if [ -z "${r_rules:-}" ]; then
    fail "$name" "oracle: no \"N states, M rules fired\" line in $recorded"
    continue
  fi
  r_verdict=$(rumur_verdict "$recorded")

  if [ "$separate_oracle_run" -eq 0 ]; then
    # The main run is the oracle run: its expectations must be Rumur's.
    [ -n "$exp_states" ] && check_eq "$name" "EXPECT-STATES vs rumur" "$r_states" "$exp_states"
    [ -n "$exp_trans" ] && check_eq "$name" "EXPECT-TRANSITIONS vs rumur" "$r_rules" "$exp_trans"
  fi

  o_ok=0
  obin=
  if [ "$main_ok" -eq 1 ]; then
    odir=$work/main
    o_ok=1
    if [ "$separate_oracle_run" -eq 1 ]; then
      odir=$work/oracle
      if [ -n "$o_margs" ]; then
        if ! obin=$(build_checker "$odir" "$spec" "$margs $o_margs"); then
          fail "$name" "oracle: mcgen${margs:+ $margs} $o_margs failed: $(log_errors "$odir/mcgen.log")"
          o_ok=0
        fi
      else
        mkdir -p "$odir"
        obin=$bin
      fi
      [ "$o_ok" -eq 1 ] && o_rc=$(run_checker "$obin" "$odir" "$o_rargs")
    else
      o_rc=$rc
    fi
    if [ "$o_ok" -eq 1 ]; then
      m_verdict=violation
      [ "$o_rc" = 0 ] && m_verdict=ok
      how="mcgen${margs:+ $margs}${o_margs:+ $o_margs}, checker args [$o_rargs]"
      [ "$separate_oracle_run" -eq 0 ] && how="mcgen${margs:+ $margs}, checker args [$rargs]"
      check_eq "$name" "oracle verdict (rumur $tbase.rumur.txt vs $how)" "$r_verdict" "$m_verdict"
      check_eq "$name" "oracle states (rumur vs mcgen)" "$r_states" "$(jq_field "$odir/r.json" .states)"
      check_eq "$name" "oracle transitions (rumur rules fired vs mcgen)" "$r_rules" "$(jq_field "$odir/r.json" .transitions)"
    fi
  fi

  # --- symmetry oracle: Rumur's exhaustive symmetry reduction ----------------
  # One state per symmetry class in both, so the same counts again, with
  # mcgen's reduction on (the oracle run's arguments, --symmetry on).
  s_args=$(first_directive "$twin" RUMUR-SYMMETRY-ARGS)
  s_recorded=$oracle_dir/$tbase.symmetry.rumur.txt
  if [ -n "$s_args" ]; then
    if [ ! -f "$s_recorded" ]; then
      fail "$name" "symmetry oracle: recording $s_recorded is missing"
    elif [ "$main_ok" -eq 1 ] && [ "$o_ok" -eq 1 ]; then
      read -r s_states s_rules <<<"$(rumur_counts "$s_recorded")"
      s_rargs=$(echo " $o_rargs " | sed 's/ --symmetry  *[a-z]* / /g; s/^  *//; s/  *$//')
      s_rargs="${s_rargs:+$s_rargs }--symmetry on --liveness off" # Rumur checks safety only
      sdir=$work/symmetry
      mkdir -p "$sdir"
      s_rc=$(run_checker "${obin:-$bin}" "$sdir" "$s_rargs")
      if [ "$s_rc" = 2 ] && grep -q 'not implemented' "$sdir/err.txt"; then
        skip "$name" "symmetry oracle: the checker says: $(grep -m 1 'not implemented' "$sdir/err.txt")"
      else
        s_verdict=violation
        [ "$s_rc" = 0 ] && s_verdict=ok
        check_eq "$name" "symmetry oracle verdict (rumur $tbase.symmetry.rumur.txt vs checker args [$s_rargs])" \
          "$(rumur_verdict "$s_recorded")" "$s_verdict"
        check_eq "$name" "symmetry oracle states (rumur exhaustive vs mcgen --symmetry on)" \
          "$s_states" "$(jq_field "$sdir/r.json" .states)"
        check_eq "$name" "symmetry oracle transitions (rumur exhaustive vs mcgen --symmetry on)" \
          "$s_rules" "$(jq_field "$sdir/r.json" .transitions)"
      fi
    fi
  fi

  # --- variant oracles: other constants or options (ORACLE-VARIANT) ---------
  # `// ORACLE-VARIANT: SUFFIX | MCGEN-ARGS | RUN-ARGS`: mcgen with MCGEN-ARGS
  # (added to MCGEN-ARGS), run with RUN-ARGS, must give the counts and verdict
  # of the twin's variant run recorded in NAME.SUFFIX.rumur.txt
  # (`-- RUMUR-VARIANT: SUFFIX | SED | ARGS`, tests/oracle/record.sh).
  while IFS='|' read -r v_suffix v_margs v_rargs; do
    v_suffix=$(echo "$v_suffix" | tr -d ' ')
    [ -n "$v_suffix" ] || continue
    v_rec=$oracle_dir/$tbase.$v_suffix.rumur.txt
    if [ ! -f "$v_rec" ]; then
      fail "$name" "variant oracle $v_suffix: recording $v_rec is missing"
      continue
    fi
    vdir=$work/variant-$v_suffix
    if ! vbin=$(build_checker "$vdir" "$spec" "$margs $v_margs"); then
      fail "$name" "variant oracle $v_suffix: mcgen $margs $v_margs failed: $(log_errors "$vdir/mcgen.log")"
      continue
    fi
    v_rc=$(run_checker "$vbin" "$vdir" "$v_rargs")
    v_verdict=violation
    [ "$v_rc" = 0 ] && v_verdict=ok
    read -r vr_states vr_rules <<<"$(rumur_counts "$v_rec")"
    check_eq "$name" "variant oracle $v_suffix [mcgen$v_margs, args$v_rargs]: verdict, states, transitions" \
      "$(rumur_verdict "$v_rec") $vr_states $vr_rules" \
      "$v_verdict $(jq_field "$vdir/r.json" '"\(.states) \(.transitions)"')"
  done < <(directive "$spec" ORACLE-VARIANT)

  # --- depth-bound oracle: Rumur's --bound N against mcgen's --max-depth N ----
  # Both explore the states within N steps and expand none at depth N, so
  # states and transitions agree (the verdicts need not: a bound hides things).
  for b in $(first_directive "$twin" RUMUR-BOUNDS); do
    b_recorded=$oracle_dir/$tbase.bound-$b.rumur.txt
    if [ ! -f "$b_recorded" ]; then
      fail "$name" "bound oracle: recording $b_recorded is missing"
      continue
    fi
    [ "$main_ok" -eq 1 ] && [ "$o_ok" -eq 1 ] || continue
    bdir=$work/bound-$b
    mkdir -p "$bdir"
    run_checker "${obin:-$bin}" "$bdir" "$o_rargs --max-depth $b" >/dev/null
    read -r b_states b_rules <<<"$(rumur_counts "$b_recorded")"
    check_eq "$name" "bound oracle states (rumur --bound $b vs mcgen --max-depth $b)" \
      "$b_states" "$(jq_field "$bdir/r.json" .states)"
    check_eq "$name" "bound oracle transitions (rumur --bound $b vs mcgen --max-depth $b)" \
      "$b_rules" "$(jq_field "$bdir/r.json" .transitions)"
  done

  # --- violation oracle: verdict and trace length -----------------------------
  v_args=$(first_directive "$twin" RUMUR-VIOLATION-ARGS)
  v_recorded=$oracle_dir/$tbase.violation.rumur.txt
  if [ -n "$v_args" ]; then
    if [ ! -f "$v_recorded" ]; then
      fail "$name" "violation oracle: recording $v_recorded is missing"
    else
      v_steps=$(rumur_trace_steps "$v_recorded")
      check_eq "$name" "violation oracle: rumur verdict" violation "$(rumur_verdict "$v_recorded")"
      [ -n "$exp_steps" ] && check_eq "$name" "EXPECT-TRACE-STEPS vs rumur" "$v_steps" "$exp_steps"
      if [ "$main_ok" -eq 1 ]; then
        check_eq "$name" "violation oracle: mcgen exit" 1 "$rc"
        check_eq "$name" "violation oracle: trace steps (rumur vs mcgen)" "$v_steps" \
          "$(jq_field "$work/main/r.json" '.violations[0].trace | length - 1')"
      fi
    fi
  fi

  # --- live rumur ------------------------------------------------------------
  if [ "$have_rumur" -eq 0 ]; then
    skip "$name" "live rumur (not installed): only the recorded $tbase.rumur.txt was compared"
    continue
  fi
  if live_rumur "$name" "$twin" "$(first_directive "$twin" RUMUR-ARGS)" "$work/live.txt"; then
    check_eq "$name" "live rumur counts = recorded" "$r_states $r_rules" "$(rumur_counts "$work/live.txt")"
  fi
  if [ -n "$s_args" ] && [ -f "$s_recorded" ] &&
     live_rumur "$name" "$twin" "$s_args" "$work/live_s.txt"; then
    check_eq "$name" "live rumur symmetry counts = recorded" \
      "$(rumur_counts "$s_recorded")" "$(rumur_counts "$work/live_s.txt")"
  fi
  for b in $(first_directive "$twin" RUMUR-BOUNDS); do
    b_recorded=$oracle_dir/$tbase.bound-$b.rumur.txt
    [ -f "$b_recorded" ] || continue
    if live_rumur "$name" "$twin" "$(first_directive "$twin" RUMUR-ARGS) --bound $b" "$work/live_b.txt"; then
      check_eq "$name" "live rumur --bound $b counts = recorded" \
        "$(rumur_counts "$b_recorded")" "$(rumur_counts "$work/live_b.txt")"
    fi
  done
  if [ -n "$v_args" ] && [ -f "$v_recorded" ]; then
    sedexpr=$(first_directive "$twin" RUMUR-VIOLATION-SED)
    sed -e "${sedexpr:-p;d}" "$twin" >"$work/$oracle"
    if live_rumur "$name" "$work/$oracle" "$v_args" "$work/live_v.txt"; then
      check_eq "$name" "live rumur violation (counts, trace steps) = recorded" \
        "$(rumur_counts "$v_recorded") $(rumur_trace_steps "$v_recorded")" \
        "$(rumur_counts "$work/live_v.txt") $(rumur_trace_steps "$work/live_v.txt")"
    fi
  fi
done

finish
