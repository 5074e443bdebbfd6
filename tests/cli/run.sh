#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Command-line tests: mcgen and a generated checker, run as a user types them
# (docs/DESIGN.md: "mcgen's command line", "The checker's command line", the JSON
# report). Each check prints `PASS name` or `FAIL name: why`; the last line is
# exactly `N passed, N failed`, and the exit status is non-zero on a failure.
#
# Usage: tests/cli/run.sh [BUILD_DIR]     (default: build, from the repo root)
#
# Needs jq; rumur is used when installed (the N=2 filter count, otherwise the
# recorded one). The specs are in tests/cli/specs/, each saying what it is for:
#   filter.mc    Peterson's filter lock: 142 states, 249 transitions
#                (tests/oracle/filter.rumur.txt), a liveness property
#   bug.mc       the same with a broken guard: invariant 'mutex' fails
#   deadlock.mc  stuck at x = 3 (4 states, 3 transitions)
#   counter.mc   no `model` line; 4 x 5 = 20 states, 40 transitions
#   feat.mc      every kind of type and collection (for -Werror builds)
#   errors.mc    two spec errors
#   big.mc       10^8 states, to be interrupted
#   asym.mc      a scalarset the spec does not treat symmetrically
#   asym_trace.mc  the same, where only the reduced run's trace shows it
#   hang.mc      calls C (hang.c) that never returns for one argument
#   drift.mc     calls `trusted` C (drift.c) that keeps state between calls
#   flip.mc      the same (flip.c) in a guard, for --search odpor
# The checkers are built against the plain runtime ($BUILD_DIR/libmcrt.a),
# as a user builds them: MCGEN_RUNTIME and CC are ignored here.
set -uo pipefail   # no -e: a failing check is counted, not fatal

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
specs=$root/tests/cli/specs
use_build_dir "${1:-}"
unset MCGEN_RUNTIME CC

make_work cli
need_mcgen
need jq

# ---------------------------------------------------------------------------
# Helpers. A check is a function that returns 0 (PASS) or sets $why and
# returns non-zero (FAIL). `run CMD...` runs CMD in the current directory
# with a time limit, its stdout in $out, its stderr in $err, its status in $rc.

out=$work/stdout err=$work/stderr rc=0
run() {
  timeout 60 "$@" >"$out" 2>"$err"
  rc=$?
  return 0
}
check() {
  why=
  if "$2"; then pass "$1"; else fail "$1" "${why:-failed}"; fi
}

want_rc() {
  [ "$rc" -eq "$1" ] && return 0
  why="exit $rc, expected $1 (stdout: $(excerpt "$out") stderr: $(excerpt "$err"))"
  return 1
}
# want_in FILE ERE [what]: a line of FILE matches ERE.
want_in() {
  grep -Eq -- "$2" "$1" && return 0
  why="${3:-$(basename "$1")} has no line matching /$2/: $(excerpt "$1")"
  return 1
}
want_file() {
  [ -f "$1" ] && return 0
  why="$1 was not written (in $PWD: $(ls | tr '\n' ' '))"
  return 1
}
want_no_file() {
  [ ! -e "$1" ] && return 0
  why="$1 should not exist"
  return 1
}
# want_json FILE JQ-FILTER WHAT: the filter gives true on FILE.
want_json() {
  local v
  v=$(jq -r "$2" "$1" 2>&1)
  [ "$v" = true ] && return 0
  why="$3 ($1: jq '$2' gave '$v')"
  return 1
}
# A fresh, empty working directory per check.
fresh() {
  local d
  d=$(mktemp -d "$work/t.XXXXXX")
  cd "$d" || exit 2
}

# jq program: every key of docs/DESIGN.md's report schema, with the right type.
# Prints one line per problem; nothing when the report is valid.
schema_jq='
def int: type == "number" and . == floor and . >= 0;
def need($c; $m): if $c then empty else $m end;
def steps($i):
  need(type == "object"; "trace[\($i)] is not an object"),
  need(has("action") and (.action | type) == "string"; "trace[\($i)].action is not a string"),
  need(has("params") and (.params | type) == "object"; "trace[\($i)].params is not an object"),
  need(has("state") and (.state | type) == "object" and (.state | length) > 0
       or .state == null and (.error | type) == "string";
       "trace[\($i)].state is not a non-empty object (nor null with an error: a failing step)");
def violation($i):
  need(type == "object"; "violations[\($i)] is not an object"),
  (if type == "object" then
     (["kind", "name", "message", "trace", "loop_start"][] as $k
      | need(has($k); "violations[\($i)] has no key \($k)")),
     need(.kind | IN("invariant", "assert", "deadlock", "runtime-error", "reachable", "liveness",
                     "no-initial-state");
          "violations[\($i)].kind is \(.kind | tojson)"),
     need(.name | type | IN("string", "null"); "violations[\($i)].name is not a string/null"),
     need(.message | type == "string"; "violations[\($i)].message is not a string"),
     need(.loop_start == null or (.loop_start | int); "violations[\($i)].loop_start is not null/int"),
     need(.trace | type == "array"; "violations[\($i)].trace is not an array"),
     (if (.trace | type) == "array" then .trace | to_entries[] | .key as $j | .value | steps($j)
      else empty end)
   else empty end);
need(type == "object"; "the report is not an object"),
(["model", "verdict", "states", "transitions", "depth", "bound_hit", "violations", "actions",
  "time_s", "memory_bytes", "fingerprint_bits", "collision_probability"][] as $k
 | need(has($k); "no key \($k)")),
need(.model | type == "string"; "model is not a string"),
need(.verdict | IN("ok", "violation", "incomplete", "error"); "verdict is \(.verdict | tojson)"),
need(.states | int; "states is not a count"),
need(.transitions | int; "transitions is not a count"),
need(.depth | int; "depth is not a count"),
need(.bound_hit | IN(null, "max-states", "max-steps", "max-depth", "memory", "interrupted");
     "bound_hit is \(.bound_hit | tojson)"),
need(.violations | type == "array"; "violations is not an array"),
(if (.violations | type) == "array" then .violations | to_entries[] | .key as $i | .value | violation($i)
 else empty end),
need(.actions | type == "object" and length > 0; "actions is not a non-empty object"),
(if (.actions | type) == "object" then .actions | to_entries[]
   | need(.value | type == "object" and (.fired | int) and (.enabled_ever | type == "boolean");
          "actions.\(.key) lacks fired (count) / enabled_ever (bool): \(.value | tojson)")
 else empty end),
need(.time_s | type == "number" and . >= 0; "time_s is not a number"),
need(.memory_bytes | int; "memory_bytes is not a count"),
need(.fingerprint_bits | IN(64, 128); "fingerprint_bits is \(.fingerprint_bits | tojson)"),
need(.por | IN("on", "off"); "por is \(.por | tojson)"),
need(.por_mode | IN("auto", "on", "off"); "por_mode is \(.por_mode | tojson)"),
need(.por_reduced_graph | type == "boolean"; "por_reduced_graph is not a boolean"),
need(has("por_off_reason") == (.por == "off" and .por_mode == "auto");
     "por_off_reason is given only when the default left the reduction off"),
need((has("por_off_reason") | not) or (.por_off_reason | type == "string");
     "por_off_reason is not a string"),
need(has("shortest_trace") and (.shortest_trace == null or
     (.shortest_trace | type == "object" and (.status | IN("shortest", "may-not-be-shortest"))
      and (.trace_depth | int) and (.reduced_trace_depth | int) and (.reduced_states | int)
      and (.full_search | IN("violation", "stopped", "no-violation", "not-started", "not-run"))));
     "shortest_trace is not null or an object with status, depths and full_search"),
need(.collision_probability | type == "number" and . >= 0 and . <= 1;
     "collision_probability is not a probability"),
need(.exports | type == "array"; "exports is not an array"),
(.exports // [] | to_entries[] | .key as $i | .value |
 need((.kind | IN("graph", "dot", "tests")) and (.path | type == "string")
      and (.written | type == "boolean") and (.trace_only | type == "boolean")
      and (.error | type | IN("string", "null"))
      and ((.error == null) == (.written and (.trace_only | not)));
      "exports[\($i)] lacks kind, path, written, trace_only or error: \(tojson)"))
'
# want_schema REPORT: the report parses and matches the schema.
want_schema() {
  local problems
  if ! problems=$(jq -r "$schema_jq" "$1" 2>&1); then
    why="$1 is not JSON: $problems"
    return 1
  fi
  [ -z "$problems" ] && return 0
  why="$(basename "$1") does not match docs/DESIGN.md's schema: $(echo "$problems" | head -5 | tr '\n' ';')"
  return 1
}

# Builds a checker once for the checks of the checker: $bin/NAME from SPEC.
bin=$work/bin
mkdir -p "$bin"
build() { # build NAME SPEC [mcgen options...]
  local name=$1 spec=$2
  shift 2
  (cd "$bin" && timeout 120 "$mcgen" -o "$name" "$@" "$spec" >"$work/build-$name.log" 2>&1) && return 0
  fail "build-$name" "mcgen $* $spec failed: $(excerpt "$work/build-$name.log")"
  return 1
}

# ===========================================================================
# mcgen

t_mcgen_help() {
  run "$mcgen" --help
  want_rc 0 || return
  local o
  for o in -o -D --emit-c --cc --cflags --mpi --keep --net-info --version --help; do
    grep -q -- "$o\b" "$out" || { why="--help does not list $o"; return 1; }
  done
  # The four input languages, by their extensions (docs/DESIGN.md).
  for o in .mc .dve .pnml .m; do
    grep -qF -- "($o" "$out" || grep -qF -- " $o" "$out" ||
      { why="--help does not name the $o input"; return 1; }
  done
}
check mcgen-help t_mcgen_help

# The usage lines at the top of mcgen --help (up to the first blank line)
# name every option that the help then describes.
t_mcgen_help_usage() {
  run "$mcgen" --help
  want_rc 0 || return
  local usage o missing=
  usage=$(sed '/^$/q' "$out")
  for o in $(sed '1,/^$/d' "$out" | grep -oE -- '(^ +|, |\()--?[a-zA-Z][a-z0-9-]*' | tr -d ' ,(' |
    sort -u); do
    grep -qE -- "(^|[^a-z0-9-])$o([^a-z0-9-]|$)" <<<"$usage" || missing="$missing $o"
  done
  [ -z "$missing" ] && return 0
  why="the usage lines do not name:$missing"
  return 1
}
check mcgen-help-usage t_mcgen_help_usage

t_mcgen_version() {
  run "$mcgen" --version
  want_rc 0 && want_in "$out" '^mcgen [0-9]+\.[0-9]+' "--version output"
}
check mcgen-version t_mcgen_version

# --version's second line names the commit mcgen was built from: the
# work tree's HEAD when the tree is a git checkout (what git says, not
# mcgen), else that none was recorded.
t_mcgen_version_commit() {
  run "$mcgen" --version
  want_rc 0 || return
  local head
  if head=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null); then
    want_in "$out" "^built from commit $head( with uncommitted changes)?\$" "--version"
  else
    want_in "$out" '^built outside a git checkout' "--version"
  fi
}
check mcgen-version-commit t_mcgen_version_commit

# Every line of --help fits 80 columns.
t_mcgen_help_width() {
  run "$mcgen" --help
  local long
  long=$(awk 'length > 80' "$out")
  [ -z "$long" ] || { why="lines over 80 columns: $long"; return 1; }
}
check mcgen-help-width t_mcgen_help_width

# mcgen says on stderr what it built: the checker as a command runs it, the
# actions and their bindings and the state's bytes; -q and --quiet say
# nothing; --emit-c says what it wrote.
t_mcgen_says_built() {
  fresh
  run "$mcgen" "$specs/counter.mc"
  want_rc 0 && want_in "$err" '^built \./counter_checker \([0-9,]+ actions?(, [0-9,]+ bindings?)?, state [0-9,]+ bytes?\)$' stderr || return
  [ ! -s "$out" ] || { why="stdout is not empty: $(excerpt "$out")"; return 1; }
  local q
  for q in -q --quiet; do
    run "$mcgen" $q "$specs/counter.mc"
    want_rc 0 || return
    [ ! -s "$err" ] || { why="$q: stderr is not empty: $(excerpt "$err")"; return 1; }
  done
  run "$mcgen" --emit-c -o c "$specs/counter.mc"
  want_rc 0 && want_in "$err" '^wrote \./c\.c \(' stderr
}
check mcgen-says-built t_mcgen_says_built

# filter.mc: 4 actions of one parameter each over scalarset(3), 12 bindings;
# its state (pc: 3 x 2 bits, level: 3 x 2 bits, victim: 3 x 2 bits, an
# optional of 3 values: 18 bits) fits 3 bytes.
t_mcgen_built_counts() {
  fresh
  run "$mcgen" "$root/specs/filter.mc"
  want_rc 0 && want_in "$err" '^built \./filter_checker \(4 actions, 12 bindings, state 3 bytes\)$' stderr
}
check mcgen-built-counts t_mcgen_built_counts

# A BEEM instance keeps its dots: lamport.5.dve builds lamport.5_checker,
# as BEEM names its instances, so that the instances of one model in one
# directory each get their own checker.
t_mcgen_dve_dots() {
  fresh
  cp "$root/tests/dve/buffered.dve" buffered.3.dve
  run "$mcgen" buffered.3.dve
  want_rc 0 && want_file buffered.3_checker && want_in "$err" '^built \./buffered\.3_checker ' stderr
}
check mcgen-dve-name-keeps-dots t_mcgen_dve_dots

# --run builds and runs: the checker's output and exit status (3: a bound
# stopped it; 1: a violation), its options after `--`; the built line on
# stderr. An operand before `--` and --emit-c are refused.
t_mcgen_run() {
  fresh
  run "$mcgen" --run "$root/specs/filter.mc" -- --max-states 5 --por off
  want_rc 3 && want_in "$out" '^result: incomplete' stdout && want_in "$out" '^states: +5 ' stdout &&
    want_in "$err" '^built \./filter_checker' stderr || return
  run "$mcgen" -q --run -- "$root/specs/lost_update.mc" --por off
  want_rc 1 && want_in "$out" '^result: violation' stdout || return
  run "$mcgen" --run "$root/specs/filter.mc" extra
  want_rc 2 && want_in "$err" "after \`--\`" stderr || return
  run "$mcgen" --run --emit-c "$root/specs/filter.mc"
  want_rc 2 && want_in "$err" 'not with --emit-c' stderr
}
check mcgen-run t_mcgen_run

# A mistyped option: the nearest one; an abbreviation of several: them all;
# a value for an option without one, a bad choice, a bad number: one line
# naming the option. With --run, a checker option before `--` says where
# it goes.
t_mcgen_option_mistakes() {
  local args expect
  while IFS='|' read -r args expect; do
    run "$mcgen" $args "$root/specs/filter.mc"
    want_rc 2 && want_in "$err" "$expect" "stderr of mcgen $args" || return
  done <<'EOF'
--emitc|unknown option '--emitc'; did you mean '--emit-c'\?
--verbsoe|did you mean '--verbose'\?
--sc x|'--sc' is ambiguous: --scenario, --scenario-max-states, --scenario-words
--quiet=yes|option --quiet takes no value
--color sometimes|--color expects never, auto or always, got 'sometimes'
--scenario-words 0|--scenario-words expects a number from 1 to 1000000, got '0'
--run -t|unknown option '-t' \(with --run, the checker's options go after `--`\)
--lsp|--lsp takes no SPEC
EOF
}
check mcgen-option-mistakes t_mcgen_option_mistakes

# Colour: escapes with --color always (even under NO_COLOR: the option
# wins), none with never, none in a pipe by default; on a terminal (script
# gives one) by default, unless NO_COLOR is set.
t_mcgen_color() {
  fresh
  printf 'var x: 0..3;\naction a when y { x = 1; }\n' >bad.mc
  run env NO_COLOR=1 "$mcgen" --color always bad.mc
  want_rc 1 && want_in "$err" $'\033''\[1;31merror:' "stderr (--color always)" || return
  run "$mcgen" --color never bad.mc
  ! grep -q $'\033' "$err" || { why="--color never: escapes in $(excerpt "$err")"; return 1; }
  run "$mcgen" bad.mc
  ! grep -q $'\033' "$err" || { why="a pipe: escapes in $(excerpt "$err")"; return 1; }
  command -v script >/dev/null || { why="script (util-linux) is missing: no terminal to test"; return 1; }
  TERM=xterm script -qec "'$mcgen' bad.mc" /dev/null >tty.txt 2>&1
  grep -q $'\033''\[1;31merror' tty.txt || { why="a terminal: no colour in $(excerpt tty.txt)"; return 1; }
  NO_COLOR=1 TERM=xterm script -qec "'$mcgen' bad.mc" /dev/null >tty.txt 2>&1
  ! grep -q $'\033''\[1' tty.txt || { why="NO_COLOR on a terminal: colour in $(excerpt tty.txt)"; return 1; }
}
check mcgen-color t_mcgen_color

t_mcgen_unknown_option() {
  fresh
  run "$mcgen" --frobnicate "$specs/counter.mc"
  want_rc 2 && want_in "$err" 'frobnicate' stderr && want_no_file counter_checker.c
}
check mcgen-unknown-option t_mcgen_unknown_option

t_mcgen_no_spec() {
  run "$mcgen"
  want_rc 2 && want_in "$err" '[Ss][Pp][Ee][Cc]' stderr
}
check mcgen-no-spec t_mcgen_no_spec

t_mcgen_missing_file() {
  fresh
  run "$mcgen" no_such_spec.mc
  want_rc 2 && want_in "$err" 'no_such_spec\.mc' stderr
}
check mcgen-missing-file t_mcgen_missing_file

t_mcgen_two_specs() {
  fresh
  run "$mcgen" "$specs/counter.mc" "$specs/deadlock.mc"
  want_rc 2 && [ -s "$err" ] || { why="${why:-no message}"; return 1; }
}
check mcgen-two-specs t_mcgen_two_specs

t_mcgen_option_needs_value() {
  fresh
  run "$mcgen" "$specs/counter.mc" -o
  want_rc 2 && want_in "$err" '-o' stderr
}
check mcgen-option-needs-value t_mcgen_option_needs_value

# The model line names the checker, not the file's name.
t_mcgen_default_name_model() {
  fresh
  cp "$specs/filter.mc" peterson.mc
  run "$mcgen" peterson.mc
  want_rc 0 && want_file filter_checker && want_file filter_checker.c &&
    want_no_file peterson_checker && want_no_file filter_checker.m4 || return
  [ -x filter_checker ] || { why="filter_checker is not executable"; return 1; }
  cp filter_checker "$bin/filter"   # the plain build, used by the checks below
}
check mcgen-default-name-from-model t_mcgen_default_name_model

# Without a model line, the file's base name; output in the current directory.
t_mcgen_default_name_file() {
  fresh
  run "$mcgen" "$specs/counter.mc"
  want_rc 0 && want_file counter_checker && want_file counter_checker.c &&
    want_no_file "$specs/counter_checker" && want_no_file "$specs/counter_checker.c" || return
  cp counter_checker "$bin/counter"
}
check mcgen-default-name-from-file t_mcgen_default_name_file

t_mcgen_output_name() {
  fresh
  mkdir sub
  run "$mcgen" -o sub/stuck "$specs/deadlock.mc"
  want_rc 0 && want_file sub/stuck && want_file sub/stuck.c && want_no_file sub/stuck.m4 &&
    want_no_file deadlock_checker && want_no_file deadlock_checker.c || return
  local stray
  stray=$(find . -mindepth 1 -maxdepth 1 ! -name sub)
  [ -z "$stray" ] || { why="stray files in the cwd: $(echo "$stray" | tr '\n' ' ')"; return 1; }
  cp sub/stuck "$bin/deadlock"
}
check mcgen-o-name t_mcgen_output_name

t_mcgen_emit_c() {
  fresh
  run "$mcgen" --emit-c "$specs/filter.mc"
  want_rc 0 && want_file filter_checker.c && want_no_file filter_checker && want_no_file filter_checker.m4 ||
    return
  cp filter_checker.c "$work/filter_emitted.c"
}
check mcgen-emit-c t_mcgen_emit_c

t_mcgen_keep() {
  fresh
  run "$mcgen" --keep -o kept "$specs/counter.mc"
  want_rc 0 && want_file kept && want_file kept.c && want_file kept.m4 || return
  [ -s kept.m4 ] || { why="kept.m4 is empty"; return 1; }
}
check mcgen-keep t_mcgen_keep

# --mpi links the MPI runtime (libmcrt_mpi.a, built where Open MPI is
# installed); a runtime directory without it is refused before any work,
# naming what to install. (--mpi itself: tests/mpi/run.sh.)
t_mcgen_mpi_missing() {
  fresh
  mkdir rt && cp "$build_dir/libmcrt.a" rt/ || return
  MCGEN_RUNTIME=$PWD/rt run "$mcgen" --mpi "$specs/counter.mc"
  want_rc 2 && want_in "$err" 'libmcrt_mpi\.a.*openmpi-bin libopenmpi-dev' stderr &&
    want_no_file counter_checker
}
check mcgen-mpi-runtime-missing t_mcgen_mpi_missing

# A checker built without --mpi that mpirun (Open MPI: OMPI_COMM_WORLD_SIZE;
# MPICH, Slurm: PMI_SIZE) starts as several ranks would repeat the whole
# search on each: refused, exit 2. As one rank it runs as usual.
t_checker_mpirun_refused() {
  fresh
  run "$mcgen" "$specs/counter.mc"
  want_rc 0 || return
  OMPI_COMM_WORLD_SIZE=3 run ./counter_checker
  want_rc 2 && want_in "$err" 'built without --mpi.*3 ranks.*mcgen --mpi' stderr || return
  PMI_SIZE=2 run ./counter_checker
  want_rc 2 && want_in "$err" 'built without --mpi.*2 ranks' stderr || return
  OMPI_COMM_WORLD_SIZE=1 run ./counter_checker
  want_rc 0 && want_in "$out" '^states: +20 distinct'
}
check checker-mpirun-refused t_checker_mpirun_refused

t_mcgen_bad_cc() {
  fresh
  run "$mcgen" --cc "$work/no-such-cc" "$specs/counter.mc"
  want_rc 2 && want_in "$err" 'no-such-cc' stderr && want_no_file counter_checker
}
check mcgen-cc-missing-compiler t_mcgen_bad_cc

t_mcgen_failing_cc() {
  fresh
  run "$mcgen" --cc false "$specs/counter.mc"
  want_rc 2 && [ -s "$err" ] || { why="${why:-no message on stderr}"; return 1; }
}
check mcgen-cc-failing-compiler t_mcgen_failing_cc

t_mcgen_cflags_define() {
  fresh
  run "$mcgen" --cflags "-DFOO -DBAR=2" "$specs/counter.mc"
  want_rc 0 && want_file counter_checker || return
  run ./counter_checker
  want_rc 0
}
check mcgen-cflags-define t_mcgen_cflags_define

# The flags really reach the compiler: a bad one makes the build fail.
t_mcgen_cflags_passed() {
  fresh
  run "$mcgen" --cflags "-DFOO -fno-such-flag-for-mcgen-tests" "$specs/counter.mc"
  want_rc 2 && want_no_file counter_checker
}
check mcgen-cflags-reach-cc t_mcgen_cflags_passed

t_mcgen_cflags_asan() {
  fresh
  run "$mcgen" --cflags -fsanitize=address "$specs/filter.mc"
  want_rc 0 && want_file filter_checker || return
  # grep reads all of ldd's output (no -q): under pipefail an early exit
  # would make ldd die of SIGPIPE and the pipeline fail.
  ldd filter_checker 2>/dev/null | grep asan >/dev/null || { why="not linked with ASan: $(ldd filter_checker | tr '\n' ' ')"; return 1; }
  run ./filter_checker --liveness off --symmetry off
  want_rc 0
}
check mcgen-cflags-fsanitize t_mcgen_cflags_asan

t_mcgen_spec_errors() {
  fresh
  cp "$specs/errors.mc" .
  run "$mcgen" errors.mc
  want_rc 1 && want_in "$err" '^2 errors in errors\.mc$' stderr &&
    want_in "$err" '^errors\.mc:4:[0-9]+: error: ' stderr && want_in "$err" '^errors\.mc:5:[0-9]+: error: ' stderr &&
    want_no_file errors_checker.c && want_no_file errors_checker && want_no_file errors_checker.m4
}
check mcgen-spec-errors t_mcgen_spec_errors

# -D: filter has 142 states / 249 transitions with N = 3 (tests/oracle). With
# N = 2 the expected counts come from Rumur on the oracle twin with N = 2
# (run live when rumur is installed; recorded: 13 states, 14 rules fired,
# `rumur --symmetry-reduction off --deadlock-detection stuck --threads 1`).
n2_states=13 n2_transitions=14
t_rumur_n2() {
  command -v rumur >/dev/null || { echo "  (rumur not installed: using the recorded N=2 counts)"; return 0; }
  fresh
  sed 's/^  N: 3;$/  N: 2;/' "$root/tests/oracle/filter.m" >filter2.m
  grep -q '^  N: 2;$' filter2.m || { why="cannot set N: 2 in tests/oracle/filter.m"; return 1; }
  timeout 60 rumur --symmetry-reduction off --deadlock-detection stuck --threads 1 filter2.m -o filter2.c \
    >rumur.log 2>&1 && timeout 60 cc -O2 filter2.c -o filter2 -lpthread >>rumur.log 2>&1 ||
    { why="rumur failed: $(excerpt rumur.log)"; return 1; }
  timeout 60 ./filter2 >filter2.txt 2>&1
  local line
  line=$(grep -E '^\s*[0-9]+ states, [0-9]+ rules fired' filter2.txt) ||
    { why="no counts in Rumur's output: $(excerpt filter2.txt)"; return 1; }
  read -r s _ t _ <<<"$line"
  [ "$s" = "$n2_states" ] && [ "$t" = "$n2_transitions" ] && return 0
  why="Rumur says $s states, $t rules fired for N=2; recorded $n2_states, $n2_transitions"
  return 1
}
check rumur-filter-n2 t_rumur_n2

# counts REPORT -> "states transitions"
counts() { jq -r '"\(.states) \(.transitions)"' "$1" 2>/dev/null; }

t_mcgen_define() {
  fresh
  run "$mcgen" -D N=2 "$specs/filter.mc"
  want_rc 0 && want_file filter_checker || return
  run ./filter_checker --liveness off --symmetry off --report n2.json
  want_rc 0 || return
  local c
  c=$(counts n2.json)
  [ "$c" = "$n2_states $n2_transitions" ] ||
    { why="-D N=2 gives states/transitions $c, expected $n2_states $n2_transitions"; return 1; }
  run "$bin/filter" --liveness off --symmetry off --report n3.json
  c=$(counts n3.json)
  [ "$c" = "142 249" ] || { why="without -D (N=3): $c, expected 142 249"; return 1; }
}
check mcgen-D-changes-state-count t_mcgen_define

t_mcgen_define_joined() {
  fresh
  run "$mcgen" -DN=2 "$specs/filter.mc"
  want_rc 0 && want_file filter_checker || return
  run ./filter_checker --liveness off --symmetry off --report n2.json
  local c
  c=$(counts n2.json)
  [ "$c" = "$n2_states $n2_transitions" ] ||
    { why="-DN=2 gives states/transitions $c, expected $n2_states $n2_transitions"; return 1; }
}
check mcgen-DN=2-form t_mcgen_define_joined

# Malformed -D is a usage error (2); a well-formed one the spec rejects is a
# spec error (1), reported once, as one error.
t_mcgen_define_usage() {
  local form
  for form in "-D N" "-D =3" "-D N=" "-DN" "-D"; do
    fresh
    # shellcheck disable=SC2086
    run "$mcgen" $form "$specs/filter.mc"
    [ "$rc" -eq 2 ] || { why="mcgen $form SPEC: exit $rc, expected 2: $(excerpt "$err")"; return 1; }
    [ -s "$err" ] || { why="mcgen $form SPEC: no message"; return 1; }
    [ ! -e filter_checker.c ] || { why="mcgen $form SPEC wrote filter_checker.c"; return 1; }
  done
}
check mcgen-D-malformed t_mcgen_define_usage

t_mcgen_define_unknown() {
  fresh
  run "$mcgen" -D NOPE=3 "$specs/filter.mc"
  want_rc 1 && want_in "$err" 'NOPE' stderr && want_in "$err" '^1 error in ' stderr && want_no_file filter_checker
}
check mcgen-D-unknown-constant t_mcgen_define_unknown

# One mistake, one error: a bad -D must not bring follow-on errors about
# values the user never wrote (as syntax errors stop before check()).
want_one_error() {
  grep -q '^1 error in ' "$err" && return 0
  why="expected exactly one error, got: $(grep -E 'error' "$err" | sed 's/^.*error: //' | tr '\n' '|')"
  return 1
}
t_mcgen_define_bad_value() {
  fresh
  run "$mcgen" -D N=abc "$specs/filter.mc"
  want_rc 1 && want_in "$err" 'abc' stderr && want_no_file filter_checker || return
  want_one_error
}
check mcgen-D-bad-value t_mcgen_define_bad_value

t_mcgen_define_wrong_type() {
  fresh
  run "$mcgen" -D N=true "$specs/filter.mc"
  want_rc 1 && want_in "$err" 'N' stderr && want_no_file filter_checker || return
  want_one_error
}
check mcgen-D-wrong-type t_mcgen_define_wrong_type

# A -D value that empties a range (peterson: Priority = 0..N) gives that error
# and the scalarset's, not one more per constant written into the range's
# stand-in; the count line names the overrides the errors were found under.
t_mcgen_define_empty_range() {
  fresh
  run "$mcgen" -D N=-1 "$root/specs/peterson.mc"
  want_rc 1 && want_in "$err" 'empty range 0\.\.-1' stderr && want_no_file peterson_checker || return
  want_in "$err" '^2 errors in .*peterson\.mc \(with -D N=-1\)$' stderr || return
  if grep -q 'out of range' "$err"; then why="follow-on errors: $(grep 'out of range' "$err" | head -2 | tr '\n' '|')"; return 1; fi
}
check mcgen-D-empty-range-no-cascade t_mcgen_define_empty_range

# -D is given once per constant (mcgen --help says so); values beyond int64
# are refused like the same literal in a spec. Both are spec errors (exit 1).
t_mcgen_define_twice_and_too_large() {
  fresh
  run "$mcgen" --help
  want_in "$out" '-D CONST=VALUE .*once per CONST' "mcgen --help" || return
  run "$mcgen" -D N=2 -D N=3 "$specs/filter.mc"
  want_rc 1 && want_in "$err" "constant 'N' is already set by -D N=2" stderr || return
  want_no_file filter_checker || return
  run "$mcgen" -D N=99999999999999999999 "$specs/filter.mc"
  want_rc 1 && want_in "$err" 'N=99999999999999999999: integer literal too large' stderr || return
  want_no_file filter_checker
}
check mcgen-D-twice-and-too-large t_mcgen_define_twice_and_too_large

# Long flat chains of `&&` and `+` (generated specs have them) are not
# nesting: they compile and check. x goes 0, 1, 2 (3 states, 2
# transitions). The `&&` chain holds while x <= 1 and one of its middle
# terms fails at x = 2 (exit 1, a 2-step trace); the `+` chain (N times x,
# at most 2N) always holds. Past 5000 levels mcgen refuses the expression
# with a located error, never a crash.
chain_spec() { # N OP BAD: a spec whose invariant is a chain of N terms
  local i terms=()
  for ((i = 0; i < $1; i++)); do
    if [ "$2" = '&&' ]; then
      terms+=("x <= $([ "$i" -eq $(($1 / 2)) ] && echo "$3" || echo 2)")
    else
      terms+=(x)
    fi
  done
  printf 'model chain;\nvar x: 0..2;\naction step when x < 2 { x = x + 1; }\n'
  printf 'terminal done: x == 2;\ninvariant long:\n  '
  local IFS=' '
  if [ "$2" = '&&' ]; then
    echo "${terms[*]}" | sed 's/ x / \&\& x /g'
  else
    echo "${terms[*]}" | sed 's/ x/ + x/g'
  fi
  [ "$2" = '&&' ] && echo ';' || echo "<= $((2 * $1));"
}
t_long_chains() {
  local n
  fresh
  for n in 400 3000; do
    chain_spec "$n" '&&' 1 >and.mc
    chain_spec "$n" '+' >plus.mc
    run "$mcgen" -o and and.mc
    want_rc 0 || { why="&& chain of $n: $why"; return 1; }
    run ./and --report and.json
    want_rc 1 && want_json and.json '.violations[0].name == "long" and (.violations[0].trace | length) == 3' \
      "&& chain of $n" || return
    run "$mcgen" -o plus plus.mc
    want_rc 0 || { why="+ chain of $n: $why"; return 1; }
    run ./plus --report plus.json
    want_rc 0 && [ "$(counts plus.json)" = "3 2" ] || { why="+ chain of $n: exit $rc, counts $(counts plus.json)"; return 1; }
    # clang refuses more than 256 nested parentheses: a chain stays flat in C.
    [ "$n" -eq 400 ] || continue
    if ! command -v clang >/dev/null; then
      echo "note: clang is not installed; the chains were not built with it"
      continue
    fi
    run "$mcgen" --cc clang --cflags '-Werror' -o and and.mc
    want_rc 0 || { why="clang, && chain of $n: $why"; return 1; }
    run "$mcgen" --cc clang --cflags '-Werror' -o plus plus.mc
    want_rc 0 || { why="clang, + chain of $n: $why"; return 1; }
  done
  chain_spec 10000 '+' >long.mc
  run "$mcgen" long.mc
  want_rc 1 && want_in "$err" '^long\.mc:6:[0-9]+: error: expression too long' stderr || return
  want_one_error
}
check mcgen-long-chains t_long_chains

# A diagnostic on a 1 MB line shows a window of the line around the caret
# (160 bytes, `…` where cut), not the whole line. The window's right end
# falls on the second byte of an `é` in a comment (67 bytes after `nope`'s
# first byte... past the 80 shown after the caret's start, see diag.c); it
# must move back to a character boundary: an even number of `?`, one per
# byte shown.
t_long_line_diagnostic() {
  fresh
  {
    printf 'var x: 0..2;\ninvariant big: '
    head -c 1000000 /dev/zero | tr '\0' ' '
    printf 'nope > 0; // '
    for ((i = 0; i < 100; i++)); do printf '\303\251'; done
    printf '\n'
  } >wide.mc
  run "$mcgen" wide.mc
  want_rc 1 && want_in "$err" "^wide\.mc:2:1000016: error: unknown name 'nope'" stderr || return
  [ "$(wc -c <"$err")" -lt 1000 ] || { why="stderr has $(wc -c <"$err") bytes: $(excerpt "$err")"; return 1; }
  local shown caret
  shown=$(LC_ALL=C grep -a '^ *2 | ' "$err" | sed 's/…/./g')
  caret=$(LC_ALL=C grep -a '^ *| ' "$err" | head -1)
  case $shown in *'|'' .'*'.') ;; *) why="no … at both ends: $shown"; return 1 ;; esac
  [ "${#shown}" -le 200 ] || { why="shown line of ${#shown} bytes"; return 1; }
  [ "$(LC_ALL=C awk -v s="$shown" 'BEGIN { print index(s, "nope") }')" = \
    "$(LC_ALL=C awk -v s="$caret" 'BEGIN { print index(s, "^") }')" ] ||
    { why="caret not under 'nope': $shown / $caret"; return 1; }
  local q=${shown//[^?]/}
  [ $((${#q} % 2)) -eq 0 ] || { why="cut inside a character (${#q} '?'): $shown"; return 1; }
}
check mcgen-long-line-diagnostic t_long_line_diagnostic

# Generated C is clean under -Werror with gcc and clang (default flags plus
# --cflags -Werror), for the plain spec and the one using every type.
for compiler in gcc clang; do
  for s in filter feat; do
    t_werror() {
      command -v "$compiler" >/dev/null || { why="$compiler is not installed"; return 1; }
      fresh
      run "$mcgen" --cc "$compiler" --cflags -Werror -o chk "$specs/$s.mc"
      want_rc 0 && want_file chk || return
      run ./chk --liveness off --report r.json
      want_rc 0 && want_schema r.json
    }
    check "cc-werror-$compiler-$s" t_werror
  done
done

t_generated_c_readable() {
  local c=$work/filter_emitted.c
  want_file "$c" || return
  grep -Eq '^#line [0-9]+ "[^"]*filter\.mc"' "$c" || { why="no #line directive naming filter.mc"; return 1; }
  local a first last
  for a in start climb enter leave; do
    # The action's lines in the spec: from `action NAME` to the next
    # top-level declaration; some #line must point into them.
    first='' last=''
    read -r first last < <(awk -v a="$a" '
      $0 ~ "^action " a "[^A-Za-z0-9_]" { f = NR; next }
      f && /^[A-Za-z]/ { print f, NR - 1; f = 0; exit }
      END { if (f) print f, NR }' "$specs/filter.mc")
    [ -n "$first" ] || { why="action $a not found in filter.mc"; return 1; }
    grep -E '^#line [0-9]+ "[^"]*filter\.mc"' "$c" |
      awk -v f="$first" -v l="$last" '$2 >= f && $2 <= l { ok = 1 } END { exit !ok }' ||
      { why="no #line into filter.mc:$first-$last (action $a)"; return 1; }
    grep -Eq "^(static )?(inline )?[A-Za-z_][A-Za-z0-9_ *]*[ *][A-Za-z0-9_]*_${a}\(.*\)[^;]*\$" "$c" ||
      { why="no function named after action $a (..._$a)"; return 1; }
  done
}
check generated-c-line-directives-and-action-functions t_generated_c_readable

# ===========================================================================
# The checker

build bug "$specs/bug.mc" || true
build big "$specs/big.mc" || true

t_checker_help() {
  run "$bin/filter" --help
  want_rc 0 || return
  local o
  for o in --threads --max-states --max-steps --max-depth --memory --fingerprint --symmetry \
    --symmetry-method \
    --no-deadlock --liveness --trace-format --report --dot --graph --progress --quiet --help --version \
    --dot-max-states --graph-max-states --tests --tests-max-steps; do
    grep -q -- "$o\b" "$out" || { why="--help does not list $o"; return 1; }
  done
}
check checker-help t_checker_help

t_checker_version() {
  run "$mcgen" --version
  local v
  v=$(grep -Eo '[0-9]+\.[0-9]+(\.[0-9]+)?' "$out" | head -1)
  run "$bin/filter" --version
  want_rc 0 && want_in "$out" "$v" "--version (mcgen $v)"
}
check checker-version t_checker_version

# Implemented options and forms: accepted, and the full graph still explored.
t_checker_accepts() {
  fresh
  local args
  while IFS= read -r args; do
    # shellcheck disable=SC2086
    run "$bin/filter" --liveness off --symmetry off $args --report r.json
    [ "$rc" -eq 0 ] || { why="--liveness off $args: exit $rc: $(excerpt "$err")"; return 1; }
    [ "$(counts r.json)" = "142 249" ] || { why="--liveness off $args: counts $(counts r.json)"; return 1; }
  done <<'EOF'
--threads 1
--symmetry off
--fingerprint 64
--max-states 142
--max-steps 249
--max-depth 10
--memory 256M
--no-deadlock
--trace-format text
--trace-format json
--progress 5
--progress 0
--quiet
--max-states=1000000 --threads=1 --symmetry=off
--threads 2
--threads=4
--threads 3 --max-states 142 --max-depth 10
EOF
}
check checker-accepts-implemented-options t_checker_accepts

# Refused combinations say why, never silently ignored.
t_checker_not_implemented() {
  fresh
  # Liveness needs the unreduced graph: --symmetry on with it is refused,
  # and the message names the way out.
  run "$bin/filter" --symmetry on
  [ "$rc" -eq 2 ] && grep -q -- '--symmetry off' "$err" ||
    { why="--symmetry on with liveness: exit $rc: $(excerpt "$err")"; return 1; }
}
check checker-refuses-unimplemented t_checker_not_implemented

t_checker_bad_values() {
  local args
  while IFS= read -r args; do
    # shellcheck disable=SC2086
    run "$bin/filter" --liveness off --symmetry off $args
    [ "$rc" -eq 2 ] || { why="$args: exit $rc, expected 2"; return 1; }
    [ -s "$err" ] || { why="$args: no message"; return 1; }
  done <<'EOF'
--max-states abc
--max-states -5
--max-steps 1x
--max-depth abc
--fingerprint 32
--memory 12Q
--memory abc
--threads 0
--threads many
--threads abc
--threads 1025
--threads -2
--symmetry maybe
--liveness maybe
--trace-format xml
--progress soon
--graph-max-states 0
--graph-max-states many
--dot-max-states 0
--tests-max-steps 0
--max-states
--frobnicate
stray-argument
EOF
}
check checker-bad-values-exit-2 t_checker_bad_values

# A bad thread count says what is expected.
t_checker_bad_threads() {
  local v
  for v in 0 abc ' 2' '0x2'; do
    run "$bin/filter" --threads "$v"
    want_rc 2 || return
    want_in "$err" "bad value '$v' for --threads \\(expected a number of threads from 1 to 1024\\)" \
      "--threads $v" || return
  done
}
check checker-bad-thread-count t_checker_bad_threads

# Without MPI, --fixed-trace is --order fixed (the same trace at every N:
# without it, safety alone on filter.mc runs in free order);
# with --order free it contradicts it: exit 2, saying so.
t_checker_fixed_trace_alone() {
  fresh
  run "$bin/filter" --threads 2 --liveness off --report free.json
  want_rc 0 && want_json free.json '.thread_order == "free"' "thread_order" || return
  run "$bin/filter" --threads 2 --liveness off --fixed-trace --report fixed.json
  want_rc 0 && want_json fixed.json '.thread_order == "fixed"' "thread_order" || return
  run "$bin/filter" --threads 2 --fixed-trace --order free
  want_rc 2 || return
  want_in "$err" "error: --fixed-trace asks for the same trace at every number of threads, --order free" \
    "--fixed-trace --order free" || return
}
check checker-fixed-trace-without-mpi t_checker_fixed_trace_alone

# A file name after --report (or another file option) that looks like an
# option is refused, naming the two ways to write it; those two work.
# "--report -" is no file name: it means stdout (issue 38).
t_checker_file_like_option() {
  local o
  for o in --report --dot --graph --tests --disk --checkpoint --resume --trail --replay; do
    run "$bin/counter" "$o" --quiet
    want_rc 2 || return
    want_in "$err" "^error: $o --quiet: a file name that starts with '-' looks like an option; write $o ./--quiet or $o=--quiet\$" \
      "$o --quiet" || return
    want_no_file ./--quiet || return
  done
  run "$bin/counter" --report -
  want_rc 0 && want_json "$out" '.exit_code == 0' "--report - on stdout" || return
  run "$bin/counter" --quiet --report ./--quiet
  want_rc 0 && want_json ./--quiet '.exit_code == 0' "--report ./--quiet" || return
  rm -f ./--quiet
  run "$bin/counter" --quiet --report=-r.json
  want_rc 0 && want_json ./-r.json '.exit_code == 0' "--report=-r.json" || return
  rm -f ./-r.json
}
check checker-file-name-like-option t_checker_file_like_option

# --compact-set has 64-bit slots: with --fingerprint 128 a note says the
# normal set is used, and the counts are those of --fingerprint 128 alone.
t_checker_compact_128() {
  run "$bin/counter" --compact-set --fingerprint 128 --report c.json
  want_rc 0 && want_in "$err" '^note: --compact-set keeps 64-bit fingerprints only' stderr &&
    want_json c.json '.states == 20 and .fingerprint_bits == 128' "--compact-set --fingerprint 128" ||
    return
  run "$bin/counter" --compact-set
  want_rc 0 || return
  ! grep -q 'compact-set' "$err" || { why="a note without --fingerprint 128: $(excerpt "$err")"; return 1; }
}
check checker-compact-set-fingerprint-128-note t_checker_compact_128

t_exit_ok() {
  run "$bin/filter" --liveness off --symmetry off
  want_rc 0 && want_in "$out" '^result: ok' stdout
}
check checker-exit-0-ok t_exit_ok

t_exit_violation() {
  run "$bin/bug" --liveness off
  want_rc 1 && want_in "$out" 'mutex' stdout
}
check checker-exit-1-violation t_exit_violation

# filter has a `property`: it is checked by default (and holds, under weak
# fairness); --liveness on on a spec without one is harmless; a run stopped
# early gives no liveness verdict (exit 3, saying so).
t_liveness() {
  fresh
  run "$bin/filter" --report r.json
  want_rc 0 && want_in "$out" 'liveness: .*all hold' stdout && want_schema r.json &&
    want_json r.json '.verdict == "ok" and .liveness.checked and .liveness.status == "ok"' "liveness ok" ||
    return
  grep -q 'symmetry reduction' "$err" || { why="no note on symmetry: $(excerpt "$err")"; return 1; }
  run "$bin/filter" --max-states 20 --report r.json
  want_rc 3 && want_in "$out" 'no liveness verdict' stdout &&
    want_json r.json '.verdict == "incomplete" and (.liveness.checked | not)' "no verdict" || return
  run "$bin/bug" --report r.json
  want_rc 1 && want_json r.json '.liveness.status == "not-checked"' "safety violation first"
}
check checker-liveness-default-and-stopped t_liveness

# Symmetry. filter's classes under permutations of Proc: 26 states, 47
# transitions (Rumur's exhaustive reduction, tests/oracle/filter.symmetry.rumur.txt).
t_symmetry_default_on() {
  fresh
  run "$bin/filter" --liveness off --report r.json
  want_rc 0 && want_json r.json '.states == 26 and .transitions == 47 and .symmetry == "on"' \
    "26 classes, 47 transitions, symmetry on" && want_in "$out" '^symmetry: *on' stdout || return
  run "$bin/filter" --liveness off --symmetry on --symmetry-method exhaustive --report r.json
  want_rc 0 && want_json r.json '.states == 26 and .transitions == 47 and .symmetry_method == "exhaustive"' \
    "the exhaustive method: 26, 47"
}
check checker-symmetry-default-on t_symmetry_default_on

# Liveness is checked on the full graph: by default without reduction (a
# note says so); an explicit --symmetry on or verify is refused, naming
# --symmetry off.
t_symmetry_liveness() {
  fresh
  run "$bin/filter" --report r.json
  want_in "$err" 'without symmetry reduction' stderr && want_json r.json '.symmetry == "off"' "symmetry off" || return
  local m
  for m in on verify; do
    run "$bin/filter" --symmetry $m
    want_rc 2 && want_in "$err" 'symmetry off' "stderr of --symmetry $m" || return
  done
}
check checker-symmetry-refused-with-liveness t_symmetry_liveness

t_symmetry_verify() {
  fresh
  run "$bin/filter" --liveness off --symmetry verify --report r.json
  want_rc 0 && want_in "$out" '^symmetry verify: the verdicts agree' stdout &&
    want_json r.json '.states == 26 and .unreduced.states == 142 and .unreduced.verdict == "ok"' \
      "reduced 26, unreduced 142" || return
  run "$bin/bug" --liveness off --symmetry verify
  want_rc 1 && want_in "$out" '^symmetry verify: the verdicts agree' stdout
}
check checker-symmetry-verify t_symmetry_verify

t_deadlock() {
  fresh
  run "$bin/deadlock" --report r.json
  want_rc 1 && want_in "$out" '[Dd]eadlock' stdout && want_schema r.json &&
    want_json r.json '.violations[0].kind == "deadlock" and (.violations[0].trace | length) == 4' \
      "a deadlock after 3 steps" || return
  run "$bin/deadlock" --no-deadlock --report r.json
  want_rc 0 && want_json r.json '.verdict == "ok" and .states == 4 and .transitions == 3' "4 states, 3 transitions"
}
check checker-deadlock-and-no-deadlock t_deadlock

# Bounds: exit 3, verdict incomplete, bound_hit names the bound.
t_bound() { # t_bound CHECKER BOUND-NAME ARGS...
  local chk=$1 name=$2
  shift 2
  fresh
  run "$bin/$chk" --liveness off "$@" --report r.json
  want_rc 3 && want_in "$out" '^result: incomplete' stdout && want_schema r.json &&
    want_json r.json ".verdict == \"incomplete\" and .bound_hit == \"$name\"" "verdict/bound_hit" &&
    ! grep -q 'no violations' "$out" || { why=${why:-"says 'no violations' on a truncated search"}; return 1; }
}
t_max_states() {
  t_bound filter max-states --max-states 10 &&
    want_json r.json '.states <= 10' "at most 10 states"
}
check checker-max-states t_max_states
t_max_steps() {
  t_bound filter max-steps --max-steps 10 &&
    want_json r.json '.transitions <= 10' "at most 10 transitions"
}
check checker-max-steps t_max_steps
# counter.mc: states at depth <= 2 are (0,0) (1,0) (0,1) (2,0) (1,1) (0,2).
t_max_depth() {
  t_bound counter max-depth --max-depth 2 &&
    want_json r.json '.states == 6 and .depth == 2' "6 states up to depth 2"
}
check checker-max-depth t_max_depth
t_memory() { # nothing fits: the result line says the search's first tables do not fit
  t_bound filter memory --memory 1K &&
    want_in "$out" '^result: incomplete: the --memory limit of 1.0 KiB was reached before the first state was stored: the search.s first tables and buffers do not fit in it \([0-9.]+ ([KMG]i)?B were accounted when the next would have passed it\)' stdout
}
check checker-memory-1K t_memory
t_memory_partial() { # a limit that lets the search run a while: partial result
  t_bound big memory --memory 4M &&
    want_json r.json '.states > 0 and .memory_bytes <= 4194304' "some states found within 4 MiB" &&
    { ! grep -q 'before the first state' "$out" || { why="a run with states says none was stored"; return 1; }; }
}
check checker-memory-4M-partial t_memory_partial

t_report_ok() {
  fresh
  run "$bin/filter" --liveness off --symmetry off --report r.json
  want_rc 0 && want_schema r.json &&
    want_json r.json '.model == "filter" and .verdict == "ok" and .bound_hit == null and .states == 142
      and .transitions == 249 and .violations == [] and .fingerprint_bits == 64' "ok report" &&
    want_json r.json '(.actions | keys | sort) == ["climb", "enter", "leave", "start"]' "one entry per action" &&
    want_json r.json '([.actions[].fired] | add) == .transitions' "sum of fired == transitions" &&
    want_json r.json '[.actions[].enabled_ever] | all' "every action of filter is enabled somewhere"
}
check checker-report-ok-schema t_report_ok

# The violation: the report's trace, and the text trace printed with it.
t_report_violation() {
  fresh
  run "$bin/bug" --liveness off --report r.json
  want_rc 1 && want_schema r.json &&
    want_json r.json '.verdict == "violation" and .violations[0].kind == "invariant"
      and .violations[0].name == "mutex" and .violations[0].loop_start == null' "invariant mutex" &&
    want_json r.json '.violations[0].trace | length > 1' "a trace" &&
    want_json r.json '[.violations[0].trace[].state | (.pc | type == "array" and length == 3)
      and (.level | type == "array") and (.victim | type == "array")] | all' "trace states hold pc, level, victim" &&
    want_json r.json '.violations[0].trace[-1].state.pc | map(select(. == "critical")) | length >= 2' \
      "the last state has two processes critical" &&
    want_json r.json '[.violations[0].trace[1:][].params.p | test("^Proc_[1-3]$")] | all' "params p = Proc_i"
  cp r.json "$work/bug.json"
  cp "$out" "$work/bug.txt"
}
check checker-report-violation-schema t_report_violation

# Text trace: `0 init ...` with the whole state, then `N action(p=v)` with the
# changed variables only. Checked against the report's trace: the number of
# printed variables at step i is the number of state leaves that differ from
# step i-1 (all of them at step 0), and the headers name the same actions.
t_text_trace() {
  local txt=$work/bug.txt json=$work/bug.json
  want_file "$json" || return
  local expected actual
  # Expected: "header|count" per step.
  expected=$(jq -r '
    def leaves: [tostream | select(length == 2) | {key: (.[0] | tojson), value: .[1]}] | from_entries;
    .violations[0].trace as $t
    | range(0; $t | length) as $i
    | ($t[$i].state | leaves) as $cur
    | (if $i == 0 then ($cur | length)
       else ($t[$i - 1].state | leaves) as $prev
            | [$cur | keys[] | select($cur[.] != $prev[.])] | length end) as $n
    | (if $i == 0 then "0 init"
       else "\($i) \($t[$i].action)"
            + (if ($t[$i].params | length) == 0 then ""
               else "(" + ([$t[$i].params | to_entries[] | "\(.key)=\(.value)"] | join(", ")) + ")" end)
       end) as $h
    | "\($h)|\($n)"' "$json")
  actual=$(awk '
    /^result:/ { exit }
    /^[0-9]+ / { if (h != "") print h "|" n; h = $0; n = 0; next }
    /^    [^ ].* = / { if (h != "") n++; next }
    END { if (h != "") print h "|" n }' "$txt" | sed -E 's/^(0 init)[^|]*/\1/')
  [ -n "$actual" ] || { why="no trace lines on stdout: $(excerpt "$txt")"; return 1; }
  [ "$expected" = "$actual" ] && return 0
  why="text trace (step header|changed vars) differs from the report: $(diff <(echo "$expected") <(echo "$actual") | head -6 | tr '\n' ' ')"
  return 1
}
check checker-text-trace-shape t_text_trace

t_trace_json() {
  fresh
  run "$bin/bug" --liveness off --trace-format json --report r.json
  want_rc 1 || return
  # The JSON part of stdout: everything before the summary.
  sed '/^result:/,$d' "$out" >trace.json
  local n
  n=$(jq -s '[.[] | objects | .. | objects | select(has("trace")) | .trace | length] | first' trace.json 2>&1) ||
    { why="stdout before 'result:' is not JSON: $n: $(excerpt trace.json)"; return 1; }
  [ "$n" != null ] || { why="no trace array in the JSON output: $(excerpt trace.json)"; return 1; }
  want_json r.json ".violations[0].trace | length == $n" "the JSON trace has $n steps"
}
check checker-trace-format-json t_trace_json

t_fingerprint_128() {
  fresh
  local f
  for f in filter bug; do
    run "$bin/$f" --liveness off --report a.json
    run "$bin/$f" --liveness off --fingerprint 128 --report b.json
    want_json b.json '.fingerprint_bits == 128' "$f with --fingerprint 128" || return
    [ "$(counts a.json)" = "$(counts b.json)" ] ||
      { why="$f: 64-bit counts $(counts a.json), 128-bit $(counts b.json)"; return 1; }
  done
}
check checker-fingerprint-128-same-counts t_fingerprint_128

t_quiet() {
  run "$bin/filter" --liveness off --symmetry off --quiet
  want_rc 0 && want_in "$out" '^result: ok' stdout || return
  ! grep -q '^actions fired' "$out" || { why="--quiet still prints the statistics"; return 1; }
}
check checker-quiet t_quiet

# --color: the verdict word in colour (ESC [ ... m) with always, or auto on
# a terminal (util-linux's script gives one) unless NO_COLOR is set; never
# in a pipe by default, nor with never; the report stays plain JSON.
t_color() {
  fresh
  local esc
  esc=$(printf '\033')
  run "$bin/bug" --no-trail --color always
  want_rc 1 && want_in "$out" "^result: ${esc}\[1;31mviolation${esc}\[0m: " "--color always" || return
  run "$bin/bug" --no-trail
  want_in "$out" '^result: violation: ' "a pipe, auto" || return
  command -v script >/dev/null || { why="script (util-linux) is missing: no terminal to test auto on"; return 1; }
  script -qec "$bin/bug --no-trail -q" /dev/null >tty.txt 2>&1
  want_in tty.txt "^result: ${esc}\[1;31mviolation" "a terminal, auto" || return
  NO_COLOR=1 script -qec "$bin/bug --no-trail -q" /dev/null >tty.txt 2>&1
  want_in tty.txt '^result: violation: ' "a terminal, NO_COLOR=1" || return
  script -qec "$bin/bug --no-trail -q --color never" /dev/null >tty.txt 2>&1
  want_in tty.txt '^result: violation: ' "a terminal, --color never" || return
  run "$bin/bug" --no-trail --color always --format json
  want_json "$out" '.verdict == "violation"' "--color always --format json" || return
  run "$bin/bug" --color blue
  want_rc 2 && want_in "$err" "^error: bad value 'blue' for --color \(expected never, auto or always\)" "--color blue"
}
check checker-color t_color

# Ctrl-C and progress: big.mc has 10^8 states (~100 s at 10^6 states/s).
# Interrupted after 2.5 s, it must stop with a partial report (exit 3,
# incomplete, interrupted), having printed progress lines to stderr at the
# 1 s interval (it ran for more than 2 s).
t_sigint() {
  want_file "$bin/big" || return
  fresh
  local t0 t1
  t0=$(date +%s%N)
  # A background job of a script starts with SIGINT ignored; a user's
  # Ctrl-C reaches a checker whose SIGINT is at its default.
  local dflt=()
  env --default-signal=INT true 2>/dev/null && dflt=(env --default-signal=INT)
  "${dflt[@]}" "$bin/big" --progress 1 --report r.json >out.txt 2>err.txt &
  bg_pid=$!
  sleep 2.5
  if ! kill -0 "$bg_pid" 2>/dev/null; then
    wait "$bg_pid"
    rc=$?
    bg_pid=
    why="the run ended (exit $rc) before the interrupt: big.mc is too small"
    return 1
  fi
  kill -INT "$bg_pid"
  for _ in $(seq 100); do kill -0 "$bg_pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$bg_pid" 2>/dev/null; then
    kill -KILL "$bg_pid"
    wait "$bg_pid" 2>/dev/null
    bg_pid=
    why="still running 10 s after SIGINT"
    return 1
  fi
  wait "$bg_pid"
  rc=$?
  bg_pid=
  t1=$(date +%s%N)
  elapsed_ms=$(((t1 - t0) / 1000000))
  out=$PWD/out.txt err=$PWD/err.txt
  want_rc 3 && want_in out.txt '^result: incomplete' stdout && want_schema r.json &&
    want_json r.json '.verdict == "incomplete" and .bound_hit == "interrupted" and .states > 0' \
      "partial report after SIGINT"
}
check checker-sigint-partial-report t_sigint
out=$work/stdout err=$work/stderr

t_progress() {
  local e=$PWD/err.txt
  [ -f "$e" ] || { why="no run (see checker-sigint-partial-report)"; return 1; }
  [ "${elapsed_ms:-0}" -gt 2000 ] || { why="the run took ${elapsed_ms:-?} ms, too short to judge"; return 1; }
  grep -Eq '^progress: [0-9]+ states' "$e" ||
    { why="no progress line on stderr in ${elapsed_ms} ms with --progress 1: $(excerpt "$e")"; return 1; }
  ! grep -q '^progress:' "$PWD/out.txt" || { why="progress lines on stdout"; return 1; }
}
check checker-progress-on-stderr t_progress

# Self-contained: the checker alone in an empty directory runs, and links
# only libc/libm dynamically.
t_self_contained() {
  local d
  d=$(mktemp -d "$work/alone.XXXXXX")
  cp "$bin/filter" "$d/filter_checker" || { why="no filter checker"; return 1; }
  (cd "$d" && env -i PATH=/usr/bin:/bin ./filter_checker --liveness off --symmetry off --report r.json >out.txt 2>&1)
  rc=$?
  [ "$rc" -eq 0 ] || { why="exit $rc in a fresh directory: $(excerpt "$d/out.txt")"; return 1; }
  [ "$(counts "$d/r.json")" = "142 249" ] || { why="counts $(counts "$d/r.json") in a fresh directory"; return 1; }
  local libs ldd_out
  ldd_out=$(ldd "$d/filter_checker" 2>&1)
  case $ldd_out in *"not a dynamic executable"* | *"statically linked"*) return 0 ;; esac
  libs=$(echo "$ldd_out" | awk '{print $1}' |
    grep -Ev '^(linux-vdso\.so|linux-gate\.so|libc\.so|libm\.so|/lib[^ ]*/ld-linux|ld-linux)')
  [ -z "$libs" ] || { why="links dynamically against: $(echo $libs)"; return 1; }
}
check checker-self-contained t_self_contained

# ---------------------------------------------------------------------------
# Odd file names. No byte of a path reaches m4 as a macro (a name that calls
# m4_syscmd must not run it, one that names an MCGEN_* definition must not
# recurse), closes a C comment or string, or reads as an option. Each name
# gives a working checker, named after the file, that finds counter.mc's 20
# states, with nothing on mcgen's stderr (no m4 or C compiler warning) but
# the one line saying what it built, the name's control bytes shown as ?;
# mcgen gets 30 s (the m4 recursion hung it).
t_odd_name() {
  local spec=$odd_name base checker
  fresh
  case $spec in */*) mkdir -p -- "${spec%/*}" ;; esac
  cp "$specs/counter.mc" "./$spec" || { why="cannot create the file"; return 1; }
  base=${spec##*/}
  checker=${base%.mc}_checker
  timeout 30 "$mcgen" -- "$spec" >"$out" 2>"$err"
  rc=$?
  [ -z "$(find . -name PWNED)" ] || { why="m4 ran the command in the file name"; return 1; }
  want_rc 0 || return
  # A byte that is no UTF-8 is no character to grep but in the C locale.
  [ "$(wc -l <"$err")" = 1 ] && LC_ALL=C grep -q '^built \./[^[:cntrl:]]*_checker (' "$err" ||
    { why="mcgen wrote to stderr: $(excerpt "$err")"; return 1; }
  [ -x "./$checker" ] || { why="no checker '$checker' (in $PWD: $(ls | tr '\n' ' '))"; return 1; }
  run "./$checker"
  want_rc 0 && want_in "$out" '^result: ok' stdout && want_in "$out" '^states: +20 distinct' stdout
}
odd_names=('m4_syscmd(touch PWNED).mc' 'MCGEN_MODEL.mc' 'MCGEN_SOURCE_COMMENT.mc' 'q⟧z.mc'
  'q⟦z.mc' 'x*/spec.mc' 'x/*y.mc' 'q"z.mc' 'q\z.mc' $'new\nline.mc' '-x.mc' $'q\xffz.mc'
  'q??/z.mc' "q'\`z.mc")
for odd_name in "${odd_names[@]}"; do
  check "mcgen-odd-name $(printf '%q' "$odd_name")" t_odd_name
done

# -o must name a file mcgen can write: a clear usage error, not the C
# compiler's or the linker's.
t_mcgen_output_bad() {
  fresh
  mkdir adir
  local o
  for o in '' adir adir/; do
    run "$mcgen" -o "$o" "$specs/counter.mc"
    want_rc 2 || { why="-o '$o': $why"; return 1; }
    ! grep -Eq 'bug in mcgen|error:|collect2|ld:' "$err" ||
      { why="-o '$o': raw tool errors: $(excerpt "$err")"; return 1; }
    want_in "$err" '^mcgen: .*-o' stderr || { why="-o '$o': $why"; return 1; }
  done
  want_no_file .c && want_no_file adir.c && want_no_file adir/.c
}
check mcgen-o-not-a-file t_mcgen_output_bad

# ===========================================================================
# The end of a run (issue 9): the summary, the report and the exit code agree.
# Signals at every phase: tests/cli/signals.sh.

# --symmetry verify where the run without reduction hits a bound (filter: 26
# classes, 142 states): incomplete, exit 3, and the report says the same.
t_verify_bound() {
  fresh
  run "$bin/filter" --liveness off --symmetry verify --max-states 100 --report r.json
  want_rc 3 && want_in "$out" '^symmetry verify: not compared, the search without reduction' stdout &&
    want_schema r.json &&
    want_json r.json '.verdict == "incomplete" and .exit_code == 3 and .bound_hit == "max-states"
      and .unreduced.bound_hit == "max-states" and .symmetry_verify == "not-compared"' "incomplete report"
}
check checker-symmetry-verify-bound-incomplete t_verify_bound

# build_asymmetric NAME SPEC: the checker of SPEC with `pick`'s guard patched
# in the generated C to allow only the first element of its scalarset
# (`p_p == 0`), a stand-in for a spec that tells the elements apart in a way
# the compiler's rules miss (none is known: the rules reject every .mc text
# that did). Compiled as mcgen compiles (tests/cli/specs/asym.mc).
build_asymmetric() {
  local name=$1 spec=$2 log=$work/build-$1.log
  (cd "$bin" && "$mcgen" --emit-c -o "$name" "$spec" >"$log" 2>&1) ||
    { fail "build-$name" "mcgen --emit-c $spec failed: $(excerpt "$log")"; return 1; }
  sed -i '/^static bool ga_pick(/,/^}/ s/^\(  return .*\);$/\1 \&\& p_p == 0;/' "$bin/$name.c"
  [ "$(grep -c ' && p_p == 0;$' "$bin/$name.c")" = 1 ] ||
    { fail "build-$name" "the guard of pick in $name.c was not patched (its shape changed?)"; return 1; }
  "${CC:-cc}" -std=c11 -O2 -Wall -Wextra -Werror -I"$root/runtime" "$bin/$name.c" "$build_dir/libmcrt.a" -lm -pthread \
    -o "$bin/$name" >>"$log" 2>&1 ||
    { fail "build-$name" "cc $name.c failed: $(excerpt "$log")"; return 1; }
}

# --symmetry verify on a spec that is not symmetric (asym.mc): the verdicts
# differ; exit 1 as a spec error, and the report says violation / 1 too.
t_verify_differ() {
  build_asymmetric asym "$specs/asym.mc" || return
  fresh
  run "$bin/asym" --symmetry verify --report r.json
  want_rc 1 && want_in "$out" '^symmetry verify: FAILED, the verdicts differ: .*an error in the spec' stdout &&
    want_schema r.json &&
    want_json r.json '.verdict == "violation" and .exit_code == 1 and .symmetry_verify == "differ"
      and .states == 3 and .unreduced.states == 5 and .unreduced.violation == "invariant"' "differ report" &&
    ! grep -q 'bug in mcgen' "$err" || { why=${why:-"blames mcgen: $(excerpt "$err")"}; return 1; }
}
check checker-symmetry-verify-differ-exit-1 t_verify_differ

# The same when both runs find the violation but the reduced run's trace
# cannot be replayed (asym_trace.mc): a spec error (exit 1), not mcgen's.
t_verify_replay() {
  build_asymmetric asym_trace "$specs/asym_trace.mc" || return
  fresh
  run "$bin/asym_trace" --symmetry verify --report r.json
  want_rc 1 && want_in "$out" '^symmetry verify: FAILED, the verdicts differ: .*an error in the spec' stdout &&
    want_json r.json '.verdict == "violation" and .exit_code == 1 and .symmetry_verify == "differ"
      and .states == 3 and .unreduced.states == 5' "differ report" &&
    ! grep -q 'bug in mcgen' "$err" || { why=${why:-"blames mcgen: $(excerpt "$err")"}; return 1; }
}
check checker-symmetry-verify-unreplayable-exit-1 t_verify_replay

# An unwritable --report is an error before the search (big.mc would search
# for ~100 s), exit 2.
t_report_unwritable() {
  want_file "$bin/big" || return
  fresh
  timeout 10 "$bin/big" --report "$PWD/no/such/dir/r.json" >"$out" 2>"$err"
  rc=$?
  want_rc 2 && want_in "$err" 'cannot write the report .*no/such/dir/r\.json' stderr || return
  ! grep -q '^result:' "$out" || { why="searched before refusing the report: $(excerpt "$out")"; return 1; }
}
check checker-report-unwritable-at-start t_report_unwritable

# Two outputs on one file would each overwrite the other (a graph written
# after the report made the report invalid JSON): refused before the search
# (big.mc would search for ~100 s), exit 2, naming both, and a file that
# was there is left as it was. The same file however named: the same path,
# ./a.json, sub/../a.json, a hard link, a symbolic link.
t_outputs_one_file() {
  want_file "$bin/big" || return
  fresh
  # (old.json holds JSON of no mcgen schema: the final sweep of the schemas skips it)
  mkdir sub && echo "\"kept\"" >old.json && ln old.json hard.json && ln -s old.json soft.json
  local before pair a b
  before=$(cksum <old.json)
  for pair in "--graph same.json --report same.json" "--graph a.json --tests ./a.json" \
    "--dot a.dot --graph sub/../a.dot" "--report old.json --graph hard.json" \
    "--tests soft.json --dot old.json"; do
    # shellcheck disable=SC2086
    timeout 10 "$bin/big" $pair >"$out" 2>"$err"
    rc=$?
    read -r _ a _ b <<<"$pair"
    want_rc 2 || { why="$pair: $why"; return 1; }
    want_in "$err" "^error: --[a-z]+ ($a|$b) and --[a-z]+ ($a|$b) are one file" "$pair: stderr" || return
    ! grep -q '^result:' "$out" || { why="$pair: searched before refusing"; return 1; }
    [ "$(cksum <old.json)" = "$before" ] || { why="$pair: old.json was changed"; return 1; }
    [ ! -e same.json ] && [ ! -e a.json ] && [ ! -e a.dot ] || { why="$pair: left a file"; return 1; }
  done
  # Distinct files and shared devices are fine.
  run "$bin/counter" --quiet --report r.json --graph g.json --dot g.dot --tests t.json
  want_rc 0 && want_schema r.json || return
  want_json r.json '[.exports[] | "\(.kind) \(.path) \(.written)"] == ["graph g.json true",
    "tests t.json true", "dot g.dot true"]' "the report's exports" || return
  run "$bin/counter" --quiet --report /dev/null --graph /dev/null --dot /dev/null
  want_rc 0
}
check checker-outputs-one-file-each t_outputs_one_file

# An output on the regular file the standard output goes to would overwrite
# the summary, and the summary it: refused (exit 2) before the search, by
# any name (/dev/stdout); a report on stdout that is a pipe or a terminal
# is the user's choice and runs.
t_outputs_stdout() {
  want_file "$bin/big" || return
  fresh
  timeout 10 "$bin/big" --report out.txt >out.txt 2>"$err"
  rc=$?
  want_rc 2 && want_in "$err" '^error: --report out\.txt and the standard output are one file' stderr ||
    return
  [ ! -s out.txt ] || { why="out.txt holds $(excerpt out.txt)"; return 1; }
  timeout 10 "$bin/big" --graph /dev/stdout >out.txt 2>"$err"
  rc=$?
  want_rc 2 && want_in "$err" '^error: --graph /dev/stdout and the standard output are one file' stderr ||
    return
  "$bin/counter" --quiet --report /dev/stdout 2>"$err" | cat >piped.txt
  rc=${PIPESTATUS[0]}
  want_rc 0 && want_in piped.txt '"verdict": "ok"' "the report on a pipe"
}
check checker-output-not-on-stdout t_outputs_stdout

# An output on the checkpoint's file: with --checkpoint it would be replaced
# by the next checkpoint; with --resume the report, opened first, wiped the
# checkpoint the run was to resume from. Refused before anything is read or
# written, the checkpoint intact.
t_outputs_checkpoint() {
  fresh
  mkdir ck && echo 'a checkpoint' >ck/checkpoint
  local before
  before=$(cksum <ck/checkpoint)
  run "$bin/counter" --resume ck --report ck/checkpoint
  want_rc 2 && want_in "$err" "^error: --report ck/checkpoint and --resume's file ck/checkpoint are one file" \
    stderr || return
  [ -f ck/checkpoint ] && [ "$(cksum <ck/checkpoint)" = "$before" ] ||
    { why="the checkpoint was changed or removed"; return 1; }
  run "$bin/counter" --checkpoint ck2 --graph ck2/checkpoint.tmp
  want_rc 2 && want_in "$err" "^error: --graph ck2/checkpoint.tmp and --checkpoint's file ck2/checkpoint.tmp are one file" \
    stderr
}
check checker-output-not-on-checkpoint t_outputs_checkpoint

# A report that cannot be written at the end (a full disk: /dev/full) is a
# warning: the exit code stays the verdict the summary gives (counter.mc:
# ok; bug.mc: mutex violated), not 2.
t_report_full_disk() {
  [ -w /dev/full ] || { why="no /dev/full"; return 1; }
  fresh
  run "$bin/counter" --report /dev/full
  want_rc 0 && want_in "$out" '^result: ok' stdout &&
    want_in "$err" '^warning: the report /dev/full could not be written: No space left on device' stderr ||
    return
  want_file "$bin/bug" || return
  run "$bin/bug" --report /dev/full
  want_rc 1 && want_in "$out" "^result: violation: invariant 'mutex'" stdout &&
    want_in "$err" '^warning: the report /dev/full could not be written' stderr
}
check checker-report-write-error-keeps-the-verdict t_report_full_disk

# A run that cannot start (a --resume directory without a checkpoint)
# removes the report it opened, but only a regular file: a FIFO (as a
# device such as /dev/null would be, as root) stays.
t_report_device_kept() {
  fresh
  mkfifo pipe
  exec 3<>pipe # a reader, so that opening it for writing does not wait
  run "$bin/counter" --resume nock --report pipe
  exec 3>&-
  want_rc 2 && want_in "$err" '^error: --resume' stderr || return
  [ -p pipe ] || { why="the FIFO given as the report was removed"; return 1; }
}
check checker-report-device-never-removed t_report_device_kept

# The report is valid UTF-8 JSON: an assert message longer than the
# 511-byte buffer, of 2-byte characters, is cut on a character boundary; a
# model named after a file whose name is not UTF-8 gets U+FFFD.
t_report_utf8() {
  fresh
  local e msg=
  e=$(printf '\303\251') # é
  for _ in $(seq 300); do msg+=$e; done
  printf 'model longmsg;\nvar x: 0..1;\naction go when x == 0 { assert x == 1, "%s"; x = 1; }\n' \
    "$msg" >longmsg.mc
  cp "$specs/counter.mc" "$(printf 'caf\351.mc')"
  run "$mcgen" -o longmsg longmsg.mc
  want_rc 0 || return
  run "$mcgen" -o cafe "$(printf 'caf\351.mc')"
  want_rc 0 || return
  run ./longmsg --report l.json
  want_rc 1 || return
  run ./cafe --report c.json
  want_rc 0 || return
  local f
  for f in l.json c.json; do
    iconv -f UTF-8 -t UTF-8 "$f" >/dev/null 2>&1 || { why="$f is not valid UTF-8"; return 1; }
    jq empty "$f" 2>/dev/null || { why="$f is not JSON"; return 1; }
  done
  want_schema c.json || return
  want_json l.json ".violations[0].message | endswith(\"$e\") and length == 255" \
    "the message is cut after 255 whole characters" &&
    want_json c.json '.model == "caf\ufffd"' "the model name with U+FFFD"
}
check checker-report-valid-utf8 t_report_utf8

# --memory hit in the liveness check after a complete search: the limit is
# one byte under the peak of a full run, which the liveness check's own
# arrays set (mcrt_liveness_check reserves them last). The result says the
# state search was exhaustive and the liveness check stopped. One thread:
# on a model this small the threads' buffers would set the peak.
t_memory_in_liveness() {
  fresh
  run "$bin/filter" --threads 1 --report full.json
  want_rc 0 || return
  local peak
  peak=$(jq -r .memory_bytes full.json)
  run "$bin/filter" --threads 1 --memory $((peak - 1)) --report r.json
  want_rc 3 && want_in "$out" '^result: incomplete: .*during the liveness check; the state search was exhaustive' stdout &&
    want_json r.json '.states == 142 and .bound_hit == "memory" and .stopped_in == "liveness"
      and .liveness.status == "stopped"' "stopped in the liveness check" || return
  ! grep -q 'the search is not exhaustive' "$out" || { why="says the search was not exhaustive"; return 1; }
}
check checker-memory-in-liveness-phase t_memory_in_liveness

# A write error on stdout is an error (exit 2, a message), and the report
# says so too.
t_stdout_full() {
  [ -w /dev/full ] || { why="no /dev/full"; return 1; }
  fresh
  "$bin/counter" --report r.json >/dev/full 2>"$err"
  rc=$?
  want_rc 2 && want_in "$err" 'cannot write the results to the standard output' stderr &&
    want_json r.json '.verdict == "error" and .exit_code == 2 and (.error | type) == "string"' "error report"
}
check checker-stdout-write-error t_stdout_full

# Stdout piped into a reader that stops early (`| head -1`): the checker's
# writes fail (EPIPE) instead of SIGPIPE killing it, so it still ends as a
# write error (exit 2) with a valid report saying so. The trace of 20,000
# steps (~450 KB) outgrows any pipe buffer, so the write fails every time.
t_stdout_closed_pipe() {
  fresh
  cat >deep.mc <<'EOF_SPEC'
var a: 0..20000;
action inc when a < 20000 { a = a + 1; }
invariant small: a < 20000;
EOF_SPEC
  run "$mcgen" -o deep deep.mc
  want_rc 0 || return
  local status
  ./deep --report r.json 2>"$err" | head -1 >"$out"
  status=("${PIPESTATUS[@]}")
  rc=${status[0]}
  want_rc 2 && want_in "$out" '^violation: invariant' stdout &&
    want_in "$err" 'cannot write the results to the standard output' stderr &&
    want_json r.json '.verdict == "error" and .exit_code == 2 and (.error | type) == "string"' "error report"
}
check checker-stdout-closed-pipe t_stdout_closed_pipe

# -o never overwrites the spec (NAME, NAME.c or NAME.m4 being the spec
# itself) and never writes to a device: a usage error, the spec intact.
t_mcgen_output_is_spec() {
  fresh
  cp "$specs/counter.mc" s.mc && cp "$specs/counter.mc" t.c && cp "$specs/counter.mc" u.m4
  local before
  before=$(cksum <s.mc)
  run "$mcgen" -o s.mc s.mc
  want_rc 2 && want_in "$err" "^mcgen: -o would overwrite the spec 's\.mc'" stderr || return
  [ "$(cksum <s.mc)" = "$before" ] || { why="the spec was changed"; return 1; }
  run "$mcgen" -o t t.c
  want_rc 2 && want_in "$err" "would overwrite the spec 't\.c'" stderr || { why="-o t t.c: $why"; return 1; }
  run "$mcgen" -o u u.m4
  want_rc 2 && want_in "$err" "would overwrite the spec 'u\.m4'" stderr || { why="-o u u.m4: $why"; return 1; }
  [ "$(cksum <t.c)" = "$before" ] && [ "$(cksum <u.m4)" = "$before" ] || { why="a spec was changed"; return 1; }
  mkfifo pipe
  run "$mcgen" -o pipe s.mc
  want_rc 2 && want_in "$err" "'pipe' exists and is not a regular file" stderr || { why="-o FIFO: $why"; return 1; }
}
check mcgen-o-never-overwrites-the-spec t_mcgen_output_is_spec

# Nor a C file the spec's extern reads: `-o sum` beside `sources "sum.c"`
# would write the generated C over the user's sum.c, and `-o part` over the
# part.c that sum.c includes. Each is refused (exit 2) naming the file, which
# is left as it was; another name builds.
t_mcgen_output_is_extern_c() {
  fresh
  printf '#include <stdint.h>\nint32_t inc(int32_t x);\n' >sum.h
  printf '#include "sum.h"\n#include "part.c"\n' >sum.c
  printf 'int32_t inc(int32_t x) { return (x + 1) %% 4; }\n' >part.c
  printf 'model s;\nextern "sum.h" sources "sum.c";\nextern fn inc(x: 0..3): 0..3;\nvar v: 0..3;\naction a { v = inc(v); }\n' >s.mc
  local before f
  before=$(cat sum.c part.c | cksum)
  for f in sum part; do
    run "$mcgen" -o "$f" s.mc
    want_rc 2 && want_in "$err" "^mcgen: -o would overwrite the C file '.*/$f\\.c' that the spec's extern reads" stderr ||
      { why="-o $f: $why"; return 1; }
  done
  [ "$(cat sum.c part.c | cksum)" = "$before" ] || { why="a C file was changed"; return 1; }
  [ ! -e sum.m4 ] && [ ! -e part.m4 ] || { why="mcgen wrote a file before refusing"; return 1; }
  run "$mcgen" -o other s.mc
  want_rc 0 || { why="-o other: $why"; return 1; }
}
check mcgen-o-never-overwrites-extern-c t_mcgen_output_is_extern_c

# What mcgen accepts clang compiles: clang refuses more than 256 nested
# brackets. A chain of 400 comparisons (`b == b == ...`, left-associative)
# and a right-nested subtraction at the nesting limit (239 levels under the
# comparison) build with clang and check; one level more is a located error.
t_clang_nesting() {
  fresh
  local n i eq sub
  eq=b
  for ((i = 1; i < 400; i++)); do eq+=' == b'; done
  for n in 239 240; do
    sub=x
    for ((i = 0; i < n; i++)); do sub="(x - $sub)"; done
    printf 'model deep%s;\nvar x: 0..2;\nvar b: bool;\naction step when x < 2 { x = x + 1; }\nterminal done: x == 2;\ninvariant chain: %s || true;\ninvariant nested: %s <= 1000;\n' \
      "$n" "$eq" "$sub" >"deep$n.mc"
  done
  run "$mcgen" --cc clang -o deep deep239.mc
  want_rc 0 || { why="239 levels with clang: $why"; return 1; }
  run ./deep --report r.json
  want_rc 0 && [ "$(counts r.json)" = "3 2" ] || { why="deep checker: exit $rc, counts $(counts r.json)"; return 1; }
  run "$mcgen" --cc clang -o deep240 deep240.mc
  want_rc 1 && want_in "$err" '^deep240\.mc:7:[0-9]+: error: expression nested too deeply \(more than 240 levels\)' stderr
}
check mcgen-clang-nesting t_clang_nesting

# A spec file named `.mc` (no model line): the model is named `.mc` in the
# checker's name, its summary and its report alike, never ''.
t_dot_mc_name() {
  fresh
  cp "$specs/counter.mc" .mc && sed -i '/^model /d' .mc
  run "$mcgen" .mc
  want_rc 0 && want_file .mc_checker || return
  run ./.mc_checker --report r.json
  want_rc 0 && want_json r.json '.model == ".mc"' "model name"
}
check mcgen-spec-named-dot-mc t_dot_mc_name

# ===========================================================================
# extern: the C a spec calls (runtime/watchdog.c; signals: signals.sh)

# A call of C that never returns (hang.mc: next(3) loops for ever) is a
# run-time error once it has run past --extern-timeout, naming the function
# and its argument, with the trace to the state where it was called (hand
# count in hang.mc: 4 steps) and a report that matches the schema, at any
# number of threads, in well under the default limit.
build hang "$specs/hang.mc" || true
t_extern_timeout() {
  want_file "$bin/hang" || return
  local n t0 t1
  for n in 1 2 4; do
    fresh
    t0=$(date +%s%N)
    run "$bin/hang" --threads "$n" --por off --extern-timeout 0.5 --report r.json
    t1=$(date +%s%N)
    want_rc 1 || { why="--threads $n: $why"; return 1; }
    want_in "$out" "^result: violation: run-time error: extern fn 'next' did not return within 0\.5 s \(--extern-timeout\): next\(x = 3\) \(.*hang\.mc:13:11\)$" stdout &&
      want_schema r.json &&
      want_json r.json '.violations[0].kind == "runtime-error" and (.violations[0].trace | length) == 5 and .violations[0].trace[4].error != null'         "the violation and its trace: 4 steps, the last the failing call" ||
      { why="--threads $n: $why"; return 1; }
    [ $(((t1 - t0) / 1000000)) -lt 8000 ] ||
      { why="--threads $n: took $(((t1 - t0) / 1000000)) ms with --extern-timeout 0.5"; return 1; }
  done
}
check extern-call-timeout t_extern_timeout

# --extern-timeout takes seconds (fractions allowed, 0: no limit); anything
# else is refused with one line naming the option (exit 2).
t_extern_timeout_values() {
  want_file "$bin/hang" || return
  local v
  for v in -1 x '' ' 1' 1e99; do
    run "$bin/hang" --extern-timeout "$v"
    want_rc 2 && want_in "$err" "^error: bad value '$v' for --extern-timeout \(expected a number of seconds \(0: no limit\)\)" stderr ||
      { why="--extern-timeout '$v': $why"; return 1; }
  done
  run "$bin/hang" --help
  want_rc 0 && want_in "$out" '^  --extern-timeout SECONDS' "--help"
}
check extern-timeout-values t_extern_timeout_values

# A trace that does not replay in a spec that calls C: drift.mc's trusted
# C keeps a count of its calls (hand count in drift.mc: the replay meets a
# state the search never found). The message names the C function as the
# likely cause and does not blame mcgen alone; exit 2 as for any trace that
# cannot be replayed.
build drift "$specs/drift.mc" || true
t_extern_not_deterministic() {
  want_file "$bin/drift" || return
  fresh
  run "$bin/drift" --threads 1 --por off --report r.json
  want_rc 2 && want_in "$err" "^error: trace replay: step 1: .*in the C the spec calls \(extern fn 'drift' \(trusted\)\)" stderr &&
    want_in "$out" '^result: error: the run was not deterministic, most likely in the C the spec calls' stdout ||
    return
  ! grep -q 'a bug in mcgen: the generated code' "$out" "$err" ||
    { why="the message blames mcgen: $(grep -h 'bug in mcgen' "$out" "$err" | head -1)"; return 1; }
}
check extern-not-deterministic-names-the-c t_extern_not_deterministic

# The same under --search odpor, which runs each rule of its wakeup tree
# again: flip.mc's trusted C answers true, then false, for the same state
# (hand count in flip.mc), so a rule found enabled is not when run again.
build flip "$specs/flip.mc" || true
t_extern_odpor_not_deterministic() {
  want_file "$bin/flip" || return
  run "$bin/flip" --search odpor --no-deadlock
  want_rc 2 && want_in "$err" "^error: odpor: a rule of the wakeup tree is not enabled when run again: the run is not deterministic, most likely in the C the spec calls \\(extern fn 'flip' \\(trusted\\)\\)" stderr &&
    want_in "$out" '^result: error: the run was not deterministic' stdout || return
  ! grep -q 'internal error' "$err" || { why="the message blames mcgen: $(grep -m1 'internal error' "$err")"; return 1; }
}
check extern-odpor-not-deterministic-names-the-c t_extern_odpor_not_deterministic

# Paths: the C of `extern` named with ?, ", \, blanks, #, $, a trigraph's
# ??=, a leading '-' and non-ASCII, in a directory named so too, with the
# spec beside them. The checker builds (the generated C names the header by
# a header-name, which C does not unescape; a name starting with '-' is not
# taken for an option by libclang or cc) and gives the hand count, from
# inside the directory and from outside: v counts 0..3 through bump(), 4
# states and 4 transitions. A header whose path holds a '>' is named by the
# other form; one whose path holds both '"' and '>' cannot be named at all,
# which mcgen says (exit 2).
# A spec's string literal for a path: \ and " escaped.
mc_str() {
  local s=${1//\\/\\\\}
  printf '"%s"' "${s//\"/\\\"}"
}
t_extern_paths() {
  fresh
  local d='d?"\ #$é -' h='-h?"\ #$é??=.h' c='-s?"\ #$é.c' m='-m?"\ #$é.mc'
  mkdir -- "$d" 'e>x' || { why="cannot make the directories"; return 1; }
  printf '#include <stdint.h>\nint32_t bump(int32_t x);\n' | tee "$d/$h" "$d/q>.h" >'e>x/h.h'
  printf '#include <stdint.h>\nint32_t bump(int32_t x) { return (x + 1) %% 4; }\n' |
    tee "$d/$c" >'e>x/s.c'
  local body='extern fn bump(x: 0..3): 0..3;\nvar v: 0..3;\naction a { v = bump(v); }\n'
  printf "model paths;\nextern %s sources %s;\n$body" "$(mc_str "$h")" "$(mc_str "$c")" >"$d/$m"
  printf "model angle;\nextern \"h.h\" sources \"s.c\";\n$body" >'e>x/m.mc'
  printf "model both;\nextern \"q>.h\" sources %s;\n$body" "$(mc_str "$c")" >"$d/both.mc"
  local where spec
  for where in inside outside angle; do
    case $where in
    inside) spec=$m; cd -- "$d" || return 1 ;;
    outside) spec=$d/$m ;;
    angle) spec='e>x/m.mc' ;;
    esac
    run "$mcgen" --cflags -Werror -o "$where" -- "$spec"
    want_rc 0 || { why="$where: $why"; return 1; }
    run "./$where" --report r.json
    want_rc 0 && [ "$(counts r.json)" = "4 4" ] ||
      { why="$where: exit $rc, counts $(counts r.json), expected 4 4 (hand count)"; return 1; }
    [ "$where" = inside ] && cd ..
  done
  run "$mcgen" -- "$d/both.mc"
  want_rc 2 && want_in "$err" ":2:8: error: the generated C cannot #include the C header 'q>\\.h': its path holds both '\"' and '>'" stderr
}
check extern-paths t_extern_paths

# The C files libclang may read (docs/DESIGN.md, "Reading the C"): a FIFO or
# a file over 64 MiB, named by the spec or included, is refused before
# libclang reads anything (it would wait on the FIFO for ever); an #include
# through a macro, which mcgen does not follow, of /dev/zero (which libclang
# reads until memory runs out) or of a FIFO (where it waits, using no CPU
# time) is stopped by the parse's bounds, made small here
# (MCGEN_PARSE_MIB=64; MCGEN_PARSE_SECONDS=2, which makes the wait allowed
# without progress 2 s), with an error that says which. Each is exit 2,
# within run()'s time limit.
t_extern_files() {
  fresh
  mkfifo fifo.h && truncate -s 65M huge.h || { why="cannot make a FIFO and a large file"; return 1; }
  printf '#include <stdint.h>\nint32_t f(int32_t x) { return x; }\n' >ok.c
  local body='extern fn f(x: 0..3): 0..3;\nvar v: 0..3;\naction a { v = f(v); }\n' test
  local -a tests=(
    'fifo.h||||the C file .fifo\.h. is a FIFO: mcgen reads only regular files'
    'huge.h||||the C file .huge\.h. is 68157440 bytes long, more than the 64 MiB of a C file mcgen reads'
    'h.h|#include "fifo.h"|||the C file .h\.h. includes .fifo\.h., which is a FIFO'
    'h.h|#include "huge.h"|||the C file .h\.h. includes .huge\.h., which is 68157440 bytes long'
    'h.h|#define Z "/dev/zero"\n#include Z|MCGEN_PARSE_MIB|64|libclang failed to read the C file .h\.h. and what it includes within 64 MiB of memory \(MCGEN_PARSE_MIB\)'
    'h.h|#define F "fifo.h"\n#include F|MCGEN_PARSE_SECONDS|2|libclang made no progress for 2 s reading the C file .h\.h. and what it includes'
    'h.h||MCGEN_PARSE_SECONDS|0|MCGEN_PARSE_SECONDS=0: expected a whole number from 1 to 1000000'
  )
  for test in "${tests[@]}"; do
    IFS='|' read -r header include var value message <<<"$test"
    printf "#include <stdint.h>\n$include\nint32_t f(int32_t x);\n" >h.h
    printf "model m;\nextern \"%s\" sources \"ok.c\";\n$body" "$header" >m.mc
    run env ${var:+"$var=$value"} "$mcgen" m.mc
    want_rc 2 && want_in "$err" "error: $message" stderr || { why="$header ($include): $why"; return 1; }
  done
}
check extern-c-files-bounded t_extern_files

# Every JSON document the checks above left that names an mcgen schema (the
# reports, trails and exports a run completed) is valid against it.
t_schemas() {
  cd "$root" || return
  python3 tests/schema/validate.py --sweep --quiet "$work" >"$work/schemas.txt" 2>&1 && return 0
  why="$(grep -m 3 INVALID "$work/schemas.txt" | tr '\n' '|') $(tail -n 1 "$work/schemas.txt")"
  return 1
}
check every-json-valid-against-its-schema t_schemas

finish
