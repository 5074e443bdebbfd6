# SPDX-License-Identifier: MIT
# shellcheck shell=bash disable=SC2034,SC2154  # sourced: the scripts set and use these variables
# Helpers shared by the conformance scripts (run.sh, ltl.sh, mcc.sh; the
# known differences for BEEM's two); sourced after tests/lib.sh.

known_file=${CONFORMANCE_KNOWN:-$root/tests/conformance/known.txt}

# read_options SCRIPT ACCEPTED ARG...: the options ARG of SCRIPT into their
# variables, whose defaults it has set: --limit N, --min N, --only REGEX,
# --cflags FLAGS, --timeout S and --jobs N (limit, min, only, cflags,
# timeout_s, jobs), --compile-all and --compile-only (compile_all,
# compile_only), those of the list ACCEPTED. Any other, or one without its
# value, is a usage error (exit 2).
read_options() {
  local script=$1 accepted=" $2 "
  shift 2
  while [ $# -gt 0 ]; do
    [[ $accepted == *" $1 "* ]] || { echo "$script: unknown option $1 (see the header of $0)" >&2; exit 2; }
    case $1 in
      --compile-all) compile_all=1; shift; continue ;;
      --compile-only) compile_all=1 compile_only=1; shift; continue ;;
    esac
    [ $# -ge 2 ] || { echo "$script: $1 needs a value (see the header of $0)" >&2; exit 2; }
    case $1 in
      --limit) limit=$2 ;;
      --min) min=$2 ;;
      --only) only=$2 ;;
      --cflags) cflags=$2 ;;
      --timeout) timeout_s=$2 ;;
      --jobs) jobs=$2 ;;
    esac
    shift 2
  done
}

# numbers_or_exit SCRIPT VALUE...: a usage error (exit 2) unless every VALUE
# is a number.
numbers_or_exit() {
  local script=$1 n
  shift
  for n; do
    case $n in '' | *[!0-9]*) echo "$script: '$n' is not a number" >&2; exit 2 ;; esac
  done
}

# conformance_setup SCRIPT SUBDIR WHAT: beem, the suite's directory, which
# must hold SUBDIR (without it, find_suite's loud skip saying that WHAT is
# not checked, and exit 0: skipped, not passed); a usage error (exit 2)
# without mcgen; work.
conformance_setup() {
  find_suite beem "$3" "$2" || exit 0
  beem=$suite
  [ -x "$mcgen" ] || { echo "$1: no mcgen at $mcgen (run make first)" >&2; exit 2; }
  make_work "conformance-${1%.sh}"
}

# conformance_finish SCRIPT LABEL UNIT NOT_RUN...: the verdicts the checks
# wrote ($work/NAME.verdict) counted against the $total checked; the tally
# line, `LABEL: N passed, N failed, N errors, N known differences (of
# $total UNIT; not run: NOT_RUN, ...)`; exit with $status, or 1 on a FAIL,
# an ERROR or a check without a verdict.
conformance_finish() {
  local script=$1 label=$2 unit=$3 not_run verdict
  printf -v not_run '%s, ' "${@:4}"
  local -A n=([PASS]=0 [FAIL]=0 [ERROR]=0 [KNOWN]=0)
  while read -r verdict; do
    n[$verdict]=$((n[$verdict] + 1))
  done < <(cat "$work"/*.verdict 2>/dev/null)
  local done_n=$((n[PASS] + n[FAIL] + n[ERROR] + n[KNOWN]))
  [ "$done_n" = "$total" ] || { echo "$script: $((total - done_n)) $unit gave no verdict"; status=1; }
  echo "$label: ${n[PASS]} passed, ${n[FAIL]} failed, ${n[ERROR]} errors, ${n[KNOWN]} known" \
    "differences (of $total $unit; not run: ${not_run%, })"
  [ $((n[FAIL] + n[ERROR])) = 0 ] || status=1
  exit "$status"
}

# The reason known.txt gives for an instance (empty when it is not listed).
# Format: "NAME: reason", then indented continuation lines; # comments.
known_reason() {
  [ -f "$known_file" ] || return 0
  awk -v n="$1" '
    /^#/ { next }
    /^[^ \t]/ { cur = $0; sub(/:.*/, "", cur); if (cur == n) { r = $0; sub(/^[^:]*:[ \t]*/, "", r); print r; exit } }
  ' "$known_file"
}

# apply_known NAME: the caller's verdict and reason for NAME as known.txt
# has them: a failure listed there is KNOWN, its reason added; a listed
# instance that passes is a FAIL, so that the list stays true.
apply_known() {
  local known
  known=$(known_reason "$1")
  [ -n "$known" ] || return 0
  if [ "$verdict" = PASS ]; then
    verdict=FAIL reason="passes, but is listed in known.txt: remove the entry"
  else
    reason="$reason (known.txt: $known)" verdict=KNOWN
  fi
}

# The value of a numeric key of a flat JSON report.
json_num() { grep -o "\"$1\": [0-9]*" "$2" | head -n 1 | sed 's/.*: //'; }

# The first line of a file that says what went wrong, for a reason column.
first_error() { grep -m 1 -E 'error|violation|incomplete|[Ee]rror' "$1" || head -n 1 "$1"; }
