-- Murphi seed for the malformed-input runner: every construct the front end
-- reads, so that each of its truncations is tried.
const
  N: 2;
  K: 3;
type
  Id: scalarset(N);
  Mode: enum { idle, busy, done };
  Slot: 0 .. K;
  Entry: record
    mode: Mode;
    count: Slot;
  end;
var
  table: array [Id] of Entry;
  total: 0 .. 10;
  flag: boolean;
  pending: multiset [2] of Id;

function bump(x: Slot): Slot;
begin
  if x < K then return x + 1; else return x; end;
end;

procedure reset(var e: Entry; m: Mode);
var k: 0 .. K;
begin
  k := 0;
  while k < K do k := k + 1; end;
  e.mode := m;
  clear e.count;
end;

ruleset i: Id do
  startstate "init"
  begin
    for j: Id do reset(table[j], idle); end;
    total := 0;
    undefine flag;
  end;
end;

ruleset i: Id; m: Mode do
  alias e: table[i] do
    rule "step" e.mode != done & m != idle ==>
    begin
      switch m
      case busy: e.count := bump(e.count);
      case done: e.mode := done;
      else error "unreachable";
      end;
      for s := 0 to K by 2 do total := (total + s) % 10; end;
      if isundefined(flag) then flag := true; elsif flag then flag := false; end;
      assert total <= 10 "total in range";
    end;
  end;
end;

rule "restart" forall i: Id do table[i].mode = done endforall ==>
begin
  for i: Id do reset(table[i], idle); end;
  return;
end;

ruleset i: Id do
  rule "request" multisetcount(r: pending; pending[r] = i) = 0 ==>
  begin
    multisetadd(i, pending);
  end;
end;

choose r: pending do
  rule "serve" begin
    multisetremove(r, pending);
    multisetremovepred(s: pending; pending[s] = pending[s]);
  end;
end;

invariant "counts bounded" forall i: Id do table[i].count <= K end;
cover "all done" exists i: Id do table[i].mode = done end;
assume total < 10 | (total = 10 -> !flag ? true : false);
