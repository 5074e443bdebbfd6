#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Model + scenario: every tests/scenario/products/*.mc and *.case that has
# EXPECT-STATES is compiled (mcgen MCGEN-ARGS SPEC) and checked (RUN-ARGS),
# and the summary must show the hand-derived counts its header explains.
# A TWIN (the spec with the scenario written in as an explicit variable)
# must have the same numbers of states and transitions.
#
# Directives (header comment):
#   SPEC: specs/x.mc          the spec to compile (default: the file itself),
#                             relative to the repository
#   MCGEN-ARGS: ...           mcgen options (--scenario NAME, -D ...)
#   RUN-ARGS: ...             checker options
#   EXPECT-EXIT: N            the checker's exit code
#   EXPECT-OUTPUT: text       a line the summary must contain
#   EXPECT-STATES/TRANSITIONS/ACCEPTING/DEADLOCKS: N   summary counts
#   TWIN: file.mc             (beside the case) same states and transitions
#   LIMITS: 10 s, 1024 MiB    mcgen must write the C (--emit-c, run first on
#                             its own) within 10 s and 1024 MiB of address
#                             space (ulimit -v); the build that follows, with
#                             the C compiler, is not bounded
#
# Usage: tests/scenario/products.sh [BUILD_DIR]
set -uo pipefail
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
use_build_dir "${1:-}"
make_work products

# bounded FILE SPEC OUT: mcgen --emit-c on SPEC within FILE's LIMITS (true
# without them); what went wrong in OUT
bounded() {
  local file=$1 spec=$2 out=$3 limits
  limits=$(first_directive "$file" LIMITS)
  [ -n "$limits" ] || return 0
  if ! [[ $limits =~ ^([0-9]+)\ s,\ ([0-9]+)\ MiB$ ]]; then
    echo "LIMITS is not 'N s, N MiB': $limits" >"$out"
    return 1
  fi
  # shellcheck disable=SC2046
  (ulimit -v $((BASH_REMATCH[2] * 1024)) &&
    timeout "${BASH_REMATCH[1]}" "$mcgen" $(first_directive "$file" MCGEN-ARGS) --emit-c \
      -o "$work/bounded" "$spec") >"$out" 2>&1 && return 0
  echo "mcgen --emit-c exited $? within LIMITS: $limits (124: timed out)" >>"$out"
  return 1
}

# run FILE OUT: compiles and runs FILE's spec; the summary in OUT, the exit code echoed
run() {
  local file=$1 out=$2 spec
  spec=$(first_directive "$file" SPEC)
  spec=${spec:+$root/$spec}
  spec=${spec:-$file}
  if ! bounded "$file" "$spec" "$out"; then
    echo over-limits
    return
  fi
  # shellcheck disable=SC2046
  if ! "$mcgen" $(first_directive "$file" MCGEN-ARGS) -o "$work/checker" "$spec" >"$out" 2>&1; then
    echo compile-error
    return
  fi
  # --por off: the hand counts are the full graph's (the default may reduce).
  # shellcheck disable=SC2046
  "$work/checker" --por off $(first_directive "$file" RUN-ARGS) >"$out" 2>&1
  echo $?
}

count() { sed -n "s/^$2: *\([0-9]*\).*/\1/p" "$1" | head -1; }

for file in "$root"/tests/scenario/products/*.mc "$root"/tests/scenario/products/*.case; do
  [ -n "$(first_directive "$file" EXPECT-STATES)" ] || continue
  name=$(basename "$file")
  ok=true
  code=$(run "$file" "$work/out")
  want=$(first_directive "$file" EXPECT-EXIT)
  if [ "$code" != "${want:-0}" ]; then
    echo "FAIL $name: exit $code, expected ${want:-0}"; sed 's/^/  /' "$work/out" | head -20; ok=false
  fi
  for what in states transitions accepting deadlocks; do
    want=$(first_directive "$file" "EXPECT-${what^^}")
    [ -n "$want" ] || continue
    got=$(count "$work/out" "$what")
    if [ "$got" != "$want" ]; then
      echo "FAIL $name: $what $got, expected $want"; ok=false
    fi
  done
  text=$(first_directive "$file" EXPECT-OUTPUT)
  if [ -n "$text" ] && ! grep -qF -- "$text" "$work/out"; then
    echo "FAIL $name: no line with '$text'"; ok=false
  fi
  twin=$(first_directive "$file" TWIN)
  if [ -n "$twin" ]; then
    tcode=$(run "$(dirname "$file")/$twin" "$work/twin")
    twant=$(first_directive "$(dirname "$file")/$twin" EXPECT-EXIT)
    if [ "$tcode" != "${twant:-0}" ]; then
      echo "FAIL $name: twin $twin exit $tcode"; sed 's/^/  /' "$work/twin" | head -20; ok=false
    fi
    for what in states transitions; do
      a=$(count "$work/out" "$what") b=$(count "$work/twin" "$what")
      if [ "$a" != "$b" ]; then
        echo "FAIL $name: $what $a, twin $twin $b"; ok=false
      fi
    done
  fi
  if $ok; then
    pass "$name ($(count "$work/out" states) states, $(count "$work/out" transitions) transitions)"
  else
    failed=$((failed + 1))
  fi
done
finish
