#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/profile.sh: where one thread's work goes, per transition, by phase.
#
# For each instance (default: the six BEEM instances of issue 42 and the
# Rumur bench models german and philosophers), mcgen builds the checker at
# its default flags (BEEM's dve/NAME.dve, or bench/models/NAME.mc) and runs
# it once under Valgrind's callgrind (`--threads 1 --por off --no-deadlock
# --symmetry off --liveness off`: the full graph, one thread). callgrind
# counts the instructions each function executes (its own, not its
# callees'), which a loaded machine does not change, unlike times. Each
# function is put in one phase by its name and file (classify, below; a
# helper the C compiler inlined counts with the function it was inlined
# into, and callgrind names it by the helper's file and that function), and
# the table gives each phase's instructions per transition:
#
#   guards      the generated dispatch and guard tests (mc_successors*,
#               x_* loops over the bindings, ga_* guard functions)
#   build       the generated construction of successors (a_*: an action
#               without parameters is one function, its guard then its body)
#   checks      invariants, reachables and the other predicates on new states
#   fingerprint hashing a successor (XXH3, and store.h's wrapper and home
#               slot for the prefetch, inlined into mcrt_emit_successor)
#   probe       the probe of the fingerprint set and the insertion, with
#               its wrappers
#   growth      the set's growths (migrating the table)
#   log         the trace log's appends
#   frontier    the frontier's pushes and pops
#   copy        state copies (core.h's mcrt_copy_state, inlined, and
#               libc's memcpy and memmove: these include the shifts of a
#               sorted fingerprint set's clusters)
#   engine      the search's own bookkeeping (search.c: the batch ring,
#               counters, the loop)
#   other       the rest (start-up, the summary)
#
# Kernel work (page faults of the set's growths) is not in these counts.
#
# Usage: bench/profile.sh [--out DIR] [--reuse] [NAME...]
#   --reuse: tabulate DIR's profiles of an earlier run again, running nothing
#   NAME: a BEEM instance (dve/NAME.dve) or a bench model (bench/models/NAME.mc)
#   MCGEN=/other/build/mcgen bench/profile.sh ...; BEEM_DIR overrides the suite.
# Output: DIR/profile.md (default bench/out/profile), with the callgrind
# files and the annotated profiles beside it.
set -euo pipefail

usage() { sed -n '2,42s/^# \{0,1\}//p' "$0"; }

out=bench/out/profile
reuse=false
names=()
while [ $# -gt 0 ]; do
  case $1 in
    --out) [ $# -ge 2 ] || { usage >&2; exit 2; }; out=$2; shift 2 ;;
    --reuse) reuse=true; shift ;;
    --help|-h) usage; exit 0 ;;
    -*) echo "bench/profile.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) names+=("$1"); shift ;;
  esac
done
[ ${#names[@]} -gt 0 ] ||
  names=(leader_filters.5 lamport.5 sorter.3 adding.4 peterson.4 at.3 german philosophers)

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
command -v valgrind >/dev/null || tools/install-deps valgrind
built="git $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
if [ -n "${MCGEN:-}" ]; then
  built="MCGEN=$MCGEN"
elif ! $reuse; then
  make -s deps all
  MCGEN=$root/build/mcgen
fi
beem=$(tools/beem-dir 2>/dev/null || true)
mkdir -p "$out"

# classify: reads callgrind_annotate's lines (count, file:function) and
# prints "phase count" for each.
classify() {
  awk '
    /^ *[0-9,]+ +[^ ]*:/ {
      n = $1; gsub(",", "", n)
      name = $2; file = name; sub(/:[^:]*$/, "", file); fn = name; sub(/^.*:/, "", fn)
      if (fn ~ /^(mc_successors|x_|ga_)/) p = "guards"
      else if (fn ~ /^a_/) p = "build"
      else if (fn ~ /^(inv_|reach_|prop_|mc_check_|mc_is_|mc_within|mc_property)/) p = "checks"
      else if (file ~ /xxhash\.h$/ || fn ~ /^(XXH|mcrt_fingerprint)/ ||
               (file ~ /store\/store\.h$/ && fn == "mcrt_emit_successor")) p = "fingerprint"
      else if (fn ~ /^(migrate|sort_|place|mcrt_fpset_grow|extend_overflow|grow_set)/) p = "growth"
      else if (fn ~ /^(insert|counted|mcrt_fpset_insert|mcrt_fpset_contains|mcrt_fpset_probe)/) p = "probe"
      else if (file ~ /store\/log\.c$/ || (file ~ /store\.h$/ && fn == "record_new")) p = "log"
      else if (file ~ /store\/queue\.c$/) p = "frontier"
      else if (fn ~ /^(__memcpy|__memmove|memcpy|memmove)/ || file ~ /core\/core\.h$/) p = "copy"
      else if (file ~ /runtime\/(engine|context|core|store)\// || file ~ /runtime\/mcrt\.h$/) p = "engine"
      else p = "other"
      print p, n
    }'
}

phases="guards build checks fingerprint probe growth log frontier copy engine other"

# profile NAME SPEC: builds NAME's checker and runs it under callgrind.
profile() {
  local n=$1 spec=$2
  "$MCGEN" -o "$out/$n" "$spec" >"$out/$n.build.log" 2>&1 ||
    { echo "bench/profile.sh: ERROR: mcgen failed on $spec (see $out/$n.build.log)" >&2; exit 1; }
  valgrind --tool=callgrind --callgrind-out-file="$out/$n.callgrind" "$out/$n" --threads 1 \
    --por off --no-deadlock --symmetry off --liveness off --progress 0 \
    --report "$out/$n.json" >"$out/$n.out" 2>"$out/$n.valgrind" ||
    { echo "bench/profile.sh: ERROR: the checker of $n failed (see $out/$n.out)" >&2; exit 1; }
  callgrind_annotate --threshold=100 --show-percs=no "$out/$n.callgrind" >"$out/$n.annotated" 2>/dev/null
}

# tabulate NAME: appends NAME's row to the table.
tabulate() {
  local n=$1 states trans
  [ -s "$out/$n.annotated" ] && [ -s "$out/$n.json" ] ||
    { echo "bench/profile.sh: ERROR: no profile of $n in $out (run without --reuse)" >&2; exit 1; }
  states=$(grep -o '"states": [0-9]*' "$out/$n.json" | head -n 1 | sed 's/.*: //')
  trans=$(grep -o '"transitions": [0-9]*' "$out/$n.json" | head -n 1 | sed 's/.*: //')
  classify <"$out/$n.annotated" | awk -v n="$n" -v s="$states" -v t="$trans" -v phases="$phases" '
    { sum[$1] += $2; total += $2 }
    END {
      printf "| %s | %d | %d | %.0f |", n, s, t, total / t
      k = split(phases, ps, " ")
      for (i = 1; i <= k; i++) printf " %.1f |", sum[ps[i]] / t
      printf "\n"
    }' >>"$out/profile.md"
}
{
  echo "## Instructions per transition, by phase"
  echo
  echo "Command: \`bench/profile.sh${names[*]:+ ${names[*]}}\`, $(date -u '+%Y-%m-%d %H:%M UTC'), $built"
  echo
  echo "callgrind's instruction counts of one run (\`--threads 1 --por off --no-deadlock\`), each function's own, divided by the transitions; the phases are those of bench/profile.sh's header."
  echo
  printf '| instance | states | transitions | total |'
  for p in $phases; do printf ' %s |' "$p"; done
  echo
  printf '| --- | ---: | ---: | ---: |'
  for p in $phases; do printf ' ---: |'; done
  echo
} >"$out/profile.md"

for n in "${names[@]}"; do
  if [ -f "bench/models/$n.mc" ]; then
    spec=bench/models/$n.mc
  elif [ -n "$beem" ] && [ -f "$beem/dve/$n.dve" ]; then
    spec=$beem/dve/$n.dve
  else
    echo "bench/profile.sh: ERROR: no bench/models/$n.mc and no BEEM dve/$n.dve" >&2
    exit 1
  fi
  echo "== $n" >&2
  $reuse || profile "$n" "$spec"
  tabulate "$n"
done
cat "$out/profile.md"
echo
echo "(written to $out/profile.md; the annotated profiles beside it)"
