#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# BEEM conformance of LTL verdicts: mcgen's checkers of the dve_props/ files
# (a model with a property process, a Büchi automaton) against BEEM's
# published answers.
#
# Usage: tests/conformance/ltl.sh [BUILD_DIR] [options]
#   BUILD_DIR        where mcgen was built (default: build, from the repo root)
#   --limit N        files whose instance has at most N states (default
#                    1000000; the instance's own count: the product with the
#                    automaton may be larger)
#   --min N          and at least N states (default 0)
#   --only REGEX     only files whose name (MODEL.I.propN) matches (grep -E)
#   --cflags FLAGS   C flags for the checkers (default -O0, as run.sh)
#   --timeout S      seconds allowed per checker run (default 900)
#   --jobs N         files checked at once (default 1)
# Environment: BEEM_DIR and CONFORMANCE_KNOWN as for run.sh.
#
# For every dve_props/INSTANCE.propN.dve whose instance has complete=yes and
# at most N states, and whose property_answers in beem_expected.csv gives
# PN an ltl answer (yes: the property holds; no: it is violated; unknown
# answers are left out): compile it with mcgen, run the checker with
# --no-deadlock (a state where the property process cannot move has no
# successor in the product; that is a finite behaviour, no violation, and
# must not stop the run as a deadlock) and read the verdict: exit 0 with the
# liveness check done = holds; exit 1 with a violation of kind "liveness" =
# violated. The checker runs three ways: the default liveness engine at
# --threads 2 and 4, and the serial one (--liveness-engine serial, the
# oracle of the parallel engine) at one thread; the verdicts and, for a
# violation, the lasso's shape (its steps and loop start) must agree, else
# the row is an ERROR naming the settings. One row per file:
#   NAME  EXPECTED  GOT  VERDICT [reason]
# Verdicts: PASS, FAIL (the other verdict), ERROR (mcgen rejected the file,
# another violation, the check not done, a crash or a time-out), KNOWN (a
# failure listed in known.txt under the file's name; a listed file that
# passes is a FAIL). The last line is the tally; the exit status is 1 on any
# FAIL or ERROR, 2 on a usage error. Without the suite: a loud skip, exit 0.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/conformance/lib.sh
. "$root/tests/conformance/lib.sh"
take_build_dir "${1:-}" && shift

limit=1000000 min=0 only= cflags=-O0 timeout_s=900 jobs=1
read_options ltl.sh "--limit --min --only --cflags --timeout --jobs" "$@"
numbers_or_exit ltl.sh "$limit" "$min" "$timeout_s" "$jobs"
need jq
conformance_setup ltl.sh dve_props "BEEM LTL conformance"

# The verdict a checker's run gives: holds, violated, or "error: why".
run_verdict() { # run_verdict EXIT-STATUS REPORT OUTPUT
  local rc=$1 report=$2 out=$3
  if [ "$rc" = 124 ]; then
    echo "error: timed out after $timeout_s s"
  elif [ ! -f "$report" ]; then
    echo "error: checker exit $rc without a report: $(first_error "$out")"
  elif [ "$rc" = 0 ] && jq -e '.verdict == "ok" and .liveness.status == "ok"' "$report" >/dev/null; then
    echo holds
  elif [ "$rc" = 1 ] &&
    jq -e '[.violations[].kind] | length > 0 and all(. == "liveness")' "$report" >/dev/null; then
    echo violated
  else
    echo "error: checker exit $rc: $(first_error "$out")"
  fi
}

# A violation's lasso shape from a report: its steps and loop start.
lasso_shape() { # lasso_shape REPORT
  python3 -c 'import json, sys
v = json.load(open(sys.argv[1])).get("violations") or [{}]
print(len(v[0].get("trace", [])), v[0].get("loop_start"))' "$1"
}
# The verdict of $dir/checker under each liveness engine setting, when they
# agree (verdict and lasso shape); else "error: what differs".
engines_verdict() { # engines_verdict DIR
  local dir=$1 first= shape= setting got s
  for setting in "--liveness-engine serial --threads 1" "--threads 2" "--threads 4"; do
    # shellcheck disable=SC2086 # the setting is words
    timeout "$timeout_s" "$dir/checker" --no-deadlock --quiet $setting \
      --report "$dir/report.json" >"$dir/out.txt" 2>&1
    got=$(run_verdict $? "$dir/report.json" "$dir/out.txt")
    case $got in error:*) echo "$got ($setting)"; return ;; esac
    s=$(lasso_shape "$dir/report.json")
    if [ -z "$first" ]; then
      first=$got shape=$s
    elif [ "$got" != "$first" ] || [ "$s" != "$shape" ]; then
      echo "error: $setting gives $got ($s), the serial engine $first ($shape)"
      return
    fi
    rm -f "$dir/report.json"
  done
  echo "$first"
}
# Checks one file; prints its row and writes its verdict to $work/NAME.verdict.
check_prop() { # check_prop NAME EXPECTED
  local name=$1 expected=$2 dir=$work/$1 verdict reason= got=-
  mkdir -p "$dir"
  if ! (cd "$dir" && "$mcgen" -o "$dir/checker" --cflags "$cflags" \
    "$beem/dve_props/$name.dve") >"$dir/mcgen.txt" 2>&1; then
    verdict=ERROR reason="mcgen: $(first_error "$dir/mcgen.txt")"
  else
    got=$(engines_verdict "$dir")
    case $got in
      "$expected") verdict=PASS ;;
      error:*) verdict=ERROR reason=${got#error: } got=- ;;
      *) verdict=FAIL reason="BEEM: $expected" ;;
    esac
  fi
  apply_known "$name"
  printf '%-26s %-9s %-9s %s %s\n' "$name" "$expected" "$got" "$verdict" "$reason"
  echo "$verdict" >"$work/$name.verdict"
  rm -rf "$dir"
}

export beem mcgen cflags timeout_s work known_file
export -f check_prop run_verdict engines_verdict lasso_shape apply_known known_reason json_num first_error

# Every dve_props file with its instance's row: NAME STATES COMPLETE ANSWER,
# ANSWER the published ltl answer for its property (yes, no, unknown, or -).
"$root/tools/beem-expected" "$beem" states complete property_answers >"$work/rows"
shopt -s nullglob
for f in "$beem"/dve_props/*.prop*.dve; do basename "$f" .dve; done >"$work/files"
shopt -u nullglob
awk '
  NR == FNR { st[$1] = $2; cp[$1] = $3; pa[$1] = $4; next }
  {
    inst = $1; sub(/\.prop[0-9]+$/, "", inst)
    p = $1; sub(/.*\.prop/, "P", p)
    a = "-"
    n = split(pa[inst], ans, ";")
    for (i = 1; i <= n; i++) {
      split(ans[i], q, ":")
      if (q[1] == p && q[2] == "ltl") a = q[3]
    }
    print $1, (inst in st) ? st[inst] : "-", (inst in cp) ? cp[inst] : "-", a
  }' "$work/rows" "$work/files" >"$work/all"
if [ -n "$only" ]; then
  awk -v re="^($only)\$" '$1 ~ re' "$work/all" >"$work/all.only"
  mv "$work/all.only" "$work/all"
fi
answered='$4 == "yes" || $4 == "no"'
awk "$answered" "$work/all" | awk -v lim="$limit" -v min="$min" '$3 == "yes" && $2 <= lim && $2 >= min' \
  >"$work/selected"
total=$(wc -l <"$work/selected")
over=$(awk "$answered" "$work/all" | awk -v lim="$limit" '$3 == "yes" && $2 > lim' | wc -l)
incomplete=$(awk "$answered" "$work/all" | awk '$3 != "yes"' | wc -l)
unanswered=$(awk "!($answered)" "$work/all" | wc -l)

status=0
echo "BEEM LTL conformance: $beem, mcgen $mcgen, checkers built with $cflags"
echo "== $total dve_props files on complete instances of $min to $limit states (--no-deadlock)"
printf '%-26s %-9s %-9s %s\n' file expected got verdict
awk '{ print $1, ($4 == "yes") ? "holds" : "violated" }' "$work/selected" |
  xargs -P "$jobs" -L 1 bash -c 'check_prop "$@"' _

conformance_finish ltl.sh "ltl tally" files "$over over the limit of $limit states" \
  "$incomplete without a complete BEEM count" "$unanswered without a published ltl answer"
