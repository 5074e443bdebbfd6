-- Rumur twin of tests/e2e/specs/collections.mc.
-- RUMUR-ARGS: --symmetry-reduction off --deadlock-detection stuck --threads 1
--
-- multiset<V, K>: a count per value (canonical); `take(m in net)` is a rule
-- per value v enabled while cnt[v] > 0: once per distinct element.
-- set<V>: array [V] of boolean. queue<V, 2>: length + slots, the freed slot
-- reset to 0 on pop and clear, so equal queues are equal records.

const
  K: 3;
  QK: 2;

type
  V: 0..2;

var
  cnt: array [V] of 0..K;
  held: 0..K;
  seen: array [V] of boolean;
  qlen: 0..QK;
  qslot: array [0..QK-1] of V;

function net_len(): 0..3*K;
var n: 0..3*K;
begin
  n := 0;
  for v: V do n := n + cnt[v]; end;
  return n;
end;

startstate "init"
begin
  for v: V do cnt[v] := 0; seen[v] := false; end;
  held := 0;
  qlen := 0;
  for k: 0..QK-1 do qslot[k] := 0; end;
  cnt[1] := cnt[1] + 1;
  cnt[1] := cnt[1] + 1;
  cnt[2] := cnt[2] + 1;
end;

ruleset m: V do
  rule "take" cnt[m] > 0 & held < K ==>
  var old: V;
  begin
    cnt[m] := cnt[m] - 1;
    held := held + 1;
    seen[m] := true;
    if qlen = QK then
      old := qslot[0];
      for k: 0..QK-2 do qslot[k] := qslot[k+1]; end;
      qslot[QK-1] := 0;
      qlen := qlen - 1;
      assert old <= 2 "popped a V";
    end;
    qslot[qlen] := m;
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

ruleset x: V do
  rule "forget" seen[x] & (qlen = 0 | qslot[0] != x) ==>
  begin
    seen[x] := false;
  end;
end;

rule "drain" qlen = 2 ==>
begin
  qlen := 0;
  for k: 0..QK-1 do qslot[k] := 0; end;
end;

invariant "conserved" net_len() + held = K;
invariant "head_seen_or_forgotten" qlen = 0 | qslot[0] <= 2;
cover "three_zeros" cnt[0] = 3;
cover "queue_two_same" qlen = 2 & (forall v: V do seen[v] -> cnt[v] = 0 endforall);
