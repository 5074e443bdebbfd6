#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Re-record the Rumur output of Murphi twins: for each NAME.m given (default:
# all *.m here), build the verifier with the arguments of its `-- RUMUR-ARGS:`
# header and write its full stdout to NAME.rumur.txt. If the twin also has a
# `-- RUMUR-VIOLATION-ARGS:` header (and optionally `-- RUMUR-VIOLATION-SED:`,
# a sed expression applied to the source first), the violating variant's
# output goes to NAME.violation.rumur.txt. If it has a
# `-- RUMUR-SYMMETRY-ARGS:` header, that run's output goes to
# NAME.symmetry.rumur.txt. For each N of a `-- RUMUR-BOUNDS:` header, the
# run with `--bound N` goes to NAME.bound-N.rumur.txt. Each
# `-- RUMUR-VARIANT: SUFFIX | SED | ARGS` header records the run with ARGS of
# the source edited by the sed expression SED (another constant, say) in
# NAME.SUFFIX.rumur.txt.
# Usage: tests/oracle/record.sh [NAME.m...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

header() { # header FILE KEY: the value of the first `-- KEY:` line, or nothing
  sed -n "s/^-- $2:[[:space:]]*//p" "$1" | head -n 1
}

run_rumur() { # run_rumur SRC ARGS OUT
  local src=$1 args=$2 out=$3 rc=0
  # from the source's directory, so that messages name the file, not a path
  # shellcheck disable=SC2086  # ARGS is a word list by design
  (cd "$(dirname "$src")" && rumur $args --output "$tmp/v.c" "$(basename "$src")") >/dev/null
  cc -O2 "$tmp/v.c" -o "$tmp/v" -lpthread
  "$tmp/v" >"$out" || rc=$?
  echo "$(basename "$out"): exit $rc, $(grep -E '^[[:space:]]*[0-9]+ states, [0-9]+ rules fired' "$out" | tr -s ' \t' ' ')"
}

cd "$here"
if [ $# -eq 0 ]; then set -- *.m; fi
for m in "$@"; do
  m=$(basename "$m")
  name=${m%.m}
  run_rumur "$m" "$(header "$m" RUMUR-ARGS)" "$name.rumur.txt"
  sargs=$(header "$m" RUMUR-SYMMETRY-ARGS)
  if [ -n "$sargs" ]; then
    run_rumur "$m" "$sargs" "$name.symmetry.rumur.txt"
  fi
  for b in $(header "$m" RUMUR-BOUNDS); do
    run_rumur "$m" "$(header "$m" RUMUR-ARGS) --bound $b" "$name.bound-$b.rumur.txt"
  done
  while IFS='|' read -r suffix sedexpr vargs; do
    suffix=$(echo "$suffix" | tr -d ' ')
    sedexpr=$(echo "$sedexpr" | sed 's/^ *//; s/ *$//')
    [ -n "$suffix" ] || continue
    sed -e "$sedexpr" "$m" >"$tmp/$m"
    run_rumur "$tmp/$m" "$vargs" "$name.$suffix.rumur.txt"
  done < <(sed -n "s/^-- RUMUR-VARIANT:[[:space:]]*//p" "$m")
  vargs=$(header "$m" RUMUR-VIOLATION-ARGS)
  if [ -n "$vargs" ]; then
    sedexpr=$(header "$m" RUMUR-VIOLATION-SED)
    sed -e "${sedexpr:-p;d}" "$m" >"$tmp/$m"   # "p;d" = copy unchanged
    run_rumur "$tmp/$m" "$vargs" "$name.violation.rumur.txt"
  fi
done
