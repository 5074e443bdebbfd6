/* Promela twin of tests/liveness/spin/filter_fair.mc and filter_unfair.mc:
 * Peterson's filter lock for N = 3 processes. Each mcgen action binding is
 * one d_step of process p (a guard, then the body), so a state of this
 * model is a state of the spec (pc, level, victim; NONE stands for none)
 * plus each process's constant `me`, and SPIN's state graph is mcgen's.
 *
 * PAN: no_starvation-fair no_starvation -a -f
 * PAN: no_starvation no_starvation -a
 * PAN: someone_in someone_in -a
 * PAN: graph - -E
 *
 * SPIN's -f (weak fairness per process) means what mcgen's `fair weak` on
 * every action means here: a process has at most one enabled binding at a
 * time (idle: start; trying below the top level: climb; trying at the top:
 * enter; critical: leave) and while it does not move its state stays put,
 * so "the process is continuously enabled" is "that binding is
 * continuously enabled", and either is taken when the process moves.
 */
#define N 3
#define NONE N
#define IDLE 0
#define TRYING 1
#define CRITICAL 2

byte pc[N];
byte level[N];
byte victim[N] = NONE;

/* forall q: Proc :: q == p || level[q] < l */
#define OTHERS_BELOW(p, l) \
  ((0 == p || level[0] < l) && (1 == p || level[1] < l) && (2 == p || level[2] < l))

active [N] proctype P() {
  byte me = _pid;
  do
  :: d_step { pc[me] == IDLE -> pc[me] = TRYING; level[me] = 0; victim[0] = me }
  :: d_step { pc[me] == TRYING && level[me] < N - 1 &&
              (victim[level[me]] != me || OTHERS_BELOW(me, level[me])) ->
              level[me] = level[me] + 1; victim[level[me]] = me }
  :: d_step { pc[me] == TRYING && level[me] == N - 1 &&
              (victim[N - 1] != me || OTHERS_BELOW(me, N - 1)) ->
              pc[me] = CRITICAL }
  :: d_step { pc[me] == CRITICAL -> pc[me] = IDLE; level[me] = 0 }
  od
}

ltl no_starvation {
  [] ((pc[0] == TRYING -> <> (pc[0] == CRITICAL)) &&
      (pc[1] == TRYING -> <> (pc[1] == CRITICAL)) &&
      (pc[2] == TRYING -> <> (pc[2] == CRITICAL)))
}
ltl someone_in { [] <> (pc[0] == CRITICAL || pc[1] == CRITICAL || pc[2] == CRITICAL) }
