# shellcheck shell=bash
# Helpers shared by the BEEM conformance scripts (run.sh, ltl.sh); sourced
# after $root and $known_file are set.

# Sets $beem to the suite's directory (needing SUBDIR in it), or says loudly
# that WHAT is not checked and exits 0: skipped, not passed.
find_suite_or_skip() { # find_suite_or_skip SUBDIR WHAT
  if ! beem=$("$root/tools/beem-dir") || [ ! -d "$beem/$1" ]; then
    echo "################################################################"
    echo "SKIP: $2 NOT CHECKED: no BEEM suite found"
    echo "      (looked for ../shared/suites/beem/ beside the repo root or a"
    echo "      parent, with beem_expected.csv and $1/; or set BEEM_DIR)"
    echo "################################################################"
    exit 0
  fi
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
