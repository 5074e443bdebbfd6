#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every spec's (and DVE test model's) generated checker builds clean under -std=c11 -Wall -Wextra
# -Werror with both gcc and clang (mcgen's own flags plus -Werror).
# Usage: tests/e2e/compilers.sh BUILD_DIR
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
use_build_dir "${1:-}"
make_work compilers
for cc in gcc clang; do
  if ! command -v "$cc" >/dev/null; then
    skip "$cc" "not installed"
    continue
  fi
  for spec in "$root"/specs/*.mc "$root"/tests/e2e/specs/*.mc "$root"/tests/cli/specs/feat.mc \
    "$root"/tests/dve/*.dve "$root"/tests/malformed/seed.dve; do
    name=$(basename "$spec" | sed 's/\.\(mc\|dve\)$//')
    if (cd "$work" && "$mcgen" --cc "$cc" --cflags -Werror -o "$name" "$spec") >"$work/err" 2>&1; then
      pass "$cc $name"
    else
      echo "FAIL $cc $name:"
      failed=$((failed + 1))
      sed 's/^/    /' "$work/err" | head -20
    fi
  done
done
finish
