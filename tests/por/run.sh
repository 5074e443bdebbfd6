#!/usr/bin/env bash
# Partial-order reduction: the dependency tables (mcgen --deps) and the
# checker's --por. Each check prints `PASS name` or `FAIL name: why`; the
# last line is exactly `N passed, N failed`, and the exit status is non-zero
# on a failure.
#
# Usage: tests/por/run.sh [BUILD_DIR]     (default: build, from the repo root)
#
#   deps.mc      mcgen --deps and --deps-json against the sets derived by
#                hand in the spec's header (deps.expected is that text)
set -uo pipefail   # no -e: a failing check is counted, not fatal

root=$(cd "$(dirname "$0")/../.." && pwd)
specs=$root/tests/por/specs
build_dir=${1:-$root/build}
case $build_dir in /*) ;; *) build_dir=$PWD/$build_dir ;; esac
mcgen=$build_dir/mcgen

passed=0 failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }

work=$(mktemp -d "${TMPDIR:-/tmp}/mcgen-por.XXXXXX")
trap 'rm -rf "$work"' EXIT
[ -x "$mcgen" ] || { fail setup "$mcgen is not built (make all)"; finish; }
command -v jq >/dev/null || { fail setup "jq is not installed (make test-deps)"; finish; }

# ---------------------------------------------------------------------------
# mcgen --deps: the text, and the JSON's lists (cells by index, as the
# header of deps.mc numbers them).

if "$mcgen" --deps "$specs/deps.mc" >"$work/deps.txt" 2>"$work/err" &&
   diff -u "$specs/deps.expected" "$work/deps.txt" >"$work/diff"; then
  pass deps-text
else
  fail deps-text "$(head -c 400 "$work/diff" "$work/err" | tr '\n' '|')"
fi

"$mcgen" --deps-json "$specs/deps.mc" >"$work/deps.json" 2>"$work/err"
want_json() { # name jq-filter expected
  local got
  got=$(jq -c "$2" "$work/deps.json" 2>&1)
  if [ "$got" = "$3" ]; then pass "$1"; else fail "$1" "$2 is $got, expected $3"; fi
}
want_json deps-json-cells '.cells' '["a[Id_1].v","a[Id_1].ok","a[Id_2].v","a[Id_2].ok","n","s","k"]'
want_json deps-json-guard '[.rules[].guard]' '[[1],[3],[4],[],[],[0,2,4,6]]'
want_json deps-json-read '[.rules[].read]' '[[0,1,5],[2,3,5],[4,6],[],[],[0,2,4,6]]'
want_json deps-json-write '[.rules[].write]' '[[0,5],[2,5],[1,3,4],[6],[6],[4]]'
want_json deps-json-process '[.rules[].process]' '[0,1,2,3,4,5]'
want_json deps-json-processes '.processes' '["bump(Id_1)","bump(Id_2)","pick","flip(Id_1)","flip(Id_2)","reset_n"]'
want_json deps-json-visible '.visible' '[0,2,4,6]'
want_json deps-json-enables '[.rules[].enables_or_disables]' '[[5],[5],[0,1,5],[5],[5],[2]]'

# The generated checker carries the same tables (mc_deps) and builds clean.
if (cd "$work" && "$mcgen" -o deps --cflags "-Werror" "$specs/deps.mc" >"$work/err" 2>&1) &&
   grep -q '\.deps = &mc_deps' "$work/deps.c" &&
   grep -A1 'mc_deps_write\[\] = {' "$work/deps.c" | tail -1 | grep -q '^  0, 5, 2, 5, 1, 3, 4, 6, 6, 4$'; then
  pass deps-emitted
else
  fail deps-emitted "$(head -c 400 "$work/err" | tr '\n' '|')"
fi

finish
