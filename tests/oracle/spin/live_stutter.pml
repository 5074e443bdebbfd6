/* Promela twin of tests/e2e/specs/live_stutter.mc: x counts 0..3 and
 * stops. The stop is a valid end state (end label); SPIN, like mcgen,
 * extends a finished run by repeating its last state for ever.
 *
 * PAN: reach2 reach2 -a
 * PAN: stays3 stays3 -a
 * PAN: never3 never3 -a
 * PAN: graph - -E
 */
byte x = 0;

active proctype counter() {
end:
  do
  :: d_step { x < 3 -> x = x + 1 }
  od
}

ltl reach2 { <> (x == 2) }
ltl stays3 { <> [] (x == 3) }
ltl never3 { [] <> (x != 3) }
