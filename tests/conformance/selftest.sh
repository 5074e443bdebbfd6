#!/usr/bin/env bash
# Tests of tests/conformance/run.sh itself, on a made-up suite: a verdict for
# each kind of row (PASS, FAIL, KNOWN, ERROR, a stale known entry), the
# instances it must leave out, the tally, the exit status, and the loud skip
# without a suite. The model's figures are counted by hand (below).
#
# Usage: tests/conformance/selftest.sh [BUILD_DIR]
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build_dir=${1:-$root/build}
run=$root/tests/conformance/run.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcgen-conf-selftest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failed=0 passed=0

check() { # check NAME CONDITION-STATUS
  if [ "$2" = 0 ]; then passed=$((passed + 1)); else echo "FAIL selftest: $1"; failed=$((failed + 1)); fi
}
has() { grep -qE -- "$2" "$1"; }

# x counts 0..3 in s; from x == 1 the process may also move to t. By hand:
# states (s,0) (s,1) (s,2) (s,3) (t,1): 5; transitions 0->1 1->2 1->t 2->3:
# 4; deadlocks (s,3) and (t,1): 2; BFS levels {(s,0)} {(s,1)} {(s,2),(t,1)}
# {(s,3)}: 4.
mkdir -p "$tmp/beem/dve"
cat >"$tmp/beem/dve/count.1.dve" <<'EOF'
byte x = 0;

process P {
state s, t;
init s;
trans
 s -> s { guard x < 3; effect x = x + 1; },
 s -> t { guard x == 1; };
}

system async;
EOF
for i in 2 3 4 5 6; do cp "$tmp/beem/dve/count.1.dve" "$tmp/beem/dve/count.$i.dve"; done
printf 'byte x = ;\n' >"$tmp/beem/dve/broken.1.dve"
h=name,model,instance,parameters,states,complete,stat_edges,stat_deadlocks,stat_states,stat_bfs_levels
cat >"$tmp/beem/beem_expected.csv" <<EOF
$h
count.1,count,1,"A=1, B=2",5,yes,4,2,5,4
count.2,count,2,"A=1, B=2",5,yes,5,2,5,4
count.3,count,3,,6,yes,,,,
count.4,count,4,,5,yes,,,,
count.5,count,5,,5,no,,,,
count.6,count,6,,5,yes,,,,
broken.1,broken,1,,5,yes,,,,
absent.1,absent,1,,5,yes,,,,
EOF
sed -i 's/^count.6,count,6,,5,/count.6,count,6,,50,/' "$tmp/beem/beem_expected.csv"
cat >"$tmp/known.txt" <<'EOF'
# comment
count.3: six states expected
  evidence on an indented line
count.4: passes, so this entry is stale
EOF

BEEM_DIR=$tmp/beem CONFORMANCE_KNOWN=$tmp/known.txt "$run" "$build_dir" --limit 10 \
  --compile-all >"$tmp/out.txt" 2>&1
rc=$?
o=$tmp/out.txt
check "exit status 1 (got $rc)" "$([ "$rc" = 1 ]; echo $?)"
has "$o" '^count\.1 +5 4 2 4 +5 4 2 4 +PASS'; check "count.1 passes with every figure" $?
has "$o" '^count\.2 .* FAIL transitions differ$'; check "count.2 fails on transitions" $?
has "$o" '^count\.3 .* KNOWN states differ \(known.txt: six states expected\)$'; check "count.3 is known" $?
has "$o" '^count\.4 .* FAIL passes, but is listed in known.txt'; check "count.4: stale entry" $?
has "$o" '^broken\.1 .* ERROR mcgen: .*broken\.1\.dve:1:'; check "broken.1: mcgen's error with its place" $?
has "$o" '^absent\.1 .* ERROR no file dve/absent\.1\.dve'; check "absent.1: no file" $?
! has "$o" '^count\.[56] '; check "count.5 (incomplete) and count.6 (over the limit) not run" $?
has "$o" '^COMPILE-FAIL broken\.1: '; check "the compile pass names broken.1" $?
has "$o" '^compile: 6 of 7 compile, 1 fail$'; check "the compile pass counts" $?
has "$o" '^tally: 1 passed, 2 failed, 2 errors, 1 known differences \(of 6 instances; not run: 1 over the limit of 10 states, 1 without a complete BEEM count\)$'
check "tally" $?

# Only the passing and the known instance: exit 0.
BEEM_DIR=$tmp/beem CONFORMANCE_KNOWN=$tmp/known.txt "$run" "$build_dir" --limit 10 \
  --only 'count\.[13]' >"$o" 2>&1
check "exit 0 with a pass and a known difference (got $?)" $?
has "$o" '^tally: 1 passed, 0 failed, 0 errors, 1 known differences'; check "tally of two" $?

# No suite: loud skip, exit 0, nothing passed.
BEEM_DIR=$tmp/none "$run" "$build_dir" >"$o" 2>&1
check "no suite: exit 0 (got $?)" $?
has "$o" '^SKIP: BEEM conformance NOT CHECKED'; check "no suite: says SKIP" $?
! has "$o" 'PASS|tally'; check "no suite: no verdicts" $?

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
