#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# gdb in batch mode on the `mcgen --debug` checker of specs/filter.mc:
#   - `break filter.mc:L` on the first statement of climb's body resolves to
#     exactly one location, in climb's body function a_climb, and the run
#     stops there;
#   - a blank spec line has no code (`info line` says so) and `break` on it
#     gives no location on that line (gdb moves such a breakpoint to the
#     next line with code, as for a blank line of C; it is deleted before
#     the run);
#   - `print get_level(n, p_p)` and `print get_pc(n, p_p)` call the
#     accessors in the stopped checker: the first climb starts from level 0
#     with pc == trying (1); after `next` the level is 1. If gdb cannot call
#     functions here, that check is a loud SKIP and the accessors must at
#     least be symbols of the binary;
#   - `next` walks climb's two statements in order, then leaves the spec.
# The spec lines are found by their text, not hard-coded.
#
# Usage: tests/debug/gdb.sh [BUILD_DIR]
# The last line is `N passed, N failed, N skipped`; the exit status is
# non-zero if anything failed or gdb is missing.
# shellcheck disable=SC2016 # '$1 = 0': the values gdb prints, not shell variables
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
use_build_dir "${1:-}"
spec=$root/specs/filter.mc
command -v gdb >/dev/null || { echo "gdb.sh: gdb is not installed (Debian: gdb)" >&2; exit 2; }
[ -x "$mcgen" ] || { echo "gdb.sh: no mcgen in $build_dir (make all first)" >&2; exit 2; }
make_work gdb

check() { # check NAME STATUS [DETAIL-FILE]: a pass is counted, not printed
  if [ "$2" = 0 ]; then
    passed=$((passed + 1))
  else
    fail "$1"
    [ -z "${3:-}" ] || sed 's/^/  | /' "$3" | head -30
  fi
}

# climb's two statements, and the blank line after its body.
first=$(grep -n '^  level\[p\] = level\[p\] + 1;$' "$spec" | cut -d: -f1)
second=$(grep -n '^  victim\[level\[p\]\] = p;$' "$spec" | cut -d: -f1)
blank=$((second + 2))
if [ -z "$first" ] || [ -z "$second" ] || [ "$second" != $((first + 1)) ] ||
   [ -n "$(sed -n "${blank}p" "$spec")" ]; then
  echo "gdb.sh: specs/filter.mc changed: climb's statements or the blank line after it not found" >&2
  exit 2
fi

cd "$work" || exit 2
if ! "$mcgen" --debug -o filter "$spec" >mcgen.out 2>&1; then
  echo "FAIL mcgen --debug specs/filter.mc"; sed 's/^/  | /' mcgen.out
  echo "0 passed, 1 failed, 0 skipped"
  exit 1
fi

gdb -nx -batch \
  -ex "break filter.mc:$first" \
  -ex "info line filter.mc:$blank" \
  -ex "break filter.mc:$blank" \
  -ex "info breakpoints" \
  -ex "delete 2" \
  -ex "run --symmetry off --quiet" \
  -ex 'print get_level(n, p_p)' \
  -ex 'print get_pc(n, p_p)' \
  -ex 'next' \
  -ex 'next' \
  -ex 'print get_level(n, p_p)' \
  -ex 'next' \
  -ex 'info symbol get_level' \
  -ex 'info symbol get_pc' \
  -ex 'kill' \
  ./filter >gdb.out 2>&1

# One location for the statement, in a_climb; the run stops there.
bp1=$(grep -E "^Breakpoint 1 at " gdb.out)
[[ $bp1 == *"filter.mc, line $first." ]] && ! grep -qE '^1\.[0-9]+ ' gdb.out
check "break filter.mc:$first resolves to exactly one location (got: ${bp1:-nothing})" $? gdb.out
# (A checker with threads: gdb says `Thread 1 "filter" hit Breakpoint 1, ...`.)
hit='^(Thread [0-9]+ "[^"]*" hit )?Breakpoint 1, a_climb'
grep -qE "$hit \(" gdb.out
check "break filter.mc:$first stops in a_climb" $? gdb.out
[ "$(grep -cE '^[0-9]+(\.[0-9]+)? +(breakpoint +keep +y +0x[0-9a-f]+|y +0x[0-9a-f]+) +in a_climb ' gdb.out)" = 1 ] &&
  ! grep -qE "^1(\.[0-9]+)? .* in (ga_|x_|r_|[^a]).*filter\.mc:$first" gdb.out
check "the breakpoint on filter.mc:$first is in a_climb and nowhere else" $? gdb.out

# The blank line: no code, no breakpoint on it.
grep -qE "^Line $blank of \".*filter\.mc\" .*(contains no code|is out of range)" gdb.out
check "filter.mc:$blank (blank) has no code" $? gdb.out
! grep -qE "^Breakpoint 2 at .*filter\.mc, line $blank\.|filter\.mc:$blank\.? \(" gdb.out &&
  ! grep -qE "^2(\.[0-9]+)? .*filter\.mc:$blank$" gdb.out
check "break filter.mc:$blank (blank) gets no location on that line" $? gdb.out

# next: the two statements in order, then out of the spec.
sed -nE "/$hit/,\$p" gdb.out | grep -oE "^[0-9]+\s" | tr -d ' \t' | head -3 >walk.txt
[ "$(sed -n 1p walk.txt)" = "$first" ] && [ "$(sed -n 2p walk.txt)" = "$second" ] &&
  sed -nE "/$hit/,\$p" gdb.out | grep -qE "^(x_a_climb|r_a_climb) \(.*\) at filter\.c:"
check "next walks filter.mc:$first, $second, then back to the glue (lines: $(tr '\n' ' ' <walk.txt))" $? gdb.out

# print get_VAR(...): calls into the stopped checker.
if grep -qiE "cannot call functions|You can't do that without a process|Cannot (access memory|execute|insert breakpoint)|evaluation of this expression requires" gdb.out &&
   ! grep -qE '^\$1 = ' gdb.out; then
  echo "SKIP print get_level(n, p_p): gdb cannot call functions in the inferior on this machine:"
  grep -iE "cannot|can't|requires" gdb.out | head -3 | sed 's/^/  | /'
  skipped=$((skipped + 1))
  grep -qE "^get_level in section \.text" gdb.out && grep -qE "^get_pc in section \.text" gdb.out
  check "the accessors get_level and get_pc are symbols of the --debug checker" $? gdb.out
else
  grep -qE '^\$1 = 0$' gdb.out && grep -qE '^\$2 = 1$' gdb.out && grep -qE '^\$3 = 1$' gdb.out
  check "print get_level/get_pc in gdb (level 0 then 1 across climb, pc trying)" $? gdb.out
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
