# SPDX-License-Identifier: MIT
# tests/layers/calls.sh: sourced by run.sh and folders.sh, which give each
# file a layer (a function `layer NAME` of their own) and check that the
# calls between files go only downwards and round no cycle. The calls are
# read from the objects (nm: each file's undefined symbols, matched with
# the file that defines them).

pass=0 fail=0
ok() { echo "PASS $1"; pass=$((pass + 1)); }
ko() { echo "FAIL $1"; fail=$((fail + 1)); }

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/defs"
: >"$tmp/uses"

# add_object NAME OBJECT: the symbols that OBJECT defines and uses are
# file NAME's.
add_object() {
  nm --defined-only "$2" | awk -v f="$1" '$2 ~ /^[TDBRC]$/ {print $3, f}' >>"$tmp/defs"
  nm -u "$2" | awk -v f="$1" '{print f, $2}' >>"$tmp/uses"
}

# find_calls: $tmp/calls, a line `CALLER CALLEE SYMBOL` for each symbol a
# file uses from another.
find_calls() {
  sort -u "$tmp/defs" >"$tmp/defs.s"
  awk 'NR == FNR {def[$1] = $2; next} ($2 in def) && def[$2] != $1 {print $1, def[$2], $2}' \
    "$tmp/defs.s" "$tmp/uses" | sort -u >"$tmp/calls"
}

# check_downwards WHAT: no call goes into a higher layer.
check_downwards() {
  up=0
  while read -r from to sym; do
    if [ "$(layer "$to")" -gt "$(layer "$from")" ]; then
      ko "$from (layer $(layer "$from")) calls $sym in $to (layer $(layer "$to")): upwards"
      up=1
    fi
  done <"$tmp/calls"
  ncalls=$(wc -l <"$tmp/calls")
  [ $up = 0 ] && ok "no $1 file calls into a higher layer ($ncalls calls between files)"
}

# check_acyclic WHAT: the calls between files round no cycle, within a
# layer too (tsort finds it).
check_acyclic() {
  awk '{print $2, $1}' "$tmp/calls" | sort -u >"$tmp/edges"
  if tsort "$tmp/edges" >/dev/null 2>"$tmp/tsort"; then
    ok "the calls between $1 files have no cycle"
  else
    through=$(sed -n 's/^tsort: \([a-z_/.]*\)$/\1/p' "$tmp/tsort" | sort -u | tr '\n' ' ')
    ko "a cycle of calls between $1 files, through: $through"
  fi
}
