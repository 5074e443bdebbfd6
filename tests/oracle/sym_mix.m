-- Rumur twin of tests/e2e/specs/sym_mix.mc: the same state graph with
-- symmetry off, and the same classes under Rumur's exhaustive reduction.
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection stuck --threads 1
-- RUMUR-SYMMETRY-ARGS: --symmetry-reduction exhaustive --deadlock-detection stuck --threads 1
--
-- Encoding: V and W stay scalarsets. multiset<V, K>: a count per element
-- (as in collections.m; permuting V permutes the counts exactly as it
-- renames and re-sorts mcgen's slots). set<V>: array [V] of boolean.
-- queue<Tag, 2>: a length and two slots, slots past the length undefined
-- (mcgen keeps them zero: one encoding each way). An optional (W?, V?) is an
-- undefined value for none, as in german.m; undefined values are only
-- tested with isundefined, copied field by field after such a test.

const
  K: 3;
  QK: 2;

type
  V: scalarset(3);
  W: scalarset(2);
  Tag: record v: V; w: W; end;

var
  cnt: array [V] of 0..K;
  held: 0..K;
  seen: array [V] of boolean;
  qlen: 0..QK;
  q: array [0..QK-1] of Tag;
  owner: array [W] of V;

function net_len(): 0..3*K;
var n: 0..3*K;
begin
  n := 0;
  for v: V do n := n + cnt[v]; end;
  return n;
end;

-- q.pop() on a full queue: the head goes, the tail moves up.
procedure pop_head();
begin
  for k: 0..QK-2 do
    q[k].v := q[k+1].v;
    if isundefined(q[k+1].w) then undefine q[k].w; else q[k].w := q[k+1].w; end;
  end;
  undefine q[QK-1];
  qlen := qlen - 1;
end;

ruleset a: V; b: V do
  startstate "init"
  begin
    for v: V do cnt[v] := 0; seen[v] := false; end;
    held := 0;
    qlen := 0;
    undefine q;
    undefine owner;
    cnt[a] := cnt[a] + 1;
    cnt[a] := cnt[a] + 1;
    cnt[b] := cnt[b] + 1;
  end;
end;

ruleset m: V; w: W do
  rule "take" cnt[m] > 0 & held < K ==>
  begin
    cnt[m] := cnt[m] - 1;
    held := held + 1;
    seen[m] := true;
    if qlen = QK then pop_head(); end;
    q[qlen].v := m;
    q[qlen].w := w;
    qlen := qlen + 1;
  end;
end;

ruleset m: V do
  rule "take_anon" cnt[m] > 0 & held < K & qlen < QK ==>
  begin
    cnt[m] := cnt[m] - 1;
    held := held + 1;
    q[qlen].v := m;
    undefine q[qlen].w;
    qlen := qlen + 1;
  end;
end;

ruleset v: V do
  rule "put" held > 0 & net_len() < K ==>
  begin
    cnt[v] := cnt[v] + 1;
    held := held - 1;
  end;
end;

ruleset w: W; x: V do
  rule "claim" seen[x] & isundefined(owner[w]) ==>
  begin
    owner[w] := x;
  end;
end;

ruleset w: W do
  rule "unclaim" !isundefined(owner[w]) ==>
  begin
    undefine owner[w];
  end;
end;

ruleset x: V do
  rule "forget" seen[x] & (qlen = 0 | q[0].v != x) &
                (forall w: W do isundefined(owner[w]) | owner[w] != x endforall) ==>
  begin
    seen[x] := false;
  end;
end;

rule "drain" qlen = 2 ==>
begin
  qlen := 0;
  undefine q;
end;

invariant "conserved" net_len() + held = K;
cover "all_owned" forall w: W do !isundefined(owner[w]) endforall;
