#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/liveness.sh: what liveness checking costs. For each model of
# bench/run.sh (specs/NAME.mc at the size bench_model in bench/lib.sh gives,
# with the liveness property given there added, in bench/out/), builds
# mcgen's checker once and runs it twice, single-threaded, symmetry off:
# with --liveness off (safety only: no edge table) and with liveness checked
# (the edge table recorded during the search, then the SCC check of every
# property instance). Prints wall and CPU time of both, their ratio, and
# peak RSS per state of both, as a markdown table (also
# bench/out/liveness.md).
#
# Target (issue 3): with liveness, at most 2.5 times the time without it.
# The ratio is taken on CPU time (user + sys): this machine is shared and
# wall times swing with the load; wall times are printed too. The script
# exits 1 when fewer than 3 models meet the target, or a run fails, or the
# two runs disagree on states or transitions.
#
# Usage: bench/liveness.sh [--repeat N (default 3: the least CPU time of N runs)] [NAME...]
set -euo pipefail

repeat=3
models=()
while [ $# -gt 0 ]; do
  case $1 in
    --repeat) repeat=$2; shift 2 ;;
    --help|-h) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "bench/liveness.sh: unknown option $1" >&2; exit 2 ;;
    *) models+=("$1"); shift ;;
  esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=bench/out
mkdir -p "$out"
# use_mcgen, bench_model, defines.
. bench/lib.sh
use_mcgen

[ ${#models[@]} -gt 0 ] || read -r -a models <<<"$bench_models"

json() { jq -r "$2" "$1"; }

# run DIR TAG ARGS...: best CPU time of $repeat runs; sets wall cpu rss_kb.
run() {
  local dir=$1 tag=$2; shift 2
  local i w u s m
  wall=""; cpu=""; rss_kb=""
  for ((i = 1; i <= repeat; i++)); do
    /usr/bin/time -f '%e %U %S %M' -o "$dir/$tag.time" "$dir/checker" --threads 1 --por off "$@" \
      --report "$dir/$tag.json" >"$dir/$tag.out" 2>"$dir/$tag.err" ||
      { echo "bench/liveness.sh: $dir/checker $* failed (see $dir/$tag.out)" >&2; return 1; }
    read -r w u s m < <(tail -n 1 "$dir/$tag.time")
    local c
    c=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
    if [ -z "$cpu" ] || awk -v a="$c" -v b="$cpu" 'BEGIN { exit !(a < b) }'; then
      wall=$w; cpu=$c; rss_kb=$m
    fi
  done
}

rows=()
met=0
failed=0
load_before=$(cut -d ' ' -f 1-3 /proc/loadavg)
for m in "${models[@]}"; do
  dir=$out/liveness-$m
  mkdir -p "$dir"
  echo "== $m" >&2
  bench_model "$m" || { echo "bench/liveness.sh: no bench model $m" >&2; failed=1; continue; }
  { cat "$spec"; echo "$property"; } >"$dir/$m.mc"
  # shellcheck disable=SC2046  # the -D options
  "$MCGEN" -o "$dir/checker" $(defines) "$dir/$m.mc" >"$dir/build.log" 2>&1 ||
    { echo "bench/liveness.sh: mcgen failed on $m (see $dir/build.log)" >&2; failed=1; continue; }
  args=$checker_args
  # shellcheck disable=SC2086
  run "$dir" safety --symmetry off --liveness off --threads 1 --quiet --progress 0 $args ||
    { failed=1; continue; }
  s_wall=$wall s_cpu=$cpu s_rss=$rss_kb
  # shellcheck disable=SC2086
  run "$dir" live --symmetry off --liveness on --threads 1 --quiet --progress 0 $args ||
    { failed=1; continue; }
  l_wall=$wall l_cpu=$cpu l_rss=$rss_kb
  states=$(json "$dir/live.json" .states)
  if [ "$states" != "$(json "$dir/safety.json" .states)" ] ||
     [ "$(json "$dir/live.json" .transitions)" != "$(json "$dir/safety.json" .transitions)" ]; then
    echo "bench/liveness.sh: ERROR: $m: the runs with and without liveness disagree on the counts" >&2
    failed=1
  fi
  inst=$(json "$dir/live.json" '.liveness.instances | length')
  status=$(json "$dir/live.json" .liveness.status)
  check_s=$(json "$dir/live.json" '.liveness.time_s')
  edge_mib=$(json "$dir/live.json" '.liveness.edge_table_bytes / 1048576 | . * 10 | round / 10')
  ratio=$(awk -v a="$l_cpu" -v b="$s_cpu" 'BEGIN { printf "%.2f", a / b }')
  ok=$(awk -v r="$ratio" 'BEGIN { print (r <= 2.5) ? "yes" : "**no**" }')
  [ "$ok" = yes ] && met=$((met + 1))
  bps_s=$(awk -v k="$s_rss" -v n="$states" 'BEGIN { printf "%.1f", k * 1024 / n }')
  bps_l=$(awk -v k="$l_rss" -v n="$states" 'BEGIN { printf "%.1f", k * 1024 / n }')
  rows+=("| $m | $states | $(json "$dir/live.json" .transitions) | $inst, $status | $s_cpu / $l_cpu | $s_wall / $l_wall | **$ratio** | $check_s | $bps_s / $bps_l | $edge_mib | $ok |")
done
load_after=$(cut -d ' ' -f 1-3 /proc/loadavg)

{
  echo "## Liveness: the cost of the edge table and the SCC check"
  echo
  echo "Command: \`bench/liveness.sh${repeat:+ --repeat $repeat}\`, $(date -u '+%Y-%m-%d %H:%M UTC'), git $(git rev-parse --short HEAD)"
  echo
  echo "- load average $load_before before, $load_after after; $(nproc) CPUs"
  echo "- each pair is \`--liveness off / on\`, same checker, \`--symmetry off --por off --threads 1\`; best CPU time of $repeat run(s)"
  echo "- ratio = CPU time with liveness / without (target ≤ 2.5); bytes/state = peak RSS / states"
  echo
  echo "| model | states | transitions | instances, verdict | CPU s | wall s | ratio | check s (wall) | bytes/state | edge table MiB | ≤ 2.5 |"
  echo "| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
  for r in "${rows[@]}"; do echo "$r"; done
} >"$out/liveness.md"
cat "$out/liveness.md"

if [ "$failed" -ne 0 ]; then
  echo "bench/liveness.sh: ERROR: a run failed (see above)" >&2
  exit 1
fi
if [ "$met" -lt 3 ]; then
  echo "bench/liveness.sh: ERROR: only $met model(s) within 2.5 times (3 needed)" >&2
  exit 1
fi
