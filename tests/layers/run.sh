#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/layers/run.sh BUILD: the runtime's files call each other only
# downwards, through the layers of docs/DESIGN.md ("Runtime layers"). A
# layer is a folder of runtime/, and a file's layer is its folder's place
# in this order (the one list here; DESIGN.md's table lists the folders in
# the same order, and the check below holds it to that):
#
#   core store context engine analysis output mpi
#
# with the files at the top of runtime/ (main.c, watchdog.c) above them
# all, beside mpi/ (mpi.c is the main of `mcgen --mpi` checkers; its object
# is BUILD/mpi/runtime/mpi/mpi.o, built only where mpicc is).
#
# The calls are read from the objects (calls.sh): a call from a file to one
# of a higher layer fails, and so does any cycle of calls between files,
# within a layer too. The includes are read from the sources: a file
# includes only its own layer's header and those below (the header of
# folder F is runtime/F/F.h), and the headers include each other without a
# cycle. A folder not in the order above fails. Needs `make all` first.
set -u
B=${1:?usage: tests/layers/run.sh BUILD}
ORDER="core store context engine analysis output mpi"
cd "$(dirname "$0")/../.." || exit 2
case $B in /*) ;; *) B=$PWD/$B ;; esac
. tests/layers/calls.sh

# folder FILE (a path under runtime/): its folder, "." at the top.
folder() {
  case $1 in */*) echo "${1%%/*}" ;; *) echo . ;; esac
}
# layer FILE-OR-FOLDER: its folder's place in ORDER (from 1), the top
# (runtime/ itself) the same as mpi's, 0 for a folder not in ORDER.
layer() {
  f=$1
  case $f in *.c | *.h) f=$(folder "$f") ;; esac
  [ "$f" = . ] && f=mpi
  n=1
  for l in $ORDER; do
    [ "$l" = "$f" ] && { echo $n; return; }
    n=$((n + 1))
  done
  echo 0
}

# The folders in DESIGN.md's table ("| `runtime/F/` |" rows), in order.
design=$(sed -n '/^### Runtime layers/,/^### /p' docs/DESIGN.md |
  sed -n 's/^| `runtime\/\([a-z]*\)\/` .*/\1/p' | tr '\n' ' ')
if [ "$design" = "$ORDER " ]; then
  ok "DESIGN.md's table of runtime layers lists the folders in this order"
else
  ko "DESIGN.md's table of runtime layers lists '$design', this check '$ORDER'"
fi

for c in $(cd runtime && find . -name '*.c' | sed 's|^\./||' | sort); do
  o=$B/runtime/${c%.c}.o
  if [ "$c" = mpi/mpi.c ]; then
    o=$B/mpi/runtime/mpi/mpi.o
    [ -f "$o" ] || { echo "SKIP runtime/$c: not built (no mpicc)"; continue; }
  fi
  if [ "$(layer "$c")" = 0 ]; then
    ko "runtime/$c is in a folder that is no layer (tests/layers/run.sh ORDER)"
  elif [ ! -f "$o" ]; then
    ko "$o is missing (make all first)"
  else
    add_object "$c" "$o"
  fi
done
find_calls
check_downwards runtime
check_acyclic runtime

# Includes: "F/F.h" names folder F's header; a file may include its own
# folder's header and those of lower layers (mcrt.h, at the top, is the
# generated code's header and includes none of them).
bad=0
: >"$tmp/incl"
for c in $(cd runtime && find . -name '*.[ch]' | sed 's|^\./||' | sort); do
  lf=$(layer "$c")
  for h in $(sed -n 's/^#include "\([a-z]*\)\/[a-z]*\.h".*/\1/p' "runtime/$c"); do
    echo "$h $(folder "$c")" >>"$tmp/incl"
    if [ "$(layer "$h")" -gt "$lf" ]; then
      ko "runtime/$c (layer $lf) includes $h/$h.h (layer $(layer "$h")): upwards"
      bad=1
    fi
  done
  if grep -q '^#include "internal.h"' "runtime/$c"; then
    ko "runtime/$c includes internal.h: a layer's header instead"
    bad=1
  fi
done
[ $bad = 0 ] && ok "every runtime file includes only its own layer's header and those below"
awk '$1 != $2 && $2 != "."' "$tmp/incl" | sort -u >"$tmp/iedges"
if tsort "$tmp/iedges" >/dev/null 2>"$tmp/tsort"; then
  ok "the layers' headers include each other without a cycle"
else
  ko "a cycle of includes between runtime folders: $(tr '\n' ' ' <"$tmp/tsort")"
fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
