-- Rumur twin of specs/peterson.mc: Peterson's n-process mutual exclusion
-- algorithm as in the Murphi benchmark model (n_peterson.m, the Murphi
-- distribution's muxn.m): the same state graph, state for state.
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection stuck --threads 1
-- RUMUR-SYMMETRY-ARGS: --symmetry-reduction exhaustive --deadlock-detection stuck --threads 1
-- RUMUR-VARIANT: n5 | s/^  N: 4;/  N: 5;/ | --symmetry-reduction off --deadlock-detection stuck --threads 1
-- RUMUR-VARIANT: n5-symmetry | s/^  N: 4;/  N: 5;/ | --symmetry-reduction exhaustive --deadlock-detection stuck --threads 1
-- RUMUR-VARIANT: n7-heuristic | s/^  N: 4;/  N: 7;/ | --symmetry-reduction heuristic --deadlock-detection stuck --threads 1
--
-- N is 4 here (the full graph, RUMUR-ARGS, and its symmetry classes); the
-- variants record N=5 with and without exhaustive reduction, and N=7 with
-- Rumur's heuristic reduction. At N=7 the full graph is out of reach and
-- the exhaustive reduction runs at under 40 states/s here (5040
-- permutations per state: hours); the heuristic one is not exact in
-- general (it may keep several states of a class), but here it finds the
-- published exact counts, 163,298 states and 1,143,086 rules fired.
--
-- Encoding: pid stays a scalarset; turn[j] is undefined until a process
-- writes it (mcgen: none). The waiting rule is enabled at L3 whatever its
-- test says and changes nothing when the test fails, as in the original,
-- so every state fires exactly N rules.

const
  N: 4;

type
  pid: scalarset(N);
  priority: 0..N;
  label_t: enum { L0, L1, L2, L3, L4 };

var
  P: array [pid] of label_t;
  Q: array [pid] of priority;
  turn: array [priority] of pid;
  localj: array [pid] of priority;

ruleset i: pid do
  rule "enter_loop" P[i] = L0 ==>
  begin
    localj[i] := 1;
    P[i] := L1;
  end;

  rule "set_level" P[i] = L1 ==>
  begin
    Q[i] := localj[i];
    P[i] := L2;
  end;

  rule "set_turn" P[i] = L2 ==>
  begin
    turn[localj[i]] := i;
    P[i] := L3;
  end;

  rule "wait_level" P[i] = L3 ==>
  begin
    if (forall k: pid do k != i -> Q[k] < localj[i] endforall) | turn[localj[i]] != i then
      localj[i] := localj[i] + 1;
      if localj[i] < N then P[i] := L1; else P[i] := L4; end;
    end;
  end;

  rule "leave" P[i] = L4 ==>
  begin
    Q[i] := 1;
    P[i] := L0;
  end;
end;

startstate "init"
begin
  for i: pid do
    P[i] := L0;
    Q[i] := 0;
    localj[i] := 0;
  end;
  undefine turn;
end;

invariant "mutex"
  !(exists i1: pid do exists i2: pid do i1 != i2 & P[i1] = L4 & P[i2] = L4 endexists endexists);
