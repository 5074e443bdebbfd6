#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The shape of the generated C that keeps the C compiler's work small
# (docs/performance.md, "Compile time"); cheap: mcgen --emit-c only.
#   - an action without parameters is one function `a_NAME` (its guard, then
#     its body), with no guard function `ga_NAME` nor wrapper `x_NAME`: for
#     every DVE test model and for a spec with such actions;
#   - an action with parameters keeps its guard function (specs/filter.mc's
#     climb: `ga_climb`, which the gdb test's steps rely on);
#   - a DVE assignment that can fail ends the action with the error state
#     where it fails: no flag tested before every later statement
#     (`l_dve_err`);
#   - storing a DVE constant needs no range check (its value is in its
#     type's range): no `l_dve_val` in the C of a model whose only
#     assignment is `x = c`.
#
# Usage: tests/debug/shape.sh [BUILD_DIR]
# The last line is `N passed, N failed`; the exit status is non-zero if
# anything failed.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
use_build_dir "${1:-}"
[ -x "$mcgen" ] || { echo "shape.sh: no mcgen in $build_dir (make all first)" >&2; exit 2; }
make_work shape

check() { # check NAME STATUS: a pass is counted, not printed
  if [ "$2" = 0 ]; then passed=$((passed + 1)); else fail "$1"; fi
}

# emit SPEC: writes $work/NAME.c, sets c.
emit() {
  c=$work/$(basename "${1%.*}").c
  "$mcgen" --emit-c -o "${c%.c}" "$1" >"$work/out" 2>&1 || { sed 's/^/  | /' "$work/out"; return 1; }
}

# Whether there are as many a_ functions taking the state and the successor
# as action groups (named rows of mc_actions; a model may have none), and
# no guard function or wrapper of an action.
one_function_each() {
  local groups fns
  groups=$(sed -n '/^static const McrtRuleGroup mc_actions\[\] = {/,/^};/p' "$c" | grep -c '^  {"')
  fns=$(grep -cE '^[A-Z_ ]*bool a_[A-Za-z0-9_]*\(McrtCtx \*ctx, const uint8_t \*s, uint8_t \*n\) \{' "$c")
  [ "$fns" = "$groups" ] && ! grep -qE '^static bool (ga_|x_a_)' "$c"
}

for spec in "$root"/tests/dve/*.dve; do
  name=$(basename "$spec")
  if ! emit "$spec"; then
    check "$name: mcgen --emit-c" 1
    continue
  fi
  one_function_each
  check "$name: one function a_NAME per action, no ga_/x_" $?
  ! grep -q 'l_dve_err' "$c"
  check "$name: no error flag tested before every statement (l_dve_err)" $?
done

# A spec whose actions have no parameters, and one whose action has some.
cat >"$work/flip.mc" <<'EOF'
var x: 0..3;
action up when x < 3 { x = x + 1; }
action down when x > 0 { x = x - 1; }
invariant ok: x <= 3;
EOF
if emit "$work/flip.mc"; then
  one_function_each
  check "flip.mc: one function a_NAME per action, no ga_/x_" $?
else
  check "flip.mc: mcgen --emit-c" 1
fi
if emit "$root/specs/filter.mc"; then
  grep -qE '^static bool ga_climb\(' "$c" && grep -qE '^static bool x_a_climb\(' "$c"
  check "filter.mc: climb (with parameters) keeps ga_climb and x_a_climb" $?
else
  check "filter.mc: mcgen --emit-c" 1
fi

# A constant stored into a byte: no range check.
cat >"$work/const_store.dve" <<'EOF'
const byte c = 7;
byte x;
process P {
state a, b; init a;
trans a -> b { effect x = c; };
}
system async;
EOF
if emit "$work/const_store.dve"; then
  grep -q 'set_x(n, ' "$c" && ! grep -q 'l_dve_val' "$c"
  check "const_store.dve: x = c is stored without a range check" $?
else
  check "const_store.dve: mcgen --emit-c" 1
fi

finish
