#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/odpor.sh: --search odpor on the DPOR literature's classics at the
# sizes the papers run (lastzero, indexer, filesystem, readers-writers):
# executions explored, sleep-set blocked executions, events, and CPU
# seconds (user + system, from /usr/bin/time: on a shared machine the wall
# time mostly measures the other work). Where a hand count exists (the
# spec's ODPOR-TRACES header line: indexer, filesystem, readers-writers)
# the executions must equal it, else a loud error and exit 1; lastzero(N)
# beyond N = 5 has no independent count (tests/odpor/ checks N <= 5 against
# the brute force).
#
# Specs: tests/odpor/specs/ (filesystem14, filesystem16) and the others
# printed by tests/odpor/classic_spec.py.
#
# Outputs go to bench/out/odpor/ (odpor.md, odpor.csv, logs).
#
# Usage: bench/odpor.sh [CLASSIC...]
#   CLASSIC: "lastzero N", "indexer N", "readers R W" or "filesystem N"
#   (N = 14 or 16); default: lastzero 5..10, indexer 12..15, filesystem 14
#   and 16, readers 6 2 and 8 1. MCGEN=/other/build/mcgen overrides mcgen.
#   indexer 15 takes about 75 s of CPU, the rest a few seconds together.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# use_mcgen, start_tables
. bench/lib.sh
use_mcgen
classics=("$@")
[ ${#classics[@]} -gt 0 ] || classics=("lastzero 5" "lastzero 6" "lastzero 7" "lastzero 8" \
  "lastzero 9" "lastzero 10" "indexer 12" "indexer 13" "indexer 14" "indexer 15" \
  "filesystem 14" "filesystem 16" "readers 6 2" "readers 8 1")
start_tables odpor "benchmark,executions,sleep_set_blocked,events,hand_count,cpu_s,load" \
  "| benchmark | executions | sleep-set blocked | events | hand count | CPU s | load |" \
  "|---|---:|---:|---:|---:|---:|---:|"
status=0
for c in "${classics[@]}"; do
  name=$(echo "$c" | tr ' ' _)
  # shellcheck disable=SC2086
  set -- $c
  case $1 in
  filesystem) cp "tests/odpor/specs/filesystem$2.mc" "$out/$name.mc" || { status=1; continue; } ;;
  *) python3 tests/odpor/classic_spec.py "$@" >"$out/$name.mc" || { status=1; continue; } ;;
  esac
  if ! (cd "$out" && "$MCGEN" -o "$name" "$name.mc") >"$out/$name.mcgen" 2>&1; then
    echo "error: $c: mcgen failed (see $out/$name.mcgen)" >&2
    status=1
    continue
  fi
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f '%U %S' -o "$out/$name.time" "$out/$name" --search odpor --no-deadlock \
    --report "$out/$name.json" >"$out/$name.log" 2>&1
  cpu=$(awk '{printf "%.2f", $1 + $2}' "$out/$name.time")
  execs=$(jq .odpor.executions "$out/$name.json")
  blocked=$(jq .odpor.sleep_set_blocked "$out/$name.json")
  events=$(jq .odpor.events "$out/$name.json")
  want=$(sed -n 's|^// ODPOR-TRACES: ||p' "$out/$name.mc")
  if [ -n "$want" ] && [ "$execs" != "$want" ]; then
    echo "error: $c: $execs executions, the hand count is $want traces" >&2
    status=1
  fi
  echo "$c,$execs,$blocked,$events,${want:--},$cpu,$load" >>"$csv"
  echo "| $c | $execs | $blocked | $events | ${want:--} | $cpu | $load |" >>"$md"
  echo "$c: $execs executions, $blocked blocked, $cpu CPU s"
done
cat "$md"
exit $status
