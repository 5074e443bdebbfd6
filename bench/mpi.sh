#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/mpi.sh: the MPI engine (mcgen --mpi) on 2 ranks against 1 rank, on
# BEEM instances of about 10^6 states.
#
# Each instance's dve/NAME.dve is compiled once with `mcgen --mpi` and run
# under `mpirun -np 1` and `-np 2`, and once without it, the serial checker
# run with `--threads 1` (--no-deadlock: the whole state space, as BEEM
# counts it; every run's count must equal BEEM's published one, else a loud
# error and exit 1), in --repeat N rounds (default 9), each running the
# serial checker, 1 rank, then 2 ranks, so that the machine's drift falls on
# all alike (the fastest run of each is kept: on this shared machine the
# same run varies by half from one minute to the next). The figures come from each run's --report: the search's wall time (the
# slowest rank's), states/s, the speed-up of 2 ranks over 1 rank and over
# the serial checker (one rank pays for an engine built for several), the bytes sent
# between ranks per state, the rounds, and the share of the time the ranks
# spent in MPI calls (exchange and the per-round Allgather), the peak
# accounted memory per state of each rank. One machine: the ranks talk over
# shared memory (Open MPI's vader), the best case for the network; wall
# times, so a machine busy with other work shows it.
#
# Outputs go to bench/out/mpi/ (mpi.md, mpi.csv, logs, binaries).
#
# Usage: bench/mpi.sh [--repeat N] [--timeout SECONDS] [NAME...]
#   MCGEN=/other/build/mcgen bench/mpi.sh ...; BEEM_DIR overrides the suite.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# use_mcgen
. bench/lib.sh
use_mcgen
repeat=9
timeout_s=1800
names=()
while [ $# -gt 0 ]; do
  case $1 in
  --repeat) repeat=$2; shift 2 ;;
  --timeout) timeout_s=$2; shift 2 ;;
  *) names+=("$1"); shift ;;
  esac
done
[ ${#names[@]} -gt 0 ] || names=(peterson.4 fischer.4 leader_filters.5)

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
command -v mpirun >/dev/null || { echo "bench/mpi.sh: mpirun is missing (make test-deps)" >&2; exit 2; }
beem=$(tools/suite-dir beem) || { echo "bench/mpi.sh: no BEEM suite (tools/suite-dir beem)" >&2; exit 2; }
out=bench/out/mpi
mkdir -p "$out"
csv=$out/mpi.csv
# ranks 0: the serial checker (no MPI figures)
echo "name,ranks,states,time_s,states_per_s,bytes_sent_per_state,rounds,comm_share,peak_bytes_per_state_per_rank,cpu_s" >"$csv"

for name in "${names[@]}"; do
  want=$(tools/beem-expected "$beem" states | awk -v n="$name" '$1 == n {print $2}')
  [ -n "$want" ] || { echo "bench/mpi.sh: $name is not in beem_expected.csv" >&2; exit 2; }
  bin=$out/$name
  "$MCGEN" --mpi -o "$bin" "$beem/dve/$name.dve" >"$out/$name.mcgen.log" 2>&1
  "$MCGEN" -o "$bin.serial" "$beem/dve/$name.dve" >>"$out/$name.mcgen.log" 2>&1
  # The three settings alternate within each round (serial, 1 rank, 2
  # ranks), so that the machine's drift over the minutes falls on all alike.
  rm -f "$out/$name.0.json" "$out/$name.1.json" "$out/$name.2.json"
  for _ in $(seq 1 "$repeat"); do
    for np in 0 1 2; do # 0: the serial checker
      if [ "$np" = 0 ]; then cmd=("$bin.serial" --threads 1); else cmd=(mpirun --oversubscribe -np "$np" "$bin"); fi
      timeout "$timeout_s" "${cmd[@]}" --no-deadlock --por off --quiet \
        --report "$out/$name.$np.try.json" >"$out/$name.$np.log" 2>&1 || true
      got=$(jq .states "$out/$name.$np.try.json" 2>/dev/null || true)
      if [ "$got" != "$want" ]; then
        echo "bench/mpi.sh: ERROR: $name on $np ranks (0: serial): ${got:-no report} states, BEEM $want" >&2
        exit 1
      fi
      if [ ! -f "$out/$name.$np.json" ] ||
        jq -e --slurpfile b "$out/$name.$np.json" '.time_s < $b[0].time_s' \
          "$out/$name.$np.try.json" >/dev/null; then
        mv "$out/$name.$np.try.json" "$out/$name.$np.json"
      fi
      rm -f "$out/$name.$np.try.json"
    done
  done
  jq -r --arg n "$name" '[$n, 0, .states, .time_s, (.states / .time_s), "", "", "",
      (.memory_bytes / (.states + 1)), ""] | @csv' "$out/$name.0.json" | tr -d '"' >>"$csv"
  for np in 1 2; do # (every run's count was checked above)
    jq -r --arg n "$name" '[$n, .mpi.ranks, .states, .time_s, (.states / .time_s),
        .mpi.bytes_sent_per_state, .mpi.rounds,
        (([.mpi.per_rank[].communication_s] | add) / .mpi.ranks / .time_s),
        ([.mpi.per_rank[] | .peak_bytes / (.states + 1)] | max),
        ([.mpi.per_rank[].cpu_s] | add)] | @csv' \
      "$out/$name.$np.json" | tr -d '"' >>"$csv"
  done
done

{
  echo "| instance | states | serial: s | 1 rank: s | states/s | 2 ranks: s | states/s | speed-up (over 1 rank, serial) | CPU s (1, 2 ranks) | bytes sent/state | rounds | time in MPI | peak bytes/state/rank (serial, 1, 2) |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  awk -F, 'NR > 1 {
      k = $1; n[k] = $3
      if ($2 == 0) { t0[k] = $4; r0[k] = $5; m0[k] = $9 }
      else if ($2 == 1) { t1[k] = $4; r1[k] = $5; m1[k] = $9; u1[k] = $10 }
      else { t2[k] = $4; r2[k] = $5; b[k] = $6; ro[k] = $7; c[k] = $8; m2[k] = $9; u2[k] = $10; order[++o] = k }
    }
    END {
      for (i = 1; i <= o; i++) { k = order[i]
        printf "| %s | %d | %.2f | %.2f | %.0f | %.2f | %.0f | %.2fx, %.2fx | %.2f, %.2f | %.1f | %d | %.0f%% | %.1f, %.1f, %.1f |\n",
          k, n[k], t0[k], t1[k], r1[k], t2[k], r2[k], r2[k] / r1[k], r2[k] / r0[k], u1[k], u2[k], b[k], ro[k], 100 * c[k], m0[k], m1[k], m2[k]
      }
    }' "$csv"
} >"$out/mpi.md"
cat "$out/mpi.md"
