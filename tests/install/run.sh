#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Install test: `make install` into a temporary prefix, the build tree moved
# away meanwhile, then the installed mcgen run from the prefix as a user runs
# it (no MCGEN_* variables). Each check prints `PASS name` or `FAIL name:
# why`; the last line is `N passed, N failed`; the exit status is non-zero on
# a failure.
#
# Usage: tests/install/run.sh [BUILD_DIR]     (default: build, from the repo root)
#
# BUILD_DIR is renamed to BUILD_DIR.away-PID while the installed trees are
# used, and renamed back on exit, whatever happens (trap). Do not run other
# tests on the same BUILD_DIR meanwhile (make test runs this one alone).
#
# What is checked, and against what:
#   specs/filter.mc         142 states, 249 transitions, all properties hold
#                           (the Rumur twin: tests/oracle/filter.rumur.txt)
#   specs/lost_update.mc    invariant counts_increments fails (exit 1), with a
#                           4-step trace, as Rumur finds it (the spec's header)
#   tests/dve/committed.dve 6 states, 6 transitions, 1 deadlock (hand count in
#                           the file's header)
#   BEEM gear.1             states, transitions and deadlocks of
#                           beem_expected.csv (BEEM's published figures);
#                           skipped, loudly, when the suite is not found
#   share/doc/mcgen/examples/stop_and_wait.mc   its assert fails after 16
#                           steps (the spec's header), built from the
#                           installed examples and their C alone
# and: the installed files are exactly the expected ones (the docs and the
# examples under share/doc/mcgen included, with LICENSE); a checker
# compiled from `mcgen --emit-c` with the flags of the installed mcrt.pc
# alone (pkg-config) has filter.mc's figures; Vim finds the installed
# syntax files; no path of the source tree is
# compiled into the installed mcgen; a DESTDIR-staged tree moved elsewhere
# and reached through a symbolic link in PATH works; a missing file is
# reported with the place looked at; the MCGEN_* overrides still apply;
# both man pages render without warnings, name every option of `--help`
# (their SYNOPSIS too) and point to share/doc/mcgen; `make uninstall`
# leaves no mcgen file in the prefix.
set -uo pipefail   # no -e: a failing check is counted, not fatal

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
use_build_dir "${1:-}"
build_dir=${build_dir%/}
unset MCGEN_TEMPLATES MCGEN_RUNTIME MCGEN_RUNTIME_INCLUDE CC

make_work install
away=$build_dir.away-$$
moved=0
restore() {
  if [ "$moved" -eq 1 ] && [ -d "$away" ] && [ ! -e "$build_dir" ]; then
    mv "$away" "$build_dir" && moved=0
  fi
  [ "$moved" -eq 0 ] || echo "WARNING: could not move $away back to $build_dir" >&2
  remove_work
}
trap restore EXIT
trap 'exit 130' INT TERM HUP

need make jq man groff strip strings pkg-config vim
if [ ! -x "$build_dir/mcgen" ] || [ ! -f "$build_dir/libmcrt.a" ]; then
  fail setup "$build_dir/mcgen or libmcrt.a is not built (make all)"
  finish_now
fi

# `run CMD...`: CMD's stdout in $out, stderr in $err, exit status in $rc.
out=$work/stdout err=$work/stderr rc=0
run() {
  timeout 120 "$@" >"$out" 2>"$err"
  rc=$?
}
# `expect NAME STATUS`: the last run exited with STATUS.
expect() {
  if [ "$rc" -eq "$2" ]; then
    pass "$1"
  else
    fail "$1" "exit $rc, expected $2: $(head -c 600 "$err")"
  fi
}
# `expect_json NAME FILE FILTER VALUE`: jq FILTER on FILE prints VALUE.
expect_json() {
  local got
  got=$(jq -r "$3" "$2" 2>&1)
  if [ "$got" = "$4" ]; then
    pass "$1"
  else
    fail "$1" "$3 is '$got', expected '$4'"
  fi
}

# ---------------------------------------------------------------------------
# Install, with the build tree still in place.

# A prefix with a space, backquotes and a single quote: make's recipes must
# quote it (once split at the space, the backquotes run as a command, the
# quote ending a '...' word early).
prefix="$work/pre fix \`true\` it's"
run make -C "$root" --no-print-directory B="$build_dir" install PREFIX="$prefix"
expect "make install PREFIX=" 0

# libmcrt_mpi.a (mcgen --mpi) is built, and installed, only where mpicc is.
mpi_lib=
[ -f "$build_dir/libmcrt_mpi.a" ] && mpi_lib='
lib/mcgen/libmcrt_mpi.a'
# The documentation keeps the tree's layout under share/doc/mcgen (README.md
# links docs/...), with specs/ as examples/ (the C that stop_and_wait.mc
# calls through `extern` included).
docs=$(cd "$root" && ls README.md LICENSE docs/*.md docs/journal/*.md docs/schema/*.json | sed 's|^|share/doc/mcgen/|')
examples=$(cd "$root/specs" && ls ./*.mc serial/* | sed 's|^\./||; s|^|share/doc/mcgen/examples/|')
expected_files=$(LC_ALL=C sort <<EOF
bin/mcgen
include/mcgen/mcrt.h
lib/mcgen/libmcrt.a$mpi_lib
lib/pkgconfig/mcrt.pc
share/man/man1/mcgen-checker.1
share/man/man1/mcgen.1
share/mcgen/templates/checker.c.m4
share/vim/vimfiles/ftdetect/mc.vim
share/vim/vimfiles/syntax/mc.vim
$docs
$examples
EOF
)
files=$(cd "$prefix" 2>/dev/null && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
if [ "$files" = "$expected_files" ]; then
  pass "installed files"
else
  fail "installed files" "missing: $(comm -13 <(echo "$files") <(echo "$expected_files") |
    tr '\n' ' ') unexpected: $(comm -23 <(echo "$files") <(echo "$expected_files") | tr '\n' ' ')"
fi

# A DESTDIR-staged install, moved elsewhere afterwards (a copied tree).
run make -C "$root" --no-print-directory B="$build_dir" install DESTDIR="$work/stage" \
  PREFIX=/usr/local
expect "make install DESTDIR= PREFIX=/usr/local" 0

# The build tree's paths must not be compiled in (debug information aside).
strip -o "$work/mcgen.stripped" "$prefix/bin/mcgen"
if grep -qF "$root" "$work/mcgen.stripped"; then
  fail "no build path in mcgen" "$(strings -a "$work/mcgen.stripped" | grep -F "$root" | head -3 | tr '\n' ' ')"
else
  pass "no build path in mcgen"
fi

# ---------------------------------------------------------------------------
# The build tree moved away: only the installed trees are left.

if ! mv "$build_dir" "$away"; then
  fail setup "cannot move $build_dir away"
  finish_now
fi
moved=1
mcgen=$prefix/bin/mcgen
mkdir -p "$work/run"
cd "$work/run" || exit 1

# The figures below are the full graph's: the runs without liveness say
# --por off (the default reduces the safety search).
# specs/filter.mc: 142 states and 249 transitions without symmetry (the
# Rumur twin's figures, tests/oracle/filter.rumur.txt); the liveness
# property holds.
run "$mcgen" "$root/specs/filter.mc"
expect "installed mcgen builds specs/filter.mc" 0
run ./filter_checker --symmetry off --quiet --report filter.json
expect "filter_checker: exit 0" 0
expect_json "filter_checker: verdict" filter.json .verdict ok
expect_json "filter_checker: states" filter.json .states 142
expect_json "filter_checker: transitions" filter.json .transitions 249

# specs/lost_update.mc: the invariant fails after 4 steps (Rumur finds the
# same, per the spec's header); exit 1.
run "$mcgen" -o lost "$root/specs/lost_update.mc"
expect "installed mcgen builds specs/lost_update.mc" 0
run ./lost --symmetry off --por off --quiet --report lost.json
expect "lost_update checker: exit 1 (violation)" 1
expect_json "lost_update checker: verdict" lost.json .verdict violation
expect_json "lost_update checker: invariant" lost.json '.violations[0].name' counts_increments
expect_json "lost_update checker: trace steps" lost.json '.violations[0].trace | length - 1' 4

# tests/dve/committed.dve: 6 states, 6 transitions, 1 deadlock (hand count
# in the file's header).
run "$mcgen" -o committed "$root/tests/dve/committed.dve"
expect "installed mcgen builds tests/dve/committed.dve" 0
run ./committed --no-deadlock --por off --quiet --report committed.json
expect "committed checker: exit 0" 0
expect_json "committed checker: states" committed.json .states 6
expect_json "committed checker: transitions" committed.json .transitions 6
expect_json "committed checker: deadlocks" committed.json .deadlocks 1

# The installed example that calls C through `extern`, built from the
# installed tree alone: its assert fails after 16 steps (the spec's header).
run "$mcgen" -o saw "$prefix/share/doc/mcgen/examples/stop_and_wait.mc"
expect "installed mcgen builds the installed examples/stop_and_wait.mc" 0
run ./saw --no-deadlock --quiet --report saw.json
expect "stop_and_wait checker: exit 1 (violation)" 1
expect_json "stop_and_wait checker: trace steps" saw.json '.violations[0].trace | length - 1' 16

# BEEM gear.1 against BEEM's published figures.
if find_suite beem "BEEM gear.1" dve; then
  beem=$suite
  IFS=, read -r states edges deadlocks < <(awk -F, '$1 == "gear.1" { print $5 "," $7 "," $8 }' \
    "$beem/beem_expected.csv")
  run "$mcgen" -o gear --cflags -O0 "$beem/dve/gear.1.dve"
  expect "installed mcgen builds BEEM gear.1" 0
  run ./gear --no-deadlock --por off --quiet --report gear.json
  expect "gear checker: exit 0" 0
  expect_json "gear checker: states (BEEM: $states)" gear.json .states "$states"
  expect_json "gear checker: transitions (BEEM: $edges)" gear.json .transitions "$edges"
  expect_json "gear checker: deadlocks (BEEM: $deadlocks)" gear.json .deadlocks "$deadlocks"
fi

# mcgen --mpi from the installed tree, where Open MPI is: run without
# mpirun, the checker is one rank, with the serial checker's verdict and
# trace (tests/mpi/run.sh runs it on several).
if [ -n "$mpi_lib" ]; then
  run "$mcgen" --mpi -o lost_mpi "$root/specs/lost_update.mc"
  expect "installed mcgen --mpi builds specs/lost_update.mc" 0
  run env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ./lost_mpi --symmetry off \
    --quiet --report lost_mpi.json
  expect "lost_update --mpi checker, one rank: exit 1 (violation)" 1
  expect_json "lost_update --mpi checker: invariant" lost_mpi.json '.violations[0].name' counts_increments
  expect_json "lost_update --mpi checker: trace steps" lost_mpi.json '.violations[0].trace | length - 1' 4
  expect_json "lost_update --mpi checker: ranks" lost_mpi.json .mpi.ranks 1
fi

# mcrt.pc: another build system compiles the C of `mcgen --emit-c` with
# pkg-config's flags alone. The staged tree is read through
# PKG_CONFIG_SYSROOT_DIR, as a staged tree is (pc); its prefix is the PREFIX
# given, its version mcgen's. specs/filter.mc: 142 states, 249 transitions
# (the Rumur twin's figures, as above).
stage=$work/stage
pc() { PKG_CONFIG_SYSROOT_DIR=$stage PKG_CONFIG_LIBDIR=$stage/usr/local/lib/pkgconfig pkg-config "$@"; }
expect_text "mcrt.pc: prefix" \
  "$(PKG_CONFIG_LIBDIR=$stage/usr/local/lib/pkgconfig pkg-config --variable=prefix mcrt)" /usr/local
expect_text "mcrt.pc: version" "mcgen $(pc --modversion mcrt)" "$("$mcgen" --version | head -n 1)"
run "$stage/usr/local/bin/mcgen" --emit-c -o pc_filter "$root/specs/filter.mc"
expect "staged mcgen --emit-c specs/filter.mc" 0
# shellcheck disable=SC2046  # pkg-config's flags are words
run cc pc_filter.c $(pc --cflags --libs mcrt) -o pc_filter
expect "cc pc_filter.c \$(pkg-config --cflags --libs mcrt)" 0
run ./pc_filter --symmetry off --quiet --report pc_filter.json
expect "pkg-config-built checker: exit 0" 0
expect_json "pkg-config-built checker: states" pc_filter.json .states 142
expect_json "pkg-config-built checker: transitions" pc_filter.json .transitions 249

# Vim reads the installed syntax files from the tree's share/vim/vimfiles
# (on Vim's 'runtimepath' when PREFIX is /usr): a spec is of file type mc,
# its first character highlighted as a comment.
vim -u NONE -i NONE -N -n -es --cmd "set rtp^=$stage/usr/local/share/vim/vimfiles" \
  -c 'filetype on' -c 'syntax on' -c "edit $root/specs/filter.mc" \
  -c 'call writefile([&filetype, synIDattr(synID(1, 1, 1), "name")], "vim.out")' -c 'qall!'
expect_text "installed Vim files: file type and syntax" "$(cat vim.out 2>/dev/null | tr '\n' ' ')" \
  "mc mcComment "

# The staged tree moved elsewhere, reached through a symbolic link in PATH.
copy=$work/elsewhere/mcgen-tree
mkdir -p "$work/elsewhere" "$work/bin"
mv "$work/stage/usr/local" "$copy"
ln -s "$copy/bin/mcgen" "$work/bin/mcgen"
run env PATH="$work/bin:$PATH" mcgen -o committed2 "$root/tests/dve/committed.dve"
expect "moved tree, via a symlink in PATH: builds" 0
# pkg-config --define-prefix reads a moved tree's mcrt.pc where it is.
expect_text "moved tree: pkg-config --define-prefix" \
  "$(PKG_CONFIG_LIBDIR=$copy/lib/pkgconfig pkg-config --define-prefix --cflags mcrt | sed 's/ *$//')" \
  "-I$copy/include/mcgen"
run ./committed2 --no-deadlock --quiet --report committed2.json
expect_json "moved tree: checker states" committed2.json .states 6

# A missing file: exit 2, and the message names where mcgen looked.
rm "$copy/lib/mcgen/libmcrt.a"
run "$copy/bin/mcgen" -o broken "$root/tests/dve/committed.dve"
if [ "$rc" -eq 2 ] && grep -qF "$copy/lib/mcgen/libmcrt.a" "$err"; then
  pass "missing libmcrt.a: exit 2, names the place looked at"
else
  fail "missing libmcrt.a: exit 2, names the place looked at" "exit $rc: $(head -c 600 "$err")"
fi
run "$copy/bin/mcgen" --emit-c -o emitted "$root/tests/dve/committed.dve"
expect "missing libmcrt.a: --emit-c does not need it" 0

# The overrides still apply: MCGEN_RUNTIME names the other tree's runtime;
# a wrong MCGEN_TEMPLATES is an error that names it.
run env MCGEN_RUNTIME="$prefix/lib/mcgen" "$copy/bin/mcgen" -o overridden \
  "$root/tests/dve/committed.dve"
expect "MCGEN_RUNTIME overrides the runtime" 0
run env MCGEN_TEMPLATES="$work/nowhere" "$mcgen" -o none "$root/tests/dve/committed.dve"
if [ "$rc" -eq 2 ] && grep -qF "MCGEN_TEMPLATES=$work/nowhere" "$err"; then
  pass "bad MCGEN_TEMPLATES: exit 2, named"
else
  fail "bad MCGEN_TEMPLATES: exit 2, named" "exit $rc: $(head -c 600 "$err")"
fi

# ---------------------------------------------------------------------------
# The man pages: no warnings from man or groff, and every option that
# `--help` lists appears in the page.

for page in mcgen mcgen-checker; do
  file=$prefix/share/man/man1/$page.1
  MANWIDTH=80 man --warnings -l "$file" >"$out" 2>"$err"
  groff -man -ww -z "$file" 2>>"$err"
  if [ -s "$out" ] && [ ! -s "$err" ]; then
    pass "man $page renders without warnings"
  else
    fail "man $page renders without warnings" "$(head -c 600 "$err")"
  fi
done
# names_all CHECK FILE OPTION...: FILE names every OPTION (as a word).
names_all() {
  local check=$1 file=$2 opt missing=
  shift 2
  for opt; do
    grep -qE -- "(^|[^a-z0-9-])$opt([^a-z0-9-]|$)" "$file" || missing="$missing $opt"
  done
  if [ -z "$missing" ]; then
    pass "$check"
  else
    fail "$check" "missing:$missing"
  fi
}
# check_page PAGE HELP_FILE: the page names every option of --help, and its
# SYNOPSIS alone names every option --help describes (a line of its own,
# or after a comma or parenthesis: "--help, --version", "(--deps-json").
check_page() {
  if [ ! -s "$2" ]; then
    fail "man $1 names every option of --help" "no --help output"
    return
  fi
  sed 's/\\-/-/g' "$prefix/share/man/man1/$1.1" >"$work/$1.roff" # \- is a dash
  sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$work/$1.roff" >"$work/$1.synopsis"
  # shellcheck disable=SC2046  # one word per option
  names_all "man $1 names every option of --help" "$work/$1.roff" \
    $(grep -oE -- '(^|[ [,])--?[a-zA-Z][a-z0-9-]*' "$2" | tr -d ' [,' | sort -u)
  # shellcheck disable=SC2046
  names_all "man $1: the SYNOPSIS names every option of --help" "$work/$1.synopsis" \
    $({ grep -oE -- '^ +--?[a-zA-Z][a-z0-9-]*' "$2"
      grep -oE -- '(, |\()--[a-z][a-z0-9-]*' "$2"; } | tr -d ' ,(' | sort -u)
  if grep -q 'share/doc/mcgen' "$work/$1.roff"; then
    pass "man $1 points to the installed docs"
  else
    fail "man $1 points to the installed docs" "no share/doc/mcgen in the page"
  fi
}
"$mcgen" --help >"$work/mcgen.help" 2>&1
check_page mcgen "$work/mcgen.help"
./committed --help >"$work/checker.help" 2>&1
check_page mcgen-checker "$work/checker.help"

# ---------------------------------------------------------------------------
# make uninstall: nothing of mcgen is left in the prefix.

run make -C "$root" --no-print-directory B="$build_dir" uninstall PREFIX="$prefix"
expect "make uninstall" 0
left=$(cd "$prefix" && find . \( -type f -o -type l -o -name '*mcgen*' \) | head -5)
if [ -z "$left" ]; then
  pass "uninstall leaves no mcgen file"
else
  fail "uninstall leaves no mcgen file" "$(echo "$left" | tr '\n' ' ')"
fi

cd "$root" || exit 1
restore
trap - EXIT
if [ -x "$build_dir/mcgen" ]; then
  pass "build tree moved back"
else
  fail "build tree moved back" "$build_dir/mcgen is missing"
fi
finish
