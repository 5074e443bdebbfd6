#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The structural net analyses as a user runs them: `mcgen --net-info NET.pnml`
# (docs/petri.md, "Structural analyses").
#
# Usage: tests/petri/run.sh [BUILD_DIR] [--no-mcc]
#
# 1. tests/petri/nets/*.pnml: each says in its header comment what it is and
#    the lines the output must hold (`expect: LINE`, each an exact line of
#    mcgen's stdout), derived by hand there; mcgen must exit 0.
# 2. The MCC nets (../shared/suites/mcc beside the repo root or a parent, or
#    MCC_DIR; said loudly when absent; not with --no-mcc), against the published answers of mcc_pt_expected.csv and the
#    families' structural verdicts:
#    - no place is called unbounded (every instance has a finite state space);
#    - when every place has a proven bound, the largest is at least the
#      published MAX_TOKEN_IN_PLACE (the bounds are upper bounds), and equal
#      to it when every bound is exact (coverability);
#    - in a CONSERVATIVE family (the all-ones vector is a P-semiflow, so every
#      place is in the support of a minimal one), when the P-semiflows are not
#      refused, every place has a P-semiflow bound.
# One line per check (`PASS name` / `FAIL name: why`); the last line is
# exactly `N passed, N failed`; the exit status is non-zero on a failure.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
use_build_dir "${1:-}"
mcc=1
[ "${2:-}" = --no-mcc ] && mcc=0
make_work petri

for net in "$root"/tests/petri/nets/*.pnml; do
  name=nets/$(basename "$net")
  "$mcgen" --net-info "$net" >"$work/out" 2>"$work/err"
  rc=$?
  if [ $rc -ne 0 ]; then
    fail "$name" "exit $rc: $(head -3 "$work/err")"
    continue
  fi
  missing=
  while IFS= read -r want; do
    grep -qxF -- "$want" "$work/out" || missing="$missing[$want] "
  done < <(sed -n 's/^ *expect: //p' "$net")
  if [ -n "$missing" ]; then
    fail "$name" "missing $missing"
  else
    pass "$name"
  fi
done

if [ $mcc = 1 ] && find_suite mcc "THE MCC NETS"; then
  while IFS=, read -r inst family _ _ _ max_place _ ; do
    [ "$inst" = instance ] && continue
    name=mcc/$inst
    "$mcgen" --net-info "$suite/models/$inst/model.pnml" >"$work/out" 2>"$work/err"
    rc=$?
    if [ $rc -ne 0 ]; then
      fail "$name" "exit $rc: $(head -3 "$work/err")"
      continue
    fi
    bounds=$(sed -n '/^bounds:$/,/^[^ ]/p' "$work/out" | grep '^  ')
    nplaces=$(printf '%s\n' "$bounds" | wc -l)
    proven=$(printf '%s\n' "$bounds" | grep -c ' <= [0-9]* (')
    exact=$(printf '%s\n' "$bounds" | grep -c ' (coverability, exact)$')
    semiflow=$(printf '%s\n' "$bounds" | grep -c ' (P-semiflow)$')
    max=$(printf '%s\n' "$bounds" | sed -n 's/.* <= \([0-9]*\) (.*/\1/p' | sort -n | tail -1)
    verdicts=$suite/families/$family.GenericPropertiesVerdict.xml
    why=
    if printf '%s\n' "$bounds" | grep -q ' unbounded$'; then
      why="a place called unbounded"
    elif [ "$proven" -eq "$nplaces" ] && [ "$max" -lt "$max_place" ]; then
      why="largest bound $max below MAX_TOKEN_IN_PLACE $max_place"
    elif [ "$exact" -eq "$nplaces" ] && [ "$max" -ne "$max_place" ]; then
      why="exact bounds give $max, MAX_TOKEN_IN_PLACE is $max_place"
    elif [ -f "$verdicts" ] && grep -q 'reference="CONSERVATIVE" value="true"' "$verdicts" &&
         ! grep -q '^P-semiflows: refused' "$work/out" && [ "$semiflow" -ne "$nplaces" ]; then
      why="conservative, but $((nplaces - semiflow)) places have no P-semiflow bound"
    fi
    if [ -n "$why" ]; then
      fail "$name" "$why"
    else
      pass "$name ($proven of $nplaces bounds proven, $exact exact)"
    fi
  done <"$suite/mcc_pt_expected.csv"
fi

finish
