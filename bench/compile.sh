#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/compile.sh: how long mcgen takes to build a checker, on the largest
# inputs there are.
#
# Inputs: the TOP (default 10) BEEM models whose generated C is largest (every
# dve/NAME.dve of the suite is translated with `mcgen --emit-c` once, to rank
# them), the largest specs of specs/ (the TOP_SPECS largest by generated C,
# default 3), and a generated spec of 10,000 actions over one bit of state
# (the shape tests/malformed/run.sh builds at -O0; here at the default
# optimisation).
#
# For each input: `mcgen -o NAME INPUT` at its default flags, timed by
# /usr/bin/time: CPU = user + sys of mcgen and everything it waits for (m4,
# the C compiler, the linker), the run with the least CPU of --repeat N (the
# machine is shared: CPU, not wall time), its peak RSS (the largest single
# process: in practice cc1), and the size of the generated C.
#
# --before MCGEN2 builds every input with a second mcgen as well (e.g. an
# older commit's, built in a temporary `git worktree` under /tmp) and prints
# both and the ratio after / before (below 1: faster now).
#
# Outputs (logs, C files, compile.md, compile.csv) go to bench/out/compile/.
#
# Usage: bench/compile.sh [--repeat N] [--timeout SECONDS] [--top N]
#                         [--top-specs N] [--no-actions] [--before MCGEN2]
#                         [NAME...]
#   NAME: a BEEM model (pouring.2), a spec of specs/ (german), or actions_10000;
#   when names are given, only those are built.
#   MCGEN=/other/build/mcgen bench/compile.sh ... measures that mcgen instead
#   of this tree's build/mcgen; BEEM_DIR overrides the suite (tools/suite-dir
#   beem).
set -euo pipefail

usage() {
  sed -n '2,31s/^# \{0,1\}//p' "$0"
}

cmdline="bench/compile.sh${*:+ $*}"
repeat=1
timeout_s=900
top=10
top_specs=3
actions=1
before=
names=()
while [ $# -gt 0 ]; do
  case $1 in
    --repeat) [ $# -ge 2 ] || { usage >&2; exit 2; }; repeat=$2; shift 2 ;;
    --timeout) [ $# -ge 2 ] || { usage >&2; exit 2; }; timeout_s=$2; shift 2 ;;
    --top) [ $# -ge 2 ] || { usage >&2; exit 2; }; top=$2; shift 2 ;;
    --top-specs) [ $# -ge 2 ] || { usage >&2; exit 2; }; top_specs=$2; shift 2 ;;
    --no-actions) actions=0; shift ;;
    --before) [ $# -ge 2 ] || { usage >&2; exit 2; }; before=$2; shift 2 ;;
    --help|-h) usage; exit 0 ;;
    -*) echo "bench/compile.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) names+=("$1"); shift ;;
  esac
done
for v in "$repeat" "$top" "$top_specs"; do
  case $v in ''|*[!0-9]*) echo "bench/compile.sh: --repeat, --top and --top-specs need a number" >&2; exit 2 ;; esac
done
[ "$repeat" -gt 0 ] || { echo "bench/compile.sh: --repeat needs a positive integer" >&2; exit 2; }
if [ -n "$before" ]; then
  [ -x "$before" ] || { echo "bench/compile.sh: --before $before: not an executable" >&2; exit 2; }
  before=$(cd "$(dirname "$before")" && pwd)/$(basename "$before")
fi

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=bench/out/compile
mkdir -p "$out"

tools/install-deps time
# use_mcgen, measure, div, commas; $cpu and $mem_total.
. bench/lib.sh
use_mcgen

beem=$(tools/suite-dir beem) || beem=

# --- the inputs ----------------------------------------------------------------

# c_size INPUT: the size in bytes of the C that $MCGEN writes for INPUT.
c_size() {
  local c
  c=$out/emit/$(basename "${1%.*}")
  mkdir -p "$out/emit"
  if "$MCGEN" --emit-c -o "$c" "$1" >/dev/null 2>&1; then
    wc -c <"$c.c"
  else
    echo 0
  fi
}

# largest N FILE...: the N files with the largest generated C, largest first.
largest() {
  local n=$1 f; shift
  for f in "$@"; do echo "$(c_size "$f") $f"; done | sort -rn | head -n "$n" | cut -d ' ' -f 2
}

actions_spec=$out/actions_10000.mc
{ echo "// 10,000 actions over one bit of state (bench/compile.sh)."
  echo "var x: 0..1;"
  for ((i = 0; i < 10000; i++)); do echo "action a$i { x = 1 - x; }"; done
  echo "invariant ok: x <= 1;"; } >"$actions_spec"

inputs=()
if [ ${#names[@]} -gt 0 ]; then
  for n in "${names[@]}"; do
    if [ "$n" = actions_10000 ]; then inputs+=("$actions_spec")
    elif [ -f "specs/$n.mc" ]; then inputs+=("specs/$n.mc")
    elif [ -n "$beem" ] && [ -f "$beem/dve/$n.dve" ]; then inputs+=("$beem/dve/$n.dve")
    else echo "bench/compile.sh: no BEEM model or spec named $n" >&2; exit 2
    fi
  done
else
  echo "== ranking the inputs by the size of their generated C" >&2
  if [ -n "$beem" ]; then
    mapfile -t -O "${#inputs[@]}" inputs < <(largest "$top" "$beem"/dve/*.dve)
  else
    echo "SKIP: no BEEM suite (../shared/suites/beem): specs only" >&2
  fi
  mapfile -t -O "${#inputs[@]}" inputs < <(largest "$top_specs" specs/*.mc)
  [ "$actions" -eq 0 ] || inputs+=("$actions_spec")
fi

# --- measurement ---------------------------------------------------------------

mcgen_version=$("$MCGEN" --version 2>&1 | head -n 1)
cc_version=$("$CC" --version 2>&1 | head -n 1)
git_rev() { git -C "$(dirname "$1")/.." rev-parse --short HEAD 2>/dev/null || echo "?"; }
load_before=$(cut -d ' ' -f 1-3 /proc/loadavg)

# build TAG MCGEN INPUT DIR: builds INPUT with MCGEN into DIR/TAG_checker;
# sets size (bytes of C), cpu_s (best_cpu; "fail" if the build failed), rss.
build() {
  local tag=$1 mcgen=$2 input=$3 dir=$4
  measure "$dir" "$tag" "$mcgen" -o "$dir/${tag}_checker" "$input"
  if [ "$run_rc" -ne 0 ]; then
    echo "bench/compile.sh: ERROR: $mcgen failed on $input (see $dir/$tag.err)" >&2
    cpu_s=fail; rss=0; size=0; failures=$((failures + 1)); return
  fi
  cpu_s=$best_cpu; rss=$best_rss_kb
  size=$(wc -c <"$dir/${tag}_checker.c")
  rm -f "$dir/${tag}_checker"   # only the C is worth keeping
}

failures=0
csv="input,c_bytes,cpu_s,rss_kb,c_bytes_before,cpu_s_before,rss_kb_before"
for input in "${inputs[@]}"; do
  name=$(basename "${input%.*}")
  dir=$out/$name
  mkdir -p "$dir"
  echo "== $name" >&2
  build now "$MCGEN" "$input" "$dir"
  line="$name,$size,$cpu_s,$rss"
  if [ -n "$before" ]; then
    build before "$before" "$input" "$dir"
    line="$line,$size,$cpu_s,$rss"
  else
    line="$line,,,"
  fi
  csv="$csv"$'\n'"$line"
done
printf '%s\n' "$csv" >"$out/compile.csv"

# --- the table -----------------------------------------------------------------

mib() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
{
  echo "# mcgen compile times"
  echo
  echo "\`$cmdline\` on $(date -u '+%Y-%m-%d %H:%M UTC'): $cpu, $mem_total, load $load_before;"
  echo "$cc_version. mcgen: $MCGEN ($mcgen_version, $(git_rev "$MCGEN"))."
  [ -z "$before" ] || echo "Before: $before ($(git_rev "$before"))."
  echo
  echo "CPU s = user + sys of mcgen and its children (m4, cc, ld) at mcgen's default flags, the least of $repeat run(s); RSS = the peak of the largest process (cc1)."
  echo
  if [ -n "$before" ]; then
    echo "| input | C KiB before | C KiB now | CPU s before | CPU s now | now / before | RSS MiB before / now |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
  else
    echo "| input | C KiB | CPU s | RSS MiB |"
    echo "|---|---:|---:|---:|"
  fi
  tail -n +2 "$out/compile.csv" | while IFS=, read -r n sz c r bsz bc br; do
    if [ -n "$before" ]; then
      ratio=$(div "$c" "$bc")
      echo "| $n | $(commas $((bsz / 1024))) | $(commas $((sz / 1024))) | $bc | $c | **${ratio}$(xsign "$ratio")** | $(mib "$br") / $(mib "$r") |"
    else
      echo "| $n | $(commas $((sz / 1024))) | $c | $(mib "$r") |"
    fi
  done
} >"$out/compile.md"
cat "$out/compile.md"
[ "$failures" -eq 0 ]
