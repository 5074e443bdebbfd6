/* Promela twin of tests/e2e/specs/live_leadsto.mc: x climbs to 2 and then
 * stays (a self-loop). No fairness: the one process always has an action.
 * P ~> Q is written [] (P -> <> Q).
 *
 * PAN: same same -a
 * PAN: later later -a
 * PAN: back back -a
 * PAN: graph - -E
 */
byte x = 0;

active proctype climber() {
  do
  :: d_step { x < 2 -> x = x + 1 }
  :: d_step { x == 2 -> x = 2 }
  od
}

ltl same { [] ((x == 1) -> <> (x >= 1)) }
ltl later { [] ((x == 0) -> <> (x == 2)) }
ltl back { [] ((x == 1) -> <> (x == 0)) }
