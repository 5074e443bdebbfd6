#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Tests of tests/conformance/run.sh itself, on a made-up suite: a verdict for
# each kind of row (PASS, FAIL, KNOWN, ERROR, a stale known entry), the
# instances it must leave out, the tally, the exit status, and the loud skip
# without a suite; the same for ltl.sh; and an option without its value, a
# usage error for run.sh, ltl.sh and mcc.sh. The model's figures are counted
# by hand (below).
#
# Usage: tests/conformance/selftest.sh [BUILD_DIR]
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
use_build_dir "${1:-}"
run=$root/tests/conformance/run.sh
make_work conf-selftest

check() { # check NAME CONDITION-STATUS: a pass is counted, not printed
  if [ "$2" = 0 ]; then passed=$((passed + 1)); else fail "selftest: $1"; fi
}
has() { grep -qE -- "$2" "$1"; }

# x counts 0..3 in s; from x == 1 the process may also move to t. By hand:
# states (s,0) (s,1) (s,2) (s,3) (t,1): 5; transitions 0->1 1->2 1->t 2->3:
# 4; deadlocks (s,3) and (t,1): 2; BFS levels {(s,0)} {(s,1)} {(s,2),(t,1)}
# {(s,3)}: 4.
mkdir -p "$work/beem/dve"
cat >"$work/beem/dve/count.1.dve" <<'EOF'
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
for i in 2 3 4 5 6; do cp "$work/beem/dve/count.1.dve" "$work/beem/dve/count.$i.dve"; done
printf 'byte x = ;\n' >"$work/beem/dve/broken.1.dve"
h=name,model,instance,parameters,states,complete,stat_edges,stat_deadlocks,stat_states,stat_bfs_levels
cat >"$work/beem/beem_expected.csv" <<EOF
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
sed -i 's/^count.6,count,6,,5,/count.6,count,6,,50,/' "$work/beem/beem_expected.csv"
cat >"$work/known.txt" <<'EOF'
# comment
count.3: six states expected
  evidence on an indented line
count.4: passes, so this entry is stale
EOF

BEEM_DIR=$work/beem CONFORMANCE_KNOWN=$work/known.txt "$run" "$build_dir" --limit 10 \
  --compile-all >"$work/out.txt" 2>&1
rc=$?
o=$work/out.txt
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
BEEM_DIR=$work/beem CONFORMANCE_KNOWN=$work/known.txt "$run" "$build_dir" --limit 10 \
  --only 'count\.[13]' >"$o" 2>&1
check "exit 0 with a pass and a known difference (got $?)" $?
has "$o" '^tally: 1 passed, 0 failed, 0 errors, 1 known differences'; check "tally of two" $?

# LTL mode (ltl.sh) on made-up property files over the same count model.
# prop1 accepts q1 once x == 3 holds for ever: the system stops at (s,3), the
# property process stutters there into q1 and loops: violated. prop2 accepts
# q0 while x != 1 (its guard read in the step's source state): (s,0,q0) ->
# (s,1,q0), where the property cannot move: the product stops, a finite
# behaviour, no accepting cycle: holds (and only with --no-deadlock does the
# run get that far). prop3 and prop5 are prop1 with a wrong published
# answer (prop5 listed as known), prop4's answer is unknown.
mkdir -p "$work/ltl/dve_props"
body=$(sed '/^system/d' "$work/beem/dve/count.1.dve")
prop() { # prop FILE ACCEPT TRANSITIONS
  printf '%s\nprocess LTL_property {\nstate q0, q1;\ninit q0;\naccept %s;\ntrans\n%s;\n}\n\nsystem async property LTL_property;\n' \
    "$body" "$2" "$3" >"$work/ltl/dve_props/$1.dve"
}
prop count.1.prop1 q1 ' q0 -> q0 {}, q0 -> q1 { guard x == 3; }, q1 -> q1 { guard x == 3; }'
prop count.1.prop2 q0 ' q0 -> q0 { guard x != 1; }'
for f in count.1.prop3 count.1.prop4 count.1.prop5 count.5.prop1 count.6.prop1; do
  cp "$work/ltl/dve_props/count.1.prop1.dve" "$work/ltl/dve_props/$f.dve"
done
printf 'byte x = ;\n' >"$work/ltl/dve_props/broken.1.prop1.dve"
{
  echo name,states,complete,property_answers
  echo 'count.1,5,yes,P1:ltl:no:4;P2:ltl:yes:2;P3:ltl:yes:4;P4:ltl:unknown:4;P5:ltl:yes:4'
  echo count.5,5,no,P1:ltl:no:4
  echo count.6,50,yes,P1:ltl:no:4
  echo 'broken.1,5,yes,P1:reach:yes:1;P1:ltl:yes:1'
} >"$work/ltl/beem_expected.csv"
printf 'count.1.prop5: published as holding\n' >"$work/known-ltl.txt"
ltl=$root/tests/conformance/ltl.sh
BEEM_DIR=$work/ltl CONFORMANCE_KNOWN=$work/known-ltl.txt "$ltl" "$build_dir" --limit 10 >"$o" 2>&1
rc=$?
check "ltl: exit status 1 (got $rc)" "$([ "$rc" = 1 ]; echo $?)"
has "$o" '^count\.1\.prop1 +violated +violated +PASS'; check "ltl: prop1 violated" $?
has "$o" '^count\.1\.prop2 +holds +holds +PASS'; check "ltl: prop2 holds through a product deadlock" $?
has "$o" '^count\.1\.prop3 +holds +violated +FAIL BEEM: holds$'; check "ltl: prop3 fails" $?
has "$o" '^count\.1\.prop5 .* KNOWN .*known.txt: published as holding'; check "ltl: prop5 known" $?
has "$o" '^broken\.1\.prop1 +holds +- +ERROR mcgen: .*broken\.1\.prop1\.dve:1:'; check "ltl: broken.1.prop1 error" $?
! has "$o" '^count\.(1\.prop4|5|6)'; check "ltl: unknown, incomplete, oversized not run" $?
has "$o" '^ltl tally: 2 passed, 1 failed, 1 errors, 1 known differences \(of 5 files; not run: 1 over the limit of 10 states, 1 without a complete BEEM count, 1 without a published ltl answer\)$'
check "ltl: tally" $?
BEEM_DIR=$work/ltl "$ltl" "$build_dir" --limit 10 --only 'count\.1\.prop[12]' >"$o" 2>&1
check "ltl: exit 0 when all pass (got $?)" $?
BEEM_DIR=$work/none "$ltl" "$build_dir" >"$o" 2>&1
check "ltl: no suite: exit 0 (got $?)" $?
has "$o" '^SKIP: BEEM LTL conformance NOT CHECKED'; check "ltl: no suite: says SKIP" $?

# No suite: loud skip, exit 0, nothing passed.
BEEM_DIR=$work/none "$run" "$build_dir" >"$o" 2>&1
check "no suite: exit 0 (got $?)" $?
has "$o" '^SKIP: BEEM conformance NOT CHECKED'; check "no suite: says SKIP" $?
! has "$o" 'PASS|tally'; check "no suite: no verdicts" $?

# An option without its value: a usage error, exit 2 (the loop reading the
# options ran for ever, not shifting a word that was not there).
for script in "$run" "$ltl" "$root/tests/conformance/mcc.sh"; do
  timeout 10 "$script" "$build_dir" --limit >"$o" 2>&1
  rc=$?
  check "$(basename "$script") --limit without a value: exit 2 (got $rc)" "$([ "$rc" = 2 ]; echo $?)"
done

finish
