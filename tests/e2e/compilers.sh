#!/usr/bin/env bash
# Every spec's (and DVE test model's) generated checker builds clean under -std=c11 -Wall -Wextra
# -Werror with both gcc and clang (mcgen's own flags plus -Werror).
# Usage: tests/e2e/compilers.sh BUILD_DIR
set -u
build=$(cd "${1:-build}" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skip=0
for cc in gcc clang; do
  if ! command -v "$cc" >/dev/null; then
    echo "SKIP $cc: not installed"
    skip=$((skip + 1))
    continue
  fi
  for spec in "$root"/specs/*.mc "$root"/tests/e2e/specs/*.mc "$root"/tests/cli/specs/feat.mc \
    "$root"/tests/dve/*.dve "$root"/tests/malformed/seed.dve; do
    name=$(basename "$spec" | sed 's/\.\(mc\|dve\)$//')
    if (cd "$tmp" && "$build/mcgen" --cc "$cc" --cflags -Werror -o "$name" "$spec") >"$tmp/err" 2>&1; then
      echo "PASS $cc $name"
      pass=$((pass + 1))
    else
      echo "FAIL $cc $name:"
      sed 's/^/    /' "$tmp/err" | head -20
      fail=$((fail + 1))
    fi
  done
done
if [ "$skip" -gt 0 ]; then
  echo "$pass passed, $fail failed, $skip skipped"
else
  echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
