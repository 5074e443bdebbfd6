#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Documentation examples: every example of docs/LANGUAGE.md is compiled and
# run, so that the language reference says what the compiler does.
#
# Usage: tests/docs/run.sh [BUILD_DIR] [DOC.md...]
#   BUILD_DIR  where mcgen was built (default: build)
#   DOC        documents to check (default: docs/LANGUAGE.md)
#
# Every fenced block of a document must say what it is:
#   ```mc        a complete spec. mcgen must build it and its checker must
#                exit with the code of its `// exit: N` comment (required).
#                Optional comments, anywhere in the block:
#                  // mcgen: ARGS     mcgen options (e.g. -D N=4)
#                  // run: ARGS       checker options (e.g. --no-deadlock)
#                  // states: N       the report's state count
#                  // output: TEXT    a substring of the checker's stdout
#                                     (repeatable)
#   ```mc-error  a spec mcgen must reject: exit 1, and one error line
#                `FILE:LINE:COL: error: ...TEXT...` for the text of each
#                `// error: TEXT` comment (at least one, in order).
#   ```text, ```sh, ```json, ```c   not run (output, command lines, schemas).
#                A ```c block whose first line is `// file: NAME` is saved as
#                NAME beside every later example (the C that an example's
#                `extern` names).
# A fence with no info string, or another one, is a failure: an example
# that is not run could be wrong.
#
# One line per example (`PASS DOC:LINE` or `FAIL DOC:LINE: why`); the last
# line is exactly `N passed, N failed`; the exit status is non-zero if
# anything failed.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
take_build_dir "${1:-}" '*.md' && shift
cases_given docs "$@" || docs=("$root/docs/LANGUAGE.md")

need_mcgen
make_work docs

# comments FILE KEY: the values of the `// KEY: VALUE` comments of an example.
comments() { sed -n "s|.*// $2: *||p" "$1" | sed 's/[[:space:]]*$//'; }

# run_example WHERE KIND FILE
run_example() {
  local where=$1 kind=$2 file=$3 dir rc
  dir=$(dirname "$file")
  local margs
  margs=$(comments "$file" mcgen | head -n 1)
  if [ "$kind" = mc-error ]; then
    local -a want
    mapfile -t want < <(comments "$file" error)
    if [ ${#want[@]} -eq 0 ]; then
      fail "$where" "an mc-error example needs a '// error: TEXT' comment"
      return
    fi
    # shellcheck disable=SC2086  # ARGS is a word list
    (cd "$dir" && timeout 60 "$mcgen" --emit-c -o ex $margs ex.mc) >"$dir/out" 2>&1
    rc=$?
    if [ "$rc" -ne 1 ]; then
      fail "$where" "mcgen exited $rc, expected 1 (rejected): $(head -c 300 "$dir/out" | tr '\n' ' ')"
      return
    fi
    # each wanted text in an error line, in order
    local -a errs
    mapfile -t errs < <(grep -E '^ex\.mc:[0-9]+:[0-9]+: error: ' "$dir/out")
    local w i pos=0 found
    for w in "${want[@]}"; do
      found=-1
      for ((i = pos; i < ${#errs[@]}; i++)); do
        if [[ ${errs[i]} == *"$w"* ]]; then
          found=$i
          break
        fi
      done
      if [ "$found" -lt 0 ]; then
        fail "$where" "no error (in order) containing \"$w\"; mcgen said: $(printf '%s ' "${errs[@]}" | head -c 300)"
        return
      fi
      pos=$((found + 1))
    done
    pass "$where"
    return
  fi

  local exp_exit rargs exp_states
  exp_exit=$(comments "$file" exit | head -n 1)
  rargs=$(comments "$file" run | head -n 1)
  exp_states=$(comments "$file" states | head -n 1)
  if [ -z "$exp_exit" ]; then
    fail "$where" "an mc example needs a '// exit: N' comment"
    return
  fi
  # shellcheck disable=SC2086
  if ! (cd "$dir" && timeout 120 "$mcgen" -o ex --cflags "-O0 -Werror" $margs ex.mc) \
       >"$dir/mcgen.log" 2>&1; then
    fail "$where" "mcgen failed: $(grep -m 3 'error' "$dir/mcgen.log" | tr '\n' ' ' | head -c 300)"
    return
  fi
  # shellcheck disable=SC2086
  (cd "$dir" && timeout 120 ./ex $rargs --report r.json) >"$dir/stdout" 2>"$dir/stderr"
  rc=$?
  if [ "$rc" != "$exp_exit" ]; then
    fail "$where" "the checker exited $rc, expected $exp_exit: $(head -c 300 "$dir/stdout" | tr '\n' ' ')"
    return
  fi
  if [ -n "$exp_states" ]; then
    local got
    got=$(jq -r .states "$dir/r.json" 2>/dev/null || echo "(no report)")
    if [ "$got" != "$exp_states" ]; then
      fail "$where" "states: expected $exp_states, got $got"
      return
    fi
  fi
  local want
  while IFS= read -r want; do
    [ -n "$want" ] || continue
    if ! grep -qF -- "$want" "$dir/stdout"; then
      fail "$where" "output does not contain \"$want\": $(head -c 300 "$dir/stdout" | tr '\n' ' ')"
      return
    fi
  done < <(comments "$file" output)
  pass "$where"
}

for doc in "${docs[@]}"; do
  rel=${doc#"$root"/}
  if [ ! -f "$doc" ]; then
    fail "$rel" "no such document"
    continue
  fi
  n=0 in_block=0 kind='' start=0 lineno=0 file=''
  while IFS= read -r l || [ -n "$l" ]; do
    lineno=$((lineno + 1))
    if [ "$in_block" -eq 0 ]; then
      if [[ $l =~ ^\`\`\`(.*)$ ]]; then
        kind=${BASH_REMATCH[1]}
        start=$lineno
        in_block=1
        case $kind in
          mc | mc-error)
            n=$((n + 1))
            mkdir -p "$work/$n"
            cp "$work"/files/* "$work/$n/" 2>/dev/null
            file=$work/$n/ex.mc
            : >"$file"
            ;;
          c)
            file=$work/block.c
            : >"$file"
            ;;
          text | sh | json) file= ;;
          *)
            fail "$rel:$start" "a fenced block must be \`\`\`mc, \`\`\`mc-error, or \`\`\`text, sh, json, c (not '$kind')"
            file=
            ;;
        esac
      fi
      continue
    fi
    if [ "$l" = '```' ]; then
      in_block=0
      if [ "$kind" = c ]; then
        cname=$(sed -n '1s|^// file: *\([A-Za-z0-9_.-]*\) *$|\1|p' "$file")
        [ -n "$cname" ] && mkdir -p "$work/files" && cp "$file" "$work/files/$cname"
      elif [ -n "$file" ]; then
        run_example "$rel:$start" "$kind" "$file"
      fi
      continue
    fi
    [ -n "$file" ] && printf '%s\n' "$l" >>"$file"
  done <"$doc"
  [ "$in_block" -eq 0 ] || fail "$rel:$start" "unterminated fenced block"
  [ "$n" -gt 0 ] || fail "$rel" "no example found"
done

finish
