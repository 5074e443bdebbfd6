/* Promela twin of tests/e2e/specs/live_forms.mc: two processes, each idle
 * -> busy (go) -> idle (done). SPIN's weak fairness (-f) is per process,
 * mcgen's `fair weak go; fair weak done;` per binding; here they mean the
 * same: a process always has exactly one enabled action (go when idle, done
 * when busy), and it stays enabled until the process moves, so either
 * fairness says that each process moves infinitely often.
 * The instances of p = Proc_1 are checked (p = Proc_2 is symmetric), and
 * settles for both.
 *
 * PAN: typed typed -a -f
 * PAN: starts starts -a -f
 * PAN: starts-unfair starts -a
 * PAN: rests rests -a -f
 * PAN: ends ends -a -f
 * PAN: settles settles -a -f
 * PAN: settles2 settles2 -a -f
 * PAN: graph - -E
 */
#define IDLE 0
#define BUSY 1

byte pc[2];

active [2] proctype proc() {
  byte me = _pid;
end:
  do
  :: d_step { pc[me] == IDLE -> pc[me] = BUSY }
  :: d_step { pc[me] == BUSY -> pc[me] = IDLE }
  od
}

ltl typed { [] (pc[0] == IDLE || pc[0] == BUSY) }
ltl starts { <> (pc[0] == BUSY) }
ltl rests { [] <> (pc[0] == IDLE) }
ltl ends { [] ((pc[0] == BUSY) -> <> (pc[0] == IDLE)) }
ltl settles { <> [] (pc[0] == IDLE) }
ltl settles2 { <> [] (pc[1] == IDLE) }
