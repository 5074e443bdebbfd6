#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Answers do not depend on --threads: every checker run at --threads 1 (the
# serial search), and at 2 and 4 with --order fixed, must print the same
# thing and write the same report, save for times and memory figures; in
# the default order (free) they must give the same answers (below).
#
# Usage: tests/threads/run.sh [BUILD_DIR] [--beem-limit N] [--threads "2 4"] [CASE...]
#   BUILD_DIR      where mcgen was built (default: build)
#   --beem-limit N the BEEM instances of the conformance run (complete ones,
#                  BEEM's beem_expected.csv) with at most N states (default
#                  20000; 0: none), run with --no-deadlock as there
#   --threads L    the thread counts compared with 1 (default "2 4")
#   CASE           .mc, .dve or .pnml files (default: specs/*.mc,
#                  tests/e2e/specs/*.mc, tests/dve/*.dve, tests/liveness/*/*.mc,
#                  tests/pnml/nets/*.pnml: every spec, the liveness oracles,
#                  the symmetry oracles' specs, the nets; and
#                  tests/threads/wide.mc, whose wide levels put bounds and
#                  violations inside the windows the threads commit in parallel,
#                  and tests/threads/wide_live.mc, wide levels under liveness)
# Environment: MCGEN_CFLAGS (default -O1) C flags for the checkers;
# MCGEN_TIMEOUT seconds per checker run (default 300).
#
# A case's header directives MCGEN-ARGS and RUN-ARGS (tests/e2e/run_specs.sh)
# are used; a spec with a symmetry oracle is also run with --symmetry-method
# exhaustive and sorted (SYMMETRY-CHECK-MCGEN-ARGS sizes it). Compared, per
# case and thread count with --order fixed against --threads 1:
#   - the exit code;
#   - stdout, without the lines time:, memory:, bytes/state:, the
#     symmetry line's "permutations tried per state" (work, not answers)
#     and the liveness check's time:
#     the verdict, counts, depth, deadlocks, actions fired, reachables, and
#     the counterexample trace step by step (so it replays, with the serial
#     length, as the trace printer replays every trace it prints);
#   specs/*.mc also run with --max-states 1000, --max-steps 2500 and
#   --max-depth 6 (the bounds are exact: the same states as the serial
#   search's).
#   - the liveness edge table, byte for byte: each run dumps it
#     (MCRT_TEST_EDGES, runtime/store/edges.c) when its liveness check runs, and
#     the dumps must be equal (or absent at every N); wide_live.mc must
#     have one, save under --max-states (no liveness check after a bound);
#   - the JSON report without time_s, threads, thread_phases_s,
#     memory_bytes, peak_rss_bytes, bytes_per_state, the fingerprint set's
#     bytes (threads grow it a window ahead) and growth time, liveness.time_s and
#     liveness.phases_s, the timeline and the profile's times; after a stop
#     (a bound, a violation) also without coverage and the profile's counts
#     of work (expansions, tried, enabled, new_states: threads expand a
#     window ahead of the stop); in free order also without the profile's
#     new_states (which action found a state first is which thread
#     inserted it first).
# Each case and thread count is also run with --order free (the default:
# the threads insert successors as they make them, so ids and parents depend
# on which thread comes first), and compared with --threads 1 on what must not
# depend on that: the exit code; after an exhaustive search, stdout and the
# report (the verdict, counts, depth, deadlocks, actions fired,
# reachables); after a stop (a violation, a bound), the verdict, the depth,
# the bound, and under --max-states the states (the bound is exact: the
# other counts at a stop depend on which states a level gave first); and
# the trace's number of steps (a shortest trace; the checker replays every
# trace it prints, so a trace that is not a genuine run fails the run). Where free
# order falls back to fixed order (liveness, exports, nets, --por, ...), the
# runs are the fixed order's and compare the same way.
# And (with the default cases or specs/filter.mc) the report's
# liveness.phases_s at --threads 1 and 2: search, edges and scc times, the
# edge and component counts, and the text report's liveness time: line.
# One PASS or FAIL line per case and thread count; a tally; exit 1 on a FAIL.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
take_build_dir "${1:-}" '*.mc' '*.dve' '*.pnml' && shift
BEEM_LIMIT=20000
THREADS="2 4"
cases=()
while [ $# -gt 0 ]; do
  case $1 in
  --beem-limit) BEEM_LIMIT=$2; shift 2 ;;
  --threads) THREADS=$2; shift 2 ;;
  *) cases+=("$1"); shift ;;
  esac
done
CFLAGS=${MCGEN_CFLAGS:--O1}
TIMEOUT=${MCGEN_TIMEOUT:-300}
make_work threads

summary() { # FILE: stdout without what depends on time and memory
  grep -vE '^(time|memory|bytes/state):' "$1" |
    sed -E 's/, [0-9.]+ permutations tried per state//; s/^(liveness: .*) \([0-9.]+ s\)$/\1/'
}

report() { # FILE: the report without what depends on time and memory
  jq -S 'del(.time_s, .threads, .thread_phases_s, .thread_order, .thread_free_from_depth,
             .memory_bytes, .peak_rss_bytes, .bytes_per_state,
             .fingerprint_set_bytes, .fingerprint_set_bytes_per_state, .fingerprint_set_grow_s,
             .timeline, .profile.cpu_s, .profile.timed_expansions)
         | .profile.actions |= map(del(.cpu_s, .cpu_share))
         | if .bound_hit != null or (.violations | length) > 0
           then del(.coverage) | .profile |= (del(.expansions)
                | .actions |= map(del(.enabled, .tried, .new_states)))
           else . end
         | if (.liveness | type) == "object" then .liveness |= del(.time_s, .phases_s) else . end' "$1"
}

answers() { # FILE EXIT VARIANT: what free order must give as --threads 1 does (see above)
  if [ "$2" = 0 ]; then
    summary "$1" | grep -vE '^([0-9]+ |    )'
  elif [[ $3 == *--max-states* ]]; then
    grep -E '^(result|depth|states):' "$1"
  else
    grep -E '^(result|depth):' "$1"
  fi
}

steps() { # FILE: the number of steps of its trace
  grep -cE '^[0-9]+ ' "$1"
}

report_free() { # FILE EXIT VARIANT: as answers, the traces by their length
  local keep='{verdict, depth, bound_hit, stopped_in, exit_code}'
  [ "$2" = 0 ] && keep=.
  [[ $2 != 0 && $3 == *--max-states* ]] &&
    keep='{verdict, depth, bound_hit, stopped_in, exit_code, states}'
  # (which action found a state first is which thread inserted it first)
  report "$1" | jq -S 'if (.profile | type) == "object"
                       then .profile.actions |= map(del(.new_states)) else . end' |
    jq -S "$keep"' | if (.violations | type) == "array" then
                       .violations |= map(.trace |= length) else . end'
}

same_edges() { # A B: two edge table dumps, both absent or equal byte for byte
  if [ -e "$1" ] || [ -e "$2" ]; then
    cmp -s "$1" "$2"
  fi
}

# check NAME FILE "MCGEN ARGS" "RUN ARGS" [VARIANT...]: the run, and one more
# per VARIANT (more checker options, e.g. a bound) with the same checker.
check() {
  # --por off first: the counts compared are the full graph's (the default
  # reduces the safety search; RUN ARGS may still say --por on).
  local name=$1 file=$2 margs=$3 rargs="--por off $4" bin=$work/$1
  shift 4
  # shellcheck disable=SC2086
  if ! "$mcgen" $margs --cflags "$CFLAGS" -o "$bin" "$file" >"$work/mcgen.out" 2>&1; then
    fail "$name: mcgen failed: $(head -3 "$work/mcgen.out" | tr '\n' ' ')"
    return
  fi
  local t code1 code variant label
  for variant in "" "$@"; do
    label=$name${variant:+ $variant}
    rm -f "$work"/edges*
    # shellcheck disable=SC2086
    MCRT_TEST_EDGES=$work/edges1 timeout "$TIMEOUT" "$bin" $rargs $variant --progress 0 --threads 1 \
      --report "$work/r1.json" >"$work/o1" 2>"$work/e1"
    code1=$?
    for t in $THREADS; do
      # shellcheck disable=SC2086
      MCRT_TEST_EDGES=$work/edges$t timeout "$TIMEOUT" "$bin" $rargs $variant --progress 0 \
        --threads "$t" --order fixed --report "$work/r$t.json" >"$work/o$t" 2>"$work/e$t"
      code=$?
      if [[ $file == */wide_live.mc && $variant != --max-states* && ! -s $work/edges1 ]]; then
        fail "$label: no edge table dumped at --threads 1 (MCRT_TEST_EDGES)"
      elif ! same_edges "$work/edges1" "$work/edges$t"; then
        fail "$label --threads $t --order fixed: the edge table differs from --threads 1's: $(cmp "$work/edges1" "$work/edges$t" 2>&1 | head -1)"
      elif [ "$code" != "$code1" ]; then
        fail "$label --threads $t --order fixed: exit $code, $code1 with --threads 1 ($(head -2 "$work/e$t" | tr '\n' ' '))"
      elif ! diff <(summary "$work/o1") <(summary "$work/o$t") >"$work/diff"; then
        fail "$label --threads $t --order fixed: the output differs from --threads 1: $(head -6 "$work/diff" | tr '\n' ' ')"
      elif ! diff <(report "$work/r1.json") <(report "$work/r$t.json") >"$work/diff"; then
        fail "$label --threads $t --order fixed: the report differs from --threads 1: $(head -6 "$work/diff" | tr '\n' ' ')"
      else
        pass "$label --threads $t --order fixed (exit $code, $(sed -n 's/^states: *\([0-9]*\).*/\1 states/p' "$work/o1"))"
      fi
      # shellcheck disable=SC2086
      timeout "$TIMEOUT" "$bin" $rargs $variant --progress 0 --threads "$t" --order free \
        --report "$work/f$t.json" >"$work/f$t" 2>"$work/g$t"
      code=$?
      if [ "$code" != "$code1" ]; then
        fail "$label --threads $t --order free: exit $code, $code1 with --threads 1 ($(head -2 "$work/g$t" | tr '\n' ' '))"
      elif ! diff <(answers "$work/o1" "$code" "$variant") <(answers "$work/f$t" "$code" "$variant") \
        >"$work/diff"; then
        fail "$label --threads $t --order free: the answers differ from --threads 1: $(head -6 "$work/diff" | tr '\n' ' ')"
      elif [ "$(steps "$work/o1")" != "$(steps "$work/f$t")" ]; then
        fail "$label --threads $t --order free: a trace of $(steps "$work/f$t") steps, $(steps "$work/o1") with --threads 1"
      elif ! diff <(report_free "$work/r1.json" "$code" "$variant") \
        <(report_free "$work/f$t.json" "$code" "$variant") >"$work/diff"; then
        fail "$label --threads $t --order free: the report differs from --threads 1: $(head -6 "$work/diff" | tr '\n' ' ')"
      else
        pass "$label --threads $t --order free (exit $code, $(steps "$work/f$t") trace steps)"
      fi
    done
  done
  rm -f "$bin" "$bin.c"
}

if [ ${#cases[@]} -eq 0 ]; then
  cases=(specs/*.mc tests/e2e/specs/*.mc tests/dve/*.dve tests/liveness/*/*.mc
    tests/pnml/nets/*.pnml tests/threads/wide.mc tests/threads/wide_live.mc)
  default=1
fi
for f in "${cases[@]}"; do
  base=$(basename "$f")
  name=${base%.*}
  margs=$(first_directive "$f" MCGEN-ARGS)
  rargs=$(first_directive "$f" RUN-ARGS)
  # The bounds stop at the serial search's state, step or depth: specs/
  # also under three of them.
  case $f in
  specs/*) check "$name" "$f" "$margs" "$rargs" "--max-states 1000" "--max-steps 2500" \
    "--max-depth 6" ;;
  # Wide levels: the parallel commit's windows, with a bound, a deadlock,
  # a failed invariant and terminal states in the middle of one; with
  # --liveness on, the edge table with the deadlocks' empty rows.
  tests/threads/wide.mc)
    check "$name" "$f" "$margs" "$rargs" "--no-deadlock" "--no-deadlock --max-states 30000" \
      "--no-deadlock --max-steps 100000" "--no-deadlock --max-depth 25" \
      "--no-deadlock --fingerprint 128" "--no-deadlock --compact-set" \
      "--no-deadlock --liveness on"
    check "$name-bad" "$f" "$margs -D BAD=20" "--no-deadlock"
    check "$name-term" "$f" "$margs -D TERM=true" ""
    # The set grows while the threads run (every thread migrates a part):
    # peterson's back edges look up states of earlier levels after it grew.
    check peterson-fp128 specs/peterson.mc "" "--fingerprint 128" ;;
  # Liveness over wide levels: the edge table written by every thread, a
  # lasso, the set's two id layouts, edges from the depth bound's states
  # (18: the last level, so the search is exhaustive), all properties
  # holding; a bound inside a window; property bits too wide for the
  # parallel commit.
  tests/threads/wide_live.mc)
    check "$name" "$f" "$margs" "$rargs" "--fingerprint 128" "--compact-set" "--max-depth 18" \
      "--max-states 3000"
    check "$name-hold" "$f" "$margs -D MEET=false" ""
    check "$name-many" "$f" "$margs -D MANY=40" "" ;;
  *) check "$name" "$f" "$margs" "$rargs" ;;
  esac
  if grep -q 'RUMUR-SYMMETRY-ARGS' "tests/oracle/$(first_directive "$f" ORACLE)" 2>/dev/null; then
    sargs=$(first_directive "$f" SYMMETRY-CHECK-MCGEN-ARGS)
    for method in exhaustive sorted; do
      check "$name-sym-$method" "$f" "$margs $sargs" \
        "$(first_directive "$f" ORACLE-RUN-ARGS | sed 's/--symmetry off//') --symmetry on --liveness off --symmetry-method $method"
    done
  fi
done

if [ "${default:-0}" = 1 ] && [ "$BEEM_LIMIT" -gt 0 ]; then
  if find_suite beem "the BEEM instances"; then
    beem=$suite
    while IFS=, read -r name states dve; do
      check "beem-$name" "$beem/$dve" "" "--no-deadlock"
    done < <(python3 - "$beem/beem_expected.csv" "$BEEM_LIMIT" <<'EOF'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["complete"] == "yes" and int(r["states"]) <= int(sys.argv[2]):
        print(f'{r["name"]},{r["states"]},{r["dve_file"]}')
EOF
    )
  fi
fi

# The report times each phase of a liveness check (search, the edge
# table's closing, the cycle search), at any thread count.
if [ "${default:-0}" = 1 ] || [[ " ${cases[*]} " == *" specs/filter.mc "* ]]; then
  secs='[0-9.]+ s'
  if "$mcgen" --cflags "$CFLAGS" -o "$work/phases" specs/filter.mc >"$work/mcgen.out" 2>&1; then
    for t in 1 2; do
      "$work/phases" --threads "$t" --progress 0 --report "$work/p.json" >/dev/null 2>&1
      "$work/phases" --threads "$t" --progress 0 >"$work/p.txt" 2>&1
      # filter: 249 transitions, hence edges; 3 instances whose SCC passes
      # judge components (their number is the check's, the same at every N).
      if jq -e '.liveness.status == "ok" and (.liveness.phases_s | (.search > 0 and .edges >= 0 and .scc >= 0))
                and .liveness.phases_s.search <= .time_s and .liveness.edges == 249
                and .liveness.components > 0' "$work/p.json" >/dev/null 2>&1 &&
        grep -qE "^time: +liveness phases: search with edge recording $secs, table closing $secs, \
SCCs and fairness $secs\$" "$work/p.txt" &&
        grep -qE '^edge table: +249 edges, [1-9][0-9]* strongly connected components judged$' \
          "$work/p.txt"; then
        pass "liveness phases timed --threads $t"
      else
        fail "liveness phases timed --threads $t: $(jq -c .liveness "$work/p.json" 2>&1 | head -c 300)"
      fi
    done
  else
    fail "liveness phases: mcgen failed: $(head -3 "$work/mcgen.out" | tr '\n' ' ')"
  fi
fi

# Under a tight --memory the threads' buffers take a bounded share of it:
# they stop within 5% of one thread's states (wide.mc at 2 MiB: 55,704
# states at one thread; when the buffers grew with the windows, 7,938 at
# two). Where exactly a memory bound falls is not one of the answers the
# threads keep (their buffers are accounted too), hence the margin.
if [ "${default:-0}" = 1 ] || [[ " ${cases[*]} " == *" tests/threads/wide.mc "* ]]; then
  if "$mcgen" --cflags "$CFLAGS" -o "$work/wmem" tests/threads/wide.mc >"$work/mcgen.out" 2>&1; then
    "$work/wmem" --threads 1 --no-deadlock --progress 0 --memory 2M --report "$work/m1.json" \
      >/dev/null 2>&1
    one=$(jq -r 'select(.bound_hit == "memory") | .states' "$work/m1.json" 2>/dev/null)
    for t in 2 4; do
      for order in fixed free; do
        "$work/wmem" --threads "$t" --order "$order" --no-deadlock --progress 0 --memory 2M \
          --report "$work/mt.json" >/dev/null 2>&1
        got=$(jq -r 'select(.bound_hit == "memory") | .states' "$work/mt.json" 2>/dev/null)
        if [ -n "$one" ] && [ -n "$got" ] && [ "$((got * 100))" -ge "$((one * 95))" ]; then
          pass "wide --memory 2M --threads $t --order $order: $got states (one thread: $one)"
        else
          fail "wide --memory 2M --threads $t --order $order: '$got' states, one thread '$one'"
        fi
      done
    done
  else
    fail "wide --memory: mcgen failed: $(head -3 "$work/mcgen.out" | tr '\n' ' ')"
  fi
fi

finish
