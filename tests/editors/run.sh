#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Editor support: the TextMate grammar of editors/vscode, tokenized by
# vscode-textmate and vscode-oniguruma (grammar.js), and Vim's syntax file
# and file type detection of editors/vim (vim.js), against every spec of
# specs/ and tests/. Their header comments say what is checked.
#
# Usage: tests/editors/run.sh [SPEC.mc...]
#
# Needs node, npm and vim (make test-deps installs them); without them it
# says so and fails. The npm packages are installed by `npm ci` from
# package-lock.json into tests/editors/node_modules when they are missing or
# older than the lockfile.
#
# Each runner prints one line per spec (`PASS ...` or `FAIL ...: why`) and
# a tally; the last line is the sum, `N passed, N failed`; the exit status
# is non-zero on a failure.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
here=$root/tests/editors
missing=
for tool in node npm vim; do
  command -v "$tool" >/dev/null || missing="$missing $tool"
done
if [ -n "$missing" ]; then
  echo "################################################################"
  fail editors "not installed:$missing (make test-deps installs them)"
  echo "################################################################"
  finish_now
fi
if [ ! -f "$here/node_modules/.package-lock.json" ] ||
  [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
  if ! (cd "$here" && npm ci --no-audit --no-fund --loglevel=error); then
    fail editors "npm ci in $here failed"
    finish_now
  fi
fi

make_work editors
log=$work/log
for runner in grammar.js vim.js; do
  node "$here/$runner" "$@" | tee "$log"
  last=$(tail -n 1 "$log")
  if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    passed=$((passed + BASH_REMATCH[1])) failed=$((failed + BASH_REMATCH[2]))
  else
    fail "$runner" "no tally (it stopped early)"
  fi
done
finish
