# SPDX-License-Identifier: MIT
# shellcheck shell=bash disable=SC2034  # sourced: the runners read what it sets
# tests/lib.sh: the set-up the test runners share. A runner sources it first,
#   . "$(dirname "$0")/../lib.sh"
# and gets:
#   root                 the repository's root
#   use_build_dir [DIR]  build_dir, DIR made absolute (default: root/build),
#                        and mcgen, the compiler in it
#   take_build_dir ARG GLOB...
#                        for a runner whose BUILD_DIR argument may be left
#                        out before its cases: use_build_dir ARG, and true
#                        (shift it), when ARG is given and is neither an
#                        option nor a case (a file matching a GLOB); else
#                        use_build_dir, and false
#   cases_given ARRAY ARG...
#                        ARRAY set to the ARGs, the cases named on a runner's
#                        command line, each made absolute; false when there
#                        is none (the runner then takes its own)
#   pass NAME [DETAIL], fail NAME [WHY], skip NAME WHY
#                        a check's line (`PASS NAME`, `FAIL NAME: WHY`,
#                        `SKIP NAME: WHY`), counted in passed, failed, skipped
#   tally                the last line: `N passed, N failed` (and `, N
#                        skipped` when some were)
#   finish               the tally, then the status: 0 when nothing failed
#                        (a runner's last command)
#   finish_now           finish and exit, for a runner that cannot go on
#   need_mcgen, need TOOL...
#                        when mcgen is not built or a TOOL not installed, a
#                        `FAIL setup` line saying so, and finish_now
#   make_work NAME       work: a new directory (mcgen-NAME.XXXXXX in $TMPDIR
#                        or /tmp) that remove_work deletes on exit, after
#                        killing bg_pid, a process the runner started in the
#                        background and did not wait for; a runner with more
#                        to undo traps its own function, which calls
#                        remove_work last
#   find_suite SUITE WHAT [SUBDIR]
#                        suite: the directory of the BEEM or MCC suite
#                        (SUITE beem or mcc, tools/suite-dir), holding SUBDIR
#                        when one is named; without it, a loud SKIP saying
#                        that WHAT is not checked, counted, and false
#   directive FILE KEY, first_directive FILE KEY
#                        the values of a spec's `// KEY: VALUE` header lines,
#                        or a Murphi file's `-- KEY: VALUE` (every one, a
#                        line each; the first)
#   excerpt FILE         the start of FILE (excerpt_bytes, default 240) on
#                        one line, for a FAIL's why
#   expect_text NAME GOT WANTED
#                        PASS when GOT is WANTED, else FAIL saying both

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

use_build_dir() {
  build_dir=${1:-$root/build}
  case $build_dir in /*) ;; *) build_dir=$PWD/$build_dir ;; esac
  mcgen=$build_dir/mcgen
}

take_build_dir() {
  local arg=$1 glob
  shift
  for glob in '' '-*' "$@"; do
    # shellcheck disable=SC2254  # GLOB is a pattern
    case $arg in $glob) use_build_dir; return 1 ;; esac
  done
  use_build_dir "$arg"
}

cases_given() {
  local -n cases_into=$1
  local arg
  shift
  cases_into=()
  for arg; do
    case $arg in /*) cases_into+=("$arg") ;; *) cases_into+=("$PWD/$arg") ;; esac
  done
  [ $# -gt 0 ]
}

passed=0 failed=0 skipped=0
pass() {
  if [ $# -gt 1 ]; then echo "PASS $1: $2"; else echo "PASS $1"; fi
  passed=$((passed + 1))
}
fail() {
  if [ $# -gt 1 ]; then echo "FAIL $1: $2"; else echo "FAIL $1"; fi
  failed=$((failed + 1))
}
skip() { echo "SKIP $1: $2"; skipped=$((skipped + 1)); }

tally() {
  if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
  else
    echo "$passed passed, $failed failed"
  fi
}
finish() { tally; [ "$failed" -eq 0 ]; }
finish_now() { finish; exit; }

need_mcgen() { [ -x "$mcgen" ] || { fail setup "$mcgen is not built (make all)"; finish_now; }; }
need() {
  local tool
  for tool; do
    command -v "$tool" >/dev/null || { fail setup "$tool is not installed (make test-deps)"; finish_now; }
  done
}

# (remove_work deletes the directory made, should the runner set work again.)
make_work() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/mcgen-$1.XXXXXX") || exit 2
  work_made=$work
  trap remove_work EXIT
}
remove_work() {
  [ -z "${bg_pid:-}" ] || kill -KILL "$bg_pid" 2>/dev/null
  rm -rf "$work_made"
}

find_suite() {
  local name
  name=$(echo "$1" | tr '[:lower:]' '[:upper:]')
  suite=$("$root/tools/suite-dir" "$1") && [ -d "$suite/${3:-.}" ] && return 0
  echo "################################################################"
  echo "SKIP: $2 NOT CHECKED: no $name suite found"
  echo "      (looked for ../shared/suites/$1/ beside the repo root or a"
  echo "      parent${3:+, with $3/ in it}; or set ${name}_DIR)"
  echo "################################################################"
  skipped=$((skipped + 1))
  return 1
}

directive() { sed -n "s#^\(//\|--\)[[:space:]]*$2:[[:space:]]*##p" "$1" | sed 's/[[:space:]]*$//'; }
first_directive() { directive "$1" "$2" | head -n 1; }

excerpt_bytes=240
excerpt() { head -c "$excerpt_bytes" "$1" | tr '\n' '|'; }

expect_text() {
  if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "'$2', expected '$3'"; fi
}
