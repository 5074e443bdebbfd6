-- Rumur twin of tests/e2e/specs/sym_loops.mc: the same state graph with
-- symmetry off, and the same classes under Rumur's exhaustive reduction.
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection off --threads 1
-- RUMUR-SYMMETRY-ARGS: --symmetry-reduction exhaustive --deadlock-detection off --threads 1
--
-- Encoding: P stays a scalarset. set<P>: array [P] of boolean.
-- multiset<P, 3>: a count per element (as in sym_mix.m); a loop over its
-- distinct elements visits each element whose count is positive. The
-- loops are written as in the spec.

type
  P: scalarset(3);

var
  req: array [P] of boolean;
  grant: array [P] of boolean;
  w: array [P] of 0..2;
  met: array [P] of array [P] of boolean;
  total: 0..6;
  busy: boolean;
  seen: array [P] of boolean;
  bag: array [P] of 0..3;
  rounds: 0..2;

function waiting(): 0..3;
var c: 0..3;
begin
  c := 0;
  for p: P do
    if req[p] then c := c + 1; end;
  end;
  return c;
end;

function bag_len(): 0..9;
var n: 0..9;
begin
  n := 0;
  for p: P do n := n + bag[p]; end;
  return n;
end;

startstate "init"
begin
  for p: P do
    req[p] := false;
    grant[p] := false;
    w[p] := 0;
    for q: P do met[p][q] := false; end;
    seen[p] := false;
    bag[p] := 0;
  end;
  total := 0;
  busy := false;
  rounds := 0;
end;

ruleset p: P do
  rule "ask" !req[p] & !grant[p] & bag_len() < 3 ==>
  begin
    req[p] := true;
    bag[p] := bag[p] + 1;
  end;
end;

ruleset p: P do
  rule "weigh" w[p] < 2 & total = 0 ==>
  begin
    w[p] := w[p] + 1;
  end;
end;

rule "serve" waiting() >= 2 & rounds < 2 ==>
begin
  for p: P do
    if req[p] then
      grant[p] := true;
      req[p] := false;
      busy := true;
      seen[p] := true;
    end;
  end;
  for p: P do
    for q: P do
      if grant[p] & grant[q] & p != q then met[p][q] := true; end;
    end;
  end;
  rounds := rounds + 1;
end;

rule "tally" total = 0 & busy ==>
begin
  for p: P do total := total + w[p]; end;
end;

rule "release" busy ==>
begin
  for p: P do grant[p] := false; end;
  for p: P do
    if bag[p] > 0 then bag[p] := bag[p] - 1; end;
  end;
  for p: P do
    if seen[p] then w[p] := 0; end;
  end;
  busy := false;
  total := 0;
end;

invariant "granted_busy" (exists p: P do grant[p] endexists) -> busy;
invariant "met_symmetric" forall p: P do forall q: P do met[p][q] = met[q][p] endforall endforall;
