#!/bin/sh
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
# cycle of calls between files (tsort finds it). Every DIR/**/*.c must be
# in a folder of the list or at the top. Needs `make all` first.
set -u
usage='usage: tests/layers/folders.sh BUILD DIR LAYER...'
B=${1:?$usage}
D=${2:?$usage}
shift 2
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
layers=" $* "
top=$(($# + 1))
pass=0 fail=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fail=$((fail + 1)); }

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

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/defs"
: >"$tmp/uses"

for c in $(cd "$D" && find . -name '*.c' | sed 's|^\./||' | sort); do
  o=$B/$D/${c%.c}.o
  if [ "$(layer "$c")" = 0 ]; then
    ko "$D/$c is in no layer of: $*"
    continue
  fi
  if [ ! -f "$o" ]; then
    ko "$o is missing (make all first)"
    continue
  fi
  nm --defined-only "$o" | awk -v f="$c" '$2 ~ /^[TDBRC]$/ {print $3, f}' >>"$tmp/defs"
  nm -u "$o" | awk -v f="$c" '{print f, $2}' >>"$tmp/uses"
done
sort -u "$tmp/defs" >"$tmp/defs.s"
# caller callee symbol, for calls between two different files
awk 'NR == FNR {def[$1] = $2; next} ($2 in def) && def[$2] != $1 {print $1, def[$2], $2}' \
  "$tmp/defs.s" "$tmp/uses" | sort -u >"$tmp/calls"

up=0 across=0
while read -r from to sym; do
  if [ "$(layer "$to")" -gt "$(layer "$from")" ]; then
    ko "$from (layer $(layer "$from")) calls $sym in $to (layer $(layer "$to")): upwards"
    up=1
  fi
  a=$(part "$from") b=$(part "$to")
  if [ "$a" != - ] && [ "$b" != - ] && [ "$a" != "$b" ]; then
    ko "$from calls $sym in $to: one part of a layer into another"
    across=1
  fi
done <"$tmp/calls"
ncalls=$(wc -l <"$tmp/calls")
[ $up = 0 ] && ok "no $D file calls into a higher layer ($ncalls calls between files)"
[ $across = 0 ] && ok "no part of a layer of $D (a folder in its folder) calls another"

awk '{print $2, $1}' "$tmp/calls" | sort -u >"$tmp/edges"
if tsort "$tmp/edges" >/dev/null 2>"$tmp/tsort"; then
  ok "the calls between $D files have no cycle"
else
  through=$(sed -n 's/^tsort: \([a-z_/.]*\)$/\1/p' "$tmp/tsort" | sort -u | tr '\n' ' ')
  ko "a cycle of calls between $D files, through: $through"
fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
