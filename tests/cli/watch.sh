#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Watches, the profile, coverage and the timeline (docs/LANGUAGE.md,
# "Watches"; docs/DESIGN.md, "The profile"): what a trace and the JSON
# report show besides the states. Every expected value is derived by hand
# in the header of its spec:
#   watch_counter.mc  `watch` declarations at each step of a 6-step trace
#                     (text, --trace-format json, the --report's trace);
#                     -W added on the command line; a watch that fails
#                     (division by zero) at one step
#   watch_ring.dve    mcgen -W on a DVE model
#   profile.mc        per action: fired, enabled, tried, new states; the
#                     lines run and not run
# Then the errors: a -W that reads an unknown name or is malformed is a
# located error in the option's text; watches leave the search alone (the
# same counts); the timeline ends at the run's counts, also when
# --max-states stops it. Each check prints `PASS name` or `FAIL name: why`;
# the last line is `N passed, N failed`.
#
# Usage: tests/cli/watch.sh [BUILD_DIR]   (default: build, from the repo root)
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
specs=$root/tests/cli/specs
validate=$root/tests/schema/validate.py
use_build_dir "${1:-}"
unset MCGEN_RUNTIME CC

make_work watch
need_mcgen
need jq python3

# build NAME SPEC [MCGEN-ARGS...]: the checker $work/NAME.
build() {
  local name=$1 spec=$2
  shift 2
  (cd "$work" && timeout 120 "$mcgen" -o "$name" "$@" "$spec" >"build-$name.log" 2>&1) && return 0
  fail "build $name" "$(excerpt "$work/build-$name.log")"
  return 1
}

# same NAME GOT WANT: a check that two texts are equal.
same() {
  if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got [$2], expected [$3]"; fi
}

# ---------------------------------------------------------------------------
# watch_counter.mc: the declared watches, and one more with -W.

want_watches='square = 0, half = 0, odd = false, inv = 4, big = -500000000000000000, twice = 0
square = 1, half = 0, odd = true, inv = 6, big = -400000000000000000, twice = 2
square = 4, half = 1, odd = false, inv = 12, big = -200000000000000000, twice = 6
square = 9, half = 3, odd = true, inv = (error: division by zero), big = 100000000000000000, twice = 12
square = 16, half = 5, odd = false, inv = -12, big = 500000000000000000, twice = 20
square = 25, half = 7, odd = true, inv = -6, big = 1000000000000000000, twice = 30
square = 36, half = 10, odd = false, inv = -4, big = 1600000000000000000, twice = 42'

if build counter "$specs/watch_counter.mc" -W 'twice=2*acc' &&
   build counter_plain "$specs/watch_counter.mc"; then
  (cd "$work" && ./counter --por off >text.out 2>text.err)
  same "watch: every step of the text trace (7 states)" \
    "$(sed -n 's/^    watch: //p' "$work/text.out")" "$want_watches"
  (cd "$work" && ./counter --por off --trace-format json >json.out 2>json.err)
  # The JSON's values as the text prints them: numbers, bools, {"error": M}.
  # (big's values from the text: jq reads numbers as doubles)
  got=$(head -n 1 "$work/json.out" | jq -r '.trace[] | .watches | del(.big) | to_entries |
          map("\(.key) = \(if (.value | type) == "object" then "(error: \(.value.error))"
                         else .value end)") | join(", ")')
  same "watch: every step of --trace-format json" "$got" \
    "$(sed 's/, big = [-0-9]*//' <<<"$want_watches")"
  same "watch: a 64-bit watch in --trace-format json" \
    "$(head -n 1 "$work/json.out" | grep -o '"big": [-0-9]*' | cut -d' ' -f2 | tr '\n' ' ')" \
    "$(grep -o 'big = [-0-9]*' <<<"$want_watches" | cut -d' ' -f3 | tr '\n' ' ')"
  (cd "$work" && ./counter --por off --report report.json >/dev/null 2>&1)
  (cd "$work" && ./counter --por off --format json >format.json 2>/dev/null)
  same "watch: --format json's trace is the report's" \
    "$(jq -c '[.violations[0].trace[] | .watches]' "$work/format.json")" \
    "$(jq -c '[.violations[0].trace[] | .watches]' "$work/report.json")"
  got=$(jq -c '[.violations[0].trace[] | .watches.square]' "$work/report.json")
  same "watch: the --report's trace" "$got" "[0,1,4,9,16,25,36]"
  got=$(jq -c '[.violations[0].trace[] | .state.n]' "$work/report.json")
  same "watch: the states beside them (n = 0..6)" "$got" "[0,1,2,3,4,5,6]"
  # A watch costs nothing in the search: the same counts without -W.
  (cd "$work" && ./counter_plain --por off --report plain.json >plain.out 2>&1)
  same "watch: the search is the same without -W" \
    "$(jq -c '[.states, .transitions, .depth]' "$work/plain.json")" \
    "$(jq -c '[.states, .transitions, .depth]' "$work/report.json")"
fi

# ---------------------------------------------------------------------------
# watch_ring.dve: -W over the lowered DVE model's names.

if build ring "$specs/watch_ring.dve" -W 'sum=x+y' -W 'd=y*10-x' -W 'mid=A==A_a1'; then
  (cd "$work" && ./ring --por off --report ring.json >ring.out 2>&1)
  same "watch: -W on a DVE model" "$(sed -n 's/^    watch: //p' "$work/ring.out")" \
    'sum = 5, d = 50, mid = false
sum = 4, d = 29, mid = true
sum = 9, d = 57, mid = false'
fi
if build ring_plain "$specs/watch_ring.dve"; then
  (cd "$work" && ./ring_plain --por off >ring_plain.out 2>&1)
  if grep -q 'watch:' "$work/ring_plain.out"; then
    fail "watch: none asked, none printed" "$(excerpt "$work/ring_plain.out")"
  elif ! grep -q '^2 ' "$work/ring_plain.out"; then
    fail "watch: none asked, none printed" "no trace: $(excerpt "$work/ring_plain.out")"
  else
    pass "watch: none asked, none printed"
  fi
fi

# ---------------------------------------------------------------------------
# Errors: located in the option's text ("-W:LINE:COL"), the spec's name and
# the options after them.

# bad_watch NAME WATCH LOCATED-MESSAGE: mcgen refuses -W WATCH with exit 1
# and that message.
bad_watch() {
  (cd "$work" && timeout 60 "$mcgen" -o never -W "$2" "$specs/watch_counter.mc" >bad.out 2>bad.err)
  local rc=$?
  if [ $rc -ne 1 ]; then
    fail "$1" "exit $rc, expected 1 ($(excerpt "$work/bad.err"))"
  elif ! grep -qF -- "$3" "$work/bad.err"; then
    fail "$1" "no '$3' in: $(excerpt "$work/bad.err")"
  elif ! grep -qF -- "(with -W $2)" "$work/bad.err"; then
    fail "$1" "the last line does not name the option: $(excerpt "$work/bad.err")"
  else
    pass "$1"
  fi
}
bad_watch "watch: -W reading an unknown name" 'w=n+nn' "-W:1:5: error: unknown name 'nn'"
bad_watch "watch: -W without '='" 'w n' "-W:1:3: error: expected '=' after the watch's name"
bad_watch "watch: an empty -W" '' "-W:1:1: error: unexpected end of file"
bad_watch "watch: -W with a name taken" 'step=n' "-W:1:1: error: duplicate name 'step'"
bad_watch "watch: -W with text after the expression" 'w=n n' "-W:1:5: error: unexpected 'n'"

# ---------------------------------------------------------------------------
# profile.mc: the profile's counts, at 1 and 2 threads.

if build profile "$specs/profile.mc"; then
  for t in 1 2; do
    (cd "$work" && ./profile --por off --threads $t --report prof.json >prof.out 2>&1)
    cp "$work/prof.json" "$work/prof-$t.json"
    got=$(jq -c '[.profile.actions[] | [.name, .fired, .enabled, .tried]]' "$work/prof.json")
    same "profile: fired, enabled, tried per action ($t threads)" "$got" \
      '[["inc_a",12,12,16],["inc_b",12,12,16],["never",0,0,16]]'
    same "profile: the new states add up to 15 ($t threads)" \
      "$(jq '[.profile.actions[].new_states] | add' "$work/prof.json")" 15
    # The summary's "actions fired" block (the lines after it, indented).
    summary=$(sed -n '/^actions fired:/,/^[^ ]/p' "$work/prof.out" | awk '/^  /{print $1, $2}')
    same "profile: fired equals the summary's ($t threads)" \
      "$(jq -r '.profile.actions[] | "\(.name) \(.fired)"' "$work/prof.json")" \
      "$summary"
    same "profile: expansions, the 16 states ($t threads)" \
      "$(jq '.profile.expansions' "$work/prof.json")" 16
  done
  same "coverage: the lines run and not run" \
    "$(jq -c '.coverage.lines' "$work/prof.json")" '[[16,true],[17,true],[20,true],[23,true],[26,false]]'
  same "profile: a CPU share per action, within 0..1" \
    "$(jq '[.profile.actions[] | .cpu_share | select(. != null and . >= 0 and . <= 1)] | length' \
        "$work/prof.json")" 3
  # The timeline: from the start (no state yet) to the end (all 16).
  same "timeline: the first and last samples" \
    "$(jq -c '[.timeline.samples[0][1], .timeline.samples[-1][1]]' "$work/prof.json")" '[0,16]'
fi

# A run stopped by --max-states: the timeline ends at the stop's counts.
if build counter_stop "$specs/watch_counter.mc"; then
  (cd "$work" && ./counter_stop --por off --max-states 3 --report stop.json >/dev/null 2>&1)
  same "timeline: a run stopped by --max-states ends at its counts" \
    "$(jq -c '[.bound_hit, .timeline.samples[-1][1] == .states]' "$work/stop.json")" \
    '["max-states",true]'
fi

# ---------------------------------------------------------------------------
# Every report above, --format json's and --trace-format json's violation
# against docs/schema (the watches, property_status, profile, coverage and
# timeline described there, every object closed).

head -n 1 "$work/json.out" >"$work/violation.json"
for doc in report.json plain.json format.json ring.json prof-1.json prof-2.json stop.json \
           violation:violation.json; do
  if [ ! -s "$work/${doc#violation:}" ]; then
    fail "schema: $doc" "not written"
  elif out=$(cd "$work" && python3 "$validate" "$doc" 2>&1); then
    pass "schema: $doc valid"
  else
    fail "schema: $doc" "$(head -c 400 <<<"$out" | tr '\n' '|')"
  fi
done

finish
