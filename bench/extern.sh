#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/extern.sh: the cost of calling C through `extern`. Each
# bench/extern/NAME_c.mc calls C where its twin NAME.mc has the same logic
# in .mc; both explore the same graph (the counts are compared). Each
# checker runs --repeat N times (default 5), alternating, single-threaded,
# and the least CPU time (user + sys, /usr/bin/time) of each is kept. The
# C version must be within 10% of the .mc one (its time at most 1.10 times
# the .mc time); the script prints a markdown table and exits 1 otherwise.
#
# Usage: bench/extern.sh [--repeat N] [NAME...]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# use_mcgen
. bench/lib.sh
use_mcgen
repeat=5
if [ "${1:-}" = --repeat ]; then
  repeat=$2
  shift 2
fi
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for f in "$root"/bench/extern/*_c.mc; do names+=("$(basename "$f" _c.mc)"); done
fi
out=$root/bench/out/extern
mkdir -p "$out"

# cpu BIN: the checker's CPU seconds (user + sys) for one run
cpu() {
  /usr/bin/time -f '%U %S' -o "$out/time" "$1" --quiet --progress 0 --threads 1 --symmetry off --por off \
    --report "$1.json" >/dev/null
  awk '{ printf "%.2f\n", $1 + $2 }' "$out/time"
}

status=0
echo "| model | states | .mc CPU s | C CPU s | C / .mc |"
echo "| --- | ---: | ---: | ---: | ---: |"
for name in "${names[@]}"; do
  for v in "$name" "${name}_c"; do
    (cd "$out" && "$MCGEN" -o "$v" "$root/bench/extern/$v.mc") >/dev/null
  done
  best_mc='' best_c=''
  for ((i = 0; i < repeat; i++)); do
    t=$(cpu "$out/$name")
    [ -z "$best_mc" ] || awk -v a="$t" -v b="$best_mc" 'BEGIN { exit !(a < b) }' && best_mc=$t
    t=$(cpu "$out/${name}_c")
    [ -z "$best_c" ] || awk -v a="$t" -v b="$best_c" 'BEGIN { exit !(a < b) }' && best_c=$t
  done
  s_mc=$(jq .states "$out/$name.json") s_c=$(jq .states "$out/${name}_c.json")
  if [ "$s_mc" != "$s_c" ]; then
    echo "COUNTS DIFFER: $name: $s_mc states in .mc, $s_c with C" >&2
    status=1
  fi
  ratio=$(awk -v a="$best_c" -v b="$best_mc" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 1) }')
  echo "| $name | $s_mc | $best_mc | $best_c | $ratio |"
  if awk -v r="$ratio" 'BEGIN { exit !(r > 1.10) }'; then
    echo "SLOWER: $name: C through extern takes $ratio times the .mc time (limit 1.10)" >&2
    status=1
  fi
done
exit $status
