#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/beem.sh: mcgen against SPIN on BEEM instances of 10^6 to 10^7 states.
#
# For each instance: mcgen compiles BEEM's dve/NAME.dve twice (its default
# flags, and with --cflags "-O3 -march=native"; checker run with
# --no-deadlock: the whole state space, as BEEM counts it) and SPIN compiles
# BEEM's own Promela translation promela/NAME.pm (`spin -a`, then pan built
# with the flags SPIN's manual gives for a safety search, PAN_CFLAGS in
# bench/lib.sh, twice: with -DNOREDUCE, a full search like mcgen's, and with
# SPIN's default partial-order reduction; mcgen has none). pan runs
# with -E (no invalid-end-state check, as --no-deadlock), -n, a search depth
# limit -m and a hash table -w fitted to the instance (below; pan fails
# loudly here if the depth limit was too small). Each binary runs
# single-threaded, one after the other, --repeat N times (the run with the
# least CPU time is kept), timed by /usr/bin/time (CPU = user + sys, peak
# RSS); pan's own "total actual memory usage" is read too.
#
# The two encodings differ (Promela's d_steps and gotos are not DVE's
# transitions), so the state counts differ: the table gives both and the
# difference. mcgen's count must equal BEEM's published one (else loud
# error, exit 1). states/CPU s = states / CPU seconds; bytes/state = peak
# RSS / states; ratios are mcgen / SPIN (the machine is shared: CPU times,
# not wall times).
#
# Outputs go to bench/out/beem/ (beem.md, beem.csv, logs, binaries).
#
# Usage: bench/beem.sh [--repeat N] [--timeout SECONDS] [NAME...]
#        bench/beem.sh --render bench/out/beem/beem.csv   (the table only)
#   MCGEN=/other/build/mcgen bench/beem.sh ...; BEEM_DIR overrides the suite
#   (default ../shared/suites/beem from the repo root: tools/suite-dir beem).
set -euo pipefail

# name, pan -m (about twice the depth pan reaches, DFS), pan -w (log2 of the
# hash table: about SPIN's state count, no more).
instances="
adding.4 1000 22
at.3 420000 21
bopdp.3 1000 20
fischer.3 300000 22
iprotocol.3 4000 22
lamport.5 100000 18
lann.3 3000000 23
leader_filters.5 1000 21
peterson.4 160000 21
sorter.3 2000 20
"

usage() {
  sed -n '2,30s/^# \{0,1\}//p' "$0"
}

cmdline="bench/beem.sh${*:+ $*}"
repeat=3
timeout_s=900
render=
names=()
while [ $# -gt 0 ]; do
  case $1 in
    --repeat) [ $# -ge 2 ] || { usage >&2; exit 2; }; repeat=$2; shift 2 ;;
    --timeout) [ $# -ge 2 ] || { usage >&2; exit 2; }; timeout_s=$2; shift 2 ;;
    --render) [ $# -ge 2 ] || { usage >&2; exit 2; }; render=$2; shift 2 ;;
    --help|-h) usage; exit 0 ;;
    -*) echo "bench/beem.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) names+=("$1"); shift ;;
  esac
done
case $repeat in ''|*[!0-9]*|0) echo "bench/beem.sh: --repeat needs a positive integer" >&2; exit 2 ;; esac

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if ! beem=$(tools/suite-dir beem); then
  echo "################################################################"
  echo "SKIP: the BEEM bench NOT RUN: no BEEM suite (../shared/suites/beem)"
  echo "################################################################"
  exit 0
fi
out=bench/out/beem
mkdir -p "$out"

tools/install-deps spin time
# use_mcgen, measure, human, div, xsign, commas; the tools' build flags
# (PAN_CFLAGS, MCGEN_NATIVE_CFLAGS); $cpu and $mem_total.
. bench/lib.sh
use_mcgen

[ ${#names[@]} -gt 0 ] || mapfile -t names < <(awk 'NF { print $1 }' <<<"$instances")

# The published states of an instance (complete=yes rows only).
beem_states() {
  tools/beem-expected "$beem" | awk -v n="$1" '$1 == n && $3 == "yes" { print $2 }'
}

# pan_field FILE WHAT: a number from pan's output.
pan_field() {
  case $2 in
    states) sed -n 's/^ *\([0-9]*\) states, stored.*/\1/p' "$1" ;;
    transitions) sed -n 's/^ *\([0-9]*\) transitions (= stored+matched).*/\1/p' "$1" ;;
    errors) sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$1" ;;
    memory_mb) sed -n 's/^ *\([0-9.]*\).total actual memory usage.*/\1/p' "$1" ;;
  esac | head -n 1
}

# A number of the checker's JSON report.
report_field() { grep -o "\"$2\": [0-9]*" "$1" | head -n 1 | sed 's/.*: //'; }

# row CSV-LINE: the table row of one instance of beem.csv.
row() {
  local n expected mc_states sf_states sp_states mc_wall na_wall sf_wall sp_wall
  local mc_cpu na_cpu sf_cpu sp_cpu mc_rss sf_rss sp_rss sf_mem sp_mem
  IFS=, read -r n expected mc_states sf_states sp_states mc_wall na_wall sf_wall sp_wall \
    mc_cpu na_cpu sf_cpu sp_cpu mc_rss sf_rss sp_rss sf_mem sp_mem <<<"$1"
  local mc_cps na_cps sf_cps sp_cps mc_bps sf_bps sp_bps
  mc_cps=$(div "$mc_states" "$mc_cpu" "%.0f")
  na_cps=$(div "$mc_states" "$na_cpu" "%.0f")
  sf_cps=$(div "$sf_states" "$sf_cpu" "%.0f")
  sp_cps=$(div "$sp_states" "$sp_cpu" "%.0f")
  mc_bps=$(div "$((mc_rss * 1024))" "$mc_states" "%.1f")
  sf_bps=$(div "$((sf_rss * 1024))" "$sf_states" "%.1f")
  sp_bps=$(div "$((sp_rss * 1024))" "$sp_states" "%.1f")
  local pan_bps diff_pct por_pct speed na_speed time_full time_por mem ok
  pan_bps=$(awk -v m="$sf_mem" -v s="$sf_states" 'BEGIN { printf "%.1f", m * 1048576 / s }')
  diff_pct=$(awk -v a="$sf_states" -v b="$mc_states" 'BEGIN { printf "%+.1f%%", (a - b) * 100 / b }')
  por_pct=$(awk -v a="$sp_states" -v b="$mc_states" 'BEGIN { printf "%+.1f%%", (a - b) * 100 / b }')
  speed=$(div "$mc_cps" "$sf_cps")
  na_speed=$(div "$na_cps" "$sf_cps")
  time_full=$(div "$sf_cpu" "$mc_cpu")
  time_por=$(div "$sp_cpu" "$mc_cpu")
  mem=$(div "$mc_bps" "$sf_bps")
  ok=$(awk -v c="$speed" -v m="$mem" 'BEGIN {
    print (c > 1 ? "yes" : "**no**") " / " (m < 1 ? "yes" : "**no**") }')
  mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
  echo "| $n | $(commas "$mc_states") | $(commas "$sf_states") ($diff_pct) | $(commas "$sp_states") ($por_pct) | $mc_cpu / $na_cpu / $sf_cpu / $sp_cpu | $(human "$mc_cps") / $(human "$na_cps") / $(human "$sf_cps") / $(human "$sp_cps") | **${speed}$(xsign "$speed")** | ${na_speed}$(xsign "$na_speed") | ${time_full}$(xsign "$time_full") / ${time_por}$(xsign "$time_por") | $(mib "$mc_rss") / $(mib "$sf_rss") / $(mib "$sp_rss") | $mc_bps / $sf_bps / $sp_bps | $pan_bps | **$mem** | $ok |"
}

# table CSV: the legend and the markdown table of a beem.csv.
table() {
  echo "Quadruples are \`mcgen / mcgen --cflags / pan full / pan POR\`, triples \`mcgen / pan full / pan POR\`. mcgen's states are BEEM's published count (checked); SPIN's differ (other encoding: the percentage is pan's count against mcgen's). CPU s = user + sys of the least-CPU run; states/CPU s = states / CPU s; bytes/state = peak RSS / states; pan B/state = pan's own \"total actual memory usage\" / states (full search). Speed ratio = mcgen's states/CPU s / pan full's (then the same for mcgen built with \`--cflags\`); time ratio = pan's CPU s / mcgen's for the whole instance (full / POR; below 1: pan finishes first); memory ratio = mcgen bytes/state / pan full bytes/state. Targets: speed ratio > 1, memory ratio < 1."
  echo
  echo "| instance | states mcgen = BEEM | states pan full | states pan POR | CPU s | states/CPU s | speed ratio | speed ratio, mcgen --cflags | time ratio full / POR | peak RSS MiB | bytes/state | pan B/state | memory ratio | targets (speed / memory) |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
  tail -n +2 "$1" | while IFS= read -r line; do row "$line"; done
}

if [ -n "$render" ]; then
  table "$render"
  exit 0
fi

spin_version=$(spin -V 2>&1 | head -n 1)
mcgen_version=$("$MCGEN" --version 2>&1 | head -n 1)
cc_version=$("$CC" --version 2>&1 | head -n 1)
git_rev=$(git rev-parse --short HEAD 2>/dev/null || echo "?")
load_before=$(cut -d ' ' -f 1-3 /proc/loadavg)

csv="instance,beem_states,mcgen_states,spin_states,spin_por_states,mcgen_wall_s,mcgen_native_wall_s,spin_wall_s,spin_por_wall_s,mcgen_cpu_s,mcgen_native_cpu_s,spin_cpu_s,spin_por_cpu_s,mcgen_rss_kb,spin_rss_kb,spin_por_rss_kb,spin_mem_mb,spin_por_mem_mb"
failures=0

for n in "${names[@]}"; do
  read -r _ pan_m pan_w < <(awk -v n="$n" '$1 == n' <<<"$instances") || true
  if [ -z "${pan_m:-}" ] || [ "$pan_m" = 0 ]; then
    echo "bench/beem.sh: ERROR: $n has no pan -m/-w line in the instance list" >&2
    failures=$((failures + 1)); continue
  fi
  expected=$(beem_states "$n")
  dir=$out/$n
  rm -rf "$dir"
  mkdir -p "$dir"
  echo "== $n (BEEM: $expected states)" >&2

  # Builds: mcgen's checker, pan with and without reduction.
  cp "$beem/promela/$n.pm" "$dir/"
  if ! "$MCGEN" -o "$dir/mcgen_checker" "$beem/dve/$n.dve" >"$dir/build.log" 2>&1 ||
     ! "$MCGEN" -o "$dir/mcgen_native" --cflags "$MCGEN_NATIVE_CFLAGS" "$beem/dve/$n.dve" \
         >>"$dir/build.log" 2>&1; then
    echo "bench/beem.sh: ERROR: mcgen failed on dve/$n.dve (see $dir/build.log)" >&2
    failures=$((failures + 1)); continue
  fi
  # shellcheck disable=SC2086  # flag lists
  if ! (cd "$dir" && spin -a "$n.pm" &&
        "$CC" $PAN_CFLAGS -DNOREDUCE -o pan_full pan.c &&
        "$CC" $PAN_CFLAGS -o pan_por pan.c) >>"$dir/build.log" 2>&1; then
    echo "bench/beem.sh: ERROR: spin or pan's build failed on promela/$n.pm (see $dir/build.log)" >&2
    failures=$((failures + 1)); continue
  fi

  echo "   mcgen checker" >&2
  measure "$dir" mcgen "$dir/mcgen_checker" --no-deadlock --por off --quiet --progress 0 --threads 1 \
    --report "$dir/report.json"
  mc_rc=$run_rc mc_wall=$best_wall mc_cpu=$best_cpu mc_rss=$best_rss_kb
  echo "   mcgen checker, --cflags \"$MCGEN_NATIVE_CFLAGS\"" >&2
  measure "$dir" native "$dir/mcgen_native" --no-deadlock --por off --quiet --progress 0 --threads 1 \
    --report "$dir/native.json"
  na_rc=$run_rc na_wall=$best_wall na_cpu=$best_cpu
  echo "   pan -DNOREDUCE" >&2
  measure "$dir" pan_full "$dir/pan_full" -m"$pan_m" -w"$pan_w" -E -n
  sf_rc=$run_rc sf_wall=$best_wall sf_cpu=$best_cpu sf_rss=$best_rss_kb
  echo "   pan (partial-order reduction)" >&2
  measure "$dir" pan_por "$dir/pan_por" -m"$pan_m" -w"$pan_w" -E -n
  sp_rc=$run_rc sp_wall=$best_wall sp_cpu=$best_cpu sp_rss=$best_rss_kb

  mc_states=$(report_field "$dir/report.json" states 2>/dev/null || true)
  sf_states=$(pan_field "$dir/pan_full.out" states)
  sp_states=$(pan_field "$dir/pan_por.out" states)
  bad=
  [ "$mc_rc" = 0 ] || bad="$bad mcgen's checker exited $mc_rc;"
  [ "${mc_states:-}" = "$expected" ] || bad="$bad mcgen found ${mc_states:-no} states, BEEM $expected;"
  [ "$na_rc" = 0 ] || bad="$bad mcgen's checker built with --cflags exited $na_rc;"
  [ "$(report_field "$dir/native.json" states 2>/dev/null || true)" = "$expected" ] ||
    bad="$bad mcgen built with --cflags found another state count;"
  for v in full por; do
    f=$dir/pan_$v.out
    rc_var=s${v:0:1}_rc
    [ "${!rc_var}" = 0 ] || bad="$bad pan_$v exited ${!rc_var};"
    grep -q 'max search depth too small' "$f" && bad="$bad pan_$v: -m $pan_m too small;"
    [ "$(pan_field "$f" errors)" = 0 ] || bad="$bad pan_$v reports errors;"
    [ -n "$(pan_field "$f" states)" ] || bad="$bad pan_$v printed no state count;"
  done
  if [ -n "$bad" ]; then
    echo "bench/beem.sh: ERROR: $n:$bad see $dir/" >&2
    failures=$((failures + 1)); continue
  fi
  sf_mem=$(pan_field "$dir/pan_full.out" memory_mb)
  sp_mem=$(pan_field "$dir/pan_por.out" memory_mb)

  csv="$csv"$'\n'"$n,$expected,$mc_states,$sf_states,$sp_states,$mc_wall,$na_wall,$sf_wall,$sp_wall,$mc_cpu,$na_cpu,$sf_cpu,$sp_cpu,$mc_rss,$sf_rss,$sp_rss,$sf_mem,$sp_mem"
done

load_after=$(cut -d ' ' -f 1-3 /proc/loadavg)
printf '%s\n' "$csv" >"$out/beem.csv"

{
  echo "## mcgen vs SPIN on BEEM"
  echo
  echo "Command: \`$cmdline\`, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "- machine: $cpu, $(nproc) CPUs (nproc), $mem_total RAM, $(uname -sr)"
  echo "- load average: $load_before before, $load_after after (1, 5, 15 min)"
  echo "- mcgen: $mcgen_version (git $git_rev); \`mcgen dve/NAME.dve\` (checker \`-std=c11 -O2 -g\`; second build \`--cflags \"$MCGEN_NATIVE_CFLAGS\"\`), run with \`--no-deadlock --por off\` (the full graph, as BEEM counts it)"
  echo "- SPIN: $spin_version; \`spin -a promela/NAME.pm\`, pan built with \`$CC $PAN_CFLAGS\` (SPIN's manual, see bench/lib.sh) and \`-DNOREDUCE\` (full) or not (POR), run with \`-E -n -mDEPTH -wBITS\` (DFS)"
  echo "- C compiler: $cc_version"
  echo "- each binary run $repeat time(s), the run with the least CPU time (user + sys) kept; time and peak RSS from \`/usr/bin/time\`"
  echo
  table "$out/beem.csv"
} >"$out/beem.md"

echo
cat "$out/beem.md"
echo
echo "(written to $out/beem.md and $out/beem.csv; logs and binaries in $out/NAME/)"
if [ "$failures" -ne 0 ]; then
  echo "bench/beem.sh: ERROR: $failures instance(s) failed (see above)" >&2
  exit 1
fi
