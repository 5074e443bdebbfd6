#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The #line directives of generated C, read as the C preprocessor reads them
# (cheap: mcgen --emit-c only, no C compiler). For every bundled spec, every
# end-to-end test spec and every DVE test model:
#   - no repeated directive: none followed by another directive before any
#     line of C, and none naming the generated file where the line is
#     already attributed to it (a directive naming a spec line always either
#     changes the attribution or starts a new spec line);
#   - every line of C attributed to the spec is attributed to a spec line
#     with code on it: never to a blank or comment-only line, never past the
#     end of the spec (the lines a statement expands to, its loops and
#     checks, name its own line, not the lines below it);
#   - some line of C is attributed to the spec at all.
#
# Usage: tests/debug/lines.sh [BUILD_DIR] [SPEC...]
#   BUILD_DIR  where mcgen was built (default: build)
#   SPEC       specs to check (default: specs/*.mc tests/e2e/specs/*.mc
#              tests/dve/*.dve)
# The last line is `N passed, N failed`; the exit status is non-zero if
# anything failed.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
use_build_dir "${1:-}"
shift $(($# > 0 ? 1 : 0))
[ -x "$mcgen" ] || { echo "lines.sh: no mcgen in $build_dir (make all first)" >&2; exit 2; }
make_work lines

if [ $# -gt 0 ]; then
  specs=("$@")
else
  specs=("$root"/specs/*.mc "$root"/tests/e2e/specs/*.mc "$root"/tests/dve/*.dve)
fi

for spec in "${specs[@]}"; do
  name=$(basename "$spec")
  c=$work/${name%.*}.c
  if ! "$mcgen" --emit-c -o "${c%.c}" "$spec" >"$work/out" 2>&1; then
    fail "$name" "mcgen --emit-c failed:"; sed 's/^/  /' "$work/out"
    continue
  fi
  # Pass 1 (the spec): which lines have code. Pass 2 (the C): simulate
  # #line and report every problem on a line of its own.
  problems=$(awk -v spec_name="$name" '
    FNR == NR {
      code[FNR] = $0 !~ /^[ \t]*(\/\/.*)?$/
      nspec = FNR
      next
    }
    FNR == 1 { file = "\"" gen "\""; line = 1; pending = 0; spec_lines = 0 }
    /^#line / {
      if (pending)
        printf "C line %d: a #line followed by another #line\n", FNR
      n = $2 + 0
      f = NF >= 3 ? $3 : file
      if (f !~ spec_re && f == file && n == line)
        printf "C line %d: #line %d repeats the attribution in effect\n", FNR, n
      file = f; line = n; pending = 1
      next
    }
    {
      if (file ~ spec_re) {
        spec_lines++
        if (line > nspec)
          printf "C line %d is attributed to line %d, past the end of the spec\n", FNR, line
        else if (!code[line])
          printf "C line %d is attributed to line %d, which has no code\n", FNR, line
      }
      line++; pending = 0
    }
    END { if (!spec_lines) print "no line of C is attributed to the spec" }
  ' spec_re="/${name//./\\.}\"\$|^\"${name//./\\.}\"\$" gen="${c##*/}" "$spec" "$c")
  if [ -n "$problems" ]; then
    echo "FAIL $name:"
    echo "$problems" | head -5 | sed 's/^/  /'
    [ "$(echo "$problems" | wc -l)" -le 5 ] || echo "  ... ($(echo "$problems" | wc -l) in all)"
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
done

finish
