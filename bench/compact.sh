#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/compact.sh: the compact fingerprint set (--compact-set) against the
# word layout, and optionally against the compact set of another commit:
# bytes per entry, load at the end, inserts and lookups per CPU second
# (tests/unit/runtime/bench/bench_fpset.c: N distinct fingerprints inserted
# from a set of 2^14 slots, growing, then all looked up again).
#
# Usage: bench/compact.sh [N...]        default: 10000000 100000000
#   BEFORE=REV bench/compact.sh ...     also the compact set of git REV
#                                       (built from `git archive REV`)
# Outputs: bench/out/compact/compact.md (one line per run). 10^8 entries
# take about 1 GiB and a few CPU minutes per layout. For whole checkers at
# 10^7 and 10^8 states: MODES="ram compact" bench/disk.sh grid3.216 grid3.465
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000000 100000000)
out=$PWD/bench/out/compact
mkdir -p "$out"
make -s build/libmcrt.a || exit 2
now=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- runtime || echo +) # built now (+: edited)
bench_src=tests/unit/runtime/bench/bench_fpset.c
cc -std=c11 -O2 -D_GNU_SOURCE -Iruntime "$bench_src" build/libmcrt.a -lm -pthread \
  -o "$out/bench_fpset" || exit 2
runs=("now compact" "now 64")
if [ -n "${BEFORE:-}" ]; then
  rm -rf "$out/before" && mkdir -p "$out/before"
  git archive "$BEFORE" | tar -x -C "$out/before" || exit 2
  (cd "$out/before" && make -s build/libmcrt.a) >"$out/before.log" 2>&1 || {
    echo "error: building $BEFORE failed (see $out/before.log)" >&2
    exit 2
  }
  # Today's benchmark source (it names the layout), the other commit's runtime.
  cc -std=c11 -O2 -D_GNU_SOURCE -I"$out/before/runtime" "$bench_src" \
    "$out/before/build/libmcrt.a" -lm -pthread -o "$out/bench_before" || exit 2
  runs+=("before compact")
fi
md=$out/compact.md
echo "| runtime | layout and entries: result | load average |" >"$md"
echo "|---|---|---:|" >>"$md"
for n in "${sizes[@]}"; do
  for r in "${runs[@]}"; do
    set -- $r
    bin=$out/bench_fpset
    [ "$1" = before ] && bin=$out/bench_before
    load=$(cut -d' ' -f1 /proc/loadavg)
    line=$("$bin" "$n" "$2") || { echo "error: $bin $n $2 failed" >&2; exit 1; }
    label=$([ "$1" = before ] && echo "$BEFORE" || echo "$now")
    echo "| $label | $line | $load |" | tee -a "$md"
  done
done
