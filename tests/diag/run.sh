#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Diagnostics runner: every tests/diag/*.mc (or .dve, or Murphi's .m, whose
# directives start with `--`) is a spec with errors that states in its header
# comment what mcgen must say about it (docs/STYLE.md rules 4, 11).
#
# Usage: tests/diag/run.sh [BUILD_DIR] [CASE.mc...]
#   BUILD_DIR  where mcgen was built (default: build)
#   CASE       cases to run (default: tests/diag/*.mc)
#
# Directives, one per line in the header comment:
#   // EXPECT-ERROR: 12:17: unknown name 'pcc'   one per error, in order
#   // EXPECT-ERROR: -D N=x: ...                 an error with no position
#                                                (`mcgen: error: ...`)
#   // EXPECT-NOTE: 3:10: to match this '{'      a note that must appear
#   // EXPECT-HINT: did you mean 'pc'?           a hint that must appear
#   // EXPECT-NOTE: c/f.h:3:10: text             a note at another file (the C
#                                                of `extern`, path as printed),
#                                                with its line and caret
#   // EXPECT-WARNING: 3:10: text                a warning that must appear
#   // EXPECT-EXIT: 2                            exit status (default 1; 2: the
#                                                C input itself is bad)
#   // MCGEN-ARGS: -D N=3                        mcgen options
#   // LIMITS: 10 s, 1024 MiB                    each run must end within 10 s
#                                                (default 60), and BUILD_DIR/
#                                                mcgen within 1024 MiB of
#                                                address space (ulimit -v; not
#                                                the sanitized build, whose
#                                                shadow memory alone reserves
#                                                terabytes of it)
#   // KNOWN-BUG: why                            the case states the wanted
#                                                behaviour, which mcgen does
#                                                not have yet: a failure is
#                                                reported as XFAIL (counted as
#                                                passed), a pass as a FAIL
#                                                (remove the directive)
#
# Each case is run twice: with BUILD_DIR/mcgen and with BUILD_DIR/mcgen-asan
# (the compiler built with -fsanitize=address,undefined; built here when
# missing or older than the sources). Each run must:
#   - exit with status 1 (any other status or a signal is a failure: a crash
#     or a sanitizer report is never a way to reject a spec);
#   - print `CASE.mc:LINE:COL: error: ...MSG...` for each EXPECT-ERROR, in
#     order, each followed by its source line (`  N | ...`) and a caret line
#     (`    | ^`);
#   - print exactly as many `error:` lines as there are EXPECT-ERRORs (all
#     errors in one run, no follow-on cascades);
#   - print each EXPECT-NOTE and EXPECT-HINT;
#   - leave no sanitizer report on stderr.
# The last line is exactly `N passed, N failed`; the exit status is non-zero
# if anything failed.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
diag_dir=$root/tests/diag
take_build_dir "${1:-}" '*.mc' '*.dve' '*.m' && shift

cases_given cases "$@" || cases=("$diag_dir"/*.mc "$diag_dir"/*.dve "$diag_dir"/*.m)

# shellcheck source=tests/diag/asan_build.sh
. "$root/tests/diag/asan_build.sh"
mcgen_asan=$(build_mcgen_asan "$root" "$build_dir") || exit 1

make_work diag

# check_output NAME OUTFILE STATUS CASEFILE: prints the reasons the output
# does not meet the expectations (nothing if it does).
check_output() {
  local name=$1 out=$2 status=$3 file=$4 want_status
  want_status=$(sed -n 's#^\(//\|--\) EXPECT-EXIT: ##p' "$file" | head -1)
  want_status=${want_status:-1}
  if [ "$status" -ne "$want_status" ]; then
    if grep -q '^mcgen: out of memory' "$out"; then
      echo "out of memory (exit status $status)"
    elif [ "$status" -gt 128 ]; then
      echo "killed by signal $((status - 128))"
    elif [ "$status" -eq 124 ]; then
      echo "timed out"
    else
      echo "exit status $status, expected $want_status"
    fi
  fi
  if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:|UndefinedBehaviorSanitizer' "$out"; then
    echo "sanitizer report: $(grep -m1 -E 'Sanitizer|runtime error' "$out")"
  fi

  local -a lines
  mapfile -t lines <"$out"
  local n=${#lines[@]} pos=0 expected=0
  local exp loc msg i found
  while IFS= read -r exp; do
    expected=$((expected + 1))
    if [[ $exp =~ ^([0-9]+):([0-9]+):\ (.*)$ ]]; then
      loc="${BASH_REMATCH[1]}:${BASH_REMATCH[2]}"
      msg=${BASH_REMATCH[3]}
      found=-1
      for ((i = pos; i < n; i++)); do
        if [[ ${lines[i]} == "$name:$loc: error: "*"$msg"* ]]; then
          found=$i
          break
        fi
      done
      if [ "$found" -lt 0 ]; then
        echo "missing (in order): $name:$loc: error: $msg"
        continue
      fi
      if ! [[ ${lines[found + 1]:-} =~ ^\ *[0-9]+\ \|\  ]] ||
         ! [[ ${lines[found + 2]:-} =~ ^\ *\|\ [[:space:]]*\^~*$ ]]; then
        echo "no source line and caret after: ${lines[found]}"
      fi
      pos=$((found + 1))
    else
      msg=$exp
      found=-1
      for ((i = pos; i < n; i++)); do
        if [[ ${lines[i]} == "mcgen: error: "*"$msg"* ]]; then
          found=$i
          break
        fi
      done
      if [ "$found" -lt 0 ]; then
        echo "missing (in order): mcgen: error: $msg"
        continue
      fi
      pos=$((found + 1))
    fi
  done < <(sed -n 's#^\(//\|--\) EXPECT-ERROR: ##p' "$file")

  local actual
  actual=$(grep -c ': error: ' "$out")
  if [ "$actual" -ne "$expected" ]; then
    echo "$actual errors reported, $expected expected:"
    grep ': error: ' "$out" | sed 's/^/    /'
  fi

  while IFS= read -r exp; do
    if [[ $exp =~ ^([^\ :]+):([0-9]+):([0-9]+):\ (.*)$ ]]; then
      # a note in another file: its line and caret must follow
      loc="${BASH_REMATCH[1]}:${BASH_REMATCH[2]}:${BASH_REMATCH[3]}"
      msg=${BASH_REMATCH[4]}
      found=-1
      for ((i = 0; i < n; i++)); do
        if [[ ${lines[i]} == "$loc: note: "*"$msg"* ]]; then
          found=$i
          break
        fi
      done
      if [ "$found" -lt 0 ]; then
        echo "missing note: $loc: note: $msg"
      elif ! [[ ${lines[found + 2]:-} =~ ^\ *\|\ [[:space:]]*\^~*$ ]]; then
        echo "no source line and caret after: ${lines[found]}"
      fi
      continue
    fi
    [[ $exp =~ ^([0-9]+):([0-9]+):\ (.*)$ ]] || { echo "bad EXPECT-NOTE: $exp"; continue; }
    loc="${BASH_REMATCH[1]}:${BASH_REMATCH[2]}"
    msg=${BASH_REMATCH[3]}
    grep -qF -- "$name:$loc: note: $msg" "$out" || echo "missing note: $name:$loc: note: $msg"
  done < <(sed -n 's#^\(//\|--\) EXPECT-NOTE: ##p' "$file")

  while IFS= read -r exp; do
    grep -qF -- "$name:${exp%%: *}: warning: ${exp#*: }" "$out" ||
      echo "missing warning: $name:${exp%%: *}: warning: ${exp#*: }"
  done < <(sed -n 's#^\(//\|--\) EXPECT-WARNING: ##p' "$file")

  while IFS= read -r exp; do
    grep -q -- "^  hint: .*$(printf '%s' "$exp" | sed 's/[][\.*^$/]/\\&/g')" "$out" ||
      echo "missing hint: $exp"
  done < <(sed -n 's#^\(//\|--\) EXPECT-HINT: ##p' "$file")
}

for file in "${cases[@]}"; do
  name=$(basename "$file")
  if ! grep -qE '^(//|--) EXPECT-ERROR: ' "$file"; then
    echo "FAIL $name: no EXPECT-ERROR directive"
    failed=$((failed + 1))
    continue
  fi
  args=$(sed -n 's#^\(//\|--\) MCGEN-ARGS: ##p' "$file" | head -1)
  known_bug=$(sed -n 's#^\(//\|--\) KNOWN-BUG: ##p' "$file" | head -1)
  limits=$(sed -n 's#^\(//\|--\) LIMITS: ##p' "$file" | head -1)
  seconds=60 kib=unlimited
  if [[ $limits =~ ^([0-9]+)\ s,\ ([0-9]+)\ MiB$ ]]; then
    seconds=${BASH_REMATCH[1]} kib=$((BASH_REMATCH[2] * 1024))
  elif [ -n "$limits" ]; then
    echo "FAIL $name: LIMITS is not 'N s, N MiB': $limits"
    failed=$((failed + 1))
    continue
  fi
  problems=""
  for exe in "$mcgen" "$mcgen_asan"; do
    tag=${exe##*/}
    space=$kib
    [ "$exe" = "$mcgen_asan" ] && space=unlimited
    # mcgen is run from the case's directory so that messages name the file
    # as the directives do; the (never expected) output goes to $work.
    # shellcheck disable=SC2086
    (cd "$(dirname "$file")" && { [ "$space" = unlimited ] || ulimit -v "$space"; } &&
      ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
        timeout "$seconds" "$exe" --emit-c -o "$work/out" $args "$name") >"$work/stdout" 2>"$work/stderr"
    status=$?
    cat "$work/stdout" "$work/stderr" >"$work/all"
    p=$(check_output "$name" "$work/all" "$status" "$file")
    [ -n "$p" ] && problems+="$(printf '%s\n' "$p" | sed "s/^/  [$tag] /")"$'\n'
  done
  if [ -z "$problems" ]; then
    if [ -n "$known_bug" ]; then
      echo "FAIL $name: passes, but is marked KNOWN-BUG: remove the directive"
      failed=$((failed + 1))
    else
      echo "PASS $name"
      passed=$((passed + 1))
    fi
  elif [ -n "$known_bug" ] && ! grep -q 'exit status\|signal\|timed out\|sanitizer' <<<"$problems"; then
    echo "XFAIL $name: known bug: $known_bug"
    passed=$((passed + 1))
  else
    echo "FAIL $name"
    printf '%s' "$problems"
    failed=$((failed + 1))
  fi
done

finish
