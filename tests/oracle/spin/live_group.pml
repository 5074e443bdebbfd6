/* Promela twin of tests/e2e/specs/live_group.mc: both bindings of step in
 * one process, so SPIN's weak fairness (-f, per process) is mcgen's one
 * assumption for the group: the process moves for ever by step(false),
 * which is fair, and `<> done` fails.
 *
 * PAN: finishes-fair finishes -a -f
 * PAN: graph - -E
 */
bool done = false;

active proctype step() {
end:
  do
  :: d_step { !done -> skip }
  :: d_step { !done -> done = true }
  od
}

ltl finishes { <> done }
