#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/mcc.sh: mcgen's Petri net checkers on MCC instances of 10^6 to 10^7
# states, one thread.
#
# For each instance: mcgen compiles models/NAME/model.pnml (default flags),
# the checker runs with --liveness off (the reachability graph that the
# liveness answer needs is not recorded: this measures the state-space
# search and the per-marking answers, as LTLsmin's pnml2lts-mc --state=table
# figures do) and --report; /usr/bin/time gives the CPU time (user + sys,
# the machine is shared) and the peak RSS. The state count must be the
# published one (else a loud error, exit 1). Columns: states, edges per
# state (each edge is one insertion into the fingerprint set, the search's
# main cost), CPU s, states per CPU second, bytes per state (the checker's
# accounted memory / states, as its report gives it) and peak RSS / states.
#
# Usage: bench/mcc.sh [--render] [NAME...]   (default: the fifteen below)
#   --render: only tabulate the outputs of an earlier run
#   MCGEN=/other/build/mcgen bench/mcc.sh; MCC_DIR overrides the suite
#   (default ../shared/suites/mcc beside the repo root or a parent).
# Outputs go to bench/out/mcc/ (mcc.md, logs, binaries).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
if ! mcc=$(tools/suite-dir mcc); then
  echo "SKIP: bench/mcc.sh: no MCC suite found (../shared/suites/mcc or MCC_DIR)"
  exit 0
fi
# use_mcgen
. bench/lib.sh
use_mcgen
out=$root/bench/out/mcc
mkdir -p "$out"

render=0
if [ "${1:-}" = --render ]; then render=1; shift; fi
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(Kanban-PT-00005 FMS-PT-00005 TCPcondis-PT-05 ShieldRVs-PT-003A
                                 CloudOpsManagement-PT-00005by00002 MAPK-PT-00008
                                 DoubleExponent-PT-003 Peterson-PT-3 LamportFastMutEx-PT-4
                                 SatelliteMemory-PT-X01000Y0032 GPPP-PT-C0001N0000000010
                                 SwimmingPool-PT-02 ShieldIIPt-PT-001B ShieldRVs-PT-002B
                                 ClientsAndServers-PT-N0002P0)
status=0
{
  echo "| instance | states | edges/state | CPU s | states/CPU s | bytes/state (accounted) | peak RSS/state |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
} >"$out/mcc.md"
for n in "${names[@]}"; do
  expected=$(awk -F, -v n="$n" '$1 == n { print $4 }' "$mcc/mcc_pt_expected.csv")
  if [ "$render" = 0 ] && ! "$MCGEN" -o "$out/$n" "$mcc/models/$n/model.pnml" >"$out/$n.mcgen.log" 2>&1; then
    echo "ERROR: mcgen failed on $n (see $out/$n.mcgen.log)"
    status=1
    continue
  fi
  [ "$render" = 1 ] || /usr/bin/time -f '%U %S %M' -o "$out/$n.time" "$out/$n" --liveness off \
    --progress 0 --threads 1 --quiet --report "$out/$n.json" >"$out/$n.log" 2>&1
  states=$(jq .states "$out/$n.json")
  if [ "$states" != "$expected" ]; then
    echo "ERROR: $n: $states states, the published count is $expected"
    status=1
  fi
  read -r u s rss <"$out/$n.time"
  bps=$(jq .bytes_per_state "$out/$n.json")
  edges=$(jq .transitions "$out/$n.json")
  awk -v n="$n" -v st="$states" -v ed="$edges" -v u="$u" -v s="$s" -v rss="$rss" -v bps="$bps" 'BEGIN {
    cpu = u + s; rate = 0; if (cpu > 0) rate = st / cpu
    printf "| %s | %d | %.1f | %.2f | %.0f | %.1f | %.1f |\n", n, st, ed / st, cpu, rate, bps, rss * 1024 / st
  }' >>"$out/mcc.md"
done
cat "$out/mcc.md"
exit $status
