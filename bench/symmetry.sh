#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/symmetry.sh: mcgen's exact symmetry reduction against Rumur's two
# symmetry reductions, on the same models, in one run (bench/run.sh calls it
# after its own table; it also runs alone).
#
# Models (each an mcgen spec and its Murphi twin, the twin's constant set by
# sed to the size below):
#   german    specs/german.mc -D N=5     / tests/oracle/german.m, N: 5
#   peterson  specs/peterson.mc (N=7)    / tests/oracle/peterson.m, N: 7
# Runs, single-threaded (Rumur's verifiers built as Rumur documents it:
# RUMUR_CFLAGS and RUMUR_ARGS in bench/lib.sh; mcgen's checker with its
# default flags):
#   mcgen     --symmetry on (exact canonical forms, the automatic method)
#   rumur     --symmetry-reduction exhaustive (exact: all N! permutations)
#   rumur     --symmetry-reduction heuristic (not exact: may keep several
#             states of a class, so its count may be larger)
# mcgen and Rumur heuristic run --repeat N times (default 3), the run with
# the least CPU time (user + sys) kept; Rumur exhaustive runs once. A run
# still going after --timeout CPU seconds (`ulimit -t`: a limit on wall time
# would give a loaded machine's runs less work; the wall-time limit is 20
# times that) is stopped; its rate then comes from its last progress line
# ("N states explored in Ts", printed every 10,000 states: N states in T
# wall seconds, scaled by the run's CPU/wall ratio). Every run's stdout is
# line-buffered (stdbuf -oL) so that a stopped run's last progress line is
# not lost in its stdio buffer. states/CPU s = states / CPU seconds (the machine is shared: not
# wall times).
# Targets: mcgen at least 10 times Rumur exhaustive's states per CPU second
# and at least Rumur heuristic's. mcgen's count must equal Rumur
# exhaustive's when that run completes (a mismatch is a correctness bug:
# exit 1).
#
# Usage: bench/symmetry.sh [--timeout CPU_SECONDS] [--repeat N] [german] [peterson]
# Outputs in bench/out/symmetry/ (results.md, logs, binaries).
set -euo pipefail

timeout_s=120
repeat=3
models=()
while [ $# -gt 0 ]; do
  case $1 in
    --timeout) timeout_s=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --help|-h) sed -n '2,33p' "$0"; exit 0 ;;
    -*) echo "bench/symmetry.sh: unknown option $1" >&2; exit 2 ;;
    *) models+=("$1"); shift ;;
  esac
done
[ ${#models[@]} -gt 0 ] || models=(german peterson)

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=bench/out/symmetry
mkdir -p "$out"
# use_mcgen; RUMUR_CFLAGS, RUMUR_ARGS, rumur_build (how Rumur's verifiers
# are built).
. bench/lib.sh
use_mcgen

# model NAME: sets spec, margs (mcgen), twin, sedexpr (the twin's size), size.
model() {
  case $1 in
    german) spec=specs/german.mc margs="-D N=5" twin=tests/oracle/german.m
            sedexpr='s/^  N: [0-9]*;/  N: 5;/' size="N=5 D=2" ;;
    peterson) spec=specs/peterson.mc margs="" twin=tests/oracle/peterson.m
              sedexpr='s/^  N: [0-9]*;/  N: 7;/' size="N=7" ;;
    *) echo "bench/symmetry.sh: no model $1" >&2; exit 2 ;;
  esac
}

# run_timed DIR TAG CMD...: runs CMD under the time limits, stdout
# (line-buffered) in DIR/TAG.out; sets wall, cpu (user + sys, counted even
# when a limit stops the run) and rc (not 0: failed or stopped by a limit).
run_timed() {
  local dir=$1 tag=$2; shift 2
  local w u s
  rc=0
  # shellcheck disable=SC2016  # $1 and $@ belong to the inner shell
  /usr/bin/time -f '%e %U %S' -o "$dir/$tag.time" timeout -k 10 "$((timeout_s * 20))" \
    bash -c 'ulimit -t "$1"; shift; exec stdbuf -oL "$@"' run_timed "$timeout_s" "$@" \
    >"$dir/$tag.out" 2>"$dir/$tag.err" || rc=$?
  read -r w u s < <(tail -n 1 "$dir/$tag.time")
  wall=$w
  cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
}

# run_best DIR TAG CMD...: run_timed $repeat times (stopping early if a run
# fails), keeping the run with the least CPU time (its output as DIR/TAG.out).
run_best() {
  local dir=$1 tag=$2; shift 2
  local i bw="" bc="" brc=0
  for ((i = 1; i <= repeat; i++)); do
    run_timed "$dir" "$tag.$i" "$@"
    if [ -z "$bc" ] || awk -v a="$cpu" -v b="$bc" 'BEGIN { exit !(a < b) }'; then
      bw=$wall; bc=$cpu; brc=$rc
      cp "$dir/$tag.$i.out" "$dir/$tag.out"
    fi
    [ "$rc" -eq 0 ] || break
  done
  wall=$bw; cpu=$bc; rc=$brc
}

# rumur_result FILE RC WALL CPU: "STATES STATES_PER_CPU_S COMPLETE" from a
# verifier's output: the final count if it finished, else its last progress
# line (states in wall seconds, scaled by the run's CPU/wall ratio).
rumur_result() {
  local f=$1 rc=$2 w=$3 c=$4 line n t
  line=$(grep -E '^[[:space:]]*[0-9]+ states, [0-9]+ rules fired' "$f" | tail -n 1 || true)
  if [ "$rc" -eq 0 ] && [ -n "$line" ]; then
    n=$(echo "$line" | awk '{ print $1 }')
    echo "$n $(awk -v n="$n" -v c="$c" 'BEGIN { printf "%.0f", (c > 0 ? n / c : 0) }') yes"
    return
  fi
  line=$(grep -E '^[[:space:]]*[0-9]+ states explored in [0-9]+s' "$f" | tail -n 1 || true)
  if [ -z "$line" ]; then
    # Not even 10,000 states before the limit: an upper bound.
    echo "<10000 <$(awk -v c="$c" 'BEGIN { printf "%.1f", 10000 / c }') no"
    return
  fi
  n=$(echo "$line" | awk '{ print $1 }')
  t=$(echo "$line" | sed -n 's/.* explored in \([0-9]*\)s.*/\1/p')
  echo "$n $(awk -v n="$n" -v t="$t" -v w="$w" -v c="$c" 'BEGIN {
    printf "%.0f", (t > 0 && c > 0 ? n / (t * c / w) : 0) }') no"
}

# ratio A B: A / B; B may be an upper bound "<x" (then the ratio is a lower bound ">r").
ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN {
    lt = substr(b, 1, 1) == "<"; if (lt) b = substr(b, 2)
    if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b == 0) print "n/a"
    else printf "%s%.1f", lt ? ">" : "", a / b }'
}
meets() {
  awk -v r="$1" -v t="$2" 'BEGIN { if (substr(r, 1, 1) == ">") r = substr(r, 2)
    print (r !~ /^[0-9.]+$/) ? "n/a" : (r >= t) ? "yes" : "**no**" }'
}

load_before=$(cut -d ' ' -f 1-3 /proc/loadavg)
rows=()
status=0
for m in "${models[@]}"; do
  model "$m"
  dir=$out/$m
  mkdir -p "$dir"
  echo "== symmetry: $m ($size)" >&2
  # shellcheck disable=SC2086
  "$MCGEN" -o "$dir/mcgen_checker" $margs "$spec" >"$dir/build.log" 2>&1
  sed -e "$sedexpr" "$twin" >"$dir/twin.m"
  for mode in exhaustive heuristic; do
    # shellcheck disable=SC2086  # a flag list
    rumur --symmetry-reduction "$mode" --deadlock-detection stuck --threads 1 $RUMUR_ARGS \
      --output "$dir/rumur_$mode.c" "$dir/twin.m" >>"$dir/build.log" 2>&1
    rumur_build "$dir/rumur_$mode.c" "$dir/rumur_$mode" >>"$dir/build.log" 2>&1
  done

  echo "   mcgen --symmetry on ($repeat runs)" >&2
  run_best "$dir" mcgen "$dir/mcgen_checker" --symmetry on --liveness off --por off --threads 1 --quiet \
    --progress 0 --report "$dir/report.json"
  mc_cpu=$cpu
  mc_states=$(jq -r .states "$dir/report.json")
  mc_method=$(jq -r .symmetry_method "$dir/report.json")
  mc_sps=$(awk -v n="$mc_states" -v c="$mc_cpu" 'BEGIN { printf "%.0f", (c > 0 ? n / c : 0) }')
  [ "$(jq -r .verdict "$dir/report.json")" = ok ] || { echo "bench/symmetry.sh: $m: mcgen's verdict is not ok" >&2; status=1; }

  echo "   rumur exhaustive (at most $timeout_s CPU s)" >&2
  run_timed "$dir" exhaustive "$dir/rumur_exhaustive"
  read -r ex_states ex_sps ex_done <<<"$(rumur_result "$dir/exhaustive.out" "$rc" "$wall" "$cpu")"
  ex_cpu=$cpu
  echo "   rumur heuristic (at most $timeout_s CPU s, $repeat runs)" >&2
  run_best "$dir" heuristic "$dir/rumur_heuristic"
  read -r he_states he_sps he_done <<<"$(rumur_result "$dir/heuristic.out" "$rc" "$wall" "$cpu")"
  he_cpu=$cpu

  if [ "$ex_done" = yes ] && [ "$ex_states" != "$mc_states" ]; then
    echo "bench/symmetry.sh: ERROR: $m: mcgen found $mc_states classes, Rumur exhaustive $ex_states" >&2
    status=1
  fi
  r_ex=$(ratio "$mc_sps" "$ex_sps")
  r_he=$(ratio "$mc_sps" "$he_sps")
  ex_note=$([ "$ex_done" = yes ] && echo "$ex_states" || echo "$ex_states so far (stopped)")
  he_note=$([ "$he_done" = yes ] && echo "$he_states" || echo "$he_states so far (stopped)")
  rows+=("| $m | $size | $mc_states ($mc_method) / $ex_note / $he_note | $mc_cpu / $ex_cpu / $he_cpu | $mc_sps / $ex_sps / $he_sps | **${r_ex}×** | **${r_he}×** | $(meets "$r_ex" 10) / $(meets "$r_he" 1) |")
done
load_after=$(cut -d ' ' -f 1-3 /proc/loadavg)

{
  echo "## Symmetry reduction: mcgen (exact) vs Rumur exhaustive and heuristic"
  echo
  echo "Command: \`bench/symmetry.sh --timeout $timeout_s --repeat $repeat ${models[*]}\`, $(date -u '+%Y-%m-%d %H:%M UTC'); load average $load_before before, $load_after after"
  echo
  echo "- mcgen: $("$MCGEN" --version 2>&1 | head -n 1), \`--symmetry on --por off --threads 1\`"
  echo "- Rumur: $(rumur --version 2>&1 | head -n 1), \`--symmetry-reduction exhaustive|heuristic --threads 1\`, verifiers built with \`$CC $RUMUR_CFLAGS\`${RUMUR_ARGS:+ (rumur $RUMUR_ARGS)} (Rumur's README and rumur-run, see bench/lib.sh)"
  echo
  echo "Each triple is \`mcgen / rumur exhaustive / rumur heuristic\`. CPU s = user + sys (mcgen and heuristic: the least of $repeat runs); states/CPU s = states / CPU s. A run stopped at the limit of $timeout_s CPU s is measured from its last progress line. Targets: mcgen ≥ 10× exhaustive's states/CPU s, ≥ 1× heuristic's."
  echo
  echo "| model | size | states | CPU s | states/CPU s | vs exhaustive | vs heuristic | targets met |"
  echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"
  for r in "${rows[@]}"; do echo "$r"; done
} >"$out/results.md"
echo
cat "$out/results.md"
exit "$status"
