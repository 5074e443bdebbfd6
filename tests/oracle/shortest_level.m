-- Rumur twin of tests/e2e/specs/shortest_level.mc: the same state graph.
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection off --threads 1
-- RUMUR-VIOLATION-ARGS: --symmetry-reduction off --deadlock-detection stuck --threads 1
--
-- This file has BUG false (mcgen -D BUG=false): its counts, with deadlock
-- detection off (mcgen --no-deadlock), are the full graph. The violation
-- run keeps BUG false, so that the invariant holds, and turns deadlock
-- detection on: Rumur reports the deadlock of k = 4999 at level 1, the
-- shortest violation of the spec as written (its invariant needs level 2).

const
  BUG: false;

var
  phase: 0..2;
  k: 0..4999;

startstate "init"
begin
  phase := 0; k := 0;
end;

ruleset i: 0..4999 do
  rule "pick" phase = 0 ==> begin phase := 1; k := i; end;
end;

rule "step" phase = 1 & k < 4999 ==> begin phase := 2; end;

invariant "early" !(BUG & phase = 2 & k = 0);
