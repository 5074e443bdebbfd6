#!/bin/sh
# tests/layers/run.sh BUILD: the runtime's files call each other only
# downwards, through the layers of docs/DESIGN.md ("Runtime layers"):
#
#   1 core      core.c options.c
#   2 stores    fpset.c fpcompact.c log.c queue.c disk.c edges.c symmetry.c net.c
#   3 context   ctx.c checkpoint.c por.c
#   4 engines   search.c threads.c
#   5 analyses  liveness.c
#   6 output    replay.c report.c netreport.c export.c outputs.c simulate.c odpor.c
#   7 main      main.c mpi.c watchdog.c
#
# mpi.c is the MPI engine and the main of `mcgen --mpi` checkers (it checks
# a trace across the ranks by replaying it, so it sits above the output);
# its object is BUILD/mpi/runtime/mpi.o, built only where mpicc is.
#
# The calls are read from the objects of BUILD/runtime (nm: each file's
# undefined symbols, matched with the file that defines them). A call from a
# file to one of a higher layer fails, and so does any cycle of calls
# between files (tsort finds it), within a layer too. Every runtime/*.c must
# have a layer here. Needs `make all` first.
set -u
B=${1:?usage: tests/layers/run.sh BUILD}
pass=0 fail=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fail=$((fail + 1)); }

layer() {
  case $1 in
  core | options) echo 1 ;;
  fpset | fpcompact | log | queue | edges | symmetry | net | disk) echo 2 ;;
  ctx | checkpoint | por) echo 3 ;;
  search | threads) echo 4 ;;
  liveness) echo 5 ;;
  replay | report | netreport | export | outputs | simulate | odpor) echo 6 ;;
  main | mpi | watchdog) echo 7 ;;
  *) echo 0 ;;
  esac
}

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

for c in runtime/*.c; do
  f=$(basename "$c" .c)
  o=$B/runtime/$f.o
  if [ "$f" = mpi ]; then
    o=$B/mpi/runtime/mpi.o
    [ -f "$o" ] || { echo "SKIP $c: not built (no mpicc)"; continue; }
  fi
  if [ "$(layer "$f")" = 0 ]; then
    ko "$c has no layer in tests/layers/run.sh"
    continue
  fi
  if [ ! -f "$o" ]; then
    ko "$o is missing (make all first)"
    continue
  fi
  nm --defined-only "$o" | awk -v f="$f" '$2 ~ /^[TDBRC]$/ {print $3, f}' >>"$tmp/defs"
  nm -u "$o" | awk -v f="$f" '{print f, $2}' >>"$tmp/uses"
done
sort -u "$tmp/defs" >"$tmp/defs.s"
# caller callee symbol, for calls between two different files
awk 'NR == FNR {def[$1] = $2; next} ($2 in def) && def[$2] != $1 {print $1, def[$2], $2}' \
  "$tmp/defs.s" "$tmp/uses" | sort -u >"$tmp/calls"

up=0
while read -r from to sym; do
  if [ "$(layer "$to")" -gt "$(layer "$from")" ]; then
    ko "$from.c (layer $(layer "$from")) calls $sym in $to.c (layer $(layer "$to")): upwards"
    up=1
  fi
done <"$tmp/calls"
[ $up = 0 ] && ok "no runtime file calls into a higher layer ($(wc -l <"$tmp/calls") calls between files)"

awk '{print $2, $1}' "$tmp/calls" | sort -u >"$tmp/edges"
if tsort "$tmp/edges" >/dev/null 2>"$tmp/tsort"; then
  ok "the calls between runtime files have no cycle"
else
  ko "a cycle of calls between runtime files, through: $(sed -n 's/^tsort: \([a-z_]*\)$/\1/p' "$tmp/tsort" | sort -u | tr '\n' ' ')"
fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
