-- Rumur twin of specs/filter.mc: the same state graph, state for state.
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection stuck --threads 1
-- RUMUR-BOUNDS: 2 5
-- RUMUR-SYMMETRY-ARGS: --symmetry-reduction exhaustive --deadlock-detection stuck --threads 1
--
-- Encoding: Proc stays a scalarset. The optional victim[l] : Proc? is a Proc
-- that is undefined for none: a scalarset has no spare value to stand for
-- none, and Rumur permutes defined scalarset values only. Undefined values
-- are never read (reading one is an error in Rumur): every read is guarded
-- by isundefined(). With symmetry reduction off (RUMUR-ARGS) this is the full
-- graph; with exhaustive reduction (RUMUR-SYMMETRY-ARGS) one state per
-- symmetry class, as mcgen --symmetry on.

const
  N: 3;

type
  Proc: scalarset(N);
  Level: 0..N-1;
  Pc: enum { idle, trying, critical };

var
  pc: array [Proc] of Pc;
  level: array [Proc] of Level;
  victim: array [Level] of Proc;

startstate "init"
begin
  for p: Proc do pc[p] := idle; level[p] := 0; end;
  for l: Level do undefine victim[l]; end;
end;

ruleset p: Proc do
  rule "start" pc[p] = idle ==>
  begin
    pc[p] := trying;
    level[p] := 0;
    victim[0] := p;
  end;
end;

ruleset p: Proc do
  rule "climb"
    pc[p] = trying & level[p] < N-1 &
    (isundefined(victim[level[p]]) | victim[level[p]] != p | forall q: Proc do q = p | level[q] < level[p] endforall)
  ==>
  begin
    level[p] := level[p] + 1;
    victim[level[p]] := p;
  end;
end;

ruleset p: Proc do
  rule "enter"
    pc[p] = trying & level[p] = N-1 &
    (isundefined(victim[N-1]) | victim[N-1] != p | forall q: Proc do q = p | level[q] < N-1 endforall)
  ==>
  begin
    pc[p] := critical;
  end;
end;

ruleset p: Proc do
  rule "leave" pc[p] = critical ==>
  begin
    pc[p] := idle;
    level[p] := 0;
  end;
end;

invariant "mutex"
  forall p: Proc do forall q: Proc do
    p != q -> !(pc[p] = critical & pc[q] = critical)
  endforall endforall;

cover "someone_in" exists p: Proc do pc[p] = critical endexists;
