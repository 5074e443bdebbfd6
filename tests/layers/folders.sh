#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/layers/folders.sh BUILD DIR LAYER...: the files of DIR call each
# other only downwards, through the layers that its folders are
# (docs/STYLE.md 1), named lowest first; the files at the top of DIR are
# the highest layer. For the compiler (docs/DESIGN.md, "The compiler's
# layers"), `make layers-tests` runs
#
#   tests/layers/folders.sh build compiler core ast front analysis emit
#
#   1 core/      util.c diag.c paths.c: memory, strings, spec files, errors
#   2 ast/       ast.c types.c: the syntax tree, its builders and its types
#   3 front/     a front end a folder (mc/, dve/, pnml/): a file to a tree
#   4 analysis/  check.c layout.c extern.c scenario.c deps.c
#   5 emit/      emit.c symmetry.c: the tree to C
#   6 (top)      main.c: the pipeline
#
# A file's layer is its first folder below DIR. The folders inside a
# layer's folder are parts that do not call each other (one front end
# never calls another: front/dve/ nothing of front/mc/). The calls are read
# from the objects of BUILD/DIR (nm: each file's undefined symbols, matched
# with the file that defines them). A call from a file to one of a higher
# layer fails, and so does a call between two parts of a layer and any
# cycle of calls between files (calls.sh). Every DIR/**/*.c must be in a
# folder of the list or at the top. Needs `make all` first.
set -u
usage='usage: tests/layers/folders.sh BUILD DIR LAYER...'
B=${1:?$usage}
D=${2:?$usage}
shift 2
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
layers=" $* "
top=$(($# + 1))
. "$(dirname "$0")/calls.sh"

# The layer of a file given by its path below DIR: the position of its
# first folder among the LAYERs (1 the lowest), $top for a file at the top,
# 0 for a folder not in the list.
layer() {
  case $1 in
  */*) ;;
  *) echo $top && return ;;
  esac
  folder=${1%%/*} n=0
  for l in $layers; do
    n=$((n + 1))
    [ "$l" = "$folder" ] && echo $n && return
  done
  echo 0
}

# The part of a layer a file is in (front/dve/dve_lower.c: front/dve), or
# - for a file directly in its layer's folder or at the top.
part() {
  case $1 in
  */*/*) echo "$1" | cut -d/ -f1-2 ;;
  *) echo - ;;
  esac
}

for c in $(cd "$D" && find . -name '*.c' | sed 's|^\./||' | sort); do
  o=$B/$D/${c%.c}.o
  if [ "$(layer "$c")" = 0 ]; then
    ko "$D/$c is in no layer of: $*"
  elif [ ! -f "$o" ]; then
    ko "$o is missing (make all first)"
  else
    add_object "$c" "$o"
  fi
done
find_calls
check_downwards "$D"

across=0
while read -r from to sym; do
  a=$(part "$from") b=$(part "$to")
  if [ "$a" != - ] && [ "$b" != - ] && [ "$a" != "$b" ]; then
    ko "$from calls $sym in $to: one part of a layer into another"
    across=1
  fi
done <"$tmp/calls"
[ $across = 0 ] && ok "no part of a layer of $D (a folder in its folder) calls another"

check_acyclic "$D"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
