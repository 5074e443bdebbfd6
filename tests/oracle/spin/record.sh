#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Record SPIN's verdicts on the Promela twins of the liveness specs: for each
# NAME.pml given (default: all *.pml here) and each `PAN: TAG LTL ARGS...`
# line of its header comment, build pan and run it, writing the command line
# and pan's full output to NAME.TAG.spin.txt. LTL names the `ltl` formula
# checked (pan -N LTL); `-` checks none (pan is built with -DNOCLAIM: the
# plain state graph, for the state and transition counts).
# Every pan is built with `gcc -O2 -DNOREDUCE` (no partial-order reduction,
# so stored states are comparable with mcgen's).
# Usage: tests/oracle/spin/record.sh [--out DIR] [NAME.pml...]
#   --out DIR   write the recordings to DIR instead (the tests compare a
#               live run with the recorded one this way)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out_dir=$here
if [ "${1:-}" = --out ]; then
  out_dir=$(cd "$2" && pwd)
  shift 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cd "$here"
if [ $# -eq 0 ]; then set -- *.pml; fi
for pml in "$@"; do
  pml=$(basename "$pml")
  name=${pml%.pml}
  sed -n 's/^[[:space:]]*\*[[:space:]]*PAN:[[:space:]]*//p' "$pml" |
  while read -r tag ltl args; do
    rm -rf "${tmp:?}"/*
    cp "$pml" "$tmp/"
    claim=
    run="./pan $args -N $ltl"
    if [ "$ltl" = - ]; then claim=-DNOCLAIM; run="./pan $args"; fi
    (cd "$tmp" && spin -a "$pml" >spin.log 2>&1) ||
      { echo "spin -a $pml failed:" >&2; cat "$tmp/spin.log" >&2; exit 1; }
    (cd "$tmp" && gcc -O2 -DNOREDUCE $claim -o pan pan.c >cc.log 2>&1) ||
      { echo "gcc failed on the pan of $pml:" >&2; cat "$tmp/cc.log" >&2; exit 1; }
    out=$out_dir/$name.$tag.spin.txt
    {
      echo "# spin -a $pml && gcc -O2 -DNOREDUCE${claim:+ $claim} -o pan pan.c && $run"
      (cd "$tmp" && $run 2>&1) || true
    } >"$out"
    echo "$(basename "$out"): $(grep -o 'errors: [0-9]*' "$out" | head -n 1), $(sed -n 's/^ *\([0-9]*\) states, stored.*/\1 states stored/p' "$out" | head -n 1)"
  done
done
