# shellcheck shell=bash disable=SC2034,SC2154  # sourced: the scripts set and use these variables
# Helpers shared by the BEEM conformance scripts (run.sh, ltl.sh); sourced
# after tests/lib.sh, once $known_file is set.

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

# The reason known.txt gives for an instance (empty when it is not listed).
# Format: "NAME: reason", then indented continuation lines; # comments.
known_reason() {
  [ -f "$known_file" ] || return 0
  awk -v n="$1" '
    /^#/ { next }
    /^[^ \t]/ { cur = $0; sub(/:.*/, "", cur); if (cur == n) { r = $0; sub(/^[^:]*:[ \t]*/, "", r); print r; exit } }
  ' "$known_file"
}

# The value of a numeric key of a flat JSON report.
json_num() { grep -o "\"$1\": [0-9]*" "$2" | head -n 1 | sed 's/.*: //'; }

# The first line of a file that says what went wrong, for a reason column.
first_error() { grep -m 1 -E 'error|violation|incomplete|[Ee]rror' "$1" || head -n 1 "$1"; }
