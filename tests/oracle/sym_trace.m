-- Rumur twin of tests/e2e/specs/sym_trace.mc with CHECK false (the whole
-- graph); the violating variant sets CHECK true.
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection off --threads 1
-- RUMUR-SYMMETRY-ARGS: --symmetry-reduction exhaustive --deadlock-detection off --threads 1
-- RUMUR-VIOLATION-ARGS: --symmetry-reduction off --deadlock-detection off --threads 1
-- RUMUR-VIOLATION-SED: s/CHECK: false/CHECK: true/
--
-- Encoding: P stays a scalarset; last: P? is undefined for none; the queue
-- is a length and six slots, undefined past the length.

const
  CHECK: false;
  QK: 6;

type
  P: scalarset(3);

var
  cnt: array [P] of 0..3;
  last: P;
  qlen: 0..QK;
  order: array [0..QK-1] of P;
  met: array [P] of array [P] of boolean;

startstate "init"
begin
  for p: P do
    cnt[p] := 0;
    for q: P do met[p][q] := false; end;
  end;
  undefine last;
  qlen := 0;
  undefine order;
end;

ruleset p: P do
  rule "step" cnt[p] < 3 & qlen < QK ==>
  begin
    cnt[p] := cnt[p] + 1;
    if !isundefined(last) then met[p][last] := true; end;
    last := p;
    order[qlen] := p;
    qlen := qlen + 1;
  end;
end;

invariant "spread" !CHECK | !(exists p: P do exists q: P do exists r: P do
                               cnt[p] = 1 & cnt[q] = 2 & cnt[r] = 3 endexists endexists endexists);
