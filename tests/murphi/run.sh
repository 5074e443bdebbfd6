#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Rumur's test suite through the Murphi front end: tests/murphi/suite.py
# (its docstring says what is checked).
# Usage: tests/murphi/run.sh [BUILD_DIR] [FILE.m...]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build_dir=${1:-$root/build}
shift || true
exec python3 "$root/tests/murphi/suite.py" "$build_dir" "$@"
