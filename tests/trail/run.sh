#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Trails (--trail, --no-trail, --replay) and the schemas of the JSON a
# checker writes (docs/schema/, validated by tests/schema/validate.py with
# Debian's python3-jsonschema, a real validator).
#
# Usage: tests/trail/run.sh [BUILD_DIR]    (default: build)
#
# Checks, one output line each:
#   - every spec of specs/, tests/e2e/specs/, tests/dve/ and the BEEM and
#     SPIN instances of tests/liveness/ is built with its MCGEN-ARGS and run
#     with its RUN-ARGS (tests/e2e/run_specs.sh's directives) and --report:
#     the report is valid against report.schema.json; on a violation
#     (exit 1) the trail NAME.trail.json is there and valid against
#     trail.schema.json, and `--replay` of it exits 1 with the same
#     violation on its result line as the search's; without a violation no
#     trail is left;
#   - every spec of specs/: `--format json | jq -e .verdict` (stdout is one
#     JSON document), and the document is a valid report, as are the
#     --graph and --tests files written beside it (those within their caps);
#   - lost_update.mc (a violation after four steps, its trail below): the
#     trail with a step edited to one no run takes is refused at that step,
#     naming it; a trail of another spec, and one with another c_hash (another
#     build), are refused; a trail written by hand, without c_hash, options
#     or violation, replays to the violation; a hand trail that stops before
#     the violation is a run that violates nothing (exit 0);
#   - --trail FILE writes there, --no-trail writes nothing, --trail in a
#     missing directory is refused before the search (exit 2), an unwritable
#     current directory leaves the verdict's exit code with a warning;
#     --dot over its limit with --format json keeps exit 1; under mpirun
#     -np 2 the trail is written (by rank 0) and replays;
#   - the validator fails on a report whose verdict is changed to a word the
#     schema does not know, on a trail with a member the schema lacks, and
#     on a report with a member added: the schemas are closed, so the code
#     cannot write what they do not describe.
# Without python3-jsonschema or jq the runner says so and fails.
# The last line is `N passed, N failed`; the exit status is non-zero if
# anything failed.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build_dir=${1:-build}
case $build_dir in /*) ;; *) build_dir=$root/$build_dir ;; esac
mcgen=$build_dir/mcgen
validate=$root/tests/schema/validate.py

passed=0 failed=0
pass() { echo "PASS $1: $2"; passed=$((passed + 1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }
excerpt() { head -c 300 "$1" | tr '\n' '|'; }

work=$(mktemp -d "${TMPDIR:-/tmp}/mcgen-trail.XXXXXX")
trap 'rm -rf "$work"' EXIT

if ! python3 -c 'import jsonschema' 2>/dev/null; then
  fail tools "python3-jsonschema is not installed (make test-deps): nothing can be validated"
fi
command -v jq >/dev/null || fail tools "jq is not installed (make test-deps)"

directive() { sed -n "s|^//[[:space:]]*$2:[[:space:]]*||p" "$1" | head -n 1 | sed 's/[[:space:]]*$//'; }

# valid NAME WHAT FILE...: the files are valid against their schemas.
valid() {
  local name=$1 what=$2
  shift 2
  if python3 "$validate" --quiet "$@" >"$work/validate.txt" 2>&1; then
    pass "$name" "$what valid"
  else
    fail "$name" "$what: $(excerpt "$work/validate.txt")"
  fi
}

# build NAME SPEC [MCGEN-ARGS...]: the checker $work/bin/NAME.
build() {
  local name=$1 spec=$2
  shift 2
  mkdir -p "$work/bin"
  (cd "$work/bin" && timeout 300 "$mcgen" "$@" -o "$name" "$spec") >"$work/build-$name.log" 2>&1
}

# result_line FILE: the violation of its result: line, without the replay's note.
result_line() { grep -m 1 '^result: ' "$1" | sed 's/ (replayed from [^)]*)$//'; }

# sweep SPEC: build, run, validate, replay.
sweep() {
  local spec=$1 name margs rargs d rc
  name=$(basename "$spec" | sed 's/\.\(mc\|dve\)$//')
  margs=$(directive "$spec" MCGEN-ARGS)
  rargs=$(directive "$spec" RUN-ARGS)
  # shellcheck disable=SC2086  # the directives are word lists
  if ! build "$name" "$spec" $margs; then
    fail "$name" "mcgen failed: $(excerpt "$work/build-$name.log")"
    return
  fi
  d=$work/run-$name
  mkdir -p "$d"
  # shellcheck disable=SC2086
  (cd "$d" && timeout 300 "$work/bin/$name" $rargs --report r.json >out.txt 2>err.txt)
  rc=$?
  valid "$name" "report (exit $rc)" "$d/r.json"
  # A violation without a trace (no initial state, a reachable goal never
  # reached) has no steps to write.
  if [ "$rc" = 1 ] && ! jq -e '.violations[0].trace | length > 0' "$d/r.json" >/dev/null; then
    rc="1 without a trace"
  fi
  if [ "$rc" != 1 ]; then
    if [ -e "$d/$name.trail.json" ]; then
      fail "$name" "exit $rc, yet a trail was written"
    else
      pass "$name" "exit $rc: no trail"
    fi
    return
  fi
  if [ ! -s "$d/$name.trail.json" ]; then
    fail "$name" "a violation and no trail $name.trail.json: $(excerpt "$d/out.txt")"
    return
  fi
  valid "$name" "trail" "$d/$name.trail.json"
  (cd "$d" && timeout 300 "$work/bin/$name" --replay "$name.trail.json" >replay.txt 2>replay.err)
  rc=$?
  if [ "$rc" = 1 ] && [ "$(result_line "$d/replay.txt")" = "$(result_line "$d/out.txt")" ]; then
    pass "$name" "the trail replays to the same violation"
  else
    fail "$name" "--replay exit $rc, '$(result_line "$d/replay.txt")' for '$(result_line "$d/out.txt")' $(excerpt "$d/replay.err")"
  fi
}

shopt -s nullglob
for spec in "$root"/specs/*.mc "$root"/tests/e2e/specs/*.mc "$root"/tests/dve/*.dve \
  "$root"/tests/liveness/beem/*.mc "$root"/tests/liveness/spin/*.mc; do
  sweep "$spec"
done
shopt -u nullglob

# --format json on every spec of specs/: one JSON document on stdout; the
# exports --graph and --tests beside it, valid against their schemas.
for spec in "$root"/specs/*.mc; do
  name=$(basename "$spec" .mc)
  [ -x "$work/bin/$name" ] || continue
  d=$work/json-$name
  mkdir -p "$d"
  (cd "$d" && timeout 300 "$work/bin/$name" --format json --graph g.json --tests t.json \
    >doc.json 2>err.txt)
  if jq -e .verdict "$d/doc.json" >/dev/null 2>&1; then
    pass "$name" "--format json | jq -e .verdict"
  else
    fail "$name" "--format json: stdout is not a report: $(excerpt "$d/doc.json") $(excerpt "$d/err.txt")"
  fi
  # An export over its cap is not written (the report says so, exit unchanged).
  files=("$d/doc.json")
  for f in graph:g.json tests:t.json; do
    jq -e --arg k "${f%%:*}" '.exports[] | select(.kind == $k) | .written' "$d/doc.json" \
      >/dev/null 2>&1 && files+=("$d/${f#*:}")
  done
  valid "$name" "--format json's document and the exports written (${#files[@]} files)" "${files[@]}"
done

# lost_update.mc: three threads each read x, then write x + 1 (specs/
# lost_update.mc); the invariant that x counts the writes fails first after
# read(1), read(2), write(1), write(2): four steps after the initial state.
lu=$work/bin/lost_update
d=$work/lu
mkdir -p "$d"
cat >"$d/hand.json" <<'EOF'
{"schema": "mcgen-trail/1", "model": "lost_update",
 "steps": [{"action": "default", "init": true, "params": {}},
           {"action": "read", "params": {"t": "Thread_1"}},
           {"action": "read", "params": {"t": "Thread_2"}},
           {"action": "write", "params": {"t": "Thread_1"}},
           {"action": "write", "params": {"t": "Thread_2"}}]}
EOF
valid lost_update "a hand-written trail" "$d/hand.json"

# replay_case WHAT FILE EXIT PATTERN [CHECKER]: `--replay FILE` (in $d, by
# lost_update's checker unless another is named) exits EXIT, and a line of
# its output (stdout or stderr) matches PATTERN.
replay_case() {
  local what=$1 file=$2 want=$3 pattern=$4 bin=${5:-$lu} rc
  (cd "$d" && "$bin" --replay "$file" >out.txt 2>err.txt)
  rc=$?
  if [ "$rc" = "$want" ] && cat "$d/out.txt" "$d/err.txt" | grep -q -- "$pattern"; then
    pass "$(basename "$bin")" "$what"
  else
    fail "$(basename "$bin")" "$what: exit $rc, expected $want: $(excerpt "$d/out.txt") $(excerpt "$d/err.txt")"
  fi
}
replay_case "a hand-written trail replays to counts_increments' violation" hand.json 1 \
  "^result: violation: invariant 'counts_increments' does not hold"
# Without the last step: read, read, write is a run where x = 1 = the count
# of completed writes: nothing fails.
jq '.steps |= .[0:4]' "$d/hand.json" >"$d/short.json"
replay_case "a trail that stops before the violation: exit 0, a run that violates nothing" \
  short.json 0 '^result: ok: '
# Thread_3 never read: its write is not enabled after step 3.
jq '.steps[4].params.t = "Thread_3"' "$d/hand.json" >"$d/edited.json"
replay_case "an impossible step is refused at that step, naming it" edited.json 2 \
  '^error: --replay edited.json: step 4, write(t=Thread_3) (edited.json:[0-9]*): not enabled in the state after step 3'
jq '.steps[1].action = "jump"' "$d/hand.json" >"$d/unknown.json"
replay_case "an unknown action is refused, naming it" unknown.json 2 "no action named 'jump'"
jq '.c_hash = "0123456789abcdef"' "$d/hand.json" >"$d/build.json"
replay_case "a trail of another build (c_hash) is refused" build.json 2 'written by another build'
if [ -x "$work/bin/peterson" ]; then
  replay_case "a trail of another spec is refused" hand.json 2 \
    "a trail of the model 'lost_update'; this checker checks 'peterson'" "$work/bin/peterson"
fi

# --trail, --no-trail, their failures.
(cd "$d" && "$lu" --trail t.json >out.txt 2>err.txt)
rc=$?
if [ "$rc" = 1 ] && [ -s "$d/t.json" ] && [ ! -e "$d/lost_update.trail.json" ]; then
  pass lost_update "--trail FILE writes FILE alone"
else
  fail lost_update "--trail t.json: exit $rc $(ls "$d")"
fi
rm -f "$d"/*.trail.json
(cd "$d" && "$lu" --no-trail >out.txt 2>err.txt)
rc=$?
if [ "$rc" = 1 ] && ! ls "$d"/*.trail.json >/dev/null 2>&1 && ! grep -q '^trail:' "$d/out.txt"; then
  pass lost_update "--no-trail: exit 1, no trail"
else
  fail lost_update "--no-trail: exit $rc $(ls "$d")"
fi
(cd "$d" && "$lu" --trail missing/t.json >out.txt 2>err.txt)
rc=$?
if [ "$rc" = 2 ] && [ ! -s "$d/out.txt" ]; then
  pass lost_update "--trail in a missing directory: exit 2 before the search"
else
  fail lost_update "--trail missing/t.json: exit $rc $(excerpt "$d/err.txt")"
fi
mkdir -p "$d/ro"
chmod a-w "$d/ro"
if [ -w "$d/ro" ]; then
  pass lost_update "unwritable directory: not checkable as root (the directory stays writable)"
else
  (cd "$d/ro" && "$lu" >../out.txt 2>../err.txt)
  rc=$?
  if [ "$rc" = 1 ] && grep -q '^warning: the trail lost_update.trail.json cannot be written' "$d/err.txt"; then
    pass lost_update "an unwritable current directory: a warning, exit 1 stays"
  else
    fail lost_update "read-only cwd: exit $rc $(excerpt "$d/err.txt")"
  fi
fi
chmod u+w "$d/ro"
(cd "$d" && "$lu" --format json --dot g.dot --dot-max-states 1 >doc.json 2>err.txt)
rc=$?
if [ "$rc" = 1 ] && jq -e '.verdict == "violation"' "$d/doc.json" >/dev/null 2>&1; then
  pass lost_update "--format json with --dot over its limit: exit 1, the verdict on stdout"
else
  fail lost_update "--dot over its limit: exit $rc $(excerpt "$d/doc.json")"
fi

# Under MPI rank 0 writes the trail (tests/mpi runs the rest of MPI).
if command -v mpirun >/dev/null && command -v mpicc >/dev/null; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  if build lost_update_mpi "$root/specs/lost_update.mc" --mpi; then
    rm -f "$d"/*.trail.json
    (cd "$d" && timeout 120 mpirun --oversubscribe -np 2 "$work/bin/lost_update_mpi" \
      >out.txt 2>err.txt)
    rc=$?
    (cd "$d" && "$work/bin/lost_update_mpi" --replay lost_update_mpi.trail.json >replay.txt 2>&1)
    if [ "$rc" = 1 ] && [ "$(result_line "$d/replay.txt")" = "$(result_line "$d/out.txt")" ]; then
      pass lost_update "mpirun -np 2: the trail replays to the same violation"
    else
      fail lost_update "mpirun -np 2: exit $rc, $(excerpt "$d/replay.txt")"
    fi
  else
    fail lost_update "mcgen --mpi failed: $(excerpt "$work/build-lost_update_mpi.log")"
  fi
else
  fail mpi "mpirun or mpicc is missing (make test-deps): the trail under MPI is not checked"
fi

# The validator itself fails on what the schemas do not describe.
(cd "$d" && "$lu" --report r.json >/dev/null 2>&1)
jq '.verdict = "maybe"' "$d/r.json" >"$d/bad-verdict.json"
jq '.extra = 1' "$d/r.json" >"$d/bad-member.json"
jq '.steps[0].rule = 0' "$d/hand.json" >"$d/bad-trail.json"
for f in bad-verdict bad-member bad-trail; do
  if python3 "$validate" --quiet "$d/$f.json" >"$work/validate.txt" 2>&1; then
    fail schema "$f.json passes the validator: $(excerpt "$work/validate.txt")"
  else
    pass schema "$f.json fails the validator"
  fi
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
