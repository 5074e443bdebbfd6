-- Benchmark copy of tests/oracle/two_phase.m (Rumur twin of
-- specs/two_phase.mc) at N = 8, without the invariant "stuck_is_decided"
-- (and its functions): mcgen runs with --no-deadlock, so neither tool checks
-- the terminal states. Same state graph as bench/models/two_phase.mc with
-- mcgen --symmetry off.
-- BENCH-RUMUR-ARGS: --deadlock-detection off

const
  N: 8;

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


cover "all_commit" forall r: RM do rm[r] = committed endforall;
cover "all_abort_early" tm = tm_aborted & (forall r: RM do rm[r] = working endforall);
