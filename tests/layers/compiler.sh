#!/bin/sh
# tests/layers/compiler.sh BUILD: the compiler's files call each other only
# downwards, through the layers that its folders are (docs/STYLE.md 1,
# docs/DESIGN.md "The compiler's layers"), lowest first:
#
#   1 core/      util.c diag.c paths.c: memory, strings, spec files, errors
#   2 ast/       ast.c types.c: the syntax tree, its builders and its types
#   3 front/     a front end a folder (mc/, dve/, pnml/): a file to a tree
#   4 analysis/  check.c layout.c extern.c scenario.c deps.c
#   5 emit/      emit.c symmetry.c: the tree to C
#   6 (top)      main.c: the pipeline
#
# A file's layer is its first folder below compiler/; the front ends are
# one layer, and none calls another (front/dve/ nothing of front/mc/).
# The calls are read from the objects of BUILD/compiler (nm: each file's
# undefined symbols, matched with the file that defines them). A call from
# a file to one of a higher layer fails, and so does any cycle of calls
# between files (tsort finds it). Every compiler/**/*.c must be in a folder
# of this list or at the top. Needs `make all` first.
set -u
B=${1:?usage: tests/layers/compiler.sh BUILD}
pass=0 fail=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fail=$((fail + 1)); }

# The layer of a file given by its path below compiler/ (0: no folder of
# the list).
layer() {
  case $1 in
  core/*) echo 1 ;;
  ast/*) echo 2 ;;
  front/*/*) echo 3 ;;
  analysis/*) echo 4 ;;
  emit/*) echo 5 ;;
  */*) echo 0 ;;
  *) echo 6 ;;
  esac
}

# front/dve/dve_lower.c is in front end dve; other files in none.
front_end() {
  case $1 in
  front/*/*) echo "$1" | cut -d/ -f2 ;;
  *) echo - ;;
  esac
}

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

for c in $(cd compiler && find . -name '*.c' | sed 's|^\./||' | sort); do
  f=${c%.c}
  o=$B/compiler/$f.o
  if [ "$(layer "$c")" = 0 ]; then
    ko "compiler/$c is in no layer of tests/layers/compiler.sh"
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

bad=0
while read -r from to sym; do
  if [ "$(layer "$to")" -gt "$(layer "$from")" ]; then
    ko "$from (layer $(layer "$from")) calls $sym in $to (layer $(layer "$to")): upwards"
    bad=1
  fi
done <"$tmp/calls"
[ $bad = 0 ] && ok "no compiler file calls into a higher layer ($(wc -l <"$tmp/calls") calls between files)"

bad=0
while read -r from to sym; do
  a=$(front_end "$from") b=$(front_end "$to")
  if [ "$a" != - ] && [ "$b" != - ] && [ "$a" != "$b" ]; then
    ko "$from calls $sym in $to: one front end into another"
    bad=1
  fi
done <"$tmp/calls"
[ $bad = 0 ] && ok "no front end calls into another"

awk '{print $2, $1}' "$tmp/calls" | sort -u >"$tmp/edges"
if tsort "$tmp/edges" >/dev/null 2>"$tmp/tsort"; then
  ok "the calls between compiler files have no cycle"
else
  ko "a cycle of calls between compiler files, through: $(sed -n 's/^tsort: \([a-z_/.]*\)$/\1/p' "$tmp/tsort" | sort -u | tr '\n' ' ')"
fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
