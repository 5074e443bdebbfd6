#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/run.sh: mcgen against Rumur, side by side, on the same models.
#
# Each model is a spec of specs/ and its Rumur twin of tests/oracle/, with
# exactly the same state graph (mcgen --symmetry off, Rumur
# --symmetry-reduction off), both sized up by the same constants (mcgen's -D,
# the twin's const block set by sed in bench/out/NAME/twin.m): bench_model
# in bench/lib.sh has the sizes. For each model the script builds
# mcgen's checker twice (mcgen's default flags, and with --cflags
# "-O3 -march=native") and Rumur's verifier as Rumur documents it (flags and
# their sources in bench/lib.sh), runs each single-threaded (the run with the
# least CPU time of --repeat N runs), measures CPU time (user + sys) and peak
# RSS with /usr/bin/time, reads the state and transition counts from each
# tool's own output, and prints a markdown table of states per CPU second,
# bytes per state and their ratios (not wall times: the machine is shared).
# A count that differs between the tools is a correctness bug: it is printed
# loudly and the script exits 1 (after the other models).
#
# Per-model arguments come from bench_model too: checker options (e.g.
# --no-deadlock) and rumur's (e.g. --deadlock-detection off), checking the
# same things; what else the twin checks is left out of its copy.
# Always: mcgen checker --symmetry off --liveness off --threads 1;
#         rumur --symmetry-reduction off --threads 1.
#
# Outputs (logs, binaries, results.md, results.csv) go to bench/out/.
#
# Then bench/symmetry.sh compares mcgen's exact symmetry reduction with
# Rumur's exhaustive and heuristic ones (German N=5, Peterson N=7); skipped
# with --no-symmetry or when models are named.
#
# Usage: bench/run.sh [--repeat N] [--timeout SECONDS] [--no-symmetry] [NAME...]
#        MCGEN=/other/build/mcgen bench/run.sh ...
set -euo pipefail

usage() {
  cat <<'EOF'
usage: bench/run.sh [--repeat N] [--timeout SECONDS] [NAME...]

Builds mcgen's checker and Rumur's verifier for specs/NAME.mc and its twin
tests/oracle/NAME.m, sized up (NAME: bakery, german, philosophers, two_phase;
default: all four), runs them single-threaded with symmetry off, and prints
states per CPU second and bytes per state of both, and their ratios, as a
markdown table (also written to bench/out/results.md).

  --repeat N         run each binary N times, keep the run with the least CPU
                     time (default 3)
  --timeout SECONDS  kill a run after SECONDS (default 900)
  --no-symmetry      skip bench/symmetry.sh (mcgen's symmetry reduction vs
                     Rumur's exhaustive and heuristic ones)

Environment: MCGEN=PATH benchmarks that mcgen instead of building build/mcgen
here; CC=COMPILER compiles Rumur's verifiers (default cc; mcgen uses its own
--cc, default $CC or cc).

Exit codes: 0 done, the counts agree; 1 a count differs between the tools, or
a run failed; 2 usage error.
EOF
}

cmdline="bench/run.sh${*:+ $*}"
[ $# -eq 0 ] && cmdline="make bench"   # the Makefile's bench target runs bench/run.sh
[ -n "${MCGEN:-}" ] && cmdline="MCGEN=$MCGEN bench/run.sh${*:+ $*}"
repeat=3
timeout_s=900
no_symmetry=0
models=()
while [ $# -gt 0 ]; do
  case $1 in
    --repeat) [ $# -ge 2 ] || { usage >&2; exit 2; }; repeat=$2; shift 2 ;;
    --timeout) [ $# -ge 2 ] || { usage >&2; exit 2; }; timeout_s=$2; shift 2 ;;
    --no-symmetry) no_symmetry=1; shift ;;
    --help|-h) usage; exit 0 ;;
    -*) echo "bench/run.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) models+=("$1"); shift ;;
  esac
done
[ ${#models[@]} -eq 0 ] || no_symmetry=1   # named models: those only
case $repeat in ''|*[!0-9]*|0) echo "bench/run.sh: --repeat needs a positive integer" >&2; exit 2 ;; esac

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=bench/out
mkdir -p "$out"

# --- dependencies and builds ---------------------------------------------------

tools/install-deps rumur time
# use_mcgen, bench_model, measure, human, div, xsign, commas; the tools'
# build flags (RUMUR_CFLAGS, RUMUR_ARGS, rumur_build, MCGEN_NATIVE_CFLAGS);
# $cpu and $mem_total.
. bench/lib.sh
use_mcgen

[ ${#models[@]} -gt 0 ] || read -r -a models <<<"$bench_models"
for m in "${models[@]}"; do
  bench_model "$m" || { echo "bench/run.sh: no bench model $m (bench_model in bench/lib.sh)" >&2; exit 2; }
done

# --- measurement ---------------------------------------------------------------

rumur_version=$(rumur --version 2>&1 | head -n 1)
mcgen_version=$("$MCGEN" --version 2>&1 | head -n 1)
cc_version=$("$CC" --version 2>&1 | head -n 1)
mcgen_src=$(cd "$(dirname "$MCGEN")/.." && pwd)   # the tree MCGEN was built in
git_rev=$(git -C "$mcgen_src" rev-parse --short HEAD 2>/dev/null || echo "not a git tree: $mcgen_src")
git_dirty=""
if git -C "$mcgen_src" status --porcelain -- compiler runtime templates 2>/dev/null | grep -q .; then
  git_dirty=" + uncommitted changes to compiler/runtime/templates"
fi
load_before=$(cut -d ' ' -f 1-3 /proc/loadavg)

rows=()
csv="model,size,states_mcgen,states_rumur,transitions_mcgen,rules_fired_rumur,wall_s_mcgen,wall_s_mcgen_native,wall_s_rumur,cpu_s_mcgen,cpu_s_mcgen_native,cpu_s_rumur,rss_kb_mcgen,rss_kb_mcgen_native,rss_kb_rumur"
failures=0
mismatch=0

for m in "${models[@]}"; do
  dir=$out/$m
  mkdir -p "$dir"
  rm -f "$dir"/*.out* "$dir"/*.time "$dir"/*.err "$dir"/report.json
  bench_model "$m"
  sized_twin "$dir/twin.m"

  echo "== $m ($size)" >&2
  # mcgen: the compiler writes and compiles $dir/mcgen_checker(.c), with its
  # default flags, and $dir/mcgen_native with MCGEN_NATIVE_CFLAGS added.
  # shellcheck disable=SC2046  # the -D options
  if ! "$MCGEN" -o "$dir/mcgen_checker" $(defines) "$spec" >"$dir/build.log" 2>&1 ||
     ! "$MCGEN" -o "$dir/mcgen_native" --cflags "$MCGEN_NATIVE_CFLAGS" $(defines) "$spec" \
         >>"$dir/build.log" 2>&1; then
    echo "bench/run.sh: ERROR: mcgen failed on $spec (see $dir/build.log)" >&2
    failures=$((failures + 1)); continue
  fi
  # Rumur: as Rumur documents it (bench/lib.sh).
  # shellcheck disable=SC2086  # argument lists, split on blanks
  if ! rumur --symmetry-reduction off --threads 1 $RUMUR_ARGS $rumur_args \
         --output "$dir/rumur_verifier.c" "$dir/twin.m" >>"$dir/build.log" 2>&1 ||
     ! rumur_build "$dir/rumur_verifier.c" "$dir/rumur_verifier" >>"$dir/build.log" 2>&1; then
    echo "bench/run.sh: ERROR: rumur failed on $dir/twin.m (see $dir/build.log)" >&2
    failures=$((failures + 1)); continue
  fi

  echo "   mcgen checker ($repeat run(s))" >&2
  # shellcheck disable=SC2086
  measure "$dir" mcgen "$dir/mcgen_checker" --symmetry off --liveness off --por off --threads 1 \
      --quiet --progress 0 --report "$dir/report.json" $checker_args
  mc_rc=$run_rc; mc_wall=$best_wall; mc_cpu=$best_cpu; mc_rss=$best_rss_kb
  echo "   mcgen checker, --cflags \"$MCGEN_NATIVE_CFLAGS\" ($repeat run(s))" >&2
  # shellcheck disable=SC2086
  measure "$dir" native "$dir/mcgen_native" --symmetry off --liveness off --por off --threads 1 \
      --quiet --progress 0 --report "$dir/native.json" $checker_args
  na_rc=$run_rc; na_wall=$best_wall; na_cpu=$best_cpu; na_rss=$best_rss_kb
  echo "   rumur verifier ($repeat run(s))" >&2
  measure "$dir" rumur "$dir/rumur_verifier"
  ru_rc=$run_rc; ru_wall=$best_wall; ru_cpu=$best_cpu; ru_rss=$best_rss_kb

  if [ "$na_rc" -ne 0 ]; then
    mc_rc=$na_rc
  fi
  if [ "$mc_rc" -ne 0 ]; then
    echo "bench/run.sh: ERROR: $m: mcgen's checker exited $mc_rc (expected 0: a full run without violations); see $dir/mcgen.out, $dir/mcgen.err" >&2
    failures=$((failures + 1)); continue
  fi
  if [ "$ru_rc" -ne 0 ]; then
    echo "bench/run.sh: ERROR: $m: Rumur's verifier exited $ru_rc (expected 0); see $dir/rumur.out" >&2
    failures=$((failures + 1)); continue
  fi

  mc_states=$(tr -d '\n' <"$dir/report.json" | sed -n 's/.*"states":[[:space:]]*\([0-9]*\).*/\1/p')
  mc_trans=$(tr -d '\n' <"$dir/report.json" | sed -n 's/.*"transitions":[[:space:]]*\([0-9]*\).*/\1/p')
  mc_verdict=$(tr -d '\n' <"$dir/report.json" | sed -n 's/.*"verdict":[[:space:]]*"\([a-z]*\)".*/\1/p')
  na_states=$(tr -d '\n' <"$dir/native.json" | sed -n 's/.*"states":[[:space:]]*\([0-9]*\).*/\1/p')
  ru_line=$(grep -E '^[[:space:]]*[0-9]+ states, [0-9]+ rules fired' "$dir/rumur.out" | tail -n 1 || true)
  ru_states=$(printf '%s' "$ru_line" | sed -n 's/^[[:space:]]*\([0-9]*\) states.*/\1/p')
  ru_trans=$(printf '%s' "$ru_line" | sed -n 's/.* \([0-9]*\) rules fired.*/\1/p')
  if [ -z "$mc_states" ] || [ -z "$ru_states" ] || [ "$mc_verdict" != ok ] ||
     ! grep -q 'No error found' "$dir/rumur.out"; then
    echo "bench/run.sh: ERROR: $m: cannot read a full, violation-free result (mcgen verdict '$mc_verdict', states '$mc_states'; rumur states '$ru_states'); see $dir/" >&2
    failures=$((failures + 1)); continue
  fi
  if [ "$mc_states" != "$ru_states" ] || [ "$mc_trans" != "$ru_trans" ] ||
     [ "$na_states" != "$mc_states" ]; then
    {
      echo
      echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
      echo "!! ERROR: COUNT MISMATCH on $m ($size): a correctness bug"
      echo "!!   mcgen: $mc_states states, $mc_trans transitions ($na_states states built with --cflags)"
      echo "!!   rumur: $ru_states states, $ru_trans rules fired"
      echo "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
      echo
    } >&2
    mismatch=1
  fi

  states=$mc_states
  # states per CPU second (user + sys), of the least-CPU run of each
  mc_cps=$(div "$mc_states" "$mc_cpu" "%.0f"); na_cps=$(div "$mc_states" "$na_cpu" "%.0f")
  ru_cps=$(div "$ru_states" "$ru_cpu" "%.0f")
  speed=$(div "$mc_cps" "$ru_cps"); na_speed=$(div "$na_cps" "$ru_cps")
  mc_bps=$(div "$((mc_rss * 1024))" "$mc_states" "%.1f"); ru_bps=$(div "$((ru_rss * 1024))" "$ru_states" "%.1f")
  mem=$(div "$mc_bps" "$ru_bps")
  flag_states=$([ "$mc_states" = "$ru_states" ] && echo "" || echo " **MISMATCH: rumur $(commas "$ru_states")**")
  flag_trans=$([ "$mc_trans" = "$ru_trans" ] && echo "" || echo " **MISMATCH: rumur $(commas "$ru_trans")**")
  speed_ok=$(awk -v r="$speed" 'BEGIN { print (r !~ /^[0-9.]+$/) ? "n/a" : (r >= 3) ? "yes" : "**no**" }')
  mem_ok=$(awk -v r="$mem" 'BEGIN { print (r !~ /^[0-9.]+$/) ? "n/a" : (r <= 0.5) ? "yes" : "**no**" }')
  rows+=("| $m | $size | $(commas "$states")$flag_states | $(commas "$mc_trans")$flag_trans | $mc_cpu / $na_cpu / $ru_cpu | $(human "$mc_cps") / $(human "$na_cps") / $(human "$ru_cps") | **${speed}$(xsign "$speed")** | ${na_speed}$(xsign "$na_speed") | $(awk -v k="$mc_rss" 'BEGIN { printf "%.1f", k / 1024 }') / $(awk -v k="$ru_rss" 'BEGIN { printf "%.1f", k / 1024 }') | $mc_bps / $ru_bps | **$mem** | $speed_ok / $mem_ok |")
  csv="$csv"$'\n'"$m,$size,$mc_states,$ru_states,$mc_trans,$ru_trans,$mc_wall,$na_wall,$ru_wall,$mc_cpu,$na_cpu,$ru_cpu,$mc_rss,$na_rss,$ru_rss"
done

load_after=$(cut -d ' ' -f 1-3 /proc/loadavg)

# --- report --------------------------------------------------------------------

{
  echo "## mcgen vs Rumur"
  echo
  echo "Command: \`$cmdline\`, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "- machine: $cpu, $(nproc) CPUs (nproc), $mem_total RAM, $(uname -sr)"
  echo "- load average: $load_before before, $load_after after (1, 5, 15 min)"
  echo "- mcgen: $mcgen_version (git $git_rev$git_dirty); checkers built by mcgen (\`-std=c11 -O2 -g\`) and, second column, with \`--cflags \"$MCGEN_NATIVE_CFLAGS\"\`; run with \`--symmetry off --liveness off --por off --threads 1\`"
  echo "- Rumur: $rumur_version; \`rumur --symmetry-reduction off --threads 1${RUMUR_ARGS:+ $RUMUR_ARGS}\`, verifier built with \`$CC $RUMUR_CFLAGS\` (Rumur's README and its rumur-run wrapper; see bench/lib.sh)"
  echo "- C compiler: $cc_version"
  echo "- each binary run $repeat time(s); the run with the least CPU time (user + sys) kept; time and peak RSS from \`/usr/bin/time -f '%e %U %S %M'\`"
  echo
  echo "Each triple is \`mcgen / mcgen --cflags / rumur\`, each pair \`mcgen / rumur\`. States and transitions are read from each tool's own output (mcgen's \`--report\` JSON, Rumur's \"N states, M rules fired\") and must be equal. states/CPU s = states / (user + sys) seconds; speed ratio = mcgen's states/CPU s / Rumur's (default build; then with \`--cflags\`); bytes/state = peak RSS / states, memory ratio = mcgen's / Rumur's. Targets: speed ratio ≥ 3, memory ratio ≤ 0.5."
  echo
  echo "| model | size | states | transitions | CPU s | states/CPU s | speed ratio | speed ratio, mcgen --cflags | peak RSS MiB | bytes/state | memory ratio | targets met (speed / memory) |"
  echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
  for r in "${rows[@]}"; do echo "$r"; done
} >"$out/results.md"
printf '%s\n' "$csv" >"$out/results.csv"

echo
cat "$out/results.md"
echo
echo "(written to $out/results.md and $out/results.csv; logs and binaries in $out/NAME/)"

if [ "$mismatch" -ne 0 ]; then
  echo "bench/run.sh: ERROR: the tools disagree on the state or transition count of some model (see above)" >&2
fi
if [ "$failures" -ne 0 ]; then
  echo "bench/run.sh: ERROR: $failures model(s) failed to build or run (see above)" >&2
fi
sym_status=0
if [ "$no_symmetry" -eq 0 ]; then
  MCGEN=$MCGEN bench/symmetry.sh --timeout 120 || sym_status=$?
fi
[ "$mismatch" -eq 0 ] && [ "$failures" -eq 0 ] && [ "$sym_status" -eq 0 ]
