# SPDX-License-Identifier: MIT
# shellcheck shell=bash disable=SC2034  # sourced: the runners read cflags
# What tests/e2e/run_specs.sh and run_ltl.sh share, sourced after
# tests/lib.sh: the checkers' C flags and time limit (MCGEN_CFLAGS,
# MCGEN_TEST_CFLAGS, MCGEN_TIMEOUT: see run_specs.sh) and the helpers that
# build, run and read them.

cflags="${MCGEN_CFLAGS:--O2 -std=c11 -Wall -Wextra -Werror} ${MCGEN_TEST_CFLAGS:-}"
time_limit=${MCGEN_TIMEOUT:-300}

check_eq() { # check_eq NAME WHAT EXPECTED GOT
  if [ "$3" = "$4" ]; then pass "$1" "$2 = $4"; else fail "$1" "$2 expected $3 got $4"; fi
}

# build_checker DIR SPEC [MCGEN_ARGS]: compile into DIR; prints the binary.
build_checker() {
  local dir=$1 spec=$2 margs=${3:-} model
  model=$(basename "$spec" | sed 's/\.\(mc\|dve\)$//')
  mkdir -p "$dir"
  # shellcheck disable=SC2086  # MCGEN_ARGS is a word list by design
  (cd "$dir" && "$mcgen" -o "$model" --cflags "$cflags" $margs "$spec") >"$dir/mcgen.log" 2>&1 || return 1
  if [ -x "$dir/$model" ]; then echo "$dir/$model";
  elif [ -x "$dir/${model}_checker" ]; then echo "$dir/${model}_checker";
  else return 1; fi
}

# run_checker BIN DIR ARGS: runs it under --por off (the expected counts are
# the full graph's; ARGS may still say --por on), report in DIR/r.json,
# stdout in DIR/out.txt; prints the exit code.
run_checker() {
  local bin=$1 dir=$2 args=$3 rc=0
  rm -f "$dir/r.json"
  # shellcheck disable=SC2086  # ARGS is a word list by design
  (cd "$dir" && timeout "$time_limit" "$bin" --por off $args --report "$dir/r.json" \
      >"$dir/out.txt" 2>"$dir/err.txt") || rc=$?
  echo "$rc"
}

# log_errors LOG: the error lines of a compiler log on one line (else its tail).
log_errors() {
  { grep -E 'error' "$1" || tail -n 5 "$1"; } | head -n 4 | tr -s ' \n' ' '
}

jq_field() { jq -r "$2" "$1" 2>/dev/null || echo "(no report)"; }
