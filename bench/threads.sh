#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/threads.sh: states per second with --threads 2 against --threads 1,
# on BEEM instances of 10^6 to 10^7 states, and bytes per state at each.
#
# For each instance: mcgen compiles BEEM's dve/NAME.dve (default flags), and
# the checker runs the whole state space (--no-deadlock, as BEEM counts it)
# with --threads 1 and --threads 2, in --repeat N rounds, each round running
# every setting once in turn (the fastest run of each is kept). Speed is
# states per WALL second (threads exist to cut wall time; CPU time grows
# with them), timed to the microsecond; bytes/state is
# the report's (accounted memory at the end / states) and peak RSS / states.
# CPU seconds (user + system) and the report's thread_phases_s (wall
# seconds of the expand, insert and commit phases) are kept beside them:
# on a loaded machine the wall-clock ratio says little, the CPU seconds
# still say what the threads cost. The counts of the two runs must be
# equal, and equal to BEEM's published one (else a loud error, exit 1). The machine is shared: the load average
# before each run is recorded next to it, and a ratio measured under load
# is a lower bound of what a quiet machine gives.
#
# The cores need not be equally fast: on the virtual machines this was
# measured on, one of the two cores ran the same single-thread search up to
# 1.5 times slower than the other, and which one changed from hour to hour
# (docs/performance.md "Unequal cores"). So the one-thread runs are pinned
# (taskset), REPEAT times on each of the first T cores in turn: "1 thread"
# is the fastest core's best, and T threads can reach at most the sum of
# the T cores' own rates (the "bound" column; the "efficiency" is T
# threads' rate over it). Without taskset, or with fewer than T cores, the
# one-thread runs are not pinned and the bound is not given.
#
# Outputs go to bench/out/threads/ (threads.md, threads.csv, logs), or
# bench/out/threads-free/ with --order free.
#
# Usage: bench/threads.sh [--repeat N] [--threads T] [--order fixed|free] [NAME...]
#   --repeat N   runs per setting (default 2; the fastest is kept)
#   default NAMES: lamport.5 peterson.4 at.3 fischer.3 bakery.5 bakery.6
#   --threads T  the thread count compared with 1 (default 2)
#   --order O    the checker's --order (here fixed unless given, as in the figures
#                of docs/performance.md; the checker's own default is free; one
#                thread ignores it)
#   MCGEN=/other/build/mcgen bench/threads.sh ...; BEEM_DIR overrides the
#   suite (see tools/suite-dir beem).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# use_mcgen
. bench/lib.sh
use_mcgen
REPEAT=2
T=2
ORDER=fixed
names=()
while [ $# -gt 0 ]; do
  case $1 in
  --repeat) REPEAT=$2; shift 2 ;;
  --threads) T=$2; shift 2 ;;
  --order) ORDER=$2; shift 2 ;;
  *) names+=("$1"); shift ;;
  esac
done
[ ${#names[@]} -gt 0 ] || names=(lamport.5 peterson.4 at.3 fischer.3 bakery.5 bakery.6)
beem=$(tools/suite-dir beem) || { echo "error: the BEEM suite is not there (tools/suite-dir beem)" >&2; exit 2; }
out=bench/out/threads
[ "$ORDER" = fixed ] || out=$out-$ORDER
mkdir -p "$out"
csv=$out/threads.csv
echo "name,beem_states,threads,cpu,states,wall_s,cpu_s,states_per_wall_s,report_bytes_per_state,rss_bytes_per_state,load,expand_s,insert_s,commit_s" >"$csv"
status=0
# Pin the one-thread runs when taskset is there and T cores are online.
pin=no
if command -v taskset >/dev/null && [ "$(nproc)" -ge "$T" ]; then pin=yes; fi

# A setting's file tag: t1.cpu0 (one thread pinned to cpu 0), t2 (unpinned).
tag_of() {
  local t=${1%%:*} cpu=${1#*:}
  case $cpu in any | all) echo "t$t" ;; *) echo "t$t.cpu$cpu" ;; esac
}

expected() { python3 -c 'import csv,sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["name"] == sys.argv[2]: print(r["states"])' "$beem/beem_expected.csv" "$1"; }

for name in "${names[@]}"; do
  want=$(expected "$name")
  bin=$out/$name
  if ! "$MCGEN" -o "$bin" "$beem/dve/$name.dve" >"$out/$name.mcgen.log" 2>&1; then
    echo "error: mcgen failed on $name (see $out/$name.mcgen.log)" >&2
    status=1
    continue
  fi
  # One thread pinned to each of the first T cores (cpu k), then T threads.
  settings=()
  if [ "$pin" = yes ]; then
    for k in $(seq 0 $((T - 1))); do settings+=("1:$k"); done
  else
    settings+=("1:any")
  fi
  settings+=("$T:all")
  # The settings alternate within each round (1 thread on cpu 0, on cpu 1,
  # then T threads; REPEAT rounds), so that the machine's drift over the
  # minutes (the same run here varies by a third from one minute to the
  # next) falls on every setting alike, not on the settings run last.
  declare -A best=()
  for r in $(seq "$REPEAT"); do
    for setting in "${settings[@]}"; do
      t=${setting%%:*} cpu=${setting#*:}
      run=()
      case $cpu in any | all) ;; *) run=(taskset -c "$cpu") ;; esac
      tag=$(tag_of "$setting")
      load=$(cut -d' ' -f1 /proc/loadavg)
      # The wall time to the microsecond (EPOCHREALTIME): /usr/bin/time's
      # is in hundredths, a step of 7% in the 0.14 s of lamport.5 at 2
      # threads; it gives the CPU times and peak RSS.
      t0=$EPOCHREALTIME
      /usr/bin/time -f '%U %S %M' -o "$out/$name.$tag.time" \
        "${run[@]}" "$bin" --no-deadlock --por off --progress 0 --threads "$t" --order "$ORDER" \
        --report "$out/$name.$tag.r$r.json" >"$out/$name.$tag.log" 2>&1
      t1=$EPOCHREALTIME
      read -r user sys rss_kb <"$out/$name.$tag.time"
      wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')
      got=$(jq .states "$out/$name.$tag.r$r.json" 2>/dev/null)
      if [ "$got" != "$want" ]; then
        echo "error: $name --threads $t (cpu $cpu), round $r: ${got:-no report} states, BEEM says $want" >&2
        status=1
      fi
      b=${best[$setting]:-}
      if [ -z "$b" ] || awk -v a="$wall" -v b="${b%% *}" 'BEGIN { exit !(a < b) }'; then
        phases=$(jq -r '.thread_phases_s // {} | "\(.expand // "") \(.insert // "") \(.commit // "")"' \
          "$out/$name.$tag.r$r.json")
        best[$setting]="$wall $user $sys $rss_kb $load $phases"
        cp "$out/$name.$tag.r$r.json" "$out/$name.$tag.json"
      fi
      rm -f "$out/$name.$tag.r$r.json"
    done
  done
  for setting in "${settings[@]}"; do # (each run's count was checked above)
    t=${setting%%:*} cpu=${setting#*:}
    tag=$(tag_of "$setting")
    read -r wall user sys rss_kb load ex ins com <<<"${best[$setting]}"
    states=$(jq .states "$out/$name.$tag.json")
    bps=$(jq .bytes_per_state "$out/$name.$tag.json")
    awk -v n="$name" -v w="$want" -v t="$t" -v c="$cpu" -v s="$states" -v wall="$wall" -v u="$user" \
      -v sy="$sys" -v rss="$rss_kb" -v bps="$bps" -v load="$load" -v ex="${ex:-}" -v ins="${ins:-}" \
      -v com="${com:-}" 'BEGIN {
        printf "%s,%s,%s,%s,%s,%s,%.2f,%.0f,%s,%.1f,%s,%s,%s,%s\n", n, w, t, c, s, wall, u + sy,
          s / (wall > 0 ? wall : 0.01), bps, rss * 1024 / s, load, ex, ins, com }' >>"$csv"
  done
  unset best
done

# The table: one row per instance, the ratios of T threads to 1.
python3 - "$csv" "$T" >"$out/threads.md" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
t = sys.argv[2]
print(f"| instance | states | states/s, 1 thread (fastest core) | slowest core / fastest | bound: the {t} cores' sum | states/s, {t} threads | speed-up | efficiency | CPU s 1 / {t} | phases at {t} (expand / insert / commit, wall s) | bytes/state 1 / {t} (accounted) | bytes/state 1 / {t} (peak RSS) | load avg 1 / {t} |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
by = {}
for r in rows:
    by.setdefault(r["name"], {}).setdefault(r["threads"], []).append(r)
for name, d in by.items():
    if "1" not in d or t not in d:
        continue
    ones, b = d["1"], d[t][0]
    rates = [float(r["states_per_wall_s"]) for r in ones]
    a = max(ones, key=lambda r: float(r["states_per_wall_s"]))
    sa, sb = max(rates), float(b["states_per_wall_s"])
    pinned = len(ones) == int(t) and all(r["cpu"] != "any" for r in ones)
    spread = f"{min(rates) / sa:.2f}" if pinned else "-"
    bound = f"{sum(rates):,.0f}" if pinned else "-"
    eff = f"{sb / sum(rates):.0%}" if pinned else "-"
    ph = " / ".join(f"{float(b[k]):.2f}" if b[k] else "-" for k in ("expand_s", "insert_s", "commit_s"))
    print(f"| {name} | {a['states']} | {sa:,.0f} | {spread} | {bound} | {sb:,.0f} | {sb / sa:.2f}x | {eff} | "
          f"{a['cpu_s']} / {b['cpu_s']} | {ph} | "
          f"{a['report_bytes_per_state']} / {b['report_bytes_per_state']} | "
          f"{a['rss_bytes_per_state']} / {b['rss_bytes_per_state']} | {a['load']} / {b['load']} |")
EOF
cat "$out/threads.md"
exit $status
