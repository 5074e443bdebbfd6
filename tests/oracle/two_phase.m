-- Rumur twin of specs/two_phase.mc: the same state graph, state for state.
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection off --threads 1
-- RUMUR-SYMMETRY-ARGS: --symmetry-reduction exhaustive --deadlock-detection off --threads 1
--
-- Encoding: a set<RM> is an array [RM] of boolean (canonical).
-- RM, a scalarset in the spec, is one here too: with symmetry reduction off
-- Rumur treats it as a range (the full graph, RUMUR-ARGS); with exhaustive
-- symmetry reduction (RUMUR-SYMMETRY-ARGS) Rumur keeps exactly one state per
-- symmetry class, as mcgen does with --symmetry on, so those counts are the
-- oracle for mcgen's reduced search.
-- mcgen's `terminal decided` has no Murphi counterpart that leaves the
-- graph alone, so deadlock detection is off here and the invariant
-- "stuck_is_decided" checks the same thing: a state in which no rule is
-- enabled must satisfy `decided`.

const
  N: 3;

type
  RM: scalarset(N);
  RMState: enum { working, prepared, committed, aborted };
  TMState: enum { tm_init, tm_committed, tm_aborted };

var
  rm: array [RM] of RMState;
  tm: TMState;
  tm_prepared: array [RM] of boolean;
  prepared_msgs: array [RM] of boolean;
  commit_sent: boolean;
  abort_sent: boolean;

startstate "init"
begin
  for r: RM do
    rm[r] := working; tm_prepared[r] := false; prepared_msgs[r] := false;
  end;
  tm := tm_init;
  commit_sent := false;
  abort_sent := false;
end;

ruleset r: RM do
  rule "rm_prepare" rm[r] = working ==>
  begin rm[r] := prepared; prepared_msgs[r] := true; end;
end;

ruleset r: RM do
  rule "rm_choose_to_abort" rm[r] = working ==>
  begin rm[r] := aborted; end;
end;

ruleset r: RM do
  rule "rm_rcv_commit" commit_sent & rm[r] != committed ==>
  begin rm[r] := committed; end;
end;

ruleset r: RM do
  rule "rm_rcv_abort" abort_sent & rm[r] != aborted ==>
  begin rm[r] := aborted; end;
end;

ruleset r: RM do
  rule "tm_rcv_prepared" tm = tm_init & prepared_msgs[r] & !tm_prepared[r] ==>
  begin tm_prepared[r] := true; end;
end;

rule "tm_commit" tm = tm_init & (forall r: RM do tm_prepared[r] endforall) ==>
begin tm := tm_committed; commit_sent := true; end;

rule "tm_abort" tm = tm_init ==>
begin tm := tm_aborted; abort_sent := true; end;

invariant "consistent"
  !((exists r: RM do rm[r] = committed endexists) &
    (exists r: RM do rm[r] = aborted endexists));

function count_tm_prepared(): 0..N;
var c: 0..N;
begin
  c := 0;
  for r: RM do if tm_prepared[r] then c := c + 1; end; end;
  return c;
end;

invariant "commit_needs_all" tm = tm_committed -> count_tm_prepared() = N;

function decided(): boolean;
begin
  return tm != tm_init &
    (forall r: RM do
       (tm = tm_committed -> rm[r] = committed) &
       (tm != tm_committed -> rm[r] = aborted)
     endforall);
end;

-- Some rule is enabled: the disjunction of every guard over every binding.
function enabled(): boolean;
begin
  return
    (exists r: RM do
       rm[r] = working |
       (commit_sent & rm[r] != committed) |
       (abort_sent & rm[r] != aborted) |
       (tm = tm_init & prepared_msgs[r] & !tm_prepared[r])
     endexists) |
    (tm = tm_init & (forall r: RM do tm_prepared[r] endforall)) |
    tm = tm_init;
end;

invariant "stuck_is_decided" enabled() | decided();

cover "all_commit" forall r: RM do rm[r] = committed endforall;
cover "all_abort_early" tm = tm_aborted & (forall r: RM do rm[r] = working endforall);
