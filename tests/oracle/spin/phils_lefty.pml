/* Promela twin of tests/liveness/spin/phils_lefty.mc: three dining
 * philosophers, philosopher 0 left-handed (it takes fork[1] first, then
 * fork[0]; the others fork[p], then fork[(p+1) % N]): no deadlock. Each
 * mcgen action binding is one d_step of process p, so a state here is a
 * state of the spec (state, fork; NONE stands for none) plus each process's
 * constant `me`, and SPIN's state graph is mcgen's.
 *
 * PAN: someone_eats someone_eats -a
 * PAN: hungry_eats-fair hungry_eats -a -f
 * PAN: graph - -E
 *
 * Someone eats infinitely often without any fairness. A hungry philosopher
 * may still starve under weak fairness: its second fork is taken and put
 * back by a neighbour for ever, so its move is enabled only now and then.
 * SPIN's -f (weak fairness per process) means mcgen's `fair weak` on every
 * action here: a philosopher has one enabled binding at most (thinking:
 * take_first, hungry: take_second, eating: put_down) and its state stays
 * put while it does not move.
 */
#define N 3
#define NONE N
#define THINKING 0
#define HUNGRY 1
#define EATING 2
#define FIRST(p) ((p) == 0 -> 1 : (p))
#define SECOND(p) ((p) == 0 -> 0 : ((p) + 1) % N)

byte state[N];
byte fork[N] = NONE;

active [N] proctype Phil() {
  byte me = _pid;
  do
  :: d_step { state[me] == THINKING && fork[FIRST(me)] == NONE ->
              fork[FIRST(me)] = me; state[me] = HUNGRY }
  :: d_step { state[me] == HUNGRY && fork[SECOND(me)] == NONE ->
              fork[SECOND(me)] = me; state[me] = EATING }
  :: d_step { state[me] == EATING ->
              fork[FIRST(me)] = NONE; fork[SECOND(me)] = NONE; state[me] = THINKING }
  od
}

ltl someone_eats { [] <> (state[0] == EATING || state[1] == EATING || state[2] == EATING) }
ltl hungry_eats {
  [] ((state[0] == HUNGRY -> <> (state[0] == EATING)) &&
      (state[1] == HUNGRY -> <> (state[1] == EATING)) &&
      (state[2] == HUNGRY -> <> (state[2] == EATING)))
}
