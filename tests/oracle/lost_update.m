-- Rumur twin of specs/lost_update.mc: the same state graph, state for state.
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection off --threads 1
-- RUMUR-SYMMETRY-ARGS: --symmetry-reduction exhaustive --deadlock-detection off --threads 1
-- RUMUR-VIOLATION-ARGS: --symmetry-reduction off --deadlock-detection off --threads 1
-- RUMUR-VIOLATION-SED: s/^  USE_CAS: true;/  USE_CAS: false;/
--
-- This file has the fix on (USE_CAS true, as mcgen -D USE_CAS=true): its
-- counts are the full graph. The violation run flips USE_CAS back to false,
-- as the spec is written, for the verdict and the trace length.
-- Thread, a scalarset in the spec, is one here too: with symmetry reduction off
-- Rumur treats it as a range (the full graph, RUMUR-ARGS); with exhaustive
-- symmetry reduction (RUMUR-SYMMETRY-ARGS) Rumur keeps exactly one state per
-- symmetry class, as mcgen does with --symmetry on, so those counts are the
-- oracle for mcgen's reduced search.
-- mcgen's `terminal all_finished` is checked as the invariant
-- "stuck_is_finished" with deadlock detection off.

const
  N: 3;
  ROUNDS: 2;
  USE_CAS: true;

type
  Thread: scalarset(N);
  Count: 0..N*ROUNDS;
  Pc: enum { ready, has_read, finished };

var
  x: Count;
  pc: array [Thread] of Pc;
  reg: array [Thread] of Count;
  done: array [Thread] of 0..ROUNDS;

startstate "init"
begin
  x := 0;
  for t: Thread do pc[t] := ready; reg[t] := 0; done[t] := 0; end;
end;

ruleset t: Thread do
  rule "read" pc[t] = ready ==>
  begin
    reg[t] := x;
    pc[t] := has_read;
  end;
end;

ruleset t: Thread do
  rule "write" pc[t] = has_read & (!USE_CAS | x = reg[t]) ==>
  begin
    x := reg[t] + 1;
    reg[t] := 0;
    done[t] := done[t] + 1;
    if done[t] = ROUNDS then pc[t] := finished; else pc[t] := ready; end;
  end;
end;

ruleset t: Thread do
  rule "retry" USE_CAS & pc[t] = has_read & x != reg[t] ==>
  begin
    reg[t] := 0;
    pc[t] := ready;
  end;
end;

function total_done(): 0..N*ROUNDS;
var s: 0..N*ROUNDS;
begin
  s := 0;
  for t: Thread do s := s + done[t]; end;
  return s;
end;

invariant "counts_increments" x = total_done();

invariant "stuck_is_finished"
  (exists t: Thread do pc[t] != finished endexists) ->
  (exists t: Thread do
     pc[t] = ready | (pc[t] = has_read & (!USE_CAS | x = reg[t])) |
     (USE_CAS & pc[t] = has_read & x != reg[t])
   endexists);

cover "contention"
  exists t: Thread do exists u: Thread do
    t != u & pc[t] = has_read & pc[u] = has_read
  endexists endexists;
