#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The operators' languages: for each behaviour of tests/scenario/behaviours.txt
# (over the actions a, b, c), the words of up to 6 steps that the compiled
# automaton accepts (mcgen --scenario-words) must equal the words that the
# brute-force evaluator tests/scenario/brute.c computes from the operators'
# definitions. Then Cord's party example (tests/scenario/party.mc) against
# brute.c over its eight actions, up to 5 steps. Then behaviours whose one
# word is long: each printed within 10 s and 1 GiB of address space.
#
# Usage: tests/scenario/run.sh [BUILD_DIR]
set -uo pipefail
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
use_build_dir "${1:-}"
make_work scenario
cc -std=c11 -O2 -Wall -Wextra -Werror -o "$work/brute" "$root/tests/scenario/brute.c" || exit 1

# compare NAME SPEC SCENARIO N ACTIONS BEHAVIOUR
compare() {
  local name=$1 spec=$2 scn=$3 n=$4 acts=$5 beh=$6
  if ! "$mcgen" --scenario "$scn" --scenario-words "$n" "$spec" >"$work/got" 2>"$work/err"; then
    fail "$name" "mcgen failed"; sed 's/^/  /' "$work/err"; return
  fi
  "$work/brute" "$n" "$acts" "$beh" >"$work/want" || { fail "$name" "brute failed"; return; }
  if diff <(LC_ALL=C sort "$work/want") <(LC_ALL=C sort "$work/got") >"$work/diff"; then
    pass "$name ($(wc -l <"$work/want") words)"
  else
    fail "$name" "< brute, > mcgen"; head -20 "$work/diff" | sed 's/^/  /'
  fi
}

while IFS= read -r beh; do
  case $beh in '#'*|'') continue;; esac
  printf 'model ops;\naction a {}\naction b {}\naction c {}\nscenario S = %s;\n' "$beh" >"$work/ops.mc"
  compare "$beh" "$work/ops.mc" S 6 a,b,c "$beh"
done <"$root/tests/scenario/behaviours.txt"

party=$root/tests/scenario/party.mc
acts=Eat,Drink,Dance,Sing,Leave,KeepPartying,Fast,Sleep
party_beh='(Eat | Drink)*; (Dance | Sing)+; (KeepPartying; Dance)*; Leave'
noparty_beh='((Eat; Drink) | Fast); Sleep?'
compare "party: Party" "$party" Party 5 $acts "$party_beh"
compare "party: NoParty" "$party" NoParty 5 $acts "$noparty_beh"
compare "party: Party ||| NoParty" "$party" Interleaved 5 $acts "($party_beh) ||| ($noparty_beh)"
compare "party: Party |?| NoParty" "$party" SyncInterleaved 5 $acts "($party_beh) |?| ($noparty_beh)"
# Party || NoParty: no word in common (a party ends with Leave, a regular day
# never has one): the scenario is refused as empty.
if "$mcgen" --scenario Synchronized --scenario-words 5 "$party" >"$work/got" 2>"$work/err" ||
   ! grep -q "scenario 'Synchronized' accepts no sequence of actions" "$work/err"; then
  fail "party: Party || NoParty is not refused as empty"
else
  pass "party: Party || NoParty is empty"
fi
# bounded N BEHAVIOUR LETTER COUNT: over a, b, c, BEHAVIOUR's only word of
# up to N steps is COUNT times LETTER, printed within the bounds (ulimit -v,
# timeout).
bounded() {
  local n=$1 beh=$2 want
  want=$(yes "$3" | head -n "$4" | paste -sd ' ')
  printf 'model ops;\naction a {}\naction b {}\naction c {}\nscenario S = %s;\n' "$beh" >"$work/ops.mc"
  (ulimit -v 1048576 && timeout 10 "$mcgen" --scenario S --scenario-words "$n" "$work/ops.mc") \
    >"$work/got" 2>"$work/err"
  local status=$?
  if [ "$status" -eq 0 ] && [ "$(cat "$work/got")" = "$want" ]; then
    pass "$beh, $n steps: $4 $3"
  else
    fail "$beh, $n steps" "exit $status (124: over 10 s), $(wc -l <"$work/got") words"
    head -3 "$work/err" | sed 's/^/  /'
  fi
}
# The words are walked only where one ends in the steps left (all 3^30
# sequences were).
bounded 30 'a{30}' a 30
bounded 30 '(a | b)*; c{30}' c 30
# Issue 43's nested repetitions: one word of 63 * 64 = 4032 a's.
bounded 4032 '(a{63}){64}' a 4032

finish
