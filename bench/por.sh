#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/por.sh: mcgen's partial-order reduction (--por on) against SPIN's
# default one, on BEEM instances.
#
# For each instance: mcgen compiles BEEM's dve/NAME.dve and runs it with
# --por off and --por on (--no-deadlock --threads 1: the state space as BEEM
# counts it, one thread); SPIN compiles BEEM's own Promela translation
# promela/NAME.pm (`spin -a`, then pan built with PAN_CFLAGS of bench/lib.sh,
# the flags SPIN's manual gives for a safety search, with its default
# partial-order reduction) and runs `pan -E -n -m1000000 -wW` (no
# invalid-end-state check, as --no-deadlock); a second pan built with
# -DNOREDUCE gives pan's count without its reduction. The table gives
# mcgen's states without and with reduction, pan's "states, stored" with and
# without its reduction, each tool's reduction factor (states off / on),
# and the CPU seconds (user + sys, /usr/bin/time) of each reduced run, the
# least of --repeat N runs. The encodings differ (Promela's atomic blocks,
# d_steps and gotos are not DVE's transitions; on some instances pan's
# count without reduction is already below mcgen's with it): the factors
# compare the reductions, the counts the state spaces as they are. The
# last five instances were added because there the two encodings agree
# (pan's count without reduction within 2 states of mcgen's): with phils.1,
# at.1, fischer.1 and leader_filters.1, nine where the counts compare the
# reductions alone.
#
# pan's hash table has 2^W slots, W the bits of twice mcgen's count without
# reduction, at least 22 (a table too small for the state space slows pan).
# --large runs the second list: eleven instances of 10^5 to 2*10^6 states
# (pan's start-up is a small part of their time), after any NAME given,
# wherever it stands among the arguments.
#
# Usage: bench/por.sh [--repeat N] [--timeout SECONDS] [--large] [NAME...]
#   MCGEN=/other/build/mcgen; BEEM_DIR overrides the suite
#   (default: tools/suite-dir beem, shared/suites/beem beside the repo root or
#   a parent).
# Outputs in bench/out/por/ (por.md, logs, binaries).
set -euo pipefail

default_instances="peterson.1 mcs.1 protocols.2 at.1 lamport.1 anderson.1 phils.1
leader_filters.1 fischer.1 bopdp.1 driving_phils.1 brp.1 phils.2 phils.3 fischer.2 at.2
elevator2.1"
large_instances="phils.4 mcs.3 protocols.4 bopdp.3 brp.3 lamport.5 peterson.4 at.3 fischer.4
leader_filters.5 reader_writer.3"

repeat=1
timeout_s=300
names=()
large=false
while [ $# -gt 0 ]; do
  case $1 in
    --repeat) repeat=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --large) large=true; shift ;;
    -h | --help) sed -n '2,36s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) names+=("$1"); shift ;;
  esac
done
if $large; then
  read -r -a more <<<"$(echo $large_instances)"
  names+=("${more[@]}")
fi
[ ${#names[@]} -gt 0 ] || read -r -a names <<<"$(echo $default_instances)"

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/lib.sh
. bench/lib.sh
use_mcgen
beem=$(tools/suite-dir beem) || { echo "bench/por.sh: no BEEM suite (tools/suite-dir beem)" >&2; exit 2; }
out=$root/bench/out/por
mkdir -p "$out"
command -v spin >/dev/null || { echo "bench/por.sh: spin is not installed (make test-deps)" >&2; exit 2; }

# pan_states FILE: pan's "states, stored".
pan_states() { sed -n 's/^ *\([0-9]*\) states, stored.*/\1/p' "$1" | head -n 1; }
mc_states() { sed -n 's/^states: *\([0-9]*\) distinct.*/\1/p' "$1" | head -n 1; }

{
  echo "Measured $(date -u +%Y-%m-%d) on $cpu ($mem_total), $(spin -V 2>&1 | head -n 1); the"
  echo "machine was shared with other jobs (CPU times, least of $repeat run(s))."
  echo
  echo "| instance | mcgen states, --por off | mcgen states, --por on | pan states, no POR | pan states, POR | on / pan | factor mcgen / pan | CPU s mcgen off / on / pan |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |"
} >"$out/por.md"
for n in "${names[@]}"; do
  dir=$out/$n
  mkdir -p "$dir"
  echo "== $n" >&2
  cp "$beem/promela/$n.pm" "$dir/"
  # shellcheck disable=SC2086  # flag list
  if ! "$MCGEN" -o "$dir/checker" "$beem/dve/$n.dve" >"$dir/build.log" 2>&1 ||
     ! (cd "$dir" && spin -a "$n.pm" && "$CC" $PAN_CFLAGS -o pan pan.c &&
        "$CC" $PAN_CFLAGS -DNOREDUCE -o pan_noreduce pan.c) >>"$dir/build.log" 2>&1; then
    echo "bench/por.sh: ERROR: building $n failed (see $dir/build.log)" >&2
    continue
  fi
  measure "$dir" off "$dir/checker" --por off --no-deadlock --progress 0 --threads 1
  off_cpu=$best_cpu off_states=$(mc_states "$dir/off.out")
  measure "$dir" on "$dir/checker" --por on --no-deadlock --progress 0 --threads 1
  on_cpu=$best_cpu on_states=$(mc_states "$dir/on.out")
  w=22
  while [ -n "${off_states:-}" ] && [ $((1 << w)) -lt $((2 * off_states)) ]; do w=$((w + 1)); done
  measure "$dir" pan "$dir/pan" -E -n -m1000000 -w$w
  pan_cpu=$best_cpu pan_st=$(pan_states "$dir/pan.out")
  "$dir/pan_noreduce" -E -n -m1000000 -w$w >"$dir/pan_noreduce.out" 2>&1 || true
  pan_nr=$(pan_states "$dir/pan_noreduce.out")
  echo "| $n | $(commas "${off_states:-?}") | $(commas "${on_states:-?}") | $(commas "${pan_nr:-?}") | $(commas "${pan_st:-?}") | $(div "${on_states:-x}" "${pan_st:-x}") | $(div "${off_states:-x}" "${on_states:-x}") / $(div "${pan_nr:-x}" "${pan_st:-x}") | ${off_cpu:-?} / ${on_cpu:-?} / ${pan_cpu:-?} |" >>"$out/por.md"
done
cat "$out/por.md"
