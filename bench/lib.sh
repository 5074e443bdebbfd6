# SPDX-License-Identifier: MIT
# shellcheck shell=bash disable=SC2034,SC2154  # sourced: the scripts set and use these variables
# bench/lib.sh: what the bench scripts share (sourced from the repo root;
# measure reads $repeat and $timeout_s): the mcgen measured, how each tool
# is built, the models of bench/run.sh and bench/liveness.sh, the tables.

CC=${CC:-cc}

# use_mcgen: MCGEN, the mcgen measured: $MCGEN when set (another build, e.g.
# an older commit's), else this tree's build/mcgen, built first (make all);
# the build's Debian packages installed either way (make deps).
use_mcgen() {
  if [ -n "${MCGEN:-}" ]; then
    make -s deps
  else
    make -s deps all
    MCGEN=$PWD/build/mcgen
  fi
}

# cc_supports FLAG: whether $CC accepts FLAG (compiles and links a stub).
cc_supports() {
  printf 'int main(void) { return 0; }\n' |
    "$CC" -x c -std=c11 "$1" -o /dev/null - >/dev/null 2>&1
}

# --- How each tool's C is compiled: as its own documentation says -------------
#
# Rumur's verifier. Rumur's README (/usr/share/doc/rumur/README.rst, "Compile
# the checker") says `cc -std=c11 -O3 my-model.c -lpthread`, "also pass
# -mcx16 if using GCC on x86-64" (its lock-free hash table needs the 16-byte
# compare-and-swap). Rumur's own build-and-run wrapper, rumur-run
# (optimisation_flags() in /usr/bin/rumur-run), adds -march=native,
# -mtune=native, -flto, -fwhole-program with GCC, and -mcx16, each where the
# compiler accepts it, links -latomic where needed, and passes rumur
# `--pointer-bits 48` when the CPU lacks 5-level paging (no la57 flag in
# /proc/cpuinfo; `man rumur`, --pointer-bits). We do exactly what rumur-run
# does.
RUMUR_CFLAGS="-std=c11 -O3"
for f in -march=native -mtune=native -flto; do
  cc_supports "$f" && RUMUR_CFLAGS="$RUMUR_CFLAGS $f"
done
if "$CC" --version 2>/dev/null | grep -qi 'gcc\|free software foundation'; then
  RUMUR_CFLAGS="$RUMUR_CFLAGS -fwhole-program"
fi
cc_supports -mcx16 && RUMUR_CFLAGS="$RUMUR_CFLAGS -mcx16"
RUMUR_ARGS=""
case $(uname -m) in
  x86_64|amd64) grep -qw la57 /proc/cpuinfo || RUMUR_ARGS="--pointer-bits 48" ;;
esac

# rumur_build C_FILE BINARY: compiles a verifier Rumur wrote (output to
# stdout/stderr); adds -latomic only if linking without it fails.
rumur_build() {
  # shellcheck disable=SC2086  # a flag list
  "$CC" $RUMUR_CFLAGS "$1" -o "$2" -lpthread ||
    "$CC" $RUMUR_CFLAGS "$1" -o "$2" -lpthread -latomic
}

# SPIN's pan. The compile-time directives are those SPIN's manual page for
# pan (Pan.html, "Verification Options", spinroot.com/spin/Man/Pan.html)
# lists for a faster safety search: -DSAFETY (no cycle-detection code),
# -DNOBOUNDCHECK (no array index checks), -DNOFAIR (no weak-fairness code),
# and -DMEMLIM=N (a memory bound in MB, the manual's preferred form).
# `spin -run` itself compiles pan with `-O -DSAFETY`; -O2 is one level more.
# -DNOREDUCE (no partial-order reduction) is added for the full search that
# matches mcgen's (bench/beem.sh runs pan both ways). SPIN documents no
# -march flag; pan gets none.
PAN_CFLAGS="-O2 -DSAFETY -DNOBOUNDCHECK -DNOFAIR -DMEMLIM=16384"

# mcgen's checkers: the default build (mcgen compiles with -std=c11 -O2 -g -fno-var-tracking),
# and a second build with these flags added (`mcgen --cflags`, see
# `mcgen --help`; the later -O3 wins over -O2).
MCGEN_NATIVE_CFLAGS="-O3 -march=native"

# --- the models of bench/run.sh and bench/liveness.sh -------------------------
#
# bench_model NAME: a spec of specs/ and its Rumur twin of tests/oracle/ (the
# same state graph, which tests/e2e checks at the spec's own size), at the
# size the bench measures. Sets:
#   spec, twin     the two files
#   size           the constants, NAME=VALUE ...: mcgen's -D (defines) and the
#                  twin's const block (sized_twin)
#   checker_args   the checker's options (deadlock checking), beyond the
#                  bench's own
#   rumur_args     rumur's, checking what the checker checks
#   twin_drop      a sed script: what the twin checks beyond that, left out
#   property       a liveness property that holds (bench/liveness.sh)
# False for a NAME that is none of bench_models.
bench_models="bakery german philosophers two_phase"
bench_model() {
  twin_drop=
  case $1 in
  bakery)
    # 1,966,990 states, 6,109,698 transitions. Deadlocks are not checked: the
    # twin's invariant "no_deadlock", its encoding of the checker's deadlock
    # check under a constraint, is left out.
    size="N=5 MAX=2" checker_args=--no-deadlock rumur_args="--deadlock-detection off"
    twin_drop='/^invariant "no_deadlock"/,/;$/d'
    # From some point on, at most one process is critical (it is an
    # invariant: the check runs over the whole graph).
    property='property mutex_settles: <>[] (count p: Proc :: pc[p] == critical) <= 1;' ;;
  german)
    # 1,105,434 states, 5,922,288 transitions with symmetry off; deadlocks
    # checked by both (Rumur's "stuck").
    size="N=4 D=2" checker_args='' rumur_args="--deadlock-detection stuck"
    # From some point on, at most one cache is exclusive (it holds in every
    # state: the check runs over the whole graph).
    property='property one_exclusive: <>[] (count i: Client :: cache[i].state == exclusive) <= 1;' ;;
  philosophers)
    # 1,331,714 states, 13,774,112 transitions. The model deadlocks (on
    # purpose): deadlocks are not checked, so that the whole graph is explored.
    size="N=16" checker_args=--no-deadlock rumur_args="--deadlock-detection off"
    # From some point on, an eating philosopher holds its left fork (it
    # holds in every state: one SCC pass judges every component).
    property='property forks_settle: <>[] forall p: Phil :: state[p] == eating -> fork[p] == p;' ;;
  two_phase)
    # 1,745,408 states, 11,657,217 transitions with symmetry off. Deadlocks
    # are not checked (the spec's `terminal decided` then only names the
    # final states): the twin's invariant "stuck_is_decided", its encoding of
    # `terminal`, is left out.
    size="N=8" checker_args=--no-deadlock rumur_args="--deadlock-detection off"
    twin_drop='/^invariant "stuck_is_decided"/d'
    # Every behaviour ends with every RM decided.
    property='property all_decide: <> forall r: RM :: rm[r] == committed || rm[r] == aborted;' ;;
  *) return 1 ;;
  esac
  spec=specs/$1.mc twin=tests/oracle/$1.m
}

# defines: mcgen's -D options for the model's size.
defines() {
  local kv
  for kv in $size; do printf -- '-D %s ' "$kv"; done
}

# sized_twin OUT: the model's twin with its constants set to the size, what
# it checks beyond the checker's run left out.
sized_twin() {
  local kv script=$twin_drop
  for kv in $size; do script="s/^  ${kv%%=*}: [0-9]*;/  ${kv%%=*}: ${kv#*=};/;$script"; done
  sed -e "$script" "$twin" >"$1"
}

# --- measurement ---------------------------------------------------------------

# start_tables NAME CSV_HEADER MD_HEADER MD_ALIGN: out, the directory
# bench/out/NAME (made), and in it csv (NAME.csv) and md (NAME.md), begun
# with their header lines (a markdown table's: its column names, then its
# alignment row).
start_tables() {
  out=$PWD/bench/out/$1
  mkdir -p "$out"
  csv=$out/$1.csv md=$out/$1.md
  echo "$2" >"$csv"
  printf '%s\n' "$3" "$4" >"$md"
}

# measure DIR TAG CMD...: runs CMD $repeat times with stdout to DIR/TAG.out;
# keeps the run with the least CPU time (user + sys: the machine is shared,
# and load only ever adds to a run's time, so the best of N is the least
# disturbed one) and sets best_cpu, best_wall, best_rss_kb from that run, and
# run_rc (the exit code of the last run; a failed run stops the repetitions).
measure() {
  local dir=$1 tag=$2; shift 2
  local i wall user sys rss cpu_s
  best_wall=""; best_cpu=""; best_rss_kb=""; run_rc=0
  for ((i = 1; i <= repeat; i++)); do
    run_rc=0
    timeout -k 10 "$timeout_s" /usr/bin/time -f '%e %U %S %M' -o "$dir/$tag.time" \
      "$@" >"$dir/$tag.out.$i" 2>"$dir/$tag.err" || run_rc=$?
    if [ "$run_rc" -ne 0 ]; then
      cp "$dir/$tag.out.$i" "$dir/$tag.out"
      return 0
    fi
    read -r wall user sys rss < <(tail -n 1 "$dir/$tag.time")
    cpu_s=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    if [ -z "$best_cpu" ] || awk -v a="$cpu_s" -v b="$best_cpu" 'BEGIN { exit !(a < b) }'; then
      best_wall=$wall; best_cpu=$cpu_s; best_rss_kb=$rss
      cp "$dir/$tag.out.$i" "$dir/$tag.out"
    fi
  done
}

# human NUMBER: 1234567 -> 1.23 M
human() {
  awk -v x="$1" 'BEGIN {
    if (x !~ /^[0-9.]+$/) printf "n/a"; else if (x >= 1e9) printf "%.2f G", x / 1e9; else if (x >= 1e6) printf "%.2f M", x / 1e6;
    else if (x >= 1e3) printf "%.1f k", x / 1e3; else printf "%.0f", x }'
}
# div A B [FORMAT]: A / B, or n/a when B is 0 or either is not a number
div() {
  awk -v a="$1" -v b="$2" -v f="${3:-%.2f}" 'BEGIN {
    if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b + 0 == 0) printf "n/a"; else printf f, a / b }'
}
xsign() { [ "$1" = n/a ] || printf '×'; }
commas() { printf "%s" "$1" | rev | sed 's/\([0-9]\{3\}\)/\1,/g; s/,$//' | rev; }

# The machine, for the tables' headers.
cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n 1)
[ -n "$cpu" ] || cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
mem_total=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
