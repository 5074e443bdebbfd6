/* Promela twin of tests/e2e/specs/live_per_binding.mc and live_unfair.mc:
 * each binding of step is its own process, so SPIN's weak fairness (-f, per
 * process) is mcgen's `fair weak step` (per binding): step(true) is
 * continuously enabled until done, so a fair run takes it. Without -f the
 * self-loop of step(false) runs for ever (live_unfair.mc).
 *
 * PAN: finishes-fair finishes -a -f
 * PAN: finishes finishes -a
 * PAN: graph - -E
 */
bool done = false;

active proctype step_false() {
end:
  do
  :: d_step { !done -> skip }
  od
}

active proctype step_true() {
end:
  do
  :: d_step { !done -> done = true }
  od
}

ltl finishes { <> done }
