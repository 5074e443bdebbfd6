/* Promela twin of tests/e2e/specs/live_weak_partial.mc: tick and finish
 * are separate processes, so SPIN's weak fairness (-f, per process) is
 * mcgen's `fair weak finish` (tick needs none: it is the only other
 * action). finish is enabled only when phase == 0, so the run that ticks
 * for ever is weakly fair and `<> done` fails. (SPIN has no strong
 * fairness: live_strong_infinitely_often.mc is checked by hand only.)
 *
 * PAN: finishes-fair finishes -a -f
 * PAN: graph - -E
 */
byte phase = 0;
bool done = false;

active proctype tick() {
end:
  do
  :: d_step { !done -> phase = 1 - phase }
  od
}

active proctype finish() {
end:
  do
  :: d_step { !done && phase == 0 -> done = true }
  od
}

ltl finishes { <> done }
