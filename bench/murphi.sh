#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/murphi.sh: mcgen against Rumur on the same Murphi source (no .mc
# rewrite): the classic protocols, German (tests/oracle/german.m) and the
# DASH-like directory (tests/murphi/protocols/dash.m), at the sizes below.
#
# For each model the script builds mcgen's checker from the .m file (mcgen's
# default flags, and with --cflags "-O3 -march=native", which is also run
# with --compact-set, the checker's smaller fingerprint set) and Rumur's verifier
# as Rumur documents it (bench/lib.sh: -O3 -march=native -mcx16 and the rest
# of rumur-run's flags), runs both with symmetry reduction off at one thread
# and at two (the checker's --threads, Rumur's --threads; the run with the
# least CPU time of --repeat N), and prints a markdown table of the wall and
# CPU times, states per CPU second (docs/performance.md: on a shared machine
# CPU time is the steadier measure) and bytes per state (peak RSS / states),
# and mcgen's ratios to Rumur. The counts must agree (states, rules fired against
# transitions): a difference is printed loudly and the script exits 1.
# Partial-order reduction is off in mcgen (Rumur has none): both explore the
# full graph.
#
# Outputs go to bench/out/murphi/ (logs, binaries, results.md).
#
# Usage: bench/murphi.sh [--repeat N] [--timeout SECONDS]
set -euo pipefail

repeat=3
timeout_s=900
while [ $# -gt 0 ]; do
  case $1 in
    --repeat) repeat=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    *) echo "usage: bench/murphi.sh [--repeat N] [--timeout SECONDS]" >&2; exit 2 ;;
  esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=bench/out/murphi
mkdir -p "$out"
tools/install-deps rumur time
# use_mcgen, measure, div; RUMUR_CFLAGS, RUMUR_ARGS, rumur_build, MCGEN_NATIVE_CFLAGS
. bench/lib.sh
use_mcgen

# NAME SOURCE CONSTANT=VALUE: each model, at a size that runs for seconds.
models=(
  "german tests/oracle/german.m N=4"
  "dash tests/murphi/protocols/dash.m NPROCS=4"
)

# The source with its constant set: `  NAME: VALUE;` in the const section.
sized_source() { # sized_source SOURCE NAME VALUE OUT
  sed -E "s/^([[:space:]]*$2:)[[:space:]]*[0-9]+;/\1 $3;/" "$1" >"$4"
  grep -qE "^[[:space:]]*$2: $3;" "$4" || { echo "bench/murphi.sh: no constant $2 in $1" >&2; exit 2; }
}

counts_mcgen() { # counts_mcgen OUTFILE: "states transitions"
  awk '/^states:/ {s = $2} /^transitions:/ {t = $2} END {print s, t}' "$1"
}
counts_rumur() { # counts_rumur OUTFILE
  grep -E '^[[:space:]]*[0-9]+ states, [0-9]+ rules fired' "$1" | tail -n 1 |
    sed -E 's/^[[:space:]]*([0-9]+) states, ([0-9]+) rules fired.*/\1 \2/'
}

rows=()
mismatch=0
for entry in "${models[@]}"; do
  read -r name src size <<<"$entry"
  dir=$out/$name
  mkdir -p "$dir"
  sized_source "$src" "${size%%=*}" "${size#*=}" "$dir/$name.m"
  echo "== $name ($size)" >&2
  "$MCGEN" -o "$dir/mcgen_checker" "$dir/$name.m" >"$dir/build.log" 2>&1
  "$MCGEN" -o "$dir/mcgen_native" --cflags "$MCGEN_NATIVE_CFLAGS" "$dir/$name.m" >>"$dir/build.log" 2>&1
  for threads in 1 2; do
    # shellcheck disable=SC2086  # flag lists
    rumur --symmetry-reduction off --deadlock-detection off --threads "$threads" $RUMUR_ARGS \
      --output "$dir/rumur_$threads.c" "$dir/$name.m" >>"$dir/build.log" 2>&1
    rumur_build "$dir/rumur_$threads.c" "$dir/rumur_$threads" >>"$dir/build.log" 2>&1
    for tool in mcgen_checker mcgen_native mcgen_compact rumur; do
      if [ "$tool" = rumur ]; then
        measure "$dir" "rumur.$threads" "$dir/rumur_$threads"
        got=$(counts_rumur "$dir/rumur.$threads.out")
      else
        exe=$dir/$tool extra=""
        [ "$tool" = mcgen_compact ] && exe=$dir/mcgen_native extra=--compact-set
        # shellcheck disable=SC2086  # one flag or none
        measure "$dir" "$tool.$threads" "$exe" --symmetry off --por off --no-deadlock \
          --threads "$threads" --progress 0 $extra
        got=$(counts_mcgen "$dir/$tool.$threads.out")
      fi
      [ "$run_rc" -eq 0 ] || { echo "bench/murphi.sh: $name: $tool exited $run_rc" >&2; exit 1; }
      eval "counts_${tool}_$threads=\"\$got\" wall_${tool}_$threads=\$best_wall cpu_${tool}_$threads=\$best_cpu rss_${tool}_$threads=\$best_rss_kb"
    done
  done
  ref=$counts_rumur_1
  for v in counts_mcgen_checker_1 counts_mcgen_native_1 counts_mcgen_compact_1 \
           counts_mcgen_checker_2 counts_mcgen_native_2 counts_mcgen_compact_2 counts_rumur_2; do
    if [ "${!v}" != "$ref" ]; then
      echo "!!! COUNT MISMATCH on $name: $v = ${!v}, Rumur at one thread: $ref" >&2
      mismatch=1
    fi
  done
  states=${ref%% *}
  for threads in 1 2; do
    for tool in mcgen_checker mcgen_native mcgen_compact rumur; do
      w=wall_${tool}_$threads c=cpu_${tool}_$threads r=rss_${tool}_$threads
      rate=$(div "$states" "${!c}")
      eval "rate_${tool}_$threads=\$rate"
      bps=$(awk -v r="${!r}" -v s="$states" 'BEGIN {printf "%.1f", r * 1024 / s}')
      eval "bps_${tool}_$threads=\$bps"
      rows+=("| $name ($size) | $tool | $threads | $states | ${!w} | ${!c} | $(printf '%.0f' "$rate") | $bps |")
    done
    rr=rate_rumur_$threads br=bps_rumur_$threads
    for tool in mcgen_checker mcgen_native mcgen_compact; do
      ra=rate_${tool}_$threads ba=bps_${tool}_$threads
      rows+=("| $name ($size) | $tool / rumur | $threads | | | | $(awk -v a="${!ra}" -v b="${!rr}" 'BEGIN {printf "%.2fx", a / b}') | $(awk -v a="${!ba}" -v b="${!br}" 'BEGIN {printf "%.2fx", a / b}') |")
    done
  done
done

{
  echo "bench/murphi.sh, $(date -u '+%Y-%m-%d'), $(rumur --version 2>&1 | head -n 1), mcgen $(git rev-parse --short HEAD)"
  echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), load before: $(cut -d ' ' -f 1-3 /proc/loadavg)"
  echo
  echo "| model | tool | threads | states | wall s | CPU s | states per CPU s | bytes/state (peak RSS) |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
  printf '%s\n' "${rows[@]}"
} | tee "$out/results.md"
exit "$mismatch"
