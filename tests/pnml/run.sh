#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Petri nets (.pnml): hand-counted nets and the inputs mcgen must refuse.
#
# Usage: tests/pnml/run.sh [BUILD_DIR]
#
# nets/NAME.pnml: each says in a comment how its answers were counted by
# hand; nets/NAME.mcc holds those answers as the checker's --mcc lines, and
# the checker must print exactly them. Some answers are also checked in the
# report (--report): the deadlock's firing sequence, the dead transitions,
# the stable places, the tags, the place bounds; the warnings of parallel
# arcs and of a second net; the names --net-info prints.
# oracle/NAME.m: Rumur twins of three nets (the same reachability graph, one
# rule per net transition); oracle/NAME.rumur.txt their recorded output
# (Rumur v2022.08.20: `rumur ARGS NAME.m -o v.c && cc -O2 v.c -o v -lpthread
# && ./v`, ARGS from the twin's `-- RUMUR-ARGS:` line). Rumur's states and
# rules fired must be the checker's states and edges.
# bad/NAME.pnml: each must be refused with a message naming file:line:col
# and the exit status below (2: not well-formed XML; 1: a net mcgen refuses),
# never a crash, within 60 s and 1 GB of address space (an XML bomb must not
# eat the machine); an entity's failed expansion is one error, a UTF-16
# file's line is quoted in UTF-8, a refused external entity's file is not
# shown. The last line is `N passed, N failed`.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
use_build_dir "${1:-}"
here=$root/tests/pnml
make_work pnml

# A check passes silently; a failure is `FAIL: why`.
ok() { passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

for net in "$here"/nets/*.pnml; do
  name=$(basename "$net" .pnml)
  exe=$work/$name
  if ! "$mcgen" -o "$exe" "$net" 2>"$work/$name.warn"; then
    bad "$name: mcgen failed: $(head -3 "$work/$name.warn")"
    continue
  fi
  "$exe" --mcc --progress 0 >"$work/$name.out" 2>&1
  if diff -u "$here/nets/$name.mcc" "$work/$name.out" >"$work/diff"; then ok; else
    bad "$name: the --mcc answers differ from the hand count"
    cat "$work/diff"
  fi
  "$exe" --progress 0 --report "$work/$name.json" >"$work/$name.txt" 2>&1
  echo $? >"$work/$name.rc"
done

# jq_is NAME FILTER EXPECTED: the report of net NAME.
jq_is() {
  local got
  got=$(jq -c "$2" "$work/$1.json" 2>&1)
  if [ "$got" = "$3" ]; then ok; else bad "$1: $2 is $got, expected $3"; fi
}
jq_is inhibitor_bound .net.deadlock_sequence '["inc","inc"]'
jq_is inhibitor_bound .net.deadlock '{"value":true,"tag":"exact"}'
jq_is inhibitor_dead .net.dead_transitions '["never"]'
jq_is inhibitor_dead .net.stable_places '["q","p"]'
jq_is inhibitor_countdown .net.deadlock_sequence '["dec","dec","t"]'
jq_is not_live .net.live '{"value":false,"tag":"exact"}'
jq_is cycle .net.live '{"value":true,"tag":"exact"}'
jq_is overflow .net.complete 'false'
jq_is overflow .net.states '{"value":65536,"tag":"partial"}'
jq_is overflow .net.deadlock '{"value":null,"tag":"partial"}'
jq_is overflow .net.one_safe '{"value":false,"tag":"exact"}'
jq_is overflow .net.bounded '{"value":false,"tag":"exact"}'
jq_is overflow .net.unbounded_witness '"place p grows without bound: fire gen repeatedly"'
jq_is overflow .net.place_bounds '[-1]'
jq_is cycle .net.bounded '{"value":true,"tag":"exact"}'
jq_is inhibitor_bound .net.place_bounds '[2]'
jq_is cycle .net.place_bounds '[1,1]'
jq_is text_content .net.place_bounds '[5,12,13,14,52]'
jq_is text_content .net.stable_places '["c","d","i"]'
jq_is number_forms .net.place_bounds '[3,4,0,2147483647,7]'
# A net that outgrows its counters ends incomplete (exit 3), the others ok.
for n in overflow:3 cycle:0 inhibitor_bound:0; do
  rc=$(cat "$work/${n%:*}.rc" 2>/dev/null)
  if [ "$rc" = "${n#*:}" ]; then ok; else bad "${n%:*}: exit $rc, expected ${n#*:}"; fi
done
# The deadlock's firing sequence shows the places that changed at each step.
if grep -A12 '^deadlock:' "$work/inhibitor_countdown.txt" | grep -q '2\. dec' &&
   grep -A12 '^deadlock:' "$work/inhibitor_countdown.txt" | grep -A1 '3\. t' | grep -q 'p = 0'; then
  ok
else
  bad "inhibitor_countdown: no firing sequence with the changed places"
  cat "$work/inhibitor_countdown.txt"
fi
if grep -q "overflow.pnml:[0-9]*: warning: the net is unbounded: place p grows without bound" \
     "$work/overflow.warn"; then ok; else
  bad "overflow: no warning that the net is unbounded: $(cat "$work/overflow.warn")"
fi
if grep -q "parallel.pnml:15: warning: parallel arcs between 'p' and 't'" "$work/parallel.warn" &&
   grep -q "only the first ('parallel') is checked" "$work/parallel.warn"; then ok; else
  bad "parallel: warnings missing: $(cat "$work/parallel.warn")"
fi

# A bound makes every answer no witness settles partial: --max-states 2 on
# the countdown net sees (2,1,0) and (1,1,0) only (exit 3, incomplete), and
# expands only the first: t is never seen to fire, quasi-liveness unknown.
"$work/inhibitor_countdown" --max-states 2 --progress 0 --report "$work/cd2.json" >/dev/null 2>&1
rc=$?
[ "$rc" = 3 ] && ok || bad "inhibitor_countdown --max-states 2: exit $rc, expected 3"
jq_is cd2 '[.net.complete, .net.states.tag, .net.deadlock.value, .net.quasi_live.value, .net.one_safe.value, .net.live.tag]' \
  '[false,"partial",null,null,false,"partial"]'

# --por on is refused for a net (exit 2, saying why): the answers are those
# of the whole reachability graph, which the reduction does not keep.
"$work/inhibitor_countdown" --por on --liveness off --progress 0 >"$work/por.out" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q "^error: --por on: a place/transition net's answers" "$work/por.out"; then
  ok
else
  bad "inhibitor_countdown --por on: exit $rc, expected 2 and why: $(head -2 "$work/por.out")"
fi

# mcgen --net-info: the ring's one P-semiflow (place names: p1 is "first").
if "$mcgen" --net-info "$here/nets/cycle.pnml" >"$work/info" 2>&1 &&
   grep -q 'first + p2 = 1' "$work/info" && grep -q 'first <= 1' "$work/info"; then ok; else
  bad "--net-info cycle.pnml: $(head -5 "$work/info")"
fi
# A name is its <text>'s whole content too: place o of text_content.
if "$mcgen" --net-info "$here/nets/text_content.pnml" >"$work/info" 2>&1 &&
   grep -qF '21*e + 2*out & <in> = 105' "$work/info"; then ok; else
  bad "--net-info text_content.pnml: $(grep 105 "$work/info")"
fi
"$mcgen" --net-info "$here/bad/repeated_id.pnml" >/dev/null 2>&1
rc=$?
if [ "$rc" = 1 ]; then ok; else bad "--net-info of a refused net: exit $rc, expected 1"; fi

# Rumur's counts (oracle/): NAME.rumur.txt against the net it twins.
mcc_dir=$("$root/tools/suite-dir" mcc) || mcc_dir=
for rec in "$here"/oracle/*.rumur.txt; do
  name=$(basename "$rec" .rumur.txt)
  net=$here/nets/$name.pnml
  if [ "$name" = philosophers5 ]; then
    if [ -z "$mcc_dir" ]; then
      echo "NOTE: no MCC suite (../shared/suites/mcc): Philosophers-PT-000005 NOT compared with Rumur"
      continue
    fi
    net=$mcc_dir/models/Philosophers-PT-000005/model.pnml
  fi
  want=$(grep -oE '[0-9]+ states, [0-9]+ rules fired' "$rec" | awk '{print $1, $3}')
  if ! "$mcgen" -o "$work/o_$name" "$net" 2>/dev/null ||
     ! "$work/o_$name" --quiet --progress 0 --report "$work/o_$name.json" >/dev/null; then
    bad "oracle $name: mcgen or its checker failed"
    continue
  fi
  got=$(jq -r '"\(.net.states.value) \(.net.edges.value)"' "$work/o_$name.json")
  if [ "$got" = "$want" ]; then ok; else bad "oracle $name: states/edges $got, Rumur $want"; fi
done

# Refusals: NAME EXIT LINE MESSAGE (a fixed string of the message).
while read -r name rc line msg; do
  [ -z "$name" ] && continue
  out=$work/bad_$name.err
  (ulimit -v 1000000; timeout 60 "$mcgen" -o "$work/bad_$name" "$here/bad/$name.pnml") >"$out" 2>&1
  got=$?
  if [ "$got" != "$rc" ]; then
    bad "bad/$name: exit $got, expected $rc: $(head -2 "$out")"
  elif ! head -1 "$out" | grep -qE "^$here/bad/$name.pnml:$line:[0-9]+: error: " ||
       ! head -1 "$out" | grep -qF -- "$msg" || ! sed -n 3p "$out" | grep -q '\^'; then
    bad "bad/$name: expected line $line, '$msg' and a caret, got: $(head -3 "$out")"
  else
    ok
  fi
done <<'EOF'
read_arc            1 6 arc 'a' is a read arc: only normal and inhibitor arcs are supported
negative_marking    1 4 the initial marking of 'p' is not a non-negative integer: '-3'
fraction_marking    1 4 the initial marking of 'p' is not a non-negative integer: '2.5'
huge_marking        1 4 is too large
zero_weight         1 6 the weight of arc 'a' is 0
coloured            1 3 is a coloured net
repeated_id         1 5 id 'p' is used twice (first at line 4)
missing_node        1 6 goes to 'nowhere', which is no place or transition
place_to_place      1 6 goes from place 'p' to place 'q'
inhibitor_backwards 1 6 an inhibitor arc goes from a place to a transition
not_pnml            1 2 this is not PNML
no_net              1 1 no <net> in the file
truncated           2 6 not well-formed PNML
not_utf8            2 4 not well-formed PNML
deep                2 4 not well-formed PNML
empty               2 1 the file is empty: no PNML document in it
bom_only            2 1 the file is empty: no PNML document in it
entity_external     1 6 &x; brings in the external entity "file:///etc/passwd", which is not read
entity_parameter    1 3 %x; brings in the external entity "file:///etc/passwd", which is not read
entity_external_indirect 1 6 &a; brings in the external entity "file:///etc/passwd", which is not read
external_dtd        2 6 Entity 'five' not defined
entity_markup       1 6 <b> inside the <text> of the <initialMarking> of place 'p'
xml_bomb            2 6 an entity refers to itself or expands to too much text
entity_loop         2 6 an entity refers to itself or expands to too much text
negative_weight     1 7 the weight of 'a' is not a positive integer: '-1'
minus_zero_weight   1 7 the weight of arc 'a' is 0
exponent_marking    1 5 the initial marking of 'p' is not a non-negative integer: '5e0'
hex_weight          1 7 the weight of 'a' is not a positive integer: '0x5'
huge_weight         1 7 the weight of 'a' is too large: 9223372036854775808
foreign_namespace   1 6 <x:place> belongs to namespace 'urn:example:other', not to PNML's
xinclude            1 6 <xi:include> is an XInclude: mcgen reads nothing but the file
node_in_name        1 6 <place> 'hidden' inside <name>
repeated_arc_id     1 7 id 'p' is used twice (first at line 5)
arc_to_arc          1 8 arc 'b' goes to 'a', which is no place or transition
utf16_marking       1 5 the initial marking of 'p' is not a non-negative integer: '-3'
utf16_broken        2 5 the file is UTF-16 up to here, and no longer from here on
utf16_declared      2 1 Document labelled UTF-16 but has UTF-8 content
arc_type_no_value   1 7 the <type> of arc 'a' has no value
arc_type_twice      1 8 a second <type> in arc 'a' (the first is at line 7)
nbsp_marking        1 5 the initial marking of 'p' is not a non-negative integer: '\302\2405'
text_spaced         1 5 the initial marking of 'p' is not a non-negative integer: '1 2'
text_markup         1 5 <b> inside the <text> of the <initialMarking> of place 'p'
marking_twice       1 6 a second <initialMarking> in place 'p' (the first is at line 5)
text_twice          1 7 a second <text> in the <inscription> of arc 'a' (the first is at line 7)
marking_outside_text 1 5 text outside the <text> of the <initialMarking> of place 'p': '5'
marking_no_text     1 5 <initialMarking> of place 'p' has no <text>
empty_text          1 5 the initial marking of 'p' is not a non-negative integer: ''
EOF
# A UTF-16 file's message quotes its line in UTF-8, the caret under the
# element (column 19).
u16=$work/bad_utf16_marking.err
if sed -n 2p "$u16" | grep -qF '<place id="p"><initialMarking><text>-3</text>' &&
   head -1 "$u16" | grep -q 'utf16_marking.pnml:5:19: '; then ok; else
  bad "bad/utf16_marking: the line not quoted in UTF-8: $(head -3 "$u16" | tr -d '\000')"
fi
# An entity's expansion fails once, at its reference: one error each.
for name in xml_bomb entity_loop; do
  n=$(grep -c ': error: ' "$work/bad_$name.err")
  if [ "$n" = 1 ]; then ok; else bad "bad/$name: $n errors, expected 1"; fi
done
# The external entity is refused, not read: nothing of the file it names
# comes out, and --net-info (which prints place names) refuses the net too.
"$mcgen" --net-info "$here/bad/entity_external.pnml" >"$work/ext.out" 2>&1
rc=$?
if [ "$rc" = 1 ] && ! grep -q 'root:' "$work/ext.out" "$work/bad_entity_external.err" \
     "$work/bad_external_dtd.err"; then ok; else
  bad "entity_external: --net-info exit $rc (expected 1), or the file's content shown:" \
    "$(head -3 "$work/ext.out")"
fi

finish
