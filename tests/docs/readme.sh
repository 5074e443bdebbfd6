#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# README test: README.md is at most 200 lines, and every shell command in it
# runs as printed, with the output it shows.
#
# Usage: tests/docs/readme.sh [BUILD_DIR]     (default: build)
#
# The convention README.md follows: a command is a line of a ```sh block
# that starts with `$ `; the lines after it, up to the next command or the
# end of the block, are what it prints. Each of those must be found in the
# command's output (stdout and stderr together), in order, each as a whole
# line or a part of one; a line `...` stands for lines left out. A command
# must exit 0, or N when the line ends with the comment `# exit N`. In a
# ```sh block every line is a command or a line of output: a line before
# the first command is a failure. Other blocks (```text, ...) are not run.
#
# The commands run one after the other, in the README's order, each in a
# fresh `bash -c` from the root of a copy of the source tree (the files git
# knows, committed or not, but not ignored) whose build/ is a copy of
# BUILD_DIR, so that `make demo` finds everything built, and with HOME a
# temporary directory, so that `make install PREFIX=$HOME/.local` installs
# there. `make test` is the one command not run (it is the whole suite, 20
# minutes): `make -n test` checks that the target exists and expands.
# Commands that call mpirun get OMPI_ALLOW_RUN_AS_ROOT when run as root and
# may oversubscribe the cores, as tests/mpi does; without mpirun they are
# skipped, loudly.
#
# One line per command (`PASS README.md:LINE: COMMAND` or `FAIL ...: why`);
# the last line is `N passed, N failed`; the exit status is non-zero on a
# failure.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
use_build_dir "${1:-}"
readme=$root/README.md

need_mcgen

lines=$(wc -l <"$readme")
if [ "$lines" -le 200 ]; then
  pass "README.md: $lines lines, at most 200"
else
  fail "README.md: at most 200 lines" "it has $lines"
fi

make_work readme
copy=$work/mcgen
mkdir -p "$copy" "$work/home"
if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
  (cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 cp -p --parents -t "$copy")
else
  (cd "$root" && tar -c --exclude=./build --exclude=./bench/out .) | tar -x -C "$copy"
fi
cp -a "$build_dir" "$copy/build"

# run_command WHERE COMMAND EXPECTED_FILE: runs COMMAND in the copy and
# checks its exit status and the lines of EXPECTED_FILE against its output.
run_command() {
  local where=$1 cmd=$2 expected=$3 want=0 rc out=$work/out
  [[ $cmd =~ \#\ exit\ ([0-9]+) ]] && want=${BASH_REMATCH[1]}
  if [ "$cmd" = "make test" ]; then
    cmd="make -n test" where="$where (make -n)" # the whole suite: its recipe expands
  fi
  if [[ $cmd == *mpirun* ]] && ! command -v mpirun >/dev/null; then
    echo "SKIP $where: $cmd: NOT CHECKED, mpirun is not installed (make test-deps)"
    return
  fi
  (cd "$copy" && HOME=$work/home OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    OMPI_MCA_rmaps_base_oversubscribe=1 timeout 900 bash -c "$cmd") </dev/null >"$out" 2>&1
  rc=$?
  if [ "$rc" -ne "$want" ]; then
    fail "$where: $cmd" "exit $rc, expected $want: $(tail -c 400 "$out" | tr '\n' '|')"
    return
  fi
  # Each expected line in order, each in a line of the output at or after
  # the one the previous was found in.
  local line n=0 found
  while IFS= read -r line; do
    [ "$line" = ... ] && continue
    found=$(tail -n "+$((n + 1))" "$out" | grep -nF -m 1 -- "$line" | cut -d: -f1)
    if [ -z "$found" ]; then
      fail "$where: $cmd" "no line (in order) containing \"$line\": $(head -c 400 "$out" | tr '\n' '|')"
      return
    fi
    n=$((n + found))
  done <"$expected"
  pass "$where: $cmd"
}

# Reads the README: runs each command once its output lines are known.
in_sh=0 lineno=0 cmd='' where='' expected=$work/expected
flush() {
  [ -n "$cmd" ] && run_command "$where" "$cmd" "$expected"
  cmd=''
}
while IFS= read -r l || [ -n "$l" ]; do
  lineno=$((lineno + 1))
  if [ "$in_sh" -eq 0 ]; then
    [ "$l" = '```sh' ] && in_sh=1
    continue
  fi
  if [ "$l" = '```' ]; then
    flush
    in_sh=0
  elif [[ $l == '$ '* ]]; then
    flush
    cmd=${l#\$ } where=README.md:$lineno
    : >"$expected"
  elif [ -n "$cmd" ]; then
    printf '%s\n' "$l" >>"$expected"
  else
    fail "README.md:$lineno" "a line of a \`\`\`sh block before any \`\$ \` command: $l"
  fi
done <"$readme"
[ "$in_sh" -eq 0 ] || fail "README.md:$lineno" "unterminated \`\`\`sh block"

finish
