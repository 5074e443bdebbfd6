#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/disk.sh: what --disk saves in RAM and what it costs in speed.
#
# For each model the checker runs the whole state space twice, with its trace
# log and frontier in RAM and with --disk (files under bench/out/disk/),
# --threads 1, --no-deadlock. It records states per CPU second (user +
# system, from /usr/bin/time: on a shared machine the wall time mostly
# measures the other work) and per wall second, and bytes per state: accounted RAM at the end (the
# fingerprint set, the log's and the frontier's windows), peak RSS, and
# the bytes the log and the frontier held on disk at the end. The two runs'
# counts must be equal (else a loud error, exit 1). The machine is shared:
# the load average before each run is recorded next to it.
#
# Models: grid3.N, a spec written here (three counters 0..N-1: N^3 states,
# 10^7 for N = 216, 10^8 for N = 465), and BEEM instances by name.
#
# Outputs go to bench/out/disk/ (disk.md, disk.csv, logs).
#
# Usage: bench/disk.sh [MODEL...]   default: grid3.216 adding.6
#   e.g. bench/disk.sh grid3.465 for 10^8 states (a few minutes per run)
#   MODES="ram disk disk-compact" (default "ram disk"): the runs per model;
#   compact and disk-compact add --compact-set. THREADS=N (default 1).
#   MCGEN=/other/build/mcgen bench/disk.sh ...; BEEM_DIR overrides the suite.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# use_mcgen, start_tables
. bench/lib.sh
use_mcgen
models=("$@")
[ ${#models[@]} -gt 0 ] || models=(grid3.216 adding.6)
start_tables disk \
  "model,mode,states,cpu_s,wall_s,states_per_cpu_s,states_per_wall_s,ram_bytes_per_state,rss_bytes_per_state,disk_bytes_per_state,load" \
  "| model | states | mode | states/CPU s | states/wall s | RAM bytes/state (accounted) | peak RSS bytes/state | disk bytes/state | load |" \
  "|---|---:|---|---:|---:|---:|---:|---:|---:|"

build() { # build NAME: the checker bench/out/disk/NAME
  local name=$1
  case $name in
  grid3.*)
    local n=${name#grid3.}
    cat >"$out/$name.mc" <<EOF
// $n^3 states: three independent counters 0..$((n - 1)).
model grid3;
var a: 0..$((n - 1));
var b: 0..$((n - 1));
var c: 0..$((n - 1));
action inc_a when a < $((n - 1)) { a = a + 1; }
action inc_b when b < $((n - 1)) { b = b + 1; }
action inc_c when c < $((n - 1)) { c = c + 1; }
EOF
    (cd "$out" && "$MCGEN" -o "$name" "$name.mc" >"build-$name.log" 2>&1)
    ;;
  *)
    local beem
    beem=$(tools/suite-dir beem) || { echo "error: no BEEM suite (tools/suite-dir beem) for $name" >&2; return 1; }
    (cd "$out" && "$MCGEN" -o "$name" "$beem/dve/$name.dve" >"build-$name.log" 2>&1)
    ;;
  esac
}

status=0
for name in "${models[@]}"; do
  build "$name" || { echo "error: mcgen $name failed (bench/out/disk/build-$name.log)" >&2; status=1; continue; }
  prev=
  for mode in ${MODES:-ram disk}; do
    args=(--threads "${THREADS:-1}" --no-deadlock --por off --progress 0 --report "$out/$name.$mode.json")
    case $mode in ram | disk | compact | disk-compact) ;;
    *) echo "error: MODES: unknown mode $mode" >&2; exit 2 ;;
    esac
    case $mode in *compact) args+=(--compact-set) ;; esac
    if [ "${mode#disk}" != "$mode" ]; then
      rm -rf "$out/files" && mkdir -p "$out/files"
      args+=(--disk "$out/files")
    fi
    load=$(cut -d' ' -f1 /proc/loadavg)
    (cd "$out" && nice /usr/bin/time -f "%U %S %e" -o "$name.$mode.time" ./"$name" "${args[@]}" \
      >"$name.$mode.log" 2>&1)
    rc=$?
    j=$out/$name.$mode.json
    if [ $rc != 0 ]; then
      echo "error: $name ($mode) exited $rc (bench/out/disk/$name.$mode.log)" >&2
      status=1
      continue
    fi
    read -r states time_s ram rss diskb < <(jq -r '[.states, .time_s,
        (if .ram_bytes_per_state then .ram_bytes_per_state else .bytes_per_state end),
        (.peak_rss_bytes / .states), (if .disk_bytes_per_state then .disk_bytes_per_state else 0 end)]
        | @tsv' "$j")
    if [ -n "$prev" ] && [ "$prev" != "$states" ]; then
      echo "error: $name: $states states with --disk, $prev without" >&2
      status=1
    fi
    prev=$states
    read -r user sys wall <"$out/$name.$mode.time"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
    cps=$(awk -v s="$states" -v t="$cpu" 'BEGIN { printf "%.0f", s / t }')
    wps=$(awk -v s="$states" -v t="$time_s" 'BEGIN { printf "%.0f", s / t }')
    echo "$name,$mode,$states,$cpu,$wall,$cps,$wps,$ram,$rss,$diskb,$load" >>"$csv"
    printf '| %s | %s | %s | %s | %s | %.1f | %.1f | %.1f | %s |\n' "$name" "$states" \
      "$mode" "$cps" "$wps" "$ram" "$rss" "$diskb" "$load" >>"$md"
  done
done
rm -rf "$out/files"
cat "$md"
exit $status
