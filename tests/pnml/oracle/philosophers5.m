-- Rumur twin of the MCC net Philosophers-PT-000005 (../shared/suites/mcc/
-- models/Philosophers-PT-000005/model.pnml): the same reachability graph,
-- marking for marking. Each place is a counter; each net transition is one
-- rule, enabled exactly when the net enables it, so Rumur's "rules fired"
-- is the number of reachability-graph edges.
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection off --threads 1
--
-- The net, read from the PNML (i = 1..5, prev(i) = i - 1, prev(1) = 5):
--   FF1a_i: Think_i + Fork_prev(i) -> Catch1_i
--   FF1b_i: Think_i + Fork_i       -> Catch2_i
--   FF2a_i: Catch1_i + Fork_i      -> Eat_i
--   FF2b_i: Catch2_i + Fork_prev(i) -> Eat_i
--   End_i:  Eat_i -> Think_i + Fork_i + Fork_prev(i)
-- initially Think_i = Fork_i = 1.

const
  N: 5;

type
  Phil: 1..N;
  Count: 0..255;

var
  think, fork, catch1, catch2, eat: array [Phil] of Count;

function prev(i: Phil): Phil;
begin
  if i = 1 then return N; else return i - 1; end;
end;

startstate "init"
begin
  for i: Phil do
    think[i] := 1; fork[i] := 1; catch1[i] := 0; catch2[i] := 0; eat[i] := 0;
  end;
end;

ruleset i: Phil do
  rule "FF1a" think[i] >= 1 & fork[prev(i)] >= 1 ==>
  begin think[i] := think[i] - 1; fork[prev(i)] := fork[prev(i)] - 1; catch1[i] := catch1[i] + 1; end;

  rule "FF1b" think[i] >= 1 & fork[i] >= 1 ==>
  begin think[i] := think[i] - 1; fork[i] := fork[i] - 1; catch2[i] := catch2[i] + 1; end;

  rule "FF2a" catch1[i] >= 1 & fork[i] >= 1 ==>
  begin catch1[i] := catch1[i] - 1; fork[i] := fork[i] - 1; eat[i] := eat[i] + 1; end;

  rule "FF2b" catch2[i] >= 1 & fork[prev(i)] >= 1 ==>
  begin catch2[i] := catch2[i] - 1; fork[prev(i)] := fork[prev(i)] - 1; eat[i] := eat[i] + 1; end;

  rule "End" eat[i] >= 1 ==>
  begin
    eat[i] := eat[i] - 1; think[i] := think[i] + 1;
    fork[i] := fork[i] + 1; fork[prev(i)] := fork[prev(i)] + 1;
  end;
end;
