/* Promela twin of tests/liveness/spin/phils_naive.mc: three dining
 * philosophers, each takes its left fork (fork[p]) and then its right one
 * (fork[(p+1) % N]); when all hold their left fork nothing can move. Each
 * mcgen action binding is one d_step of process p, so a state here is a
 * state of the spec (state, fork; NONE stands for none) plus each process's
 * constant `me`, and SPIN's state graph is mcgen's.
 *
 * PAN: someone_eats someone_eats -a
 * PAN: hungry_eats hungry_eats -a
 * PAN: graph - -E
 *
 * The deadlock is where the two semantics meet: SPIN extends a run that
 * stops with its last state repeated for ever (the "stutter extension" of
 * its never claims), as mcgen repeats a state without successors, so
 * "someone eats infinitely often" fails on the path into the deadlock (no
 * cycle of the graph avoids eating). -E: the claim-free run counts the
 * graph without reporting the deadlock as an invalid end state.
 */
#define N 3
#define NONE N
#define THINKING 0
#define HUNGRY 1
#define EATING 2
#define RIGHT(p) (((p) + 1) % N)

byte state[N];
byte fork[N] = NONE;

active [N] proctype Phil() {
  byte me = _pid;
  do
  :: d_step { state[me] == THINKING && fork[me] == NONE ->
              fork[me] = me; state[me] = HUNGRY }
  :: d_step { state[me] == HUNGRY && fork[RIGHT(me)] == NONE ->
              fork[RIGHT(me)] = me; state[me] = EATING }
  :: d_step { state[me] == EATING ->
              fork[me] = NONE; fork[RIGHT(me)] = NONE; state[me] = THINKING }
  od
}

ltl someone_eats { [] <> (state[0] == EATING || state[1] == EATING || state[2] == EATING) }
ltl hungry_eats {
  [] ((state[0] == HUNGRY -> <> (state[0] == EATING)) &&
      (state[1] == HUNGRY -> <> (state[1] == EATING)) &&
      (state[2] == HUNGRY -> <> (state[2] == EATING)))
}
