#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Records Rumur's counts for the Murphi suite: for every model of
# rumur-tests/ that Rumur is to accept (no `-- rumur_exit_code: 1`), every
# model of rumur-misc/ and the classic protocols of tests/murphi/protocols/, the installed rumur's verifier is built and run with
# symmetry reduction and deadlock detection off, one thread, plus the
# model's own rumur_flags that change what is explored (--bound); its exit
# status, states and rules fired go to tests/murphi/rumur-counts.txt, one
# line per model: `NAME EXIT STATES RULES` (misc/NAME for rumur-misc/,
# protocols/NAME for the protocols; `-`
# where Rumur printed no count: it rejected the model, or it did not finish
# within the time limit). tests/murphi/suite.py compares the checker's
# states and transitions, under --symmetry off --por off --no-deadlock, with
# every line of exit 0.
#
# Usage: tests/murphi/record.sh [--check] [--timeout SECONDS]
#   --check   write nothing: compare live Rumur with the recorded file and
#             exit 1 on any difference (make conformance, where rumur exists)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$here/rumur-counts.txt
check=false timeout=60
while [ $# -gt 0 ]; do
  case $1 in
    --check) check=true ;;
    --timeout) timeout=$2; shift ;;
    *) echo "usage: $0 [--check] [--timeout SECONDS]" >&2; exit 2 ;;
  esac
  shift
done
if ! suite=$("$root/tools/suite-dir" murphi); then
  echo "SKIP: no Murphi suite found (../shared/suites/murphi): nothing recorded"
  exit 0
fi
if ! command -v rumur >/dev/null; then
  echo "SKIP: rumur is not installed: the recorded counts stay as they are"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The --bound of a model's rumur_flags line, if any.
bound_of() {
  sed -n "s/^-- rumur_flags:.*'--bound', '\([0-9]*\)'.*/--bound \1/p" "$1" | head -n 1
}

record_one() { # record_one FILE NAME
  local m=$1 name=$2 d="$work/$2" rc counts
  mkdir -p "$d"
  # shellcheck disable=SC2046  # the bound is two words or none
  if ! (cd "$(dirname "$m")" && rumur --symmetry-reduction off --deadlock-detection off \
        --threads 1 $(bound_of "$m") --output "$d/v.c" "$(basename "$m")") >/dev/null 2>&1 ||
     ! cc -O2 "$d/v.c" -o "$d/v" -lpthread 2>/dev/null; then
    echo "$name - - -"
    return
  fi
  timeout "$timeout" "$d/v" >"$d/out" 2>&1
  rc=$?
  counts=$(grep -E '^[[:space:]]*[0-9]+ states, [0-9]+ rules fired' "$d/out" |
           sed -E 's/^[[:space:]]*([0-9]+) states, ([0-9]+) rules fired.*/\1 \2/')
  if [ "$rc" = 124 ] || [ -z "$counts" ]; then
    echo "$name - - -"
  else
    echo "$name $rc $counts"
  fi
}
export -f record_one bound_of
export work timeout

{
  for m in "$suite"/rumur-tests/*.m; do
    grep -q '^-- rumur_exit_code: 1' "$m" || echo "$m $(basename "$m")"
  done
  for m in "$suite"/rumur-misc/*.m; do echo "$m misc/$(basename "$m")"; done
  for m in "$here"/protocols/*.m; do echo "$m protocols/$(basename "$m")"; done
} | xargs -P 2 -n 2 bash -c 'record_one "$0" "$1"' | sort >"$work/counts"

{
  echo "# Rumur $(rumur --version 2>&1 | head -n 1): NAME EXIT STATES RULES (tests/murphi/record.sh)"
  cat "$work/counts"
} >"$work/new"
if $check; then
  if diff <(grep -v '^#' "$out") <(grep -v '^#' "$work/new"); then
    echo "live Rumur agrees with $out"
    exit 0
  fi
  echo "FAIL: live Rumur differs from $out (above)"
  exit 1
fi
cp "$work/new" "$out"
echo "recorded $(grep -vc '^#' "$out") models in $out"
