/* Promela twin of tests/liveness/spin/two_phase.mc: two-phase commit with
 * three resource managers (specs/two_phase.mc). One process runs every
 * action binding as one d_step (a guard, then the body), the sets as
 * arrays of bool, so a state here is a state of the spec and SPIN's state
 * graph is mcgen's. Every run ends in a decided state with no successor;
 * SPIN repeats it for ever (the stutter extension), as mcgen does.
 *
 * PAN: all_decide all_decide -a
 * PAN: consistent consistent -a
 * PAN: ends_committed ends_committed -a
 * PAN: graph - -E
 */
#define N 3
#define WORKING 0
#define PREPARED 1
#define COMMITTED 2
#define ABORTED 3
#define TM_INIT 0
#define TM_COMMITTED 1
#define TM_ABORTED 2

byte rm[N];
byte tm;
bool tm_prepared[N];
bool prepared_msgs[N];
bool commit_sent;
bool abort_sent;

#define RM_ACTIONS(r) \
  :: d_step { rm[r] == WORKING -> rm[r] = PREPARED; prepared_msgs[r] = true } \
  :: d_step { rm[r] == WORKING -> rm[r] = ABORTED } \
  :: d_step { commit_sent && rm[r] != COMMITTED -> rm[r] = COMMITTED } \
  :: d_step { abort_sent && rm[r] != ABORTED -> rm[r] = ABORTED } \
  :: d_step { tm == TM_INIT && prepared_msgs[r] && !tm_prepared[r] -> tm_prepared[r] = true }

active proctype M() {
  do
  RM_ACTIONS(0)
  RM_ACTIONS(1)
  RM_ACTIONS(2)
  :: d_step { tm == TM_INIT && tm_prepared[0] && tm_prepared[1] && tm_prepared[2] ->
              tm = TM_COMMITTED; commit_sent = true }
  :: d_step { tm == TM_INIT -> tm = TM_ABORTED; abort_sent = true }
  od
}

#define DONE(r) (rm[r] == COMMITTED || rm[r] == ABORTED)
#define SOME(s) (rm[0] == s || rm[1] == s || rm[2] == s)

ltl all_decide { <> (DONE(0) && DONE(1) && DONE(2)) }
ltl consistent { [] !(SOME(COMMITTED) && SOME(ABORTED)) }
ltl ends_committed { <> [] (tm == TM_COMMITTED) }
